"""The rules of RULES.md §5 (playing), §7 (end of a hand), §9 (pips entered) and the table
setup (§1-§3), each with a move the rules allow and one they refuse.

A refusal must raise the right RuleError, with its kind and its reason, and leave the
match exactly as it was.
"""

import pytest
from tables import ANN, BOB, CAT, DAN, NAMES, new_match, play

from scorekeeper.rules import (
    ALL_TILES,
    BadTile,
    Draw,
    HandNotOver,
    HandOver,
    IllegalMove,
    IllegalStart,
    ImpossibleHand,
    Lay,
    Match,
    Pass,
    RuleError,
    SetupError,
    parse_move,
    round_to_five,
    tile_text,
)


def state(match: Match):
    """Everything a refusal must leave untouched."""
    hand = match.hand
    in_hand = None if hand is None else (hand.ends, list(hand.held), hand.boneyard,
                                         list(hand.moves), hand.result, hand.end)
    return (list(match.log), list(match.scores), match.phase, match.winner, match.turn,
            len(match.hands), in_hand)


def assert_refused(match: Match, action, error: type, kind: str, fragment: str) -> RuleError:
    before = state(match)
    with pytest.raises(error) as refused:
        action(match)
    assert isinstance(refused.value, RuleError)
    assert refused.value.kind == kind
    assert fragment in refused.value.message
    assert state(match) == before
    return refused.value


def ends(match: Match) -> list[str]:
    """The open ends as the table sees them: `3`, or `3-3` for a double lying crosswise."""
    return [f"{end.value}-{end.value}" if end.double else str(end.value)
            for end in match.hand.ends]


# Ann goes out at her second tile; every other player drew once and laid once, so each
# opponent holds two tiles (1 to 23 pips among the unplayed ones).
ANN_GOES_OUT = {
    2: ["2-1", "draw", "1-1@R", "2-6@L"],
    3: ["2-1", "draw", "1-1@R", "draw", "2-2@L", "1-3@R"],
    4: ["2-1", "draw", "1-1@R", "draw", "2-2@L", "draw", "1-4@R", "4-3@R"],
}


def ann_went_out(players=2, partnerships=False) -> Match:
    match = play(new_match(players, partnerships=partnerships, hand_size=2),
                 *ANN_GOES_OUT[players])
    assert match.phase == "end" and match.hand.result == "domino"
    assert sum(match.scores) == 0
    return match


def blocked_after_lead(players=2, partnerships=False) -> Match:
    """Ann leads 0-0 with every tile dealt (or drawn), then every player passes."""
    match = new_match(players, partnerships=partnerships, hand_size=28 // players)
    play(match, "0-0")
    if match.hand.boneyard:
        play(match, f"draw {match.hand.boneyard}")
    play(match, *["pass"] * players)
    assert match.phase == "end" and match.hand.result == "blocked"
    return match


# -- §5 the lead ---------------------------------------------------------------------------


@pytest.mark.parametrize("tile", ALL_TILES, ids=tile_text)
def test_the_lead_may_be_any_tile(tile):
    match = new_match()
    match.lay(tile)
    assert [end.value for end in match.hand.ends] == list(tile)
    assert match.hand.moves[0].count == tile[0] + tile[1]
    assert match.turn == BOB


def test_the_lead_is_laid_left_to_right_as_written():
    assert ends(play(new_match(), "5-3")) == ["5", "3"]
    assert ends(play(new_match(), "3-5")) == ["3", "5"]
    assert ends(play(new_match(), "4-4")) == ["4-4", "4-4"]


@pytest.mark.parametrize("hand_size", [7, 14], ids=["boneyard", "no boneyard"])
@pytest.mark.parametrize("move, word", [(Draw(1), "draw"), (Pass(), "pass")])
def test_the_lead_cannot_be_a_draw_or_a_pass(hand_size, move, word):
    match = new_match(hand_size=hand_size)
    assert_refused(match, lambda m: m.push(move), IllegalMove, "lead_not_tile",
                   f"Ann leads: the lead must be a tile, not a {word}")


def test_moves_wait_for_the_table_to_name_the_starter():
    match = Match.create(["Ann", "Bob"])
    assert match.phase == "start" and match.turn is None
    assert_refused(match, lambda m: m.lay((5, 5)), IllegalStart, "starter_needed",
                   "say who leads this hand before any tile")
    match.start(BOB)
    assert match.turn == BOB


@pytest.mark.parametrize("seat", [-1, 2, True, "Ann"])
def test_the_starter_must_sit_at_the_table(seat):
    assert_refused(Match.create(["Ann", "Bob"]), lambda m: m.start(seat), IllegalStart,
                   "unknown_seat", "is not at this table")


# -- §5 every later tile matches an open end -----------------------------------------------


@pytest.mark.parametrize("move, after", [
    ("3-5", ["5", "1"]),
    ("5-3", ["5", "1"]),
    ("1-6", ["3", "6"]),
    ("3-3", ["3-3", "1"]),
    ("3-5@L", ["5", "1"]),
    ("6-1@R", ["3", "6"]),
])
def test_a_tile_that_matches_an_open_end_is_laid_there(move, after):
    match = play(new_match(), "3-1", move)
    assert ends(match) == after
    assert match.turn == ANN


@pytest.mark.parametrize("move", ["4-5", "2-2", "6-0"])
def test_a_tile_that_matches_neither_open_end_is_refused(move):
    match = play(new_match(), "3-1")
    assert_refused(match, lambda m: play(m, move), IllegalMove, "no_fit",
                   f"{move} matches neither open end (3 and 1)")


@pytest.mark.parametrize("move, message", [
    ("3-5@R", "3-5 does not fit the right end (1)"),
    ("1-6@L", "1-6 does not fit the left end (3)"),
])
def test_a_tile_named_for_an_end_it_does_not_fit_is_refused(move, message):
    match = play(new_match(), "3-1")
    assert_refused(match, lambda m: play(m, move), IllegalMove, "wrong_end", message)


def test_an_end_other_than_left_or_right_is_refused():
    match = play(new_match(), "3-1")
    assert_refused(match, lambda m: m.lay((3, 5), "X"), IllegalMove, "not_an_end",
                   "the ends are L and R")


@pytest.mark.parametrize("tile", [(7, 7), (3, 9), (-1, 2), ("3", 5), (3,), (True, 1)],
                         ids=str)
def test_a_tile_outside_the_double_six_set_is_refused(tile):
    match = new_match()
    assert_refused(match, lambda m: m.lay(tile), BadTile, "not_in_set",
                   "is not a tile of the double-six set")


def test_a_tile_written_outside_the_set_is_not_a_move():
    with pytest.raises(BadTile, match="7-7 is not in a double-six set"):
        parse_move("7-7")


# -- §5 a tile that fits both ends ---------------------------------------------------------


def test_a_tile_that_fits_both_ends_with_different_results_needs_its_end_named():
    match = play(new_match(), "2-1", "1-4@R")
    assert ends(match) == ["2", "4"]
    assert_refused(match, lambda m: play(m, "4-2"), IllegalMove, "which_end",
                   "4-2 fits both ends with different results: say which end")
    assert ends(play(match, "4-2@L")) == ["4", "4"]
    match.pop()
    assert ends(play(match, "4-2@R")) == ["2", "2"]


def test_an_end_of_the_same_value_but_not_a_double_still_needs_its_end_named():
    match = play(new_match(), "3-3", "3-5@L", "5-6@L", "6-3@L")
    assert ends(match) == ["3", "3-3"]
    assert_refused(match, lambda m: play(m, "3-2"), IllegalMove, "which_end",
                   "say which end")
    play(match, "3-2@R")
    assert ends(match) == ["3", "2"] and match.hand.moves[-1].points == 5


@pytest.mark.parametrize("moves, tile, after", [
    (["5-5"], "5-0", ["0", "5-5"]),
    (["2-3", "3-4@R", "4-2@R"], "2-5", ["5", "2"]),
])
def test_a_tile_that_fits_both_ends_alike_needs_no_end(moves, tile, after):
    match = play(new_match(), *moves)
    play(match, tile)
    assert ends(match) == after


# -- §5 no spinner: always exactly two ends --------------------------------------------------


def test_nothing_is_played_off_the_side_of_a_double():
    match = play(new_match(), "5-5", "5-0@L")
    assert ends(match) == ["0", "5-5"]
    play(match, "5-1")  # legal: the 5-5 is still an open end
    assert ends(match) == ["0", "1"]
    assert_refused(match, lambda m: play(m, "5-2"), IllegalMove, "no_fit",
                   "5-2 matches neither open end (0 and 1)")
    assert {placement.end for placement in match.placements()} == {"L", "R"}
    assert len(match.hand.ends) == 2


# -- §5 drawing and passing -------------------------------------------------------------------


def test_a_draw_takes_tiles_from_the_boneyard_and_keeps_the_turn():
    match = play(new_match(), "5-5", "draw", "draw 3")
    assert match.turn == BOB
    assert match.hand.boneyard == 14 - 4
    assert match.hand.held == [6, 11]
    assert [played.points for played in match.hand.moves] == [10, 0, 0]


def test_the_boneyard_can_be_drawn_dry_in_one_go():
    match = play(new_match(), "5-5", "draw 14")
    assert match.hand.boneyard == 0 and not match.can_draw and match.can_pass


def test_drawing_more_tiles_than_the_boneyard_holds_is_refused():
    match = play(new_match(), "5-5")
    assert_refused(match, lambda m: m.draw(15), IllegalMove, "draw_too_many",
                   "Bob cannot draw 15: only 14 left in the boneyard")


def test_drawing_from_an_empty_boneyard_is_refused():
    match = play(new_match(hand_size=14), "5-5")
    assert not match.can_draw
    assert_refused(match, lambda m: m.draw(), IllegalMove, "boneyard_empty",
                   "Bob cannot draw: the boneyard is empty, so Bob passes")


@pytest.mark.parametrize("count", [0, -3, 1.5, True, "2"], ids=repr)
def test_a_draw_of_no_tiles_is_refused(count):
    match = play(new_match(), "5-5")
    assert_refused(match, lambda m: m.draw(count), IllegalMove, "draw_nothing",
                   "draw one tile or more")


def test_a_pass_once_the_boneyard_is_empty_moves_the_turn_on():
    match = play(new_match(hand_size=14), "5-5")
    assert match.can_pass
    play(match, "pass")
    assert match.turn == ANN and match.phase == "play"


@pytest.mark.parametrize("hand_size, message", [
    (7, "Bob must draw first: 14 tiles are left in the boneyard"),
    (13, "Bob must draw first: 2 tiles are left in the boneyard"),
])
def test_a_pass_while_the_boneyard_has_tiles_is_refused(hand_size, message):
    match = play(new_match(hand_size=hand_size), "5-5")
    assert not match.can_pass
    assert_refused(match, lambda m: m.pass_turn(), IllegalMove, "must_draw", message)


def test_a_pass_with_one_tile_in_the_boneyard_says_tile():
    match = play(new_match(hand_size=13), "5-5", "draw")
    assert_refused(match, lambda m: m.pass_turn(), IllegalMove, "must_draw",
                   "1 tile is left in the boneyard")


def test_play_goes_round_in_seat_order():
    match = play(new_match(4, starter=CAT), "5-5")
    turns = []
    for move in ["5-0", "draw", "0-1", "1-2", "2-3"]:
        turns.append(match.turn)
        play(match, move)
    assert turns == [DAN, ANN, ANN, BOB, CAT]
    assert match.turn == DAN


# -- §5 no tile twice in a hand --------------------------------------------------------------


@pytest.mark.parametrize("moves, again", [
    (["1-3"], "3-1"),
    (["1-3"], "1-3"),
    (["5-5", "5-1", "1-1"], "5-5"),
    (["5-5", "5-1", "1-1"], "1-5@R"),
])
def test_a_tile_cannot_be_laid_twice_in_a_hand(moves, again):
    match = play(new_match(), *moves)
    tile = again.split("@")[0]
    assert_refused(match, lambda m: play(m, again), IllegalMove, "already_laid",
                   f"{tile} was already laid in this hand")


def test_a_tile_laid_last_hand_can_be_laid_again():
    match = ann_went_out()
    match.end_hand({BOB: 10})
    play(match, "2-1", "1-1@R")
    assert match.hand.number == 2 and match.phase == "play"


# -- §7 going out ------------------------------------------------------------------------------


def test_laying_the_last_tile_ends_the_hand_after_its_count_is_scored():
    match = play(new_match(hand_size=2), "2-1", "draw", "1-1@R", "2-3@L")
    assert match.hand.result == "domino" and match.hand.winner == ANN
    assert match.scores == [5, 0], "the going-out tile made 3 + 1-1 (2) = 5"
    assert match.phase == "end" and match.turn is None
    assert match.placements() == [] and not match.can_draw and not match.can_pass
    assert_refused(match, lambda m: play(m, "3-3"), HandOver, "hand_over",
                   "the hand is over: enter the pips left in hands before any tile")
    assert_refused(match, lambda m: m.draw(), HandOver, "hand_over", "before any draw")


def test_a_player_with_a_single_tile_goes_out_with_the_lead():
    match = play(new_match(hand_size=1), "6-6")
    assert match.phase == "end" and match.hand.winner == ANN


@pytest.mark.parametrize("pips, rounded", [
    (12, 10), (13, 15), (7, 5), (8, 10), (2, 0), (3, 5), (1, 0), (4, 5), (5, 5), (23, 25),
])
def test_the_opponents_pips_are_rounded_to_the_nearest_five(pips, rounded):
    assert round_to_five(pips) == rounded
    match = ann_went_out()
    match.end_hand({BOB: pips})
    assert match.scores == [rounded, 0]
    assert match.hands[0].end.points == rounded


def test_rounding_never_ties_remainders_up_to_two_round_down():
    assert [round_to_five(n) for n in range(11)] == [0, 0, 0, 5, 5, 5, 5, 5, 10, 10, 10]


@pytest.mark.parametrize("cat", [None, 1, 23, ("6-6", "6-5")], ids=str)
def test_the_partners_hand_does_not_count(cat):
    match = ann_went_out(4, partnerships=True)
    held = {BOB: 12, DAN: 3} | ({} if cat is None else {CAT: cat})
    match.end_hand(held)
    assert match.scores == [15, 0]


def test_the_partners_pips_are_still_checked_when_entered():
    match = ann_went_out(4, partnerships=True)
    assert_refused(match, lambda m: m.end_hand({BOB: 12, DAN: 3, CAT: 24}), ImpossibleHand,
                   "impossible_pips", "Cat cannot hold 24 in 2 tiles")


def test_going_out_against_individuals_takes_every_opponent():
    match = ann_went_out(4)
    assert match.needed_remaining() == ([BOB, CAT, DAN], [ANN])
    assert_refused(match, lambda m: m.end_hand({BOB: 12, DAN: 3}), ImpossibleHand,
                   "pips_needed", "the pips left in Cat's hand are needed")
    match.end_hand({BOB: 12, CAT: 20, DAN: 3})
    assert match.scores == [35, 0, 0, 0]


# -- §7 blocked hands ------------------------------------------------------------------------


def test_a_hand_is_blocked_only_when_every_player_in_turn_has_passed():
    match = play(new_match(3, hand_size=9), "0-0", "draw", "pass", "pass", "0-1", "pass")
    assert match.phase == "play", "Ann laid a tile: the passes before it do not count"
    play(match, "pass")
    assert match.phase == "play"
    play(match, "pass")
    assert match.phase == "end" and match.hand.result == "blocked"
    assert match.needed_remaining() == ([ANN, BOB, CAT], [])


@pytest.mark.parametrize("players, partnerships, pips, side, points", [
    (2, False, {ANN: 80, BOB: 88}, ANN, 10),
    (2, False, {ANN: 88, BOB: 80}, BOB, 10),
    (2, False, {ANN: 83, BOB: 85}, ANN, 0),
    (3, False, {ANN: 50, BOB: 60, CAT: 58}, ANN, 70),
    (3, False, {ANN: 60, BOB: 40, CAT: 68}, BOB, 90),
    (4, True, {ANN: 20, BOB: 30, CAT: 30, DAN: 25}, 0, 5),
    (4, True, {ANN: 40, BOB: 30, CAT: 20, DAN: 38}, 0, 10),
    (4, True, {ANN: 40, BOB: 20, CAT: 50, DAN: 30}, 1, 40),
], ids=["2p", "2p-bob", "2p-nothing-to-gain", "3p", "3p-bob", "pairs", "pairs-cat",
        "pairs-bob-dan"])
def test_blocked_strictly_fewest_pips_wins_the_difference(players, partnerships, pips,
                                                          side, points):
    match = blocked_after_lead(players, partnerships)
    match.end_hand(pips)
    assert match.hand.end.side == side
    assert match.hand.end.points == points
    assert match.scores[side] == points and sum(match.scores) == points
    assert match.phase == "start", "after a blocked hand the table names the next starter"


@pytest.mark.parametrize("players, partnerships, pips", [
    (2, False, {ANN: 84, BOB: 84}),
    (3, False, {ANN: 50, BOB: 50, CAT: 68}),
    (4, True, {ANN: 20, BOB: 22, CAT: 30, DAN: 28}),
], ids=["2p", "3p", "pairs"])
def test_blocked_tie_for_fewest_pips_scores_nothing(players, partnerships, pips):
    match = blocked_after_lead(players, partnerships)
    match.end_hand(pips)
    assert match.hand.end.side is None and match.hand.end.points == 0
    assert match.scores == [0] * len(match.table.sides)
    assert match.score_list() == []


def test_blocked_hands_need_every_players_pips():
    match = blocked_after_lead(4, partnerships=True)
    assert_refused(match, lambda m: m.end_hand({ANN: 20, BOB: 30, CAT: 30}), ImpossibleHand,
                   "pips_needed", "the pips left in Dan's hand are needed")


# -- §4 who starts the next hand ---------------------------------------------------------------


def test_the_winner_of_a_domino_leads_the_next_hand_without_being_named():
    match = ann_went_out(3)
    match.end_hand({BOB: 5, CAT: 5})
    assert match.phase == "lead" and match.turn == ANN and match.hand.number == 2
    play(match, "6-6")
    assert match.hand.moves[0].seat == ANN


def test_the_winner_of_a_domino_may_also_be_named_as_the_starter():
    match = ann_went_out(3)
    match.end_hand({BOB: 5, CAT: 5})
    match.start(ANN)
    assert match.turn == ANN and match.phase == "lead"


@pytest.mark.parametrize("seat", [BOB, CAT])
def test_after_a_domino_nobody_else_can_start(seat):
    match = ann_went_out(3)
    match.end_hand({BOB: 5, CAT: 5})
    assert_refused(match, lambda m: m.start(seat), IllegalStart, "winner_leads",
                   f"Ann went out last hand and leads this one, not {NAMES[seat]}")


def test_after_a_blocked_hand_the_table_names_the_starter():
    match = blocked_after_lead()
    match.end_hand({ANN: 80, BOB: 88})
    assert match.phase == "start" and match.turn is None
    assert_refused(match, lambda m: play(m, "6-6"), IllegalStart, "starter_needed",
                   "say who leads this hand before any tile")
    match.start(BOB)
    assert match.turn == BOB and match.hand.number == 2


def test_a_starter_cannot_be_named_while_a_hand_is_under_way():
    match = play(new_match(), "5-5")
    assert_refused(match, lambda m: m.start(BOB), IllegalStart, "hand_under_way",
                   "Bob cannot start a hand: hand 1 is not over")


# -- §9 the pips entered at the end of a hand --------------------------------------------------


@pytest.mark.parametrize("pips", [1, 2, 12, 23])
def test_pips_between_the_fewest_and_most_of_the_unplayed_tiles_are_accepted(pips):
    match = ann_went_out()
    match.end_hand({BOB: pips})
    assert match.hands[0].remaining == {BOB: pips}


@pytest.mark.parametrize("pips", [0, 24, -5, 168])
def test_pips_no_two_unplayed_tiles_can_hold_are_refused(pips):
    match = ann_went_out()
    assert_refused(match, lambda m: m.end_hand({BOB: pips}), ImpossibleHand,
                   "impossible_pips",
                   f"Bob cannot hold {pips} in 2 tiles: 2 tiles not laid in this hand "
                   "hold 1 to 23 pips")


@pytest.mark.parametrize("pips", ["12", 12.0, True, None], ids=repr)
def test_pips_must_be_a_whole_number(pips):
    match = ann_went_out()
    assert_refused(match, lambda m: m.end_hand({BOB: pips}), ImpossibleHand,
                   "pips_not_number", "Bob's pips must be a whole number")


def test_the_player_who_went_out_holds_nothing():
    match = ann_went_out()
    assert_refused(match, lambda m: m.end_hand({BOB: 12, ANN: 1}), ImpossibleHand,
                   "impossible_pips", "Ann holds no tiles")
    assert_refused(match, lambda m: m.end_hand({BOB: 12, ANN: ("0-0",)}), ImpossibleHand,
                   "wrong_tile_count", "Ann holds 0 tiles, not 1")
    match.end_hand({BOB: 12, ANN: ()})
    assert match.scores == [10, 0]


@pytest.mark.parametrize("tiles, pips", [
    (("6-6", "0-0"), 12),
    (("0-6", "5-6"), 17),
    (((6, 6), (5, 4)), 21),
], ids=str)
def test_tiles_entered_by_name_count_their_pips(tiles, pips):
    match = ann_went_out()
    match.end_hand({BOB: tiles})
    assert match.hands[0].end.facts["opponents"] == [(BOB, pips, round_to_five(pips))]


@pytest.mark.parametrize("held, kind, message", [
    ({BOB: ("1-1", "0-0")}, "tile_was_laid", "Bob cannot hold 1-1: it was laid in this hand"),
    ({BOB: ("6-2", "0-0")}, "tile_was_laid", "Bob cannot hold 2-6: it was laid in this hand"),
    ({BOB: ("6-6",)}, "wrong_tile_count", "Bob holds 2 tiles, not 1"),
    ({BOB: ("6-6", "5-5", "4-4")}, "wrong_tile_count", "Bob holds 2 tiles, not 3"),
    ({BOB: ("6-6", "6-6")}, "tile_twice", "Bob's tiles name 6-6 twice"),
    ({BOB: ("6-6", (9, 9))}, "not_a_tile", "in Bob's hand is not a tile"),
], ids=["laid", "laid-reversed", "too-few", "too-many", "twice", "not-a-tile"])
def test_tiles_entered_must_be_unplayed_and_as_many_as_held(held, kind, message):
    match = ann_went_out()
    assert_refused(match, lambda m: m.end_hand(held), ImpossibleHand, kind, message)


def test_tiles_written_outside_the_set_are_refused():
    match = ann_went_out()
    assert_refused(match, lambda m: m.end_hand({BOB: ("6-6", "7-1")}), BadTile, "not_in_set",
                   "7-1 is not in a double-six set")


def test_no_tile_can_be_in_two_hands():
    match = ann_went_out(3)
    assert_refused(match, lambda m: m.end_hand({BOB: ("6-6", "0-0"), CAT: ("5-5", "6-6")}),
                   ImpossibleHand, "tile_twice", "6-6 cannot be in two hands: Bob and Cat")
    match.end_hand({BOB: ("6-6", "0-0"), CAT: ("5-5", "0-6")})
    assert match.scores == [10 + 15, 0, 0]


def test_pips_for_a_seat_not_at_the_table_are_refused():
    match = ann_went_out()
    assert_refused(match, lambda m: m.end_hand({BOB: 12, 2: 5}), ImpossibleHand,
                   "unknown_seat", "seat 2 is not at this table")


def test_pips_cannot_be_entered_while_the_hand_is_under_way():
    match = play(new_match(), "5-5")
    assert_refused(match, lambda m: m.end_hand({BOB: 12}), HandNotOver, "hand_not_over",
                   "the hand is not over")


def test_pips_count_the_tiles_drawn():
    match = play(new_match(hand_size=2), "2-1", "draw 3", "1-1@R", "2-6@L")
    assert match.hand.held == [0, 4]
    assert_refused(match, lambda m: m.end_hand({BOB: ("6-6", "5-5")}), ImpossibleHand,
                   "wrong_tile_count", "Bob holds 4 tiles, not 2")
    match.end_hand({BOB: ("6-6", "5-5", "0-0", "0-1")})
    assert match.scores == [25, 0]


# -- §1-§3 the table -------------------------------------------------------------------------


@pytest.mark.parametrize("players, partnerships, target, hand_size", [
    (2, False, 250, 7),
    (3, False, 200, 5),
    (4, False, 200, 5),
    (4, True, 250, 5),
])
def test_default_target_and_hand_size(players, partnerships, target, hand_size):
    table = Match.create(NAMES[:players], partnerships=partnerships).table
    assert (table.target, table.hand_size) == (target, hand_size)
    assert table.players == tuple(NAMES[:players])


def test_partners_sit_opposite_and_share_a_score():
    match = Match.create(NAMES, partnerships=True)
    assert match.table.sides == ((ANN, CAT), (BOB, DAN))
    assert [match.table.side_name(side) for side in (0, 1)] == ["Ann & Cat", "Bob & Dan"]
    match.start(ANN)
    play(match, "5-5", "5-0")
    assert match.scores == [10, 10]
    play(match, "0-0")
    assert match.scores == [20, 10], "Cat's points go to Ann & Cat"


@pytest.mark.parametrize("players", [["Ann", "Bob"], ["Ann", "Bob", "Cat"], NAMES])
def test_two_to_four_players_can_sit_down(players):
    assert len(Match.create(players).table.sides) == len(players)


@pytest.mark.parametrize("players", [[], ["Ann"], NAMES + ["Eve"], "Ann,Bob", None], ids=str)
def test_fewer_than_two_or_more_than_four_players_are_refused(players):
    with pytest.raises(SetupError, match="a match needs 2 to 4 players") as refused:
        Match.create(players)
    assert refused.value.kind == "player_count"


@pytest.mark.parametrize("players", [2, 3])
def test_partnerships_need_four_players(players):
    with pytest.raises(SetupError, match=f"partnerships need 4 players, not {players}") as e:
        Match.create(NAMES[:players], partnerships=True)
    assert e.value.kind == "partnerships_need_four"


def test_partnerships_are_true_or_false():
    with pytest.raises(SetupError, match="partnerships must be true or false") as refused:
        Match.create(NAMES, partnerships="yes")
    assert refused.value.kind == "bad_partnerships"


@pytest.mark.parametrize("names, kept", [
    (["A", "B"], ("A", "B")),
    ([" Ann ", "Bob\t"], ("Ann", "Bob")),
    (["x" * 40, "Ζωή"], ("x" * 40, "Ζωή")),
])
def test_names_of_one_to_forty_characters_are_kept_trimmed(names, kept):
    assert Match.create(names).table.players == kept


@pytest.mark.parametrize("names, kind, message", [
    (["", "Bob"], "empty_name", "every player needs a name"),
    (["   ", "Bob"], "empty_name", "every player needs a name"),
    ([None, "Bob"], "empty_name", "every player needs a name"),
    (["x" * 41, "Bob"], "name_too_long", "a name has at most 40 characters"),
    (["Ann", "Ann"], "duplicate_name", "two players are called Ann"),
    (["Ann", "ann "], "duplicate_name", "two players are called ann"),
], ids=["empty", "blank", "none", "long", "same", "same-case"])
def test_names_must_be_given_short_and_distinct(names, kind, message):
    with pytest.raises(SetupError, match=message) as refused:
        Match.create(names)
    assert refused.value.kind == kind


@pytest.mark.parametrize("players, hand_size", [(2, 14), (3, 9), (4, 7), (2, 1), (4, 1)])
def test_a_hand_size_that_fits_the_set_is_accepted(players, hand_size):
    match = new_match(players, hand_size=hand_size)
    assert match.hand.held == [hand_size] * players
    assert match.hand.boneyard == 28 - players * hand_size


@pytest.mark.parametrize("players, hand_size, kind", [
    (2, 15, "bad_hand_size"), (3, 10, "bad_hand_size"), (4, 8, "bad_hand_size"),
    (2, 0, "bad_hand_size"), (2, -1, "bad_hand_size"), (2, "7", "not_a_number"),
    (2, 7.0, "not_a_number"),
])
def test_a_hand_size_the_set_cannot_deal_is_refused(players, hand_size, kind):
    with pytest.raises(SetupError) as refused:
        Match.create(NAMES[:players], hand_size=hand_size)
    assert refused.value.kind == kind
    if kind == "bad_hand_size":
        assert f"the hand size must be from 1 to {28 // players}" in refused.value.message


@pytest.mark.parametrize("target", [5, 61, 100, 150, 10_000])
def test_a_house_target_is_accepted(target):
    assert Match.create(["Ann", "Bob"], target=target).table.target == target


@pytest.mark.parametrize("target, kind", [
    (0, "bad_target"), (4, "bad_target"), (-250, "bad_target"), (10_001, "bad_target"),
    ("250", "not_a_number"), (250.0, "not_a_number"), (True, "not_a_number"),
], ids=repr)
def test_a_target_that_is_not_a_sensible_whole_number_is_refused(target, kind):
    with pytest.raises(SetupError) as refused:
        Match.create(["Ann", "Bob"], target=target)
    assert refused.value.kind == kind


# -- the refusals above really leave the match alone -------------------------------------------


def test_a_refused_move_can_be_followed_by_a_legal_one_as_if_nothing_happened():
    refused = play(new_match(), "3-1")
    for bad in ["4-5", "3-1", "pass", "3-5@R"]:
        with pytest.raises(RuleError):
            play(refused, bad)
    clean = play(new_match(), "3-1")
    play(refused, "1-4")
    play(clean, "1-4")
    assert state(refused) == state(clean)
    assert refused.log == [refused.log[0], Lay((3, 1), None), Lay((1, 4), "R")]


def test_a_copy_of_a_match_goes_on_independently_of_the_original():
    match = play(new_match(hand_size=3), "5-5", "5-3")
    copy = match.copy()
    play(copy, "3-1@L", "draw")
    assert [len(match.log), len(copy.log)] == [3, 5]
    assert match.hand.held == [2, 2] and copy.hand.held == [1, 3]
    assert match.hand.ends[0].value == 3 and copy.hand.ends[0].value == 1
    rebuilt = Match(match.table, match.log)
    assert (match.scores, match.hand.ends, match.turn) == (
        rebuilt.scores, rebuilt.hand.ends, rebuilt.turn)
