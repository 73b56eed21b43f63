"""Pips the table need not count: a seat holding every tile not laid, or none (RULES.md §9)."""

from tables import ANN, BOB, CAT, new_match, play

from scorekeeper.rules.hands.remaining import determined_pips


def test_an_opponent_holding_every_tile_not_laid_holds_their_pips_exactly():
    match = play(new_match(2, hand_size=2), "2-1", "draw 24", "1-1@R", "2-6@L")
    assert match.phase == "end" and match.hand.boneyard == 0
    assert determined_pips(match.hand, [BOB]) == {BOB: 168 - (3 + 2 + 8)}
    match.end_hand({BOB: 155})
    assert match.scores == [155, 0]


def test_the_player_who_went_out_holds_exactly_nothing():
    match = play(new_match(2, hand_size=2), "2-1", "draw", "1-1@R", "2-6@L")
    assert determined_pips(match.hand, [ANN, BOB]) == {ANN: 0}


def test_pips_are_not_filled_in_while_the_boneyard_hides_tiles():
    match = play(new_match(3, hand_size=2), "2-1", "draw", "1-1@R", "draw", "2-2@L", "1-3@R")
    assert match.hand.boneyard > 0
    assert determined_pips(match.hand, [BOB, CAT]) == {}


def test_a_blocked_hand_of_two_leaves_each_hand_unknown():
    match = play(new_match(2, hand_size=14), "0-0", "pass", "pass")
    assert match.phase == "end"
    assert determined_pips(match.hand, [ANN, BOB]) == {}
