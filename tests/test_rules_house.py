"""House rules from league rule sheets (RULESETS.md §5): `last_tile_point` and
`win_on_the_down`, every worked example and every decision, in play, in records and in
`replay`."""

import json

import pytest
from tables import ANN, BOB, CAT, NAMES, last_explanation, play
from test_replay_cli import replay

from scorekeeper.rules import ALL_FIVES, FIVES_AND_THREES, OLA_5, Match, SetupError, Table
from scorekeeper.rules.match.record import FORMAT, UnreadableRecord, read_record, write_record
from scorekeeper.rules.setup.rulesets import DEFAULT_HOUSE, HouseRules

NO_DOWN = {"win_on_the_down": False}
NO_LAST_POINT = {"last_tile_point": False}


def fives_and_threes_on(score: int, hand_size: int = 7, **house) -> Match:
    """Two players: Ann on `score`, to lead the next hand. Each of Ann's hands is a lead
    (6-6: 12 → 4, or a smaller tile for the rest) and a knock each: blocked, nobody scores
    for it; each of Bob's a lead of 0-0 (nothing) and two knocks. With one tile each, a
    lead chips out: 6-6 is 4 + 1, and Bob's 0-0 is his + 1."""
    match = Match.create(NAMES[:2], hand_size=hand_size, rules=FIVES_AND_THREES, house=house)
    match.start(ANN)
    if hand_size == 1:
        fives, rest = divmod(score, 5)
        leads = ["6-6"] * fives + [{1: "0-1", 2: "1-2", 3: "3-3", 4: "6-3"}[rest]] * bool(rest)
        after = ("0-0",)
    else:
        fours, rest = divmod(score, 4)
        leads = ["6-6"] * fours + [{1: "1-2", 2: "6-0", 3: "6-3"}[rest]] * bool(rest)
        after = ("pass", "pass", "0-0", "pass", "pass")
    for lead in leads:
        play(match, lead, *after)
    assert match.scores[ANN] == score and match.turn == ANN
    return match


def all_fives_on_240(**house) -> Match:
    """Two players of 14 tiles (no boneyard, so a pass at any time): three hands of Ann
    leading 5-5 (10) and both passing, Ann with the fewest pips (44 against 114: 115 − 45 =
    70): Ann on 240 of 250, to lead."""
    match = Match.create(NAMES[:2], hand_size=14, house=house)
    for _ in range(3):
        match.start(ANN)
        play(match, "5-5", "pass", "pass")
        match.end_hand({ANN: 44, BOB: 114})
    match.start(ANN)
    assert match.scores == [240, 0]
    return match


# -- the worked examples -----------------------------------------------------------

def test_fives_and_threes_a_side_on_57_leading_6_6_would_win_on_the_down_and_scores_nothing():
    match = play(fives_and_threes_on(57, **NO_DOWN), "6-6")  # 12 → 4: 61 on the down
    assert match.scores[ANN] == 57 and match.winner is None
    assert match.turn == BOB  # the hand goes on
    assert last_explanation(match) == ("lead 6-6: 6 + 6 = 12 → 4: not on the down, Ann would "
                                       "win the match: no score")


def test_fives_and_threes_a_side_on_50_leading_6_6_scores_as_usual():
    match = play(fives_and_threes_on(50, **NO_DOWN), "6-6")
    assert match.scores[ANN] == 54


def test_all_fives_a_side_on_240_of_250_leading_5_5_scores_nothing():
    match = play(all_fives_on_240(**NO_DOWN), "5-5")
    assert match.scores[ANN] == 240 and match.winner is None
    assert last_explanation(match) == ("lead 5-5: 5 + 5 = 10 → 10: not on the down, Ann "
                                       "would win the match: no score")


def test_without_the_house_rule_the_same_leads_win():
    assert play(fives_and_threes_on(57), "6-6").winner == ANN
    assert play(all_fives_on_240(), "5-5").winner == ANN


def test_fives_and_threes_no_point_for_the_last_tile_a_player_on_55_chips_out_to_58():
    match = fives_and_threes_on(55, hand_size=2, **NO_LAST_POINT)
    play(match, "4-4", "pass", "4-1@R")  # 4-4 (8) + 1 = 9 → 3; no + 1 for chipping out
    assert match.scores[ANN] == 58
    assert match.hands[-2].result == "domino"  # the tile still ended the hand
    assert last_explanation_of(match.hands[-2], match) == "4-4 (8) + 1 = 9 → 3 to Ann"


def test_with_the_point_for_the_last_tile_the_same_player_reaches_59():
    match = fives_and_threes_on(55, hand_size=2)
    play(match, "4-4", "pass", "4-1@R")
    assert match.scores[ANN] == 59


def last_explanation_of(hand, match: Match) -> str:
    from scorekeeper.rules import explain

    return explain(match.move_score(hand, len(hand.moves) - 1), match.table)


# -- the decisions -----------------------------------------------------------------

def test_only_a_lead_is_stopped_a_later_tile_may_win():
    match = fives_and_threes_on(55, **NO_DOWN)
    play(match, "3-3")  # 6 → 2: 57, not the target: scores
    assert match.scores[ANN] == 57
    play(match, "pass", "3-6@R")  # 3-3 (6) + 6 = 12 → 4: 61, not on the down
    assert match.winner == ANN and match.scores[ANN] == 61


def test_fives_and_threes_a_lead_passing_61_is_a_bust_not_a_down():
    match = play(fives_and_threes_on(58, **NO_DOWN), "6-6")  # 4 → 62
    played = match.hand.moves[-1]
    assert (played.points, played.bust, played.down) == (0, True, False)
    assert "bust" in last_explanation(match) and "down" not in last_explanation(match)


def test_with_one_tile_each_the_lead_is_the_last_tile_and_its_point_counts_toward_the_win():
    """Hand size 1: Ann on 56 leads 6-6, 4 + 1 for chipping out = 61: on the down, so
    neither the count nor the + 1 scores; the tile still ends the hand."""
    match = fives_and_threes_on(56, hand_size=1, **NO_DOWN)
    hand = match.hand
    play(match, "6-6")
    assert match.scores[ANN] == 56 and match.winner is None
    assert (hand.moves[-1].points, hand.moves[-1].bonus, hand.moves[-1].down) == (0, 1, True)
    assert hand.result == "domino" and match.hand is not hand  # Bob leads the next hand
    assert "4 + 1 = 5" in last_explanation_of(hand, match)


def test_all_fives_a_stopped_lead_that_goes_out_still_scores_the_going_out_pips():
    match = Match.create(NAMES[:2], target=10, hand_size=1, house=NO_DOWN)
    match.start(ANN)
    play(match, "5-5")  # 10 would win on the down: nothing; but Ann is out
    assert match.scores == [0, 0] and match.phase == "end"
    match.end_hand({BOB: 12})  # Bob's 12 → 10: the hand's result, not the lead's
    assert match.scores == [10, 0] and match.winner == ANN


def test_no_point_for_the_last_tile_in_partnerships_the_hand_ends_when_both_are_out():
    match = Match.create(NAMES, partnerships=True, hand_size=1, rules=FIVES_AND_THREES,
                         house=NO_LAST_POINT)
    match.start(ANN)
    play(match, "6-2")  # 8: nothing; Ann is out first, and nothing for that either
    assert match.phase == "play"
    play(match, "pass", "2-1@R")  # Cat, Ann's partner, is out too: the hand ends, no + 1
    hand = match.hands[0]
    assert hand.result == "domino" and hand.moves[-1].bonus == 0
    assert hand.moves[-1].points == 0 and match.scores == [0, 0]  # 6 + 1 = 7: nothing
    assert hand.moves[-1].seat == CAT


def test_the_screens_and_records_name_only_the_rules_switched():
    table = Table.create(NAMES[:2], rules=FIVES_AND_THREES, house={**NO_DOWN, **NO_LAST_POINT})
    assert table.house.as_dict() == {"last_tile_point": False, "win_on_the_down": False}
    assert table.house.switched() == ["no point for the last tile", "no win on the down"]
    assert Table.create(NAMES[:2]).house is DEFAULT_HOUSE and DEFAULT_HOUSE.switched() == []


# -- records --------------------------------------------------------------------------

def record(moves=("6-6",), **fields) -> dict:
    return {"format": FORMAT, "players": ["Ann", "Bob"], **fields,
            "hands": [{"starter": "Ann", "moves": list(moves)}]}


def test_a_record_names_its_house_rules_and_reads_back_the_same_match():
    doc = record(rules="fives-and-threes", target=16, house=NO_DOWN)
    match = read_record(doc)
    assert match.table.house == HouseRules(win_on_the_down=False)
    written = write_record(match)
    assert written["house"] == NO_DOWN and read_record(written).log == match.log


def test_a_record_without_house_rules_writes_none():
    assert "house" not in write_record(read_record(record()))
    assert read_record(record(house=None)).table.house is DEFAULT_HOUSE
    assert read_record(record(house={})).table.house is DEFAULT_HOUSE


@pytest.mark.parametrize(("fields", "kind"), [
    ({"house": {"last_tile_point": True}}, "house_rule_not_here"),
    ({"rules": "ola-5", "house": {"last_tile_point": False}}, "house_rule_not_here"),
    ({"house": {"win_on_the_down": None}}, "bad_house_value"),
    ({"house": {"win_on_the_down": "false"}}, "bad_house_value"),
    ({"house": {"win_on_the_down": 0}}, "bad_house_value"),
    ({"house": {"no_spinners": True}}, "unknown_house_rule"),
    ({"house": ["win_on_the_down"]}, "bad_house"),
])
def test_a_house_rule_that_is_not_one_of_this_game_is_a_setup_error(fields, kind):
    with pytest.raises(UnreadableRecord) as refused:
        read_record(record(**fields))
    assert refused.value.kind == kind


def test_the_engine_refuses_a_house_rule_its_rule_set_does_not_have():
    with pytest.raises(SetupError):
        Table.create(NAMES[:2], rules=OLA_5, house=HouseRules(last_tile_point=False))
    assert ALL_FIVES.house_options == ("win_on_the_down",)
    assert FIVES_AND_THREES.house_options == ("last_tile_point", "win_on_the_down")


def test_replay_says_the_house_rules_and_scores_by_them(tmp_path):
    path = tmp_path / "house.json"
    path.write_text(json.dumps(record(["5-5"], target=10, house=NO_DOWN)))
    told = replay(path)
    assert told.returncode == 0, told.stderr
    assert "House rules: no win on the down" in told.stdout
    assert "not on the down, Ann would win the match: no score" in told.stdout
    summary = json.loads(replay("--json", path).stdout)
    assert summary["house"] == NO_DOWN and summary["winner"] is None


def test_replay_refuses_a_bad_house_rule_as_a_setup_error(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record(house={"win_on_the_down": None})))
    told = replay(path)
    assert told.returncode == 2
    assert "win_on_the_down must be true or false, not None" in told.stderr
