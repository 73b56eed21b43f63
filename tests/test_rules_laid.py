"""Which laid tile touches which, derived from a hand's moves (`rules/placement/laid.py`): what the
drawing of the layout and the layout told in text are made from."""


import pytest
from hypothesis import given, settings
from strategies import matches

from scorekeeper.rules import Lay, Side, normal
from scorekeeper.rules.match.record import read_record
from scorekeeper.rules.placement.laid import (
    ACROSS,
    FAR,
    FIRST,
    SECOND,
    chains,
    covered_by,
    laid_tiles,
)
from scorekeeper.rules.placement.places import on_end


def hand_of(moves, rules="all-fives"):
    match = read_record({"format": "allfives-match/1", "rules": rules, "players": ["Ann", "Bob"],
                         "hands": [{"starter": "Ann", "moves": moves}]})
    return match.hand


def test_a_line_lies_as_laid_each_tile_with_the_half_it_touches_first():
    laid = laid_tiles(hand_of(["6-4", "4-4@R", "draw", "3-6@L", "5-3@L", "4-1@R"]).moves)
    assert [(tile.tile, tile.touches, tile.side) for tile in laid.tiles] == [
        ((6, 4), None, None), ((4, 4), 0, SECOND), ((6, 3), 0, FIRST), ((3, 5), 2, FAR),
        ((4, 1), 1, FAR)]
    assert [tile.move for tile in laid.tiles] == [0, 1, 3, 4, 5]  # the draw laid nothing
    assert [(side.tile, side.side, side.end.value) for side in laid.open] == [
        (3, FAR, 5), (4, FAR, 1)]
    assert chains(laid) == ("5-3 3-6 [6-4] 4-4 4-1", [])


def test_a_spinner_opens_its_sides_across_once_both_line_sides_hold_a_tile():
    laid = laid_tiles(hand_of(["5-5", "5-2@5-5", "5-3@5-5", "5-0@5-5", "2-2@2-5"],
                              "all-fives-spinner").moves)
    assert [(tile.tile, tile.touches, tile.side, tile.spinner) for tile in laid.tiles] == [
        ((5, 5), None, None, True), ((5, 2), 0, FIRST, False), ((5, 3), 0, SECOND, False),
        ((5, 0), 0, ACROSS[0], False), ((2, 2), 1, FAR, False)]
    assert [(side.tile, side.side) for side in laid.open] == [
        (4, FAR), (2, FAR), (3, FAR), (0, ACROSS[1])]
    assert laid.open[-1].end.branch
    assert chains(laid) == ("2-2 2-5 [5-5*] 5-3", [("5-5*", ["5-0"])])


def test_every_double_of_ola_5_branches_and_its_arms_are_told_apart():
    laid = laid_tiles(hand_of(["3-3", "1-3", "3-5", "3-6", "2-3", "5-5", "4-5", "0-5@5-5"],
                              "ola-5").moves)
    assert chains(laid) == ("1-3 [3-3*] 3-5 5-5* 5-4",
                            [("3-3*", ["3-6", "3-2"]), ("5-5*", ["5-0"])])


def test_the_end_a_move_covered_is_the_one_the_rules_chose():
    hand = hand_of(["2-3", "3-4@R", "draw", "4-4@R", "2-1@L"])
    assert [covered_by(hand, index).value if index in (1, 3, 4) else None
            for index in range(len(hand.moves))] == [None, 3, None, 4, 2]
    assert covered_by(hand, 0) is None  # the lead covers nothing


@pytest.mark.parametrize(("side", "tree", "said"), [
    (Side((3, 5), 3, 3), False, "on the 3"),
    (Side((3, 3), 3, 6), False, "on the 3-3"),
    (Side((3, 5), 3, 3), True, "on 3-5"),
    (Side((5, 5), 5, 10, False, True), True, "on the spinner 5-5"),
    (Side((5, 5), 5, 0, True, True), True, "on the side of spinner 5-5"),
], ids=["number", "double", "laid-tile", "spinner", "spinner-side"])
def test_where_a_tile_goes_is_said_by_the_number_it_covers_or_the_tile_it_touches(
        side, tree, said):
    assert on_end(side, tree) == said


@settings(max_examples=150, deadline=None)
@given(matches())
def test_every_tile_lies_against_the_open_side_its_move_covered(match):
    """In every rule set: one laid tile per tile laid, each touching the number it covered,
    and the open sides exactly the rules' own."""
    for hand in match.hands:
        laid = laid_tiles(hand.moves)
        tiles = [played.move for played in hand.moves if isinstance(played.move, Lay)]
        assert [normal(tile.tile) for tile in laid.tiles] == [normal(lay.tile) for lay in tiles]
        assert tuple(side.end for side in laid.open) == hand.layout.sides
        for laid_tile in laid.tiles[1:]:
            covered = covered_by(hand, laid_tile.move)
            assert laid_tile.tile[0] == covered.value
            assert laid_tile.touches < laid.tiles.index(laid_tile)
