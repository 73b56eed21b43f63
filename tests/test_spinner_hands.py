"""The ends of hands, the starters and the records of All Fives with a spinner and Όλα 5
(RULESETS.md table and §3), each read from a record as `scorekeeper replay` reads it."""

import pytest

from scorekeeper.commands.told import summary
from scorekeeper.rules import IllegalMove, Match, explain
from scorekeeper.rules.match.record import IllegalRecord, read_record, write_record

FORMAT = "allfives-match/1"
PLAYERS = ["Ann", "Bob", "Cat", "Dan"]


def record(rules: str, hands: list, players: int = 2, **fields) -> dict:
    return {"format": FORMAT, "rules": rules, "players": PLAYERS[:players], "hands": hands,
            **fields}


def refused(doc: dict) -> IllegalRecord:
    with pytest.raises(IllegalRecord) as error:
        read_record(doc)
    return error.value


def end_text(match: Match, number: int = 1) -> str:
    return explain(match.hands[number - 1].end, match.table)


# Ann leads 2-1; Bob draws two and lays 1-1 (the spinner); Ann goes out with 2-6.
SPINNER_OUT = ["2-1", "draw 2", "1-1", "2-6"]
# Four players, all 28 tiles dealt: Ann leads 5-5 (10) and every player passes.
ALL_PASS = ["5-5", "pass", "pass", "pass", "pass"]


# -- All Fives with a spinner: every player's own rounded pips come off their side --------

def test_going_out_in_all_fives_with_a_spinner_takes_each_players_own_pips_off_their_side():
    match = read_record(record("all-fives-spinner", [
        {"starter": "Ann", "moves": SPINNER_OUT, "remaining": {"Bob": 13}}], hand_size=2))
    assert match.scores == [0, -15]
    assert end_text(match) == "Ann went out. Bob holds 13 → 15: −15 to Bob"
    assert summary(match)["hands"][0]["points"] == [0, -15]


def test_in_partnerships_the_partner_of_the_player_who_went_out_loses_their_own_pips():
    moves = ["2-1", "1-1", "draw", "1-3", "1-4", "2-6"]  # Cat drew one; Ann goes out
    doc = record("all-fives-spinner", [{"starter": "Ann", "moves": moves,
                                        "remaining": {"Bob": 3, "Cat": 7, "Dan": 4}}],
                 players=4, partnerships=True, hand_size=2)
    match = read_record(doc)
    assert match.scores == [5 - 5, -10]  # Cat's 1-3 made 2 + 3 = 5
    assert end_text(match) == ("Ann went out. Bob holds 3 → 5: −5 to Bob & Dan; "
                               "Cat holds 7 → 5: −5 to Ann & Cat; Dan holds 4 → 5: −5 to Bob & Dan")
    del doc["hands"][0]["remaining"]["Cat"]
    assert refused(doc).message == ("hand 1, remaining: the pips left in Cat's hand are "
                                    "needed")


def test_a_player_whose_pips_round_to_nothing_loses_nothing():
    match = read_record(record("all-fives-spinner", [
        {"starter": "Ann", "moves": ["2-1", "1-1", "2-6"], "remaining": {"Bob": 2}}],
        hand_size=2))
    assert match.scores == [0, 0]
    assert end_text(match) == "Ann went out. Bob holds 2 → 0: nothing off Bob"


def test_a_blocked_hand_takes_every_players_own_pips_off_and_scores_go_below_zero():
    match = read_record(record("all-fives-spinner", [
        {"starter": "Ann", "moves": ALL_PASS,
         "remaining": {"Ann": 21, "Bob": 33, "Cat": 41, "Dan": 52}}], players=4, hand_size=7))
    assert match.scores == [10 - 20, -35, -40, -50]
    assert end_text(match) == ("Blocked: Ann holds 21 → 20: −20 to Ann; Bob holds 33 → 35: "
                               "−35 to Bob; Cat holds 41 → 40: −40 to Cat; Dan holds 52 → 50: "
                               "−50 to Dan")
    assert [hand["result"] for hand in summary(match)["hands"]] == ["blocked"]


def test_all_fives_with_a_spinner_deals_nine_seven_or_five_and_plays_to_250_or_200():
    for players, dealt, target in ((2, 9, 250), (3, 7, 200), (4, 5, 200)):
        match = read_record(record("all-fives-spinner", [], players=players))
        assert (match.table.hand_size, match.table.target) == (dealt, target)


def test_after_going_out_the_winner_leads_and_after_a_block_the_table_chooses():
    first = {"starter": "Ann", "moves": SPINNER_OUT, "remaining": {"Bob": 13}}
    assert read_record(record("all-fives-spinner", [first, {"moves": ["6-6"]}],
                              hand_size=2)).hands[1].starter == 0
    error = refused(record("all-fives-spinner", [first, {"starter": "Bob", "moves": []}],
                           hand_size=2))
    assert error.message == ("hand 2, starter: Ann went out last hand and leads this one, "
                             "not Bob")
    blocked = {"starter": "Ann", "moves": ALL_PASS,
               "remaining": {"Ann": 21, "Bob": 33, "Cat": 41, "Dan": 52}}
    assert refused(record("all-fives-spinner", [blocked, {"moves": []}], players=4,
                          hand_size=7)).kind == "starter_needed"
    match = read_record(record("all-fives-spinner", [blocked, {"starter": "Cat", "moves": []}],
                               players=4, hand_size=7))
    assert match.hands[1].starter == 2


# -- Όλα 5: raw pips, target 100, the starter named every hand ------------------------------

def test_example_6_going_out_in_ola_5_takes_the_opponents_pips_unrounded():
    match = read_record(record("ola-5", [
        {"starter": "Ann", "moves": ["2-1", "draw", "1-3", "2-4"],
         "remaining": {"Bob": ["6-5", "1-0"]}}], hand_size=2))
    assert match.hands[0].end.points == 12
    assert end_text(match) == "Ann went out. Bob 12: 12 to Ann"
    assert match.scores == [12, 5]  # Bob's 1-3 made 2 + 3 = 5


def test_a_blocked_hand_in_ola_5_scores_the_others_pips_minus_its_own_unrounded():
    moves = ["5-5", "draw 14", "pass", "pass"]
    match = read_record(record("ola-5", [
        {"starter": "Ann", "moves": moves, "remaining": {"Ann": 12, "Bob": 100}}]))
    assert match.scores == [10 + 88, 0]
    assert end_text(match) == "Blocked: Ann 12 fewest; Bob 100; 100 − 12 = 88 to Ann"
    tied = read_record(record("ola-5", [
        {"starter": "Ann", "moves": ALL_PASS,
         "remaining": {"Ann": 20, "Bob": 20, "Cat": 30, "Dan": 40}}], players=4, hand_size=7))
    assert tied.scores == [10, 0, 0, 0]


def test_a_blocked_hand_in_ola_5_takes_every_other_sides_pips():
    match = read_record(record("ola-5", [
        {"starter": "Ann", "moves": ALL_PASS,
         "remaining": {"Ann": 12, "Bob": 15, "Cat": 20, "Dan": 16}}], players=4, hand_size=7))
    assert match.scores == [10 + 15 + 20 + 16 - 12, 0, 0, 0]


def test_ola_5_plays_to_100_whatever_the_seats_and_deals_seven_or_five():
    for players, partnerships, dealt in ((2, False, 7), (3, False, 5), (4, True, 5)):
        match = read_record(record("ola-5", [], players=players, partnerships=partnerships))
        assert (match.table.hand_size, match.table.target) == (dealt, 100)


def test_ola_5_needs_a_starter_every_hand_and_any_player_may_lead():
    first = {"starter": "Ann", "moves": ["2-1", "draw", "1-3", "2-4"],
             "remaining": {"Bob": 12}}
    error = refused(record("ola-5", [first, {"moves": ["6-6"]}], hand_size=2))
    assert error.kind == "starter_needed" and error.message.startswith("hand 2, starter: ")
    match = read_record(record("ola-5", [first, {"starter": "Bob", "moves": ["6-6"]}],
                               hand_size=2))
    assert (match.hands[1].starter, match.scores) == (1, [12, 5])


# -- records: the rule set, notation and the round trip ------------------------------------

def test_a_spinner_record_reads_back_to_the_same_match_with_its_rule_set():
    doc = record("ola-5", [{"starter": "Ann", "moves": ["3-3", "3-1", "3-5", "3-6", "5-5",
                                                       "6-2", "5-0@5-5"]}])
    match = read_record(doc)
    written = write_record(match)
    assert written["rules"] == "ola-5"
    assert written["hands"][0]["moves"][-2:] == ["2-6@3-6", "5-0@5-5"]
    assert read_record(written).log == match.log


@pytest.mark.parametrize(("rules", "moves", "message"), [
    ("all-fives-spinner", ["6-3", "3-1", "6-1"],
     "hand 1, move 3 (Ann 6-1): 6-1 fits more than one laid tile (3-6, 1-3): say which, "
     "like 6-1@3-6"),
    ("ola-5", ["6-3", "3-5@R"], "hand 1, move 2 (Bob 3-5@R): 3-5@R names a left or right "
                                "end, but this game has spinners: name the laid tile, like "
                                "3-5@3-6"),
    ("ola-5", ["6-6@L"], "hand 1, move 1 (Ann 6-6@L): 6-6@L names a left or right end, but "
                         "this game has spinners: name the laid tile, like 6-6@6-6"),
    ("all-fives", ["6-3@4-4"], "hand 1, move 1 (Ann 6-3@4-4): 6-3@4-4 names a laid tile, but "
                               "this game has no spinners: the ends are L and R"),
    ("ola-5", ["6-3", "3-1", "6-2", "1-5@6-3"],
     "hand 1, move 4 (Bob 1-5@6-3): 3-6 has no open side: every side of it holds a tile"),
], ids=["ambiguous", "left-right-with-spinners", "left-right-on-a-spinner-lead",
        "tile-without-spinners", "no-open-side"])
def test_a_move_with_an_end_the_rules_refuse_makes_the_record_illegal(rules, moves, message):
    assert refused(record(rules, [{"starter": "Ann", "moves": moves}])).message == message


def test_the_right_kind_of_end_named_on_the_lead_is_ignored():
    match = read_record(record("ola-5", [{"starter": "Ann", "moves": ["6-3@1-1"]}]))
    assert write_record(match)["hands"][0]["moves"] == ["6-3"]


def test_a_move_refused_by_the_layout_changes_nothing():
    match = read_record(record("ola-5", [{"starter": "Ann", "moves": ["6-3", "3-3"]}]))
    before = (list(match.log), match.hand.layout, list(match.scores))
    with pytest.raises(IllegalMove):
        match.lay((6, 1), "3-3")
    assert (list(match.log), match.hand.layout, list(match.scores)) == before


def test_the_player_who_went_out_may_be_entered_as_holding_nothing_and_only_nothing():
    hand = {"starter": "Ann", "moves": SPINNER_OUT, "remaining": {"Ann": 0, "Bob": 13}}
    assert read_record(record("all-fives-spinner", [hand], hand_size=2)).scores == [0, -15]
    hand["remaining"]["Ann"] = 5
    assert refused(record("all-fives-spinner", [hand], hand_size=2)).kind == "impossible_pips"
