"""Fives and Threes as RULESETS.md §2 and §3 define it: every worked example, every rule
that differs from All Fives with a legal and an illegal case, and every decision."""

import json

import pytest
from tables import ANN, BOB, CAT, DAN, NAMES, new_match, play

from scorekeeper.rules import (
    ALL_FIVES,
    FIVES_AND_THREES,
    HandNotOver,
    IllegalMove,
    IllegalStart,
    Match,
    MatchOver,
    explain,
)
from scorekeeper.rules.match.record import (
    FORMAT,
    IllegalRecord,
    UnreadableRecord,
    load_record,
    read_record,
    write_record,
)


def fives_and_threes(players=2, starter=ANN, **setup) -> Match:
    return new_match(players, starter, rules=FIVES_AND_THREES, **setup)


def last_points(match: Match) -> int:
    return next(hand for hand in reversed(match.hands) if hand.moves).moves[-1].points


def lead_hands(match: Match, *leads: str) -> Match:
    """Hands of one tile each (hand size 1): each starter leads and chips out at once."""
    for lead in leads:
        play(match, lead)
    return match


def side_on(score: int) -> Match:
    """Two players, hand size 1, target 61: Ann has `score` and leads the next hand.

    Ann's hands lead 6-6 (12 → 4, +1 = 5) and one smaller tile; Bob's lead 0-1 (+1)."""
    match = fives_and_threes(hand_size=1)
    fives, rest = divmod(score, 5)
    ann = ["6-6"] * fives + [{0: None, 1: "0-1", 2: "1-2", 3: "3-3", 4: "6-3"}[rest]]
    for tile in filter(None, ann):
        lead_hands(match, tile, "0-1")
    assert match.scores[ANN] == score and match.turn == ANN
    return match


# -- §2 worked examples -------------------------------------------------------------

def test_lead_5_5_counts_10_and_scores_2():
    assert last_points(play(fives_and_threes(), "5-5")) == 2


def test_lead_6_6_counts_12_and_scores_4_and_lead_5_4_counts_9_and_scores_3():
    assert last_points(play(fives_and_threes(), "6-6")) == 4
    assert last_points(play(fives_and_threes(), "5-4")) == 3


def test_ends_6_6_and_3_count_15_and_score_5_plus_3():
    match = play(fives_and_threes(), "3-6", "6-6@R")
    assert (match.hand.moves[-1].count, last_points(match)) == (15, 8)
    score = match.move_score(match.hand, 1)
    assert explain(score, match.table) == "3 + 6-6 (12) = 15 → 5 + 3 = 8 to Bob"


@pytest.mark.parametrize("count, points", [
    (3, 1), (5, 1), (6, 2), (9, 3), (10, 2), (12, 4), (15, 8), (18, 6), (20, 4),
    (0, 0), (1, 0), (2, 0), (4, 0), (7, 0), (8, 0), (11, 0), (13, 0), (14, 0), (16, 0)])
def test_a_count_scores_its_fifths_and_its_thirds(count, points):
    assert FIVES_AND_THREES.points(count) == points


def test_a_side_on_59_laying_its_last_tile_for_2_busts_and_stays_on_59():
    match = play(side_on(59), "3-3")  # 6 → 2, + 1 for going out = 3: 62 would pass 61
    assert match.scores[ANN] == 59 and match.winner is None
    assert match.hands[-2].moves[-1].bust and match.hands[-2].result == "domino"
    assert "bust" in explain(match.move_score(match.hands[-2], 0), match.table)


def test_a_side_on_58_laying_its_last_tile_for_2_reaches_61_and_wins():
    match = play(side_on(58), "3-3")
    assert match.scores[ANN] == 61 and match.winner == ANN and match.hand.result == "won"


# -- the rows of RULESETS.md's table that differ from all-fives -----------------------

def test_a_player_may_knock_while_tiles_sleep_but_never_draw():
    match = play(fives_and_threes(), "5-5")
    assert match.hand.boneyard == 14 and match.can_pass and not match.can_draw
    play(match, "pass")
    assert match.turn == ANN
    with pytest.raises(IllegalMove, match="nobody draws them"):
        play(match, "draw")


def test_in_all_fives_the_same_pass_is_refused_while_the_boneyard_has_tiles():
    with pytest.raises(IllegalMove, match="must draw first"):
        play(new_match(2), "5-5", "pass")


def test_a_count_that_is_no_multiple_of_five_scores_its_thirds():
    assert last_points(play(fives_and_threes(), "6-3")) == 3
    assert last_points(play(new_match(2), "6-3")) == 0
    assert last_points(play(fives_and_threes(), "5-2")) == 0  # 7: neither


def test_chipping_out_scores_one_more_and_the_next_seat_leads():
    match = play(fives_and_threes(hand_size=2), "5-5", "5-1@L", "5-4@R")  # ends 1 + 4 = 5
    hand = match.hands[0]
    assert hand.result == "domino" and hand.winner == ANN
    assert hand.moves[-1].points == 1 + 1
    assert explain(match.move_score(hand, 2), match.table) == \
        "1 + 4 = 5 → 1, + 1 for going out = 2 to Ann"
    assert match.phase == "lead" and match.turn == BOB and len(match.hands) == 2


def test_no_pips_are_entered_when_a_hand_ends():
    match = play(fives_and_threes(hand_size=2), "5-5", "5-1@L", "5-0@R")
    assert match.needed_remaining() == ([], [])
    with pytest.raises(HandNotOver):
        match.end_hand({BOB: 1})


def test_a_blocked_hand_scores_nothing_and_the_next_seat_leads():
    match = play(fives_and_threes(), "5-5", "pass", "pass")
    assert match.hands[0].result == "blocked" and match.hands[0].points == [2, 0]
    assert match.scores == [2, 0] and match.turn == BOB


def test_partners_skip_a_player_who_is_out_and_score_one_when_both_are_out():
    match = fives_and_threes(4, partnerships=True, hand_size=2)
    play(match, "1-1", "1-2@L", "1-3@R", "2-4@L", "4-5@L")  # Ann is out: no point yet
    assert match.hand.moves[-1].bonus == 0 and match.hand.outcome is None
    play(match, "pass", "pass", "3-6@R")  # Dan is out; Ann is skipped
    assert match.turn == BOB and match.hand.outcome is None
    play(match, "6-0@R")  # ends 5 and 0 = 5 → 1, and Bob & Dan are both out: + 1
    hand = match.hands[0]
    assert hand.result == "domino" and hand.winner == 1 and hand.moves[-1].points == 2
    assert hand.moves[-1].bonus == 1 and match.turn == BOB  # next seat after Ann leads


def test_partners_still_holding_tiles_who_all_knock_block_the_hand():
    match = fives_and_threes(4, partnerships=True, hand_size=2)
    play(match, "1-1", "1-2@L", "1-3@R", "2-4@L", "4-5@L", "pass", "pass", "pass")
    assert match.hands[0].result == "blocked" and len(match.hands) == 2


def test_the_default_target_is_61_for_individuals_and_pairs_alike():
    for players, partnerships in ((2, False), (3, False), (4, False), (4, True)):
        match = Match.create(NAMES[:players], partnerships, rules=FIVES_AND_THREES)
        assert match.table.target == 61
        assert Match.create(NAMES[:players], partnerships).table.target in (200, 250)


def test_a_play_past_the_target_busts_where_all_fives_would_win():
    match = play(side_on(59), "6-6")  # 12 → 4 (+1): 64 would pass 61
    assert match.scores[ANN] == 59
    all_fives = play(new_match(2, target=5), "5-5")
    assert all_fives.winner == ANN and all_fives.scores[ANN] == 10


def test_the_starter_is_asked_once_and_then_moves_round_the_table():
    match = lead_hands(fives_and_threes(3, starter=CAT, hand_size=1), "0-1", "0-2", "0-3")
    assert [hand.starter for hand in match.hands] == [CAT, ANN, BOB, CAT]
    with pytest.raises(IllegalStart, match="the lead moves to the next seat"):
        match.start(ANN)
    match.start(CAT)  # naming the starter the rules give is accepted


# -- §3 decisions ---------------------------------------------------------------------

def test_a_tile_that_goes_out_and_hits_the_target_wins_the_hand_and_the_match():
    match = play(side_on(58), "3-3")
    assert match.hand.outcome.how == "won" and match.hand.outcome.side == ANN
    with pytest.raises(MatchOver):
        play(match, "0-1")


def test_a_bust_scores_neither_the_count_nor_the_point_for_going_out():
    match = play(side_on(59), "3-3")
    played = match.hands[-2].moves[-1]
    assert (played.points, played.bonus, played.bust) == (0, 1, True)


def test_the_first_partner_out_earns_no_point():
    match = fives_and_threes(4, partnerships=True, hand_size=2)
    play(match, "1-1", "1-2@L", "1-3@R", "2-4@L", "4-5@L")  # ends 5 and 3 = 8
    assert match.hand.moves[-1].points == 0


def test_the_lead_is_never_a_knock():
    with pytest.raises(IllegalMove, match="the lead must be a tile, not a pass"):
        play(fives_and_threes(), "pass")


# -- records ---------------------------------------------------------------------------

def record(hands, players=("Ann", "Bob"), **fields) -> dict:
    return {"format": FORMAT, "players": list(players), "rules": "fives-and-threes",
            **fields, "hands": hands}


def read(doc):
    return read_record(load_record(json.dumps(doc)))


def test_a_record_names_its_rule_set_and_reads_back_the_same():
    match = play(fives_and_threes(hand_size=2), "5-5", "5-1@L", "5-0@R", "6-6")
    doc = write_record(match)
    assert doc["rules"] == "fives-and-threes" and "remaining" not in doc["hands"][0]
    assert read(doc).log == match.log


def test_an_all_fives_record_does_not_name_its_rule_set():
    assert "rules" not in write_record(new_match(2))
    assert read({"format": FORMAT, "players": ["Ann", "Bob"], "hands": []}).table.rules \
        is ALL_FIVES


def test_an_unknown_rule_set_makes_the_record_unreadable():
    with pytest.raises(UnreadableRecord, match="sniff.* is not a rule set: the rule sets "
                                               "are all-fives, all-fives-spinner"):
        read(record([], rules="sniff"))


def test_remaining_in_a_fives_and_threes_hand_is_illegal():
    doc = record([{"starter": "Ann", "moves": ["5-5", "pass", "pass"],
                   "remaining": {"Ann": 20, "Bob": 30}}])
    with pytest.raises(IllegalRecord, match="hand 1, remaining: no pips are entered in "
                                            "fives-and-threes"):
        read(doc)


@pytest.mark.parametrize("moves", [
    ["1-2", "2-3"],  # Ann chips out with her only tile; Bob's 2-3 comes after the end
    ["1-2", "pass"],
])
def test_a_move_after_a_chip_out_is_illegal_in_the_hand_that_ended(moves):
    doc = record([{"starter": "Ann", "moves": moves}], hand_size=1)
    with pytest.raises(IllegalRecord, match="hand 1, move 2 .*: hand 1 is already over"):
        read(doc)
    doc["hands"].append({"moves": []})
    with pytest.raises(IllegalRecord, match="hand 1, move 2"):
        read(doc)


def test_a_move_after_a_blocked_hand_is_illegal_in_the_hand_that_ended():
    doc = record([{"starter": "Cat", "moves": ["4-2", "pass", "pass", "pass", "6-2"]}],
                 players=("Ann", "Bob", "Cat", "Dan"), partnerships=True, hand_size=1,
                 target=5)
    with pytest.raises(IllegalRecord, match="hand 1, move 5 .*: hand 1 is already over"):
        read(doc)


def test_the_first_hand_needs_a_starter_and_later_ones_need_none():
    with pytest.raises(IllegalRecord, match="the first hand needs a starter"):
        read(record([{"moves": ["5-5"]}]))
    match = read(record([{"starter": "Ann", "moves": ["5-5", "pass", "pass"]},
                         {"moves": ["6-6"]}]))
    assert match.hands[1].starter == BOB


def test_a_later_starter_other_than_the_next_seat_is_illegal():
    doc = record([{"starter": "Ann", "moves": ["5-5", "pass", "pass"]},
                  {"starter": "Ann", "moves": ["6-6"]}])
    with pytest.raises(IllegalRecord, match="hand 2, starter: Bob leads this hand"):
        read(doc)
    doc["hands"][1]["starter"] = "Bob"
    assert read(doc).hands[1].starter == BOB


def test_a_partnership_record_plays_to_61_and_any_seat_may_lead_first():
    doc = record([{"starter": "Dan", "moves": ["5-5"]}], players=NAMES, partnerships=True)
    assert read(doc).hands[0].starter == DAN and read(doc).table.target == 61
