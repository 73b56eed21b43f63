"""A match as the store keeps it: a row (its head: keys, revision, setup, the league card
that holds it) and an append-only list of entries, an event or an undo each, that fold into
the Match. What a worker keeps of each match, and the JSON of each part."""

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import NamedTuple

from ..rules import ALL_FIVES, Match, RuleError, Table, find_rule_set
from ..rules.notation.events import UNDO, Entry, Event, Undo, event_data, event_from_data

HEAD = "SELECT id, score_key, view_key, revision, setup, held, fixture_id, game FROM matches"
LISTED = "SELECT id, view_key, summary, updated, score_key, setup FROM matches"
"""What the lists of matches show of each (its scoring key fifth, to check it; its setup
names the game)."""


class Head(NamedTuple):
    """A match's row without its log: its keys and its revision (enough to answer a
    scoreboard that has not changed), its setup, read when the match is rebuilt, and the
    league card that links it (its fixture and game) and how that card holds it."""

    id: str
    score_key: str
    view_key: str
    revision: int
    setup: str
    held: str = ""
    fixture_id: int | None = None
    game: int | None = None


class MatchCache:
    """The newest match rebuilt of each stored match, by whose it is (id and scoring key, so
    a match deleted and made again under its id is another) and at which revision.

    What goes in is never changed afterwards and what comes out is a copy, so a request
    may push onto the match it gets while another thread reads the same one. An entry's
    state at a revision never changes (the log is append-only): a kept match behind the
    stored one is brought up to date from the entries written since (services.opened). A match
    is kept with its setup's text: a setup changed since (a name corrected) keeps nothing.
    """

    def __init__(self, size: int = 1024):
        self.size = size
        self._kept: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, whose: tuple[str, str], revision: int,
            setup: str | None = None) -> tuple[int, Match] | None:
        """A copy of the match kept at `revision`, or at the newest kept before it, if it
        was kept with the same `setup` (a league may correct a player's name in it; None:
        whichever)."""
        with self._lock:
            kept = self._kept.get(whose)
            if kept is None or kept[0] > revision or setup not in (None, kept[2]):
                return None
            self._kept.move_to_end(whose)
        return kept[0], kept[1].copy()

    def put(self, whose: tuple[str, str], revision: int, match: Match, setup: str,
            handed_over: bool = False) -> None:
        """Keep a copy of the match at `revision` (of the stored `setup`), unless a later
        one is kept already; `handed_over`: the match itself, which nobody changes any more
        (a written one: the use cases apply a tap to a copy of the match they are given)."""
        match = match if handed_over else match.copy()
        with self._lock:
            kept = self._kept.get(whose)
            if kept is not None and kept[0] > revision:  # a slower request read an older row
                return
            self._kept[whose] = (revision, match, setup)
            self._kept.move_to_end(whose)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)


def event_json(event: Event) -> str:
    """An event as an entry's data column holds it (rules.events is the codec)."""
    return json.dumps(event_data(event))


def entry_of(kind: str, data) -> Entry:
    """An entry row read back: an undo, or the event its data encodes."""
    return UNDO if kind == "undo" else event_from_data(data)


def table_json(table: Table) -> str:
    """The setup of a match; `rules` is left out for all-fives and `house` when no house rule
    is switched, as in every older database."""
    rules = {} if table.rules is ALL_FIVES else {"rules": table.rules.name}
    house = {} if table.house.is_default else {"house": table.house.as_dict()}
    return json.dumps({"players": list(table.players), "partnerships": table.partnerships,
                       "target": table.target, "hand_size": table.hand_size, **rules,
                       **house})


def summary_json(match: Match) -> str:
    """What the list of matches shows, kept beside the log so the list needs no rebuild:
    `hand` is the hand under way or waiting for its starter (0 before the first)."""
    table = match.table
    waiting = match.phase == "start" and bool(match.hands)  # the next hand, not the last
    return json.dumps({"sides": [table.side_name(s) for s in range(len(table.sides))],
                       "scores": match.scores, "winner": match.winner,
                       "target": table.target, "hands": len(match.hands),
                       "hand": len(match.hands) + waiting})


def listed(row) -> dict:
    """A match as the lists show it: its summary (`hand` as an older summary has it), its
    game's name (a catalogue id) from its setup, its addresses and when it was played."""
    summary = json.loads(row["summary"])
    summary.setdefault("hand", summary.get("hands", 0))
    rules = find_rule_set(json.loads(row["setup"]).get("rules", ALL_FIVES.name))
    return dict(summary, game=rules.shown_name, id=row["id"], view_key=row["view_key"],
                updated=row["updated"])


def table_of(setup: str) -> Table:
    setup = json.loads(setup)
    return Table.create(setup["players"], setup["partnerships"], setup["target"],
                        setup["hand_size"], find_rule_set(setup.get("rules", ALL_FIVES.name)),
                        setup.get("house"))


@dataclass(frozen=True)
class Broken:
    """A stored log the rules refuse from one event on (written by an older version, or a
    bug): the match holds the events before it; `later` more were stored after it."""

    position: int
    event: Event
    error: RuleError
    later: int


def apply_entries(match: Match, entries: list[Entry]) -> None:
    """Push each event and pop at each undo, as they were written; the events left after
    the undos go in through one `extend` (runs of moves at speed)."""
    match.extend(_undone(entries, match.pop))


def _undone(entries: list[Entry], before=None) -> list[Event]:
    """The events left once each undo took back the event before it; an undo of an event
    written before these entries calls `before`."""
    events: list[Event] = []
    for entry in entries:
        if not isinstance(entry, Undo):
            events.append(entry)
        elif events:
            events.pop()
        elif before is not None:
            before()
    return events


def takes_back(entries: list[Entry]) -> bool:
    """Whether the entries undo an event written before them."""
    brought = 0
    for entry in entries:
        if not isinstance(entry, Undo):
            brought += 1
        elif brought:
            brought -= 1
        else:
            return True
    return False


def replayed(table: Table, entries: list[Entry]) -> tuple[Match, Broken | None]:
    """The match a whole log folds into; if the rules refuse it, the match as far as it is
    legal and the first event they refuse."""
    events = _undone(entries)
    match = Match(table)
    for position, event in enumerate(events):
        try:
            match.push(event)
        except RuleError as error:
            return match, Broken(position, event, error, len(events) - position - 1)
    return match, None
