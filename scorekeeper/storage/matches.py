"""Matches in the database (SQLite or PostgreSQL): a setup and an append-only list of
entries (events and undos).

The log a match is rebuilt from is the entries folded in order: an event is
appended, an undo removes the last event. A write names the revision it was made
against, and runs inside the caller's transaction (the unit of work's); what it
rebuilt is kept for the process once that transaction commits.
"""

import hmac
import json
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import NamedTuple

from ..rules import ALL_FIVES, Match, Table, find_rule_set
from ..rules.events import UNDO, Entry, Event, Undo, event_data, event_from_data
from .errors import MatchGone, StaleWrite

HEAD = "SELECT id, score_key, view_key, revision, setup FROM matches"
LISTED = "SELECT id, view_key, summary, updated, score_key FROM matches"
"""What the lists of matches show of each (its scoring key last, to check it)."""


class Head(NamedTuple):
    """A match's row without its log: its keys and its revision (enough to answer a
    scoreboard that has not changed) and its setup, read when the match is rebuilt."""

    id: str
    score_key: str
    view_key: str
    revision: int
    setup: str


@dataclass
class Stored:
    """A match as stored: its ids, its revision (count of entries) and the rebuilt Match."""

    id: str
    score_key: str
    view_key: str
    revision: int
    match: Match


class MatchCache:
    """The newest match rebuilt of each stored match, by whose it is (id and scoring key, so
    a match deleted and made again under its id is another) and at which revision.

    What goes in is never changed afterwards and what comes out is a copy, so a request
    may push onto the match it gets while another thread reads the same one. An entry's
    state at a revision never changes (the log is append-only): a kept match behind the
    stored one is brought up to date from the entries written since (`rebuild`).
    """

    def __init__(self, size: int = 1024):
        self.size = size
        self._kept: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, whose: tuple[str, str], revision: int) -> tuple[int, Match] | None:
        """A copy of the match kept at `revision`, or at the newest kept before it."""
        with self._lock:
            kept = self._kept.get(whose)
            if kept is None or kept[0] > revision:
                return None
            self._kept.move_to_end(whose)
        return kept[0], kept[1].copy()

    def put(self, whose: tuple[str, str], revision: int, match: Match) -> None:
        """Keep a copy of the match at `revision`, unless a later one is kept already."""
        match = match.copy()
        with self._lock:
            kept = self._kept.get(whose)
            if kept is not None and kept[0] > revision:  # a slower request read an older row
                return
            self._kept[whose] = (revision, match)
            self._kept.move_to_end(whose)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)


def event_json(event: Event) -> str:
    """An event as an entry's data column holds it (rules.events is the codec)."""
    return json.dumps(event_data(event))


def _entry(kind: str, data) -> Entry:
    """An entry row read back: an undo, or the event its data encodes."""
    return UNDO if kind == "undo" else event_from_data(data)


def table_json(table: Table) -> str:
    """The setup of a match; `rules` is left out for all-fives, as in every older database."""
    rules = {} if table.rules is ALL_FIVES else {"rules": table.rules.name}
    return json.dumps({"players": list(table.players), "partnerships": table.partnerships,
                       "target": table.target, "hand_size": table.hand_size, **rules})


def summary_json(match: Match) -> str:
    """What the list of matches shows, kept beside the log so the list needs no rebuild."""
    table = match.table
    return json.dumps({"sides": [table.side_name(s) for s in range(len(table.sides))],
                       "scores": match.scores, "winner": match.winner,
                       "target": table.target, "hands": len(match.hands)})


def _table(setup: str) -> Table:
    setup = json.loads(setup)
    return Table.create(setup["players"], setup["partnerships"], setup["target"],
                        setup["hand_size"], find_rule_set(setup.get("rules", ALL_FIVES.name)))


def _apply(match: Match, entries: list[Entry]) -> None:
    """Push each event and pop at each undo, as they were written; the events left after
    the undos go in through one `extend` (runs of moves at speed)."""
    events: list[Event] = []
    for entry in entries:
        if not isinstance(entry, Undo):
            events.append(entry)
        elif events:
            events.pop()
        else:
            match.pop()
    match.extend(events)


def _applied(match: Match, entry: Entry) -> tuple[str, str]:
    """Apply an entry to the match (the rules may refuse it); its row's kind and data."""
    if isinstance(entry, Undo):
        match.pop()
        return "undo", "{}"
    return "event", event_json(match.push(entry))


class MatchRepository:
    """The matches of one connection. Reads stand alone; writes run inside the caller's
    transaction, and `committed` keeps what they rebuilt once it is committed."""

    def __init__(self, conn, cache: MatchCache | None = None):
        self.conn = conn
        self.cache = cache
        self._written: list[Stored] = []

    def committed(self) -> None:
        """The transaction committed: keep the matches its writes rebuilt."""
        if self.cache is not None:
            for stored in self._written:
                self.cache.put((stored.id, stored.score_key), stored.revision, stored.match)
        self._written.clear()

    def rolled_back(self) -> None:
        """The transaction was rolled back: nothing it wrote is kept."""
        self._written.clear()

    # -- reading -------------------------------------------------------------

    def find(self, match_id: str, key: str, scoring: bool, lock: bool = False) -> Head | None:
        """The match's head if `key` is its scoring key (or, when not scoring, its
        scoreboard key); `lock` holds the row until the transaction ends."""
        row = self._keyed(HEAD, match_id, key, 1 if scoring else 2, lock)
        return None if row is None else Head(*row)

    def _keyed(self, select: str, match_id: str, key: str, key_column: int,
               lock: bool = False):
        """The row `select` reads of the match, if `key` is the one in `key_column`. The key
        is compared in constant time; an unknown match and a wrong key look the same."""
        locked = self.conn.dialect.for_update if lock else ""
        row = self.conn.execute(select + " WHERE id = ?" + locked, (str(match_id),)).fetchone()
        expected = "" if row is None else row[key_column]
        if not hmac.compare_digest(expected.encode(), str(key).encode()) or row is None:
            return None
        return row

    def load(self, match_id: str, key: str, scoring: bool) -> Stored | None:
        """The match rebuilt from its log, if the key opens it."""
        head = self.find(match_id, key, scoring)
        return None if head is None else self.rebuild(head)

    def rebuild(self, head: Head) -> Stored:
        """The match of a head, at its revision: from the cache; else the match kept at an
        earlier revision (the entries since were written through another worker) brought up
        to date; else replayed from its whole log."""
        whose, revision, cache = (head.id, head.score_key), head.revision, self.cache
        kept = cache.get(whose, revision) if cache is not None else None
        after, match = kept or (0, Match(_table(head.setup)))
        if kept is None or after < revision:
            entries = self._entries(head.id, after, revision) if after < revision else []
            if entries is None:  # deleted since the row was read: its log is gone, none kept
                match = Match(_table(head.setup))
            else:
                _apply(match, entries)
                if cache is not None:
                    cache.put(whose, revision, match)
        return Stored(head.id, head.score_key, head.view_key, revision, match)

    def _entries(self, match_id: str, after: int, upto: int) -> list[Entry] | None:
        """The entries after revision `after` up to `upto`, never one written after the row
        was read (another process's tap may commit in between; the match would then be kept
        under a revision it is not at); None if some are missing (deleted meanwhile)."""
        rows = self.conn.execute("SELECT kind, data FROM entries WHERE match_id = ? AND seq > ? "
                                 "AND seq <= ? ORDER BY seq", (match_id, after, upto)).fetchall()
        if len(rows) != upto - after:
            return None
        # One json.loads for them all rather than one per entry (each entry is an object).
        datas = json.loads("[" + ",".join(row[1] for row in rows) + "]")
        return [_entry(row[0], data) for row, data in zip(rows, datas, strict=True)]

    def entries_since(self, match_id: str, revision: int) -> list[Entry]:
        """The events and undos written after `revision`, for the other phone's notice."""
        rows = self.conn.execute("SELECT kind, data FROM entries WHERE match_id = ? AND seq > ? "
                                 "ORDER BY seq", (match_id, revision)).fetchall()
        return [_entry(row[0], json.loads(row[1])) for row in rows]

    def listing(self, limit: int = 100) -> list[dict]:
        """Matches on this server, in progress first, most recently played first."""
        rows = self.conn.execute(LISTED + " ORDER BY updated DESC LIMIT ?",
                                 (limit,)).fetchall()
        found = _summaries(rows)
        return sorted(found, key=lambda item: item.get("winner") is not None)

    def summaries(self, match_ids: list[str]) -> dict[str, dict]:
        """The summary and keys of each match named (what a league card shows of its games)."""
        if not match_ids:
            return {}
        marks = ",".join("?" * len(match_ids))
        rows = self.conn.execute(f"SELECT id, score_key, view_key, summary FROM matches "
                                 f"WHERE id IN ({marks})", list(match_ids)).fetchall()
        return {row["id"]: dict(json.loads(row["summary"]), score_key=row["score_key"],
                                view_key=row["view_key"]) for row in rows}

    def matches_by_id(self, match_ids: list[str]) -> dict[str, Match]:
        """The matches named, rebuilt from their logs (a league archive holds their records)."""
        if not match_ids:
            return {}
        marks = ",".join("?" * len(match_ids))
        rows = self.conn.execute(f"{HEAD} WHERE id IN ({marks})", list(match_ids)).fetchall()
        return {row[0]: self.rebuild(Head(*row)).match for row in rows}

    def mine(self, links: list) -> list[dict]:
        """The matches of [id, scoring key] pairs this browser keeps, however many others
        exist, ordered as `listing` orders them; a pair whose match is gone or whose key is
        wrong is left out."""
        found = []
        for match_id, key in links:
            row = self._keyed(LISTED, match_id, key, 4)
            if row is not None:
                found.extend(_summaries([row]))
                found[-1]["score_key"] = key
        found.sort(key=lambda item: item["updated"], reverse=True)
        return sorted(found, key=lambda item: item.get("winner") is not None)

    # -- writing (inside the caller's transaction) -----------------------------

    def insert(self, match: Match) -> Stored:
        """Store a new match, with the events it already has (an imported record)."""
        keys = (secrets.token_urlsafe(16), secrets.token_urlsafe(16))
        conn = self.conn
        while True:
            match_id = secrets.token_urlsafe(6)
            if not conn.execute("SELECT 1 FROM matches WHERE id = ?", (match_id,)).fetchone():
                break
        conn.execute("INSERT INTO matches (id, score_key, view_key, setup, revision, summary) "
                     "VALUES (?, ?, ?, ?, ?, ?)",
                     (match_id, *keys, table_json(match.table), len(match.log),
                      summary_json(match)))
        conn.executemany("INSERT INTO entries (match_id, seq, kind, data) VALUES (?, ?, ?, ?)",
                         [(match_id, seq, "event", event_json(event))
                          for seq, event in enumerate(match.log, 1)])
        return Stored(match_id, *keys, len(match.log), match)

    def write(self, stored: Stored, expected: int, entry: Entry) -> Stored:
        """Append an event or an undo if the match is still at revision `expected`.

        A RuleError leaves everything as it was. The usual tap names the revision its match
        was loaded at: the rules apply the entry to that match, and one conditional UPDATE
        both checks that no other phone wrote since and moves the revision (no second read
        of the row). After a StaleWrite, `stored` may hold the refused entry: load it again.
        """
        if stored.revision != expected:  # the phone saw another revision than this read
            return self._write_reread(stored, expected, entry)
        kind, data = _applied(stored.match, entry)
        conn = self.conn
        moved = conn.execute(f"UPDATE matches SET revision = ?, summary = ?, "
                             f"updated = {conn.dialect.now} WHERE id = ? AND revision = ?",
                             (expected + 1, summary_json(stored.match), stored.id, expected))
        if moved.rowcount != 1:
            row = conn.execute("SELECT revision FROM matches WHERE id = ?",
                               (stored.id,)).fetchone()
            if row is None:
                raise MatchGone(stored.id)
            raise StaleWrite(row[0])
        self._append(stored.id, expected + 1, kind, data)
        return self._written_at(stored, expected + 1)

    def _write_reread(self, stored: Stored, expected: int, entry: Entry) -> Stored:
        """`write` when the phone's revision is not the one loaded: the row decides, locked."""
        conn = self.conn
        row = conn.execute(HEAD + " WHERE id = ?" + conn.dialect.for_update,
                           (stored.id,)).fetchone()
        if row is None:
            raise MatchGone(stored.id)
        head = Head(*row)
        if head.revision != expected:
            raise StaleWrite(head.revision)
        fresh = self.rebuild(head)
        kind, data = _applied(fresh.match, entry)
        self._append(stored.id, expected + 1, kind, data)
        conn.execute(f"UPDATE matches SET revision = ?, summary = ?, "
                     f"updated = {conn.dialect.now} WHERE id = ?",
                     (expected + 1, summary_json(fresh.match), stored.id))
        return self._written_at(fresh, expected + 1)

    def _append(self, match_id: str, seq: int, kind: str, data: str) -> None:
        self.conn.execute("INSERT INTO entries (match_id, seq, kind, data) VALUES (?, ?, ?, ?)",
                          (match_id, seq, kind, data))

    def _written_at(self, stored: Stored, revision: int) -> Stored:
        stored.revision = revision
        self._written.append(stored)
        return stored

    def delete(self, match_id: str, key: str) -> bool:
        """Delete a match and its log if `key` is its scoring key; True if it was there."""
        if self.find(match_id, key, scoring=True, lock=True) is None:  # no tap half-written
            return False
        self.conn.execute("DELETE FROM entries WHERE match_id = ?", (match_id,))
        self.conn.execute("DELETE FROM matches WHERE id = ?", (match_id,))
        return True


def _summaries(rows) -> list[dict]:
    return [dict(json.loads(row["summary"]), id=row["id"], view_key=row["view_key"],
                 updated=row["updated"]) for row in rows]
