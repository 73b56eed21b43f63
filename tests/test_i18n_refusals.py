"""Every kind of refusal the engine makes, worded in English, Greek, Czech and Hungarian.

Each case brings the engine to the refusal with real table events. A new kind of
refusal in `scorekeeper/rules/` needs a case here (the last test lists those missing).
"""

import ast
from pathlib import Path

import pytest
from english import english_left
from tables import BOB, CAT, new_match, play

from scorekeeper.rules import (
    ALL_FIVES,
    ALL_FIVES_SPINNER,
    FIVES_AND_THREES,
    OLA_5,
    Draw,
    Match,
    Table,
    find_rule_set,
    parse_move,
    parse_tile,
)
from scorekeeper.rules.errors import Refusal
from scorekeeper.rules.match.record import FORMAT, load_record, read_record
from scorekeeper.rules.notation.events import lay_from_button
from scorekeeper.rules.rulings.referee import read_ends, rule
from scorekeeper.web.scoring.view import refusal

RULES = Path(__file__).resolve().parents[1] / "scorekeeper" / "rules"


def three_player_domino() -> Match:
    """Ann goes out with her second tile; Bob and Cat hold two tiles each."""
    return play(new_match(3, hand_size=2), "0-1", "draw", "1-2@R", "draw", "0-4@L", "2-2@R")


def won() -> Match:
    return play(new_match(2, target=10), "5-5")


CASES = {
    "hand_over": lambda: play(three_player_domino(), "3-3"),
    "starter_needed": lambda: Match.create(["Ann", "Bob"]).draw(),
    "match_over": lambda: won().lay((5, 0)),
    "already_laid": lambda: play(new_match(), "3-6", "6-3"),
    "lead_not_tile": lambda: new_match().pass_turn(),
    "boneyard_empty": lambda: play(new_match(hand_size=14), "6-6").draw(),
    "draw_too_many": lambda: play(new_match(), "3-6").push(Draw(15)),
    "must_draw": lambda: play(new_match(), "3-6", "pass"),
    "hand_under_way": lambda: play(new_match(), "3-6").start(BOB),
    "no_fit": lambda: play(new_match(), "3-6", "1-2"),
    "which_end": lambda: play(new_match(), "2-3", "3-4", "2-4"),
    "wrong_end": lambda: play(new_match(), "3-6", "1-6@L"),
    "pips_needed": lambda: three_player_domino().end_hand({BOB: 12}),
    "impossible_pips": lambda: three_player_domino().end_hand({BOB: 40, CAT: 13}),
    "wrong_tile_count": lambda: three_player_domino().end_hand({BOB: ["6-6"], CAT: 13}),
    "tile_was_laid": lambda: three_player_domino().end_hand({BOB: ["6-6", "1-2"], CAT: 13}),
    "not_a_tile": lambda: lay_from_button("draw"),
    "confusable_name": lambda: Table.create(["Ann", "\u0410nn"]),  # a Cyrillic А
    "name_invisible": lambda: Table.create(["Ann", "\u2800"]),  # a blank braille cell
    "tile_twice": lambda: three_player_domino().end_hand({BOB: ["6-6", "0-0"],
                                                         CAT: ["6-6", "1-1"]}),
}


def record(**fields) -> dict:
    return {"format": FORMAT, "players": ["Ann", "Bob"], "hands": [], **fields}


CASES.update({
    "bad_hand_size": lambda: Table.create(["Ann", "Bob"], hand_size=15),
    "bad_partnerships": lambda: Table.create(["Ann", "Bob", "Cat", "Dan"], partnerships="yes"),
    "bad_target": lambda: Table.create(["Ann", "Bob"], target=4),
    "draw_nothing": lambda: play(new_match(), "3-6").push(Draw(0)),
    "duplicate_name": lambda: Table.create(["Ann", "Ann"]),
    "empty_name": lambda: Table.create(["Ann", " "]),
    "hand_not_over": lambda: new_match().end_hand({BOB: 3}),
    "hand_without_moves": lambda: read_record(record(hands=[{}])),
    "hands_not_list": lambda: read_record(record(hands={})),
    "missing_field": lambda: read_record({"format": FORMAT, "players": ["Ann", "Bob"]}),
    "name_not_printable": lambda: Table.create(["Ann", "B\nob"]),
    "name_too_long": lambda: Table.create(["Ann", "B" * 41]),
    "no_drawing": lambda: play(new_match(rules=FIVES_AND_THREES), "3-6", "draw"),
    "not_a_move": lambda: parse_move("jump"),
    "not_a_number": lambda: Table.create(["Ann", "Bob"], target="61"),
    "not_an_end": lambda: parse_move("3-5@X"),
    "not_an_object": lambda: load_record("[]"),
    "not_in_set": lambda: parse_tile("7-1"),
    "not_json": lambda: load_record("{"),
    "nothing_to_undo": lambda: Match.create(["Ann", "Bob"]).pop(),
    "partnerships_need_four": lambda: Table.create(["Ann", "Bob"], partnerships=True),
    "pips_not_number": lambda: three_player_domino().end_hand({BOB: "x", CAT: 13}),
    "player_count": lambda: Table.create(["Ann"]),
    "remaining_not_expected": lambda: read_record(record(
        rules="fives-and-threes", hands=[{"starter": "Ann", "moves": ["5-5", "pass", "pass"],
                                          "remaining": {"Ann": 20, "Bob": 30}}])),
    "unknown_player": lambda: Table.create(["Ann", "Bob"]).seat_of("Cat"),
    "unknown_rules": lambda: find_rule_set("sniff"),
    "bad_house": lambda: read_record(record(house=["win_on_the_down"])),
    "bad_house_value": lambda: read_record(record(house={"win_on_the_down": "no"})),
    "house_rule_not_here": lambda: read_record(record(house={"last_tile_point": False})),
    "unknown_house_rule": lambda: read_record(record(house={"no_doubles": True})),
    "unknown_seat": lambda: Match.create(["Ann", "Bob"]).start(7),
    "wrong_format": lambda: read_record(record(format="allfives-match/2")),
})


CASES.update({  # open ends posed to the referee that no layout of the game can show
    "bad_open_end": lambda: read_ends("3-5", ALL_FIVES),
    "no_spinners": lambda: read_ends("5-5*", ALL_FIVES),
    "two_ends": lambda: read_ends("3", ALL_FIVES),
    "end_twice": lambda: read_ends("6-6 6-6 3", ALL_FIVES_SPINNER),
    "spinner_sides": lambda: read_ends("5-5* (5-5) 3", ALL_FIVES_SPINNER),
    "too_many_ends": lambda: read_ends(" ".join(["3"] * 13), OLA_5),
    "target_reached": lambda: rule(ALL_FIVES, ("Ann", "Bob"), 250, (), (250, 3), False,
                                   (6, 4)),
})


def winner_leads() -> None:
    match = three_player_domino()
    match.end_hand({BOB: 12, CAT: 13})
    match.start(BOB)


CASES["winner_leads"] = winner_leads


def refused(kind: str) -> Refusal:
    with pytest.raises(Refusal) as caught:
        CASES[kind]()
    assert caught.value.kind == kind
    return caught.value


def worded(app, error: Refusal, lang: str) -> str:
    with app.test_request_context(f"/?lang={lang}"):
        return refusal(error)


@pytest.mark.parametrize("kind", sorted(CASES))
def test_every_refusal_is_worded_in_each_language(app, kind):
    error = refused(kind)
    assert error.template, f"{kind} has no catalogue template: the app cannot translate it"
    assert worded(app, error, "en") == error.message
    for lang in ("el", "cs", "hu"):
        said = worded(app, error, lang)
        assert said != error.message, (lang, said)
        assert english_left(said) == [], (lang, said)
        for fact in ("player", "tile", "starter", "other"):
            if f"%({fact})s" in error.template:
                assert str(error.facts[fact]) in said, (lang, fact, said)


def kinds_worded_by_the_engine() -> set[str]:
    """The kinds `scorekeeper/rules/` passes to RuleError.worded, read from its source."""
    kinds = set()
    for path in RULES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "worded" and len(node.args) >= 2
                    and isinstance(node.args[1], ast.Constant)):
                kinds.add(node.args[1].value)
    return kinds


def test_every_kind_of_refusal_the_engine_words_has_a_case_here():
    assert kinds_worded_by_the_engine() - set(CASES) == set()
