"""Every worked example of RULES.md §8, each played out on a real Match."""

import pytest
from tables import ANN, BOB, CAT, DAN, counts, last_explanation, new_match, play, points

from scorekeeper.rules import (
    ALL_TILES,
    Match,
    MatchOver,
    Score,
    explain,
    normal,
    parse_tile,
)
from scorekeeper.rules.words import english

# Ann goes out at her second tile; every other player drew once and laid once, so each
# opponent still holds two tiles (any pips from 0-0 + 0-1 = 1 to 6-6 + 6-5 = 23).
ANN_GOES_OUT = {
    3: ["2-1", "draw", "1-1@R", "draw", "2-2@L", "1-3@R"],
    4: ["2-1", "draw", "1-1@R", "draw", "2-2@L", "draw", "1-4@R", "4-3@R"],
}


def line_through(tiles, start: int) -> list[tuple[int, int]]:
    """The tiles oriented as one line from `start`, each matching the last (an Euler trail)."""
    unused = sorted(tiles)
    stack, trail = [(None, start)], []
    while stack:
        value = stack[-1][1]
        tile = next((tile for tile in unused if value in tile), None)
        if tile is None:
            trail.append(stack.pop()[0])
        else:
            unused.remove(tile)
            other = tile[1] if tile[0] == value else tile[0]
            stack.append(((value, other), other))
    assert not unused, "the tiles do not make one line"
    return trail[-2::-1]


def blocked(players: int, held: dict[int, list[str]], partnerships=False) -> Match:
    """A hand that really ends blocked with `held` left in hands: every other tile is laid.

    The tiles nobody holds are laid as one line, always on the right end; the player after
    the starter draws the boneyard dry; a player with nothing left to lay passes.
    """
    match = new_match(players, partnerships=partnerships, target=10_000,
                      hand_size=28 // players)
    kept = {normal(parse_tile(text)) for tiles in held.values() for text in tiles}
    values_kept = {value for tile in kept for value in tile}
    block = min(set(range(7)) - values_kept)  # ends nobody can match
    line = line_through([tile for tile in ALL_TILES if tile not in kept], block)
    to_lay = [match.table.hand_size - len(held[seat]) for seat in range(players)]
    boneyard = 28 - players * match.table.hand_size
    to_lay[1] += boneyard
    assert sum(to_lay) == len(line)
    play(match, f"{line[0][0]}-{line[0][1]}")
    to_lay[0] -= 1
    if boneyard:
        play(match, f"draw {boneyard}")
    for a, b in line[1:]:
        while not to_lay[match.turn]:
            play(match, "pass")
        to_lay[match.turn] -= 1
        play(match, f"{a}-{b}@R")
    assert match.hand.ends[0].value == match.hand.ends[1].value == block
    play(match, *["pass"] * players)
    assert match.phase == "end" and match.hand.result == "blocked"
    return match


def last_end(match: Match) -> Score:
    """The end-of-hand score of the last hand whose pips were entered."""
    return next(hand.end for hand in reversed(match.hands) if hand.end is not None)


def enter(match: Match, held: dict[int, object]) -> int:
    """Enter what is left in hands; returns the points the end of the hand scored."""
    before = sum(match.scores)
    match.end_hand(held)
    assert sum(match.scores) - before == last_end(match).points
    return last_end(match).points


# -- 1. the lead alone counts all its pips ------------------------------------------------


def test_lead_five_five_scores_ten():
    match = play(new_match(), "5-5")
    assert counts(match) == [10]
    assert match.scores == [10, 0]
    assert last_explanation(match) == "lead 5-5: 5 + 5 = 10 → 10 to Ann"


def test_lead_six_four_scores_ten():
    match = play(new_match(), "6-4")
    assert counts(match) == [10]
    assert match.scores == [10, 0]


def test_lead_two_four_counts_six_and_scores_nothing():
    match = play(new_match(), "2-4")
    assert counts(match) == [6]
    assert match.scores == [0, 0]
    assert match.score_list() == []
    assert last_explanation(match) == "lead 2-4: 2 + 4 = 6, not a multiple of five: no score"


def test_lead_three_two_scores_five():
    match = play(new_match(), "3-2")
    assert counts(match) == [5]
    assert match.scores == [5, 0]


# -- 2. the two open ends ------------------------------------------------------------------


def test_ends_three_and_four_score_nothing_then_six_three_on_the_three_scores_ten():
    match = play(new_match(), "3-1", "1-4")
    assert [end.value for end in match.hand.ends] == [3, 4]
    assert counts(match) == [4, 7]
    assert match.scores == [0, 0]
    play(match, "6-3")
    assert [end.value for end in match.hand.ends] == [6, 4]
    assert counts(match) == [4, 7, 10]
    assert match.scores == [10, 0]
    assert last_explanation(match) == "6 + 4 = 10 → 10 to Ann"


# -- 3. a double at an end counts both halves ----------------------------------------------


def test_double_six_on_the_six_of_three_six_scores_fifteen():
    match = play(new_match(), "3-6", "6-6")
    assert counts(match) == [9, 15]
    assert match.scores == [0, 15]
    assert last_explanation(match) == "3 + 6-6 (12) = 15 → 15 to Bob"


def test_double_six_on_the_left_end_is_read_out_first():
    match = play(new_match(starter=BOB), "6-3", "6-6@L")
    assert match.scores == [15, 0]
    assert last_explanation(match) == "6-6 (12) + 3 = 15 → 15 to Ann"


# -- 4. the same end, a plain tile or a double ---------------------------------------------


def test_four_three_on_lead_two_four_scores_five():
    match = play(new_match(), "2-4", "4-3")
    assert [end.value for end in match.hand.ends] == [2, 3]
    assert match.scores == [0, 5]


def test_four_four_on_lead_two_four_scores_ten():
    match = play(new_match(), "2-4", "4-4")
    assert counts(match) == [6, 10]
    assert match.scores == [0, 10]
    assert last_explanation(match) == "2 + 4-4 (8) = 10 → 10 to Bob"


# -- 5. doubles at the ends, then no longer at an end --------------------------------------


def test_doubles_count_while_at_an_end_and_nothing_once_covered():
    match = play(new_match(), "5-5", "5-0", "0-0", "5-6", "0-4")
    assert counts(match) == [10, 10, 10, 6, 10]
    assert points(match) == [10, 10, 10, 0, 10]
    assert match.scores == [30, 10]
    assert [end.value for end in match.hand.ends] == [4, 6]
    assert [score.points for score in match.score_list()] == [10, 10, 10, 10]


# -- 6. going out: each opponent rounded separately ----------------------------------------


def test_going_out_rounds_each_opponent_separately():
    match = play(new_match(3, target=10_000, hand_size=2), *ANN_GOES_OUT[3])
    assert match.needed_remaining() == ([BOB, CAT], [ANN])
    assert enter(match, {BOB: 12, CAT: 13}) == 25
    assert match.scores == [25, 0, 0]
    assert explain(last_end(match), match.table) == (
        "Ann went out. Bob 12 → 10, Cat 13 → 15: 25 to Ann")


def test_going_out_against_three_opponents_of_thirteen_scores_forty_five_not_forty():
    match = play(new_match(4, target=10_000, hand_size=2), *ANN_GOES_OUT[4])
    assert enter(match, {BOB: 13, CAT: 13, DAN: 13}) == 45
    assert match.scores == [45, 0, 0, 0]


def test_going_out_counts_tiles_entered_by_name_like_pips():
    match = play(new_match(3, target=10_000, hand_size=2), *ANN_GOES_OUT[3])
    assert enter(match, {BOB: ("6-4", "2-0"), CAT: ("5-5", "3-0")}) == 25


# -- 7. partnerships: the partner's hand does not count -------------------------------------


def test_partner_of_the_player_who_went_out_does_not_count():
    match = play(new_match(4, partnerships=True, target=10_000, hand_size=2),
                 *ANN_GOES_OUT[4])
    assert match.needed_remaining() == ([BOB, DAN], [ANN, CAT])
    assert enter(match, {BOB: 12, DAN: 3, CAT: 20}) == 15
    assert match.scores == [15, 0]
    assert explain(last_end(match), match.table) == (
        "Ann went out. Bob 12 → 10, Dan 3 → 5: 15 to Ann & Cat")


# -- 8. blocked hands ----------------------------------------------------------------------


def test_blocked_two_players_fewest_takes_rounded_difference():
    match = blocked(2, {ANN: ["1-2", "3-3"], BOB: ["1-6", "2-6", "4-4"]})
    before = list(match.scores)
    assert enter(match, {ANN: 9, BOB: 23}) == 15
    assert match.scores == [before[0] + 15, before[1]]
    assert explain(last_end(match), match.table) == (
        "Blocked: Ann 9 → 10 fewest; Bob 23 → 25; 25 − 10 = 15 to Ann")


def test_blocked_three_players_fewest_takes_every_other_side_rounded():
    match = blocked(3, {ANN: ["2-2"], BOB: ["5-5", "0-1"], CAT: ["0-4", "1-4", "4-4"]})
    assert enter(match, {ANN: 4, BOB: 11, CAT: 17}) == 20
    assert last_end(match).side == ANN
    assert explain(last_end(match), match.table).endswith("10 + 15 − 5 = 20 to Ann")


def test_blocked_tie_for_fewest_scores_nothing():
    match = blocked(3, {ANN: ["1-5"], BOB: ["2-4"], CAT: ["1-2", "4-5", "4-4"]})
    before = list(match.scores)
    assert enter(match, {ANN: 6, BOB: 6, CAT: 20}) == 0
    assert match.scores == before
    assert last_end(match).side is None
    assert explain(last_end(match), match.table).endswith(
        "Ann and Bob tie for fewest: nobody scores")


def test_blocked_partnerships_add_the_partners_pips():
    match = blocked(4, {ANN: ["1-3"], BOB: ["4-5"], CAT: ["3-5"], DAN: ["1-4"]},
                    partnerships=True)
    assert enter(match, {ANN: 4, BOB: 9, CAT: 8, DAN: 5}) == 5
    assert last_end(match).side == 0
    assert explain(last_end(match), match.table) == (
        "Blocked: Ann & Cat 12 → 10 fewest; Bob & Dan 14 → 15; 15 − 10 = 5 to Ann & Cat")


def test_blocked_hands_can_be_entered_as_the_tiles_held():
    held = {ANN: ["1-2", "3-3"], BOB: ["1-6", "2-6", "4-4"]}
    match = blocked(2, held)
    assert enter(match, {seat: tuple(tiles) for seat, tiles in held.items()}) == 15


# -- 9. the match ends the moment a side reaches the target --------------------------------


def bob_reaches_240() -> Match:
    """Six hands: Bob leads 6-4 (10), Ann draws and lays 4-2 (8), Bob goes out with 6-3 (5)
    and Ann's last two tiles hold 23 (25): 40 a hand."""
    match = Match.create(["Ann", "Bob"], target=250, hand_size=2)
    match.start(BOB)
    for _ in range(6):
        play(match, "6-4", "draw", "4-2", "6-3")
        match.end_hand({ANN: 23})
    assert match.scores == [0, 240]
    assert match.phase == "lead" and match.turn == BOB
    return match


def test_target_reached_in_the_middle_of_a_hand_ends_the_match():
    match = bob_reaches_240()
    play(match, "5-5")
    assert match.scores == [0, 250]
    assert match.winner == BOB and match.is_over() and match.phase == "over"
    assert match.hand.held[BOB] == 1, "Bob still holds a tile: the hand was not finished"
    assert match.hand.result == "won"
    assert match.turn is None
    assert match.placements() == []
    assert not match.can_draw and not match.can_pass


@pytest.mark.parametrize("action", [
    lambda match: match.lay((0, 5)),
    lambda match: match.draw(),
    lambda match: match.pass_turn(),
    lambda match: match.start(ANN),
    lambda match: match.end_hand({ANN: 12}),
], ids=["lay", "draw", "pass", "start", "pips"])
def test_nothing_is_played_or_scored_after_the_target_is_reached(action):
    match = play(bob_reaches_240(), "5-5")
    log = list(match.log)
    with pytest.raises(MatchOver) as refused:
        action(match)
    assert refused.value.kind == "match_over"
    assert "the match is over: Bob reached 250" in str(refused.value)
    assert match.log == log and match.scores == [0, 250]


def test_undo_after_the_target_is_reached_reopens_the_hand():
    match = play(bob_reaches_240(), "5-5")
    match.pop()
    assert match.winner is None and match.phase == "lead"
    assert match.scores == [0, 240]
    play(match, "3-2")
    assert match.scores == [0, 245] and match.phase == "play"


def test_going_out_with_a_tile_that_reaches_the_target_ends_the_match_before_the_pips():
    """Decided in docs/RULINGS.md: the tile's count is scored first (RULES.md §7), and the
    match ends that moment (§2), so the opponents' pips are never counted."""
    match = new_match(hand_size=1, target=10)
    play(match, "5-5")
    assert match.is_over() and match.winner == 0 and match.scores == [10, 0]
    assert match.hand.result == "won" and match.hand.remaining is None
    assert match.needed_remaining() == ([], [])
    with pytest.raises(MatchOver):
        match.end_hand({1: 0})


def test_an_explanation_is_worded_by_the_say_function_it_is_given():
    """The app passes gettext: every sentence of an explanation goes through it, a number
    the other languages name as a pair worded by the number it counts (rules/words.py)."""
    match = play(new_match(), "3-6", "6-6")
    score = match.move_score(match.hand, 1)
    asked = []

    def say(message, counted=None, **values):
        asked.append((message, counted))
        return "«" + english(message, counted, **values) + "»"

    assert explain(score, match.table, say=say) == "«3 + 6-6 (12) = 15 → 15 to Bob»"
    assert asked == [(("%(sum)s → %(points)s to %(side)s",) * 2, "points")]
    assert asked[0][0].context == "points"
