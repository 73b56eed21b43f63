"""Ask the referee (`rules/rulings/referee.py`): a position posed by hand and a tile, ruled by the
engine itself, with RULESETS.md's worked examples and every position of real matches."""


import pytest
from hypothesis import given, settings
from strategies import matches

from scorekeeper.rules import (
    ALL_FIVES,
    ALL_FIVES_SPINNER,
    FIVES_AND_THREES,
    OLA_5,
)
from scorekeeper.rules.rulings.referee import BadPosition, posed, read_ends, rule, token
from scorekeeper.rules.setup.topics import BRANCH, COUNT, LEAD, OUT, TARGET, WON

NAMES = ("Ann", "Bob")


def ruled(rules, ends, scores, tile, last=False, target=None):
    return rule(rules, NAMES[:len(scores)], target, read_ends(ends, rules), scores, last, tile)


def counts(ruling) -> list[tuple[int, int]]:
    return [(option.score.facts["count"], option.score.points) for option in ruling.options]


@pytest.mark.parametrize(("ends", "rules", "written"), [
    ("6-6 3", ALL_FIVES, ["6-6", "3"]),
    ("5-5", ALL_FIVES, ["5-5", "5-5"]),  # a double led, alone: both its ends are open
    ("", ALL_FIVES, []),
    ("2, 3; (5-5)  (5-5)", ALL_FIVES_SPINNER, ["2", "3", "(5-5)", "(5-5)"]),
    ("5-5*", ALL_FIVES_SPINNER, ["5-5*", "5-5*"]),
    ("4-4 1", OLA_5, ["4-4*", "1"]),  # every double of Όλα 5 is a spinner
], ids=["line", "lone-double", "lead", "spinner-sides", "lone-spinner", "ola-5"])
def test_open_ends_are_read_as_the_table_writes_them(ends, rules, written):
    assert [token(side) for side in read_ends(ends, rules)] == written


@pytest.mark.parametrize(("ends", "rules", "kind"), [
    ("7", ALL_FIVES, "bad_open_end"),
    ("3-5", ALL_FIVES, "bad_open_end"),
    ("5-5*", ALL_FIVES, "no_spinners"),
    ("(5-5) 3", FIVES_AND_THREES, "no_spinners"),
    ("3", ALL_FIVES, "two_ends"),
    ("3 4 5", FIVES_AND_THREES, "two_ends"),
    ("6-6 6-6 3", ALL_FIVES_SPINNER, "end_twice"),
    ("5-5* (5-5) 3", ALL_FIVES_SPINNER, "spinner_sides"),
    (" ".join(["3"] * 13), OLA_5, "too_many_ends"),
])
def test_ends_no_layout_can_show_are_refused_saying_why(ends, rules, kind):
    with pytest.raises(BadPosition) as refused:
        read_ends(ends, rules)
    assert refused.value.kind == kind and refused.value.template


def test_the_lead_counts_all_its_pips_and_may_win_the_match():
    ruling = ruled(ALL_FIVES, "", (240, 10), (5, 5))
    (lead,) = ruling.options
    assert (lead.end, lead.score.points, lead.won, lead.scores) == (None, 10, True, (250, 10))
    assert lead.topics == (LEAD, COUNT, WON)


def test_fives_and_threes_ends_6_6_and_3_score_8():
    ruling = ruled(FIVES_AND_THREES, "6-6 4", (0, 0), (4, 3))
    assert counts(ruling) == [(15, 8)]
    assert ruling.options[0].end.value == 4


def test_fives_and_threes_a_side_on_59_chipping_out_with_6_busts_and_one_on_58_wins():
    """RULESETS.md §2: 2 + 1 = 3 would make 62, past 61; from 58 it makes 61 exactly."""
    bust = ruled(FIVES_AND_THREES, "3 2", (59, 40), (3, 4), last=True)
    assert [(o.score.points, o.score.facts["bust"], o.out, o.won) for o in bust.options] == [
        (0, True, True, False)]
    assert {TARGET, OUT} <= set(bust.options[0].topics)
    won = ruled(FIVES_AND_THREES, "3 2", (58, 40), (3, 4), last=True)
    assert [(o.score.points, o.won, o.scores) for o in won.options] == [(3, True, (61, 40))]


def test_a_spinners_side_no_tile_has_started_counts_nothing():
    """RULESETS.md §1, example 2: 5-5, 5-2, 5-3, then 5-0 on a branch side counts 5."""
    ruling = ruled(ALL_FIVES_SPINNER, "2 3 (5-5) (5-5)", (0, 0), (5, 0))
    assert counts(ruling) == [(5, 5)]
    assert ruling.options[0].end.branch and BRANCH in ruling.options[0].topics


def test_a_tile_that_fits_both_ends_is_ruled_at_each():
    ruling = ruled(ALL_FIVES, "3 5", (0, 0), (3, 5))
    assert sorted(counts(ruling)) == [(6, 0), (10, 10)]


def test_a_tile_on_the_table_or_that_fits_no_end_cannot_be_laid():
    assert ruled(ALL_FIVES, "6-6 3", (0, 0), (6, 6)).laid
    nowhere = ruled(ALL_FIVES, "6-6 3", (0, 0), (1, 2))
    assert not nowhere.laid and nowhere.options == ()


@settings(max_examples=120, deadline=None)
@given(matches())
def test_the_referee_rules_a_position_from_a_match_as_the_match_itself_would(match):
    """Every tile the table offers, posed to the referee from the match's position (its
    ends, scores, last tile): the same counts and points, bust and +1 included."""
    position = posed(match)
    if position is None:
        assert match.phase not in ("lead", "play")
        return
    ends, scores, last = position
    table = match.table
    names = tuple(f"P{number}" for number in range(len(scores)))
    sides = read_ends(ends, table.rules)
    offered: dict = {}
    for placement in match.placements():
        offered.setdefault(placement.tile, []).append((placement.count, placement.points))
    for tile, expected in offered.items():
        ruling = rule(table.rules, names, table.target, sides, scores, last, tile)
        assert sorted(counts(ruling)) == sorted(expected), (ends, tile)
