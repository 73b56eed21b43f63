"""Spinners (RULESETS.md §1): every worked example, and each rule of the layout, legal and not."""

import random

import pytest
from simulation import play_match
from tables import ANN, NAMES, counts, last_explanation, play, points

from scorekeeper.rules import (
    ALL_FIVES_SPINNER,
    OLA_5,
    IllegalMove,
    Match,
    Table,
)
from scorekeeper.rules.placement.layout import count_of, empty, lay, lead


def spinner_match(rules=ALL_FIVES_SPINNER, *moves: str, players=2) -> Match:
    match = Match(Table.create(NAMES[:players], rules=rules))
    match.start(ANN)
    return play(match, *moves)



def open_values(match: Match) -> list[tuple[str, int, bool]]:
    """Each open side as (the tile it touches, its pips, whether it is a branch side)."""
    return [(f"{side.tile[0]}-{side.tile[1]}", side.value, side.branch)
            for side in match.hand.ends]


# -- the worked examples of RULESETS.md §1 -----------------------------------------------

def test_example_1_a_spinner_lead_counts_once_and_drops_out_when_both_line_sides_hold_a_tile():
    match = spinner_match(ALL_FIVES_SPINNER, "5-5", "5-0", "5-3")
    assert counts(match) == [10, 10, 3]
    assert points(match) == [10, 10, 0]
    assert last_explanation(match) == "0 + 3 = 3, not a multiple of five: no score"


def test_example_2_an_unstarted_branch_side_counts_nothing():
    match = spinner_match(ALL_FIVES_SPINNER, "5-5", "5-2", "5-3", "5-0")
    assert counts(match) == [10, 12, 5, 5]
    assert points(match) == [10, 0, 5, 5]
    assert last_explanation(match) == "2 + 3 + 0 = 5 → 5 to Bob"


def test_example_3_four_arms_ending_in_doubles_and_a_five_make_the_largest_score():
    match = spinner_match(ALL_FIVES_SPINNER, "1-1", "1-6", "6-6", "1-5", "5-5", "1-4", "4-4",
                          "1-2", "2-5@1-2")
    assert counts(match)[-1] == 35 and points(match)[-1] == 35
    assert last_explanation(match) == "6-6 (12) + 5-5 (10) + 4-4 (8) + 5 = 35 → 35 to Ann"
    assert [side.spinner for side in match.hand.ends if side.tile == (5, 5)] == [False]


def test_example_4_the_first_double_laid_later_is_the_spinner():
    match = spinner_match(ALL_FIVES_SPINNER, "6-3", "3-3")
    assert counts(match) == [9, 12]
    play(match, "3-4")
    assert counts(match)[-1] == 10 and points(match)[-1] == 10
    assert [branch for _, _, branch in open_values(match)] == [False, False, True, True]
    play(match, "3-0")
    assert counts(match)[-1] == 10 and points(match)[-1] == 10
    assert last_explanation(match) == "6 + 4 + 0 = 10 → 10 to Bob"


def test_example_5_in_ola_5_a_double_laid_later_branches_too():
    match = spinner_match(OLA_5, "3-2", "2-2", "2-6", "2-5")
    assert counts(match) == [5, 7, 9, 14]
    assert points(match) == [5, 0, 0, 0]


def test_in_ola_5_every_double_is_a_spinner_but_in_all_fives_spinner_only_the_first():
    moves = ("3-3", "3-1", "3-5", "5-5", "5-2")
    ola = spinner_match(OLA_5, *moves)
    one = spinner_match(ALL_FIVES_SPINNER, *moves)
    assert ("5-5", 5, True) in open_values(ola)  # 5-5's branch sides opened
    assert [side for side in open_values(one) if side[0] == "5-5"] == []
    assert counts(ola)[-1] == counts(one)[-1] == 1 + 2  # 3-3's branches: unstarted, nothing


# -- the layout itself ---------------------------------------------------------------------

def test_the_line_of_all_fives_is_a_layout_whose_doubles_never_branch():
    layout = lead(empty("none"), (5, 5))
    layout = lay(layout, (0, 5), 0)
    layout = lay(layout, (3, 5), 1)
    assert [(side.value, side.branch) for side in layout.sides] == [(0, False), (3, False)]
    assert count_of(layout.sides) == 3


def test_a_lead_double_counts_both_halves_once_while_a_line_side_is_open():
    for branching in ("none", "first", "every"):
        layout = lead(empty(branching), (4, 4))
        assert count_of(layout.sides) == 8
        assert count_of(lay(layout, (1, 4), 0).sides) == 8 + 1


# -- legal and illegal placements against spinners -----------------------------------------

def test_branch_sides_are_not_open_before_both_line_sides_hold_a_tile():
    match = spinner_match(ALL_FIVES_SPINNER, "5-5", "5-0")
    assert not any(branch for _, _, branch in open_values(match))
    play(match, "5-3@5-5")  # against the spinner: on its free line side, never a branch
    assert counts(match)[-1] == 0 + 3
    assert open_values(match) == [("0-5", 0, False), ("3-5", 3, False), ("5-5", 5, True),
                                  ("5-5", 5, True)]


def test_a_double_laid_later_takes_its_far_line_side_before_any_branch():
    match = spinner_match(OLA_5, "3-2", "2-2", "2-5@2-2")
    assert counts(match)[-1] == 3 + 5  # 2-2 dropped out: its branch sides count nothing


def test_a_tile_needs_no_end_when_every_side_it_fits_is_on_one_tile():
    match = spinner_match(ALL_FIVES_SPINNER, "4-4", "4-1", "4-2", "4-3")
    assert match.log[-1].end == "4-4"
    assert counts(match)[-1] == 1 + 2 + 3  # on a branch side: the fourth stays unstarted


def test_an_omitted_end_is_refused_when_the_tile_fits_two_laid_tiles():
    match = spinner_match(ALL_FIVES_SPINNER, "6-3", "3-1")
    with pytest.raises(IllegalMove, match=r"6-1 fits more than one laid tile \(3-6, 1-3\): "
                                          r"say which, like 6-1@3-6"):
        play(match, "6-1")
    assert len(match.log) == 3  # nothing changed


def test_an_omitted_end_is_refused_even_when_both_tiles_give_the_same_result():
    match = spinner_match(ALL_FIVES_SPINNER, "3-5", "5-6", "6-3@5-6")  # two open 3s
    with pytest.raises(IllegalMove,
                       match=r"3-0 fits more than one laid tile \(3-5, 3-6\): say which"):
        play(match, "3-0")
    play(match, "3-0@6-3")  # a named tile may be written either way round
    assert match.log[-1].end == "3-6"


def test_an_end_named_on_a_tile_with_no_open_side_is_refused():
    match = spinner_match(ALL_FIVES_SPINNER, "6-3", "3-1", "6-2")
    with pytest.raises(IllegalMove, match="3-6 has no open side: every side of it holds a tile"):
        play(match, "1-5@6-3")


def test_an_end_named_on_a_tile_not_laid_is_refused():
    match = spinner_match(ALL_FIVES_SPINNER, "6-3")
    with pytest.raises(IllegalMove, match="4-4 is not on the table: name a laid tile"):
        play(match, "6-4@4-4")


def test_an_end_named_on_a_tile_the_tile_does_not_fit_is_refused():
    match = spinner_match(ALL_FIVES_SPINNER, "6-3", "3-1")
    with pytest.raises(IllegalMove, match=r"6-5 does not fit 1-3 \(its open side shows 1\)"):
        play(match, "6-5@1-3")


def test_a_left_or_right_end_is_refused_where_doubles_branch():
    match = spinner_match(OLA_5, "6-3")
    with pytest.raises(IllegalMove, match="6-5@L names a left or right end, but this game has "
                                          "spinners: name the laid tile, like 6-5@3-6"):
        play(match, "6-5@L")


def test_a_tile_that_fits_no_open_side_is_refused_with_the_open_ends():
    match = spinner_match(OLA_5, "6-3", "3-3")
    with pytest.raises(IllegalMove, match=r"1-2 matches no open end \(6 \(3-6\), 3 \(3-3\)\)"):
        play(match, "1-2")


def test_placements_offer_each_tile_once_per_arm_it_fits():
    match = spinner_match(ALL_FIVES_SPINNER, "6-3", "3-1")
    offered = {(p.end, p.count, p.points) for p in match.placements() if p.tile == (1, 6)}
    assert offered == {("3-6", 1 + 1, 0), ("1-3", 6 + 6, 0)}


def test_a_tile_that_fits_two_arms_alike_is_offered_once_per_arm():
    """Issue 24: 0-3 fitting the open 3 of 3-5 and of 6-3 was offered once, so the layout
    the app kept could differ from the one on the table; RULESETS.md §3 has a record name
    the tile in that case, and the buttons now do too."""
    match = spinner_match(ALL_FIVES_SPINNER, "3-5", "5-6", "6-3@5-6")  # two open 3s
    offered = [(p.end, p.count) for p in match.placements() if p.tile == (0, 3)]
    assert sorted(offered) == [("3-5", 3), ("3-6", 3)]
    for end, _count in offered:
        copy = match.copy()
        copy.lay((0, 3), end)
        assert copy.hand.moves[-1].move.end == end


def test_every_placement_offered_is_accepted_and_gives_what_it_said():
    match = spinner_match(OLA_5, "3-3", "3-1", "3-5", "3-6", "5-5")
    for placement in match.placements():
        copy = match.copy()
        copy.lay(placement.tile, placement.end)
        assert (copy.hand.moves[-1].count, copy.hand.moves[-1].points) == (
            placement.count, placement.points)


def test_the_fast_path_of_the_line_lays_exactly_as_the_layout_does():
    rng = random.Random(5)
    for _ in range(20):
        played_match = play_match(rng, Table.create(NAMES[:rng.choice((2, 3, 4))]))
        match = Match(played_match.table, played_match.log)  # rebuilt through `play_run`
        for hand in match.hands:
            layout = empty("none")
            for played in hand.moves:
                if played.count is None:
                    continue
                if layout.sides:
                    index = "LR".index(played.move.end)
                    layout = lay(layout, played.move.tile, index)
                else:
                    layout = lead(layout, played.move.tile)
                assert (played.ends, played.count) == (layout.sides, layout.count)
