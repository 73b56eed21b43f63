"""Reading and writing `allfives-match/1` records (RECORD_FORMAT.md)."""

import json
import random

import pytest
from simulation import play_match, random_table

from scorekeeper.rules import RuleError, Start
from scorekeeper.rules.match.record import (
    FORMAT,
    IllegalRecord,
    UnreadableRecord,
    load_record,
    read_record,
    write_record,
)

# Hand 1 of a two-player match is blocked at once: Ann leads 0-0, Bob draws the boneyard
# dry, both pass. Ann's 6 tiles hold 20 pips, Bob's 21 the other 148.
BLOCKED_AT_ONCE = {"starter": "Ann", "moves": ["0-0", "draw 14", "pass", "pass"],
                   "remaining": {"Ann": 20, "Bob": 148}}
# With hand size 2, Ann goes out at her second tile; Bob drew once and holds two tiles.
ANN_GOES_OUT = ["2-1", "draw", "1-1@R", "2-6@L"]
ANN_GOES_OUT_4 = ["2-1", "draw", "1-1@R", "draw", "2-2@L", "draw", "1-4@R", "4-3@R"]


def record(hands, players=("Ann", "Bob"), **fields) -> dict:
    return {"format": FORMAT, "players": list(players), **fields, "hands": hands}


def read(doc):
    """Read a record the way the app and `replay` do: from JSON text."""
    return read_record(load_record(json.dumps(doc)))


def refused(doc) -> IllegalRecord:
    with pytest.raises(IllegalRecord) as caught:
        read(doc)
    error = caught.value
    assert isinstance(error, RuleError)
    assert error.message.startswith(f"{error.place}: ")
    assert error.kind == error.cause.kind
    return error


# -- round trip -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_a_real_match_survives_the_round_trip(seed):
    rng = random.Random(seed)
    match = play_match(rng, random_table(rng))
    doc = json.loads(json.dumps(write_record(match)))
    again = read_record(doc)
    assert again.log == match.log
    assert again.scores == match.scores and again.winner == match.winner
    assert write_record(again) == doc


def test_a_written_record_holds_only_facts_from_the_table():
    match = read(record([{"starter": "Ann", "moves": ANN_GOES_OUT, "remaining": {"Bob": 12}},
                         {"moves": ["6-4", "4-4@R"]}], hand_size=2))
    assert match.scores == [10 + 10, 0]
    assert write_record(match) == {
        "format": "allfives-match/1", "players": ["Ann", "Bob"], "partnerships": False,
        "target": 250, "hand_size": 2,
        "hands": [{"starter": "Ann", "moves": ["2-1", "draw", "1-1@R", "2-6@L"],
                   "remaining": {"Bob": 12}},
                  {"moves": ["6-4", "4-4@R"]}]}


def test_the_end_a_move_went_on_is_written_even_when_the_record_left_it_out():
    match = read(record([{"starter": "Ann", "moves": ["3-1", "1-4", "6-3", "4-4"]}]))
    assert write_record(match)["hands"][0]["moves"] == ["3-1", "1-4@R", "3-6@L", "4-4@R"]


def test_a_match_not_yet_started_is_a_record_with_no_hands():
    match = read(record([], players=["Ann", "Bob", "Cat"]))
    assert match.phase == "start" and match.log == []
    assert write_record(match) == record([], players=["Ann", "Bob", "Cat"],
                                         partnerships=False, target=200, hand_size=5)


def test_a_record_reads_the_defaults_and_house_rules_it_names():
    match = read(record([], players=["Ann", "Bob", "Cat", "Dan"], partnerships=True))
    assert (match.table.target, match.table.hand_size) == (250, 5)
    match = read(record([], target=61, hand_size=3))
    assert (match.table.target, match.table.hand_size) == (61, 3)


def test_a_partnership_match_reads_move_by_move():
    doc = record([{"starter": "Ann", "moves": ANN_GOES_OUT_4,
                   "remaining": {"Bob": 12, "Dan": ["0-0", "0-3"], "Cat": 20}}],
                 players=["Ann", "Bob", "Cat", "Dan"], partnerships=True, hand_size=2)
    match = read(doc)
    assert match.scores == [15, 0]
    assert match.phase == "lead" and match.turn == 0


# -- not a record at all: UnreadableRecord ------------------------------------------------------


@pytest.mark.parametrize("text, message", [
    ("{", "not JSON"),
    (b"\xff\xfe{}", "not JSON"),
    ("[" * 100_000, "not JSON"),
    ("[]", "a record is a JSON object"),
    ('"allfives-match/1"', "a record is a JSON object"),
], ids=["truncated", "not-utf8", "too-deep", "list", "string"])
def test_text_that_is_not_a_json_object_is_unreadable(text, message):
    with pytest.raises(UnreadableRecord, match=message):
        read_record(load_record(text))


def without(field: str) -> dict:
    doc = record([])
    del doc[field]
    return doc


@pytest.mark.parametrize("doc, message", [
    (without("format"), '"format" must be "allfives-match/1", not None'),
    (record([]) | {"format": "allfives-match/2"}, "not 'allfives-match/2'"),
    (without("players"), 'the record has no "players"'),
    (without("hands"), 'the record has no "hands"'),
    (record({}), '"hands" must be a list of hands'),
    (record("5-5"), '"hands" must be a list of hands'),
    (record([5]), 'hand 1 needs "moves", a list of moves'),
    (record([{"starter": "Ann"}]), 'hand 1 needs "moves", a list of moves'),
    (record([{"starter": "Ann", "moves": "5-5"}]), 'hand 1 needs "moves", a list of moves'),
    (record([{"starter": "Ann", "moves": ["6-6"]}, {"moves": None}]),
     'hand 2 needs "moves", a list of moves'),
    (record([], players=["Ann"]), "a match needs 2 to 4 players, not 1"),
    (record([], players="Ann, Bob"), "a match needs 2 to 4 players"),
    (record([], players=["Ann", "ann"]), "two players are called ann"),
    (record([], players=["Ann", ""]), "every player needs a name"),
    (record([], players=["Ann", "B" * 41]), "at most 40 characters"),
    (record([], target="250"), "the target must be a whole number"),
    (record([], target=0), "the target must be from 5"),
    (record([], hand_size=15), "2 players × 15 tiles does not fit a set of 28"),
    (record([], hand_size=0), "the hand size must be from 1 to 14"),
    (record([], partnerships=True), "partnerships need 4 players, not 2"),
    (record([], partnerships="no"), "partnerships must be true or false"),
], ids=["no-format", "wrong-format", "no-players", "no-hands", "hands-object",
        "hands-string", "hand-not-object", "no-moves", "moves-string", "moves-null",
        "one-player", "players-string", "same-name", "empty-name", "long-name",
        "target-string", "target-zero", "hand-size-big", "hand-size-zero",
        "partnerships-two", "partnerships-string"])
def test_a_document_missing_or_misshaping_a_field_is_unreadable(doc, message):
    with pytest.raises(UnreadableRecord, match=message):
        read(doc)


# -- a move the rules refuse: IllegalRecord starting with the place ---------------------------


def test_the_message_names_the_hand_the_move_and_the_player():
    doc = record([BLOCKED_AT_ONCE,
                  {"starter": "Ann",
                   "moves": ["6-1", "draw", "1-3@R", "3-4", "4-0", "0-3", "4-2", "3-3"]}])
    error = refused(doc)
    assert error.message == "hand 2, move 7 (Bob 4-2): 4-2 matches neither open end (6 and 3)"
    assert error.place == "hand 2, move 7 (Bob 4-2)"
    assert error.kind == "no_fit"


@pytest.mark.parametrize("moves, message", [
    (["draw"], "hand 1, move 1 (Ann draw): Ann leads: the lead must be a tile, not a draw"),
    (["pass"], "hand 1, move 1 (Ann pass): Ann leads: the lead must be a tile, not a pass"),
    (["5-5", "pass"],
     "hand 1, move 2 (Bob pass): Bob must draw first: 14 tiles are left in the boneyard"),
    (["5-5", "draw 15"],
     "hand 1, move 2 (Bob draw 15): Bob cannot draw 15: only 14 left in the boneyard"),
    (["5-5", "draw 14", "draw"],
     "hand 1, move 3 (Bob draw): Bob cannot draw: the boneyard is empty, so Bob passes"),
    (["5-5", "draw 0"],
     "hand 1, move 2 (Bob draw 0): draw 0 draws nothing: write draw, or draw and a number"),
    (["5-5", "5-0", "0-5"], "hand 1, move 3 (Ann 0-5): 0-5 was already laid in this hand"),
    (["3-1", "3-5@R"], "hand 1, move 2 (Bob 3-5@R): 3-5 does not fit the right end (1)"),
    (["3-1", "1-4", "4-3"],
     "hand 1, move 3 (Ann 4-3): 4-3 fits both ends with different results: say which end"),
    (["3-1", "jump"],
     "hand 1, move 2 (Bob jump): 'jump' is not a move: write a tile like 3-5, draw or pass"),
    (["3-1", 31], "hand 1, move 2 (Bob 31): 31 is not a move: write a tile like 3-5, draw or "
                   "pass"),
    (["3-1", "3-7"],
     "hand 1, move 2 (Bob 3-7): 3-7 is not in a double-six set: pips go from 0 to 6"),
    (["3-1", "3-5@X"], "hand 1, move 2 (Bob 3-5@X): '3-5@X' names no end: write @L or @R "
                       "after the tile, or the laid tile it touches, like 3-1@5-3"),
    (["3-1", "3-5@3-1"], "hand 1, move 2 (Bob 3-5@3-1): 3-5@1-3 names a laid tile, but this "
                         "game has no spinners: the ends are L and R"),
], ids=["lead-draw", "lead-pass", "pass-with-boneyard", "draw-too-many", "draw-empty",
        "draw-zero", "laid-twice", "wrong-end", "which-end", "not-a-move", "number",
        "not-in-set", "bad-end", "tile-end-without-spinners"])
def test_a_move_the_rules_refuse_makes_the_record_illegal(moves, message):
    assert refused(record([{"starter": "Ann", "moves": moves}])).message == message


def test_a_move_after_a_player_went_out_is_refused():
    error = refused(record([{"starter": "Ann", "moves": ANN_GOES_OUT + ["6-6"],
                             "remaining": {"Bob": 12}}], hand_size=2))
    assert error.message.startswith("hand 1, move 5 (6-6): the hand is over")
    assert error.kind == "hand_over"


def test_a_move_after_every_player_passed_is_refused():
    hand = BLOCKED_AT_ONCE | {"moves": BLOCKED_AT_ONCE["moves"] + ["pass"]}
    assert refused(record([hand])).message.startswith("hand 1, move 5 (pass): the hand is over")


def test_a_move_after_the_target_is_reached_is_refused():
    error = refused(record([{"starter": "Ann", "moves": ["5-5", "5-0"]}], target=10))
    assert error.message == "hand 1, move 2 (5-0): the match is over: Ann reached 10"
    assert error.kind == "match_over"


def test_a_hand_after_the_target_is_reached_is_refused():
    doc = record([{"starter": "Ann", "moves": ["5-5"]}, {"starter": "Bob", "moves": []}],
                 target=10)
    assert refused(doc).message == "hand 2, starter: the match is over: Ann reached 10"


def test_a_match_that_ended_on_the_pips_takes_no_further_hand():
    hands = [{"starter": "Ann", "moves": ANN_GOES_OUT, "remaining": {"Bob": 12}},
             {"moves": ["6-6"]}]
    assert read(record(hands[:1], hand_size=2, target=10)).winner == 0
    error = refused(record(hands, hand_size=2, target=10))
    assert error.message.startswith("hand 2, starter: the match is over")


# -- who leads ------------------------------------------------------------------------------------


@pytest.mark.parametrize("starter, message", [
    (None, "hand 1, starter: say who leads: the first hand and a hand after a blocked hand "
           "need a starter"),
    ("Zed", "hand 1, starter: 'Zed' is not a player at this table (Ann, Bob)"),
    ("ann", "hand 1, starter: 'ann' is not a player at this table (Ann, Bob)"),
    (0, "hand 1, starter: the starter must be a player's name, not 0"),
])
def test_the_first_hand_needs_a_starter_who_is_at_the_table(starter, message):
    hand = {"moves": ["5-5"]} | ({} if starter is None else {"starter": starter})
    assert refused(record([hand])).message == message


def test_the_starter_leads_the_first_hand():
    match = read(record([{"starter": "Bob", "moves": ["5-5", "5-0"]}]))
    assert match.scores == [10, 10]
    assert [played.seat for played in match.hand.moves] == [1, 0]


def test_a_hand_after_a_blocked_hand_needs_a_starter():
    error = refused(record([BLOCKED_AT_ONCE, {"moves": ["6-6"]}]))
    assert error.message.startswith("hand 2, starter: say who leads")
    match = read(record([BLOCKED_AT_ONCE, {"starter": "Bob", "moves": ["6-6"]}]))
    assert match.hand.moves[0].seat == 1


def test_after_going_out_the_starter_may_be_left_out():
    doc = record([{"starter": "Ann", "moves": ANN_GOES_OUT, "remaining": {"Bob": 12}},
                  {"moves": ["6-6", "6-1"]}], hand_size=2)
    match = read(doc)
    assert [played.seat for played in match.hand.moves] == [0, 1]
    assert Start(0) not in match.log[1:], "the winner leads by right: no Start is logged"


def test_after_going_out_a_starter_given_must_be_the_winner():
    hands = [{"starter": "Ann", "moves": ANN_GOES_OUT, "remaining": {"Bob": 12}},
             {"starter": "Ann", "moves": ["6-6"]}]
    assert read(record(hands, hand_size=2)).hand.moves[0].seat == 0
    hands[1]["starter"] = "Bob"
    assert refused(record(hands, hand_size=2)).message == (
        "hand 2, starter: Ann went out last hand and leads this one, not Bob")


@pytest.mark.parametrize("first", [
    {"starter": "Ann", "moves": ["5-5"]},
    {"starter": "Ann", "moves": []},
], ids=["under-way", "not-led"])
@pytest.mark.parametrize("starter", [None, "Ann", "Bob"])
def test_a_hand_cannot_follow_a_hand_that_has_not_ended(first, starter):
    second = {"moves": ["6-6"]} | ({} if starter is None else {"starter": starter})
    error = refused(record([first, second]))
    assert error.message == "hand 2, starter: hand 1 has not ended"


def test_a_hand_after_going_out_that_was_not_led_cannot_be_followed():
    hands = [{"starter": "Ann", "moves": ANN_GOES_OUT, "remaining": {"Bob": 12}},
             {"moves": []}, {"moves": ["6-6"]}]
    assert len(read(record(hands[:2], hand_size=2)).hands) == 2
    assert refused(record(hands, hand_size=2)).message == (
        "hand 3, starter: hand 2 has not ended")


# -- what was left in hands ------------------------------------------------------------------------


@pytest.mark.parametrize("remaining, points", [
    ({"Bob": 12}, 10),
    ({"Bob": ["6-6", "0-0"]}, 10),
    ({"Bob": ["0-6", [6, 6]]}, 20),
    ({"Bob": 13, "Ann": 0}, 15),
    ({"Bob": 13, "Ann": []}, 15),
], ids=str)
def test_after_going_out_the_opponents_pips_or_tiles_are_read(remaining, points):
    match = read(record([{"starter": "Ann", "moves": ANN_GOES_OUT, "remaining": remaining}],
                        hand_size=2))
    assert match.scores == [points, 0]
    assert match.phase == "lead"


@pytest.mark.parametrize("remaining", [None, {}, {"Ann": 0}, [12]], ids=str)
def test_after_going_out_the_opponents_pips_are_required(remaining):
    hand = {"starter": "Ann", "moves": ANN_GOES_OUT}
    if remaining is not None:
        hand["remaining"] = remaining
    error = refused(record([hand], hand_size=2))
    assert error.place == "hand 1, remaining"
    assert error.kind == "pips_needed"
    assert "Bob" in error.message


def test_after_going_out_in_partnerships_only_the_opponents_are_required():
    doc = record([{"starter": "Ann", "moves": ANN_GOES_OUT_4, "remaining": {"Bob": 12}}],
                 players=["Ann", "Bob", "Cat", "Dan"], partnerships=True, hand_size=2)
    assert refused(doc).message == (
        "hand 1, remaining: the pips left in Dan's hand are needed")
    doc["hands"][0]["remaining"] = {"Bob": 12, "Dan": 3}
    assert read(doc).scores == [15, 0]


def test_a_blocked_hand_needs_every_players_pips():
    hand = BLOCKED_AT_ONCE | {"remaining": {"Ann": 20}}
    assert refused(record([hand])).message == (
        "hand 1, remaining: the pips left in Bob's hand are needed")
    assert read(record([BLOCKED_AT_ONCE])).scores == [150 - 20, 0]


@pytest.mark.parametrize("remaining, message", [
    ({"Bob": 24}, "Bob cannot hold 24 in 2 tiles: 2 tiles not laid in this hand hold "
                  "1 to 23 pips"),
    ({"Bob": "12"}, "Bob's pips must be a whole number, not '12'"),
    ({"Bob": ["6-6"]}, "Bob holds 2 tiles, not 1"),
    ({"Bob": ["6-6", "1-1"]}, "Bob cannot hold 1-1: it was laid in this hand"),
    ({"Bob": ["6-6", "6-x"]}, "'6-x' is not a tile: write it as two pip numbers, like 3-5"),
    ({"Bob": ["6-6", 66]}, "66 in Bob's hand is not a tile"),
    ({"Bob": 12, "Zed": 3}, "'Zed' is not a player at this table (Ann, Bob)"),
    ({"Bob": 12, "Ann": 5}, "Ann holds no tiles: 0 pips, not 5"),
], ids=["too-many-pips", "text", "count", "laid", "not-a-tile", "number", "stranger",
        "winner"])
def test_impossible_remaining_tiles_make_the_record_illegal(remaining, message):
    error = refused(record([{"starter": "Ann", "moves": ANN_GOES_OUT,
                             "remaining": remaining}], hand_size=2))
    assert error.message == f"hand 1, remaining: {message}"


def test_no_tile_can_be_left_in_two_hands():
    doc = record([{"starter": "Ann", "moves": ["2-1", "draw", "1-1@R", "draw", "2-2@L",
                                                "1-3@R"],
                   "remaining": {"Bob": ["6-6", "0-0"], "Cat": ["6-6", "5-5"]}}],
                 players=["Ann", "Bob", "Cat"], hand_size=2)
    assert refused(doc).message == "hand 1, remaining: 6-6 cannot be in two hands: Bob and Cat"


@pytest.mark.parametrize("remaining", [{"Bob": 12}, {}, []], ids=str)
def test_a_hand_under_way_has_no_remaining(remaining):
    error = refused(record([{"starter": "Ann", "moves": ["5-5"], "remaining": remaining}]))
    assert error.message == (
        "hand 1, remaining: no pips are entered for this hand: it has not ended")


def test_a_hand_the_match_ended_in_has_no_remaining():
    hand = {"starter": "Ann", "moves": ["5-5"]}
    assert read(record([hand], target=10)).winner == 0
    error = refused(record([hand | {"remaining": {"Bob": 12}}], target=10))
    assert error.message == (
        "hand 1, remaining: no pips are entered for this hand: the match ended in it")


def test_a_null_remaining_is_the_same_as_none():
    assert read(record([{"starter": "Ann", "moves": ["5-5"], "remaining": None}])).scores == [
        10, 0]


def test_a_last_hand_awaiting_its_pips_reads_only_when_pending_pips_are_allowed():
    doc = {"format": "allfives-match/1", "players": ["Ann", "Bob"], "hand_size": 1,
           "hands": [{"starter": "Ann", "moves": ["2-4"]}]}
    with pytest.raises(IllegalRecord, match="^hand 1, remaining: the hand ended"):
        read_record(doc)
    match = read_record(doc, pending_pips=True)
    assert match.phase == "end"
    assert write_record(match)["hands"] == doc["hands"]


def test_pending_pips_are_allowed_only_in_the_last_hand():
    doc = {"format": "allfives-match/1", "players": ["Ann", "Bob"], "hand_size": 1,
           "hands": [{"starter": "Ann", "moves": ["2-4"]}, {"moves": []}]}
    with pytest.raises(IllegalRecord, match="^hand 1, remaining"):
        read_record(doc, pending_pips=True)


@pytest.mark.parametrize("move", [[1, 2], {"tile": "1-2"}, 12, None, True])
def test_a_move_that_is_not_text_is_refused_with_its_place(move):
    doc = {"format": "allfives-match/1", "players": ["Ann", "Bob"],
           "hands": [{"starter": "Ann", "moves": ["5-5", move]}]}
    with pytest.raises(IllegalRecord, match=r"^hand 1, move 2 \(Bob "):
        read_record(doc)


def test_a_huge_move_is_refused_at_once_and_on_one_line():
    doc = {"format": "allfives-match/1", "players": ["Ann", "Bob"],
           "hands": [{"starter": "Ann", "moves": ["3-5" + " " * 250_000 + "x\nboom"]}]}
    error = refused(doc)
    assert "\n" not in error.message and len(error.message) < 200
    assert "is not a move" in error.message


def test_a_player_name_with_a_line_break_is_unreadable():
    with pytest.raises(UnreadableRecord, match="line break"):
        read_record({"format": "allfives-match/1", "players": ["Ann", "Bob\nEve"],
                     "hands": []})


# -- rulings of docs/RULINGS.md ------------------------------------------------------

def two_players(*moves: str) -> dict:
    return {"format": "allfives-match/1", "players": ["Ann", "Bob"],
            "hands": [{"starter": "Ann", "moves": list(moves)}]}


def test_an_end_named_on_the_lead_is_ignored():
    match = read_record(two_players("5-3@R"))
    assert [end.value for end in match.hand.ends] == [5, 3]
    assert write_record(match)["hands"][0]["moves"] == ["5-3"]


def test_move_texts_forgive_case_and_spaces():
    match = read_record(two_players("3-5", "DRAW 2", " 5-1 @ r ", "1-2"))
    assert [type(event).__name__ for event in match.log] == ["Start", "Lay", "Draw", "Lay", "Lay"]
    assert match.hand.held == [5, 8]
    assert [end.value for end in match.hand.ends] == [3, 2]


def test_a_tile_that_fits_both_ends_alike_goes_on_the_left():
    match = read_record(two_players("3-3", "3-5"))  # 5 and 3-3 crosswise, either way round
    assert [(end.value, end.double) for end in match.hand.ends] == [(5, False), (3, True)]
    assert match.log[-1].end == "L"
    with pytest.raises(IllegalRecord, match="fits both ends with different results"):
        # ends 3-3 crosswise and 3: 3-0 leaves 0 and 3 on the left, 3-3 and 0 on the right
        read_record(two_players("3-4", "3-3@L", "4-6@R", "6-3@R", "3-0"))
