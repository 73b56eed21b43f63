"""The rule sets as values: found by name, each answering RULESETS.md's questions."""

import pytest

from scorekeeper.rules import (
    ALL_FIVES,
    FIVES_AND_THREES,
    RULE_SETS,
    SetupError,
    Table,
    find_rule_set,
)


def test_every_rule_set_is_found_by_its_name():
    assert [find_rule_set(rules.name) for rules in RULE_SETS] == list(RULE_SETS)
    assert [rules.name for rules in RULE_SETS] == [
        "all-fives", "all-fives-spinner", "ola-5", "fives-and-threes"]


def test_an_unknown_rule_set_is_refused_naming_the_known_ones():
    with pytest.raises(SetupError) as refused:
        find_rule_set("sniff")
    assert refused.value.kind == "unknown_rules"
    assert "all-fives, all-fives-spinner, ola-5, fives-and-threes" in refused.value.message


def test_a_table_without_a_rule_set_plays_all_fives():
    assert Table.create(["Ann", "Bob"]).rules is ALL_FIVES


def test_a_fives_and_threes_table_takes_its_defaults_from_the_rule_set():
    table = Table.create(["Ann", "Bob", "Cat", "Dan"], partnerships=True, rules=FIVES_AND_THREES)
    assert (table.target, table.hand_size) == (61, 5)
