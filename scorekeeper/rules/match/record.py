"""The `allfives-match/1` match record: reading it into a Match, and writing one out.

A record holds only facts from the table; scores are always computed from it.
"""

import json

from ..errors import N_, HandOver, Refusal, RuleError, SetupError
from ..hands.run import play_run
from ..notation.events import PARSED_MOVES, Remaining, Start, move_text, parse_move
from ..notation.tiles import parse_tile, tile_text
from ..setup.rulesets import (
    ALL_FIVES,
    NAMED_EVERY_HAND,
    NEXT_SEAT,
    NO_PIPS,
    NO_SPINNER,
    WINNER_LEADS,
    find_rule_set,
)
from ..setup.table import Table
from ..words import Phrase
from .match import Match

FORMAT = "allfives-match/1"
JSON_REASONS = (
    N_("Expecting value"),
    N_("Expecting property name enclosed in double quotes"),
    N_("Expecting ':' delimiter"),
    N_("Expecting ',' delimiter"),
    N_("Unterminated string starting at"),
    N_("Invalid control character at"),
    N_("Invalid \\escape"),
    N_("Invalid \\uXXXX escape"),
    N_("Extra data"),
)
"""Why the JSON reader stopped, in its own words, which the catalogue translates."""


class UnreadableRecord(Refusal):
    """A document that is not an allfives-match/1 record (bad JSON, format or field)."""

    kind = "unreadable_record"

    @classmethod
    def because(cls, error: Refusal) -> "UnreadableRecord":
        """The record is unreadable for the reason a setup refusal gives, worded as it is."""
        unreadable = cls(error.message, error.kind, **error.facts)
        unreadable.template, unreadable.plural = error.template, error.plural
        unreadable.number = error.number
        return unreadable


class IllegalRecord(RuleError):
    """A readable record whose table events break a rule; the message starts with the place.

    `place` is worded from `place_template` and `place_facts`, the reason by `cause`.
    """

    def __init__(self, place_template: str, cause: RuleError, **place_facts):
        place = place_template % place_facts
        super().__init__(f"{place}: {cause.message}", kind=cause.kind, **cause.facts)
        self.template = N_("%(place)s: %(reason)s")  # worded by the app: the place, the cause
        self.place, self.place_template, self.place_facts = place, place_template, place_facts
        self.cause = cause


def load_record(text: str | bytes) -> dict:
    """Parse the JSON text of a record into a document (not yet checked)."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        raise UnreadableRecord.worded(N_("not JSON: %(detail)s"), "not_json", detail=Phrase(
            N_("%(reason)s: line %(line)s column %(column)s (char %(char)s)"),
            reason=Phrase(error.msg), line=error.lineno, column=error.colno,
            char=error.pos)) from None
    except UnicodeDecodeError:
        raise UnreadableRecord.worded(N_("not JSON: not UTF-8 text"), "not_json") from None
    except RecursionError:
        raise UnreadableRecord.worded(N_("not JSON: nested too deeply"), "not_json") from None
    if not isinstance(doc, dict):
        raise UnreadableRecord.worded(N_("a record is a JSON object with format, players and "
                                         "hands"), "not_an_object")
    return doc


def read_record(doc: dict, pending_pips: bool = False) -> Match:
    """The match a record describes, each event checked by the rules.

    With pending_pips, the last hand may have ended without its `remaining`: the
    app exports a match that way while the table is still counting the pips.
    """
    if doc.get("format") != FORMAT:
        shown = repr(doc.get("format"))
        raise UnreadableRecord.worded(N_('"format" must be "%(format)s", not %(given)s'),
                                      "wrong_format", format=FORMAT,
                                      given=shown if len(shown) <= 40 else shown[:37] + "...")
    for field in ("players", "hands"):
        if field not in doc:
            raise UnreadableRecord.worded(N_('the record has no "%(field)s"'), "missing_field",
                                          field=field)
    if not isinstance(doc["hands"], list):
        raise UnreadableRecord.worded(N_('"hands" must be a list of hands'), "hands_not_list")
    try:
        rules = find_rule_set(doc.get("rules", ALL_FIVES.name))
        table = Table.create(doc["players"], doc.get("partnerships", False),
                             doc.get("target"), doc.get("hand_size"), rules, doc.get("house"))
    except SetupError as error:
        raise UnreadableRecord.because(error) from None
    match = Match(table)
    for number, hand in enumerate(doc["hands"], 1):
        if not isinstance(hand, dict) or not isinstance(hand.get("moves"), list):
            raise UnreadableRecord.worded(N_('hand %(hand)s needs "moves", a list of moves'),
                                          "hand_without_moves", hand=number)
        last = number == len(doc["hands"])
        _read_hand(match, number, hand, pending_pips and last)
    return match


def _read_hand(match: Match, number: int, hand: dict, pending_pips: bool) -> None:
    try:
        _read_starter(match, number, hand.get("starter"))
    except RuleError as error:
        raise IllegalRecord(N_("hand %(hand)s, starter"), error, hand=number) from None
    texts = hand["moves"]
    # Moves already read are taken from the cache (None: read it when its turn comes);
    # runs of plain moves on a line go through `play_run`, the rest through the full rules.
    try:
        events = list(map(PARSED_MOVES.get, texts))
    except TypeError:  # a move that is a list or an object: no text, so nothing cached
        events = [PARSED_MOVES.get(text) if text.__class__ is str else None for text in texts]
    runs = match.table.rules.spinners == NO_SPINNER
    index = 0
    while index < len(texts):
        if runs and len(match.hands) == number:  # not once the rules opened the next hand
            index += play_run(match, events, index)
            if index == len(texts):
                break
        _read_move(match, number, index + 1, texts[index], events[index])
        index += 1
    if pending_pips and match.phase == "end" and hand.get("remaining") is None:
        return
    try:
        _read_remaining(match, hand.get("remaining"))
    except RuleError as error:
        raise IllegalRecord(N_("hand %(hand)s, remaining"), error, hand=number) from None


def _read_move(match: Match, number: int, index: int, text, move) -> None:
    """Apply move `index` of hand `number` by the full rules; the refusal names the place."""
    try:
        if len(match.hands) > number:  # the hand ended and the rules opened the next one
            raise HandOver.worded(N_("hand %(hand)s is already over: a later move "
                                     "belongs to the next hand"), "hand_over", hand=number)
        match.push(move or parse_move(text))
    except RuleError as error:
        seat = match.turn  # nobody's turn once the hand or the match is over
        written = text if isinstance(text, str) and text.isprintable() else repr(text)
        written = written if len(written) <= 40 else written[:37] + "..."
        who = f"{match.table.players[seat]} {written}" if seat is not None else written
        raise IllegalRecord(N_("hand %(hand)s, move %(move)s (%(who)s)"), error,
                            hand=number, move=index, who=who) from None


def _read_starter(match: Match, number: int, starter) -> None:
    phase = match.phase
    if phase == "over":
        raise match.over_error()
    # A hand that was started but has no moves has not ended either: each record hand is new.
    if phase in ("play", "end") or (phase == "lead" and len(match.hands) < number):
        raise RuleError.worded(N_("hand %(hand)s has not ended"), "hand_under_way",
                               hand=number - 1)
    if starter is None:
        if phase == "start":
            raise RuleError.worded(_STARTER_NEEDED[match.table.rules.starter], "starter_needed")
        return
    if not isinstance(starter, str):
        shown = repr(starter) if len(repr(starter)) <= 40 else repr(starter)[:37] + "..."
        raise RuleError.worded(N_("the starter must be a player's name, not %(shown)s"),
                               "unknown_player", name=str(starter), shown=shown)
    match.push(Start(match.table.seat_of(starter)))


_STARTER_NEEDED = {
    WINNER_LEADS: N_("say who leads: the first hand and a hand after a blocked hand need a "
                     "starter"),
    NAMED_EVERY_HAND: N_("say who leads: every hand needs a starter"),
    NEXT_SEAT: N_("say who leads: the first hand needs a starter"),
}


def _read_remaining(match: Match, remaining) -> None:
    if remaining is not None and match.table.rules.pips_entered == NO_PIPS:
        raise RuleError.worded(N_("no pips are entered in %(rules)s: a hand ends without "
                                  "\"remaining\""), "remaining_not_expected",
                               rules=match.table.rules.name)
    if match.phase != "end":
        if remaining is not None:
            template = (N_("no pips are entered for this hand: the match ended in it")
                        if match.is_over() else
                        N_("no pips are entered for this hand: it has not ended"))
            raise RuleError.worded(template, "remaining_not_expected")
        return
    if not isinstance(remaining, dict):
        required, _ = match.needed_remaining()
        names = ", ".join(match.table.players[seat] for seat in required)
        raise RuleError.worded(N_("the hand ended: the pips left with %(names)s are needed"),
                               "pips_needed", names=names)
    held = {}
    table = match.table
    for name, value in remaining.items():
        seat = table.seat_of(name)
        if isinstance(value, list):
            value = tuple([parse_tile(item) if isinstance(item, str) else item
                           for item in value])
        held[seat] = value
    match.push(Remaining.of(held))


def write_record(match: Match) -> dict:
    """The record of a match; reading it back gives the same log."""
    table = match.table
    hands = []
    for hand in match.hands:
        if not hand.moves and not hand.announced:
            continue
        entry = {"starter": table.players[hand.starter]} if hand.announced else {}
        entry["moves"] = [move_text(played.move) for played in hand.moves]
        if hand.remaining is not None:
            entry["remaining"] = {table.players[seat]: _held_value(value)
                                  for seat, value in hand.remaining.items()}
        hands.append(entry)
    rules = {} if table.rules is ALL_FIVES else {"rules": table.rules.name}  # absent: all-fives
    house = {"house": table.house.as_dict()} if not table.house.is_default else {}
    return {"format": FORMAT, **rules, "players": list(table.players),
            "partnerships": table.partnerships, "target": table.target,
            "hand_size": table.hand_size, **house, "hands": hands}


def _held_value(value):
    if isinstance(value, tuple):
        return [item if isinstance(item, str) else tile_text(item) for item in value]
    return value

