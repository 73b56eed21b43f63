"""Players' names as people read them: one Unicode form, visible, never look-alikes."""

import pytest

from scorekeeper.rules import SetupError, Table

FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
PERSIAN = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # with a zero-width non-joiner


@pytest.mark.parametrize("name", [FAMILY, PERSIAN, "Zoé", "Νίκος", "Łukasz"])
def test_a_name_with_joiners_or_any_script_is_accepted(name):
    assert Table.create([name, "Bob"]).players[0] == name


def test_a_name_is_kept_in_one_unicode_form_so_zoe_typed_two_ways_is_one_name():
    assert Table.create(["Zoe\u0301", "Bob"]).players[0] == "Zo\u00e9"
    with pytest.raises(SetupError) as refused:
        Table.create(["Zo\u00e9", "Zoe\u0301"])
    assert refused.value.kind == "duplicate_name"


@pytest.mark.parametrize("other", ["\u0410nn", "\u0391nn", "ANN", "Ａnn"])
def test_a_name_that_looks_like_another_players_is_refused(other):
    with pytest.raises(SetupError) as refused:
        Table.create(["Ann", other])
    assert refused.value.kind in ("confusable_name", "duplicate_name")
    assert refused.value.kind == "duplicate_name" or "looks just like Ann" in refused.value.message


@pytest.mark.parametrize("name", ["\u3164", "\u2800", "\u115f\u1160", "\u200d", "\u200b"])
def test_a_name_with_nothing_visible_is_refused(name):
    with pytest.raises(SetupError) as refused:
        Table.create([name, "Bob"])
    assert refused.value.kind in ("name_invisible", "name_not_printable", "empty_name")


@pytest.mark.parametrize("name", ["\u202eAnn", "Ann\u200d", "\u200cAnn", "A\nB"])
def test_direction_marks_and_joiners_at_the_edges_are_refused(name):
    with pytest.raises(SetupError) as refused:
        Table.create([name, "Bob"])
    assert refused.value.kind == "name_not_printable"


def test_names_that_merely_share_letters_are_different_players():
    assert Table.create(["Ann", "Anna", "Νίκος", "Nikos"]).players[3] == "Nikos"
