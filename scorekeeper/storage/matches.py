"""Matches in the database (SQLite or PostgreSQL): their rows and entries (match_log.py).

A write names the revision it was made against, and runs inside the caller's transaction
(the unit of work's); what it rebuilt is kept for the process once that transaction
commits.
"""

import hmac
import json
import secrets

from ..league.cards.card import CONFIRMED
from ..rules import Match, RuleError
from ..rules.notation.events import Entry, Event, Undo
from .errors import MatchGone, MatchHeld, StaleWrite
from .match_log import (
    HEAD,
    LISTED,
    Broken,
    Head,
    MatchCache,
    Stored,
    applied,
    apply_entries,
    entry_of,
    event_json,
    listed,
    summary_json,
    table_json,
    table_of,
    takes_back,
)


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
                setup = stored.head.setup if stored.head else table_json(stored.match.table)
                self.cache.put((stored.id, stored.score_key), stored.revision, stored.match,
                               setup)
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
        earlier revision brought up to date with the entries written since (by another
        worker), unless they take back what it holds (an undo there: the stored log then
        decides, replayed whole); else replayed from its whole log."""
        whose, revision, cache = (head.id, head.score_key), head.revision, self.cache
        kept = cache.get(whose, revision, head.setup) if cache is not None else None
        after, match = kept or (0, Match(table_of(head.setup)))
        if kept is None or after < revision:
            entries = self._entries(head.id, after, revision) if after < revision else []
            if entries is not None and after and takes_back(entries):
                after, match = 0, Match(table_of(head.setup))
                entries = self._entries(head.id, 0, revision)
            if entries is None:  # deleted since the row was read: its log is gone, none kept
                match = Match(table_of(head.setup))
            else:
                try:
                    apply_entries(match, entries)
                except RuleError:
                    return self._broken(head)
                if cache is not None:
                    cache.put(whose, revision, match, head.setup)
        return Stored(head.id, head.score_key, head.view_key, revision, match, head)

    def _broken(self, head: Head) -> Stored:
        """A log the rules refuse: the match as far as it is legal, and the first event they
        refuse (never kept: the table offers to take the match back to its legal part)."""
        events: list[Event] = []
        for entry in self._entries(head.id, 0, head.revision) or []:
            if not isinstance(entry, Undo):
                events.append(entry)
            elif events:
                events.pop()
        match = Match(table_of(head.setup))
        for position, event in enumerate(events):
            try:
                match.push(event)
            except RuleError as error:
                broken = Broken(position, event, error, len(events) - position - 1)
                return Stored(head.id, head.score_key, head.view_key, head.revision, match,
                              head, broken)
        return Stored(head.id, head.score_key, head.view_key, head.revision, match, head)

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
        return [entry_of(row[0], data) for row, data in zip(rows, datas, strict=True)]

    def entries_since(self, match_id: str, revision: int) -> list[Entry]:
        """The events and undos written after `revision`, for the other phone's notice."""
        rows = self.conn.execute("SELECT kind, data FROM entries WHERE match_id = ? AND seq > ? "
                                 "ORDER BY seq", (match_id, revision)).fetchall()
        return [entry_of(row[0], json.loads(row[1])) for row in rows]

    def listing(self, limit: int = 100) -> list[dict]:
        """Matches on this server, in progress first, most recently played first (those played
        in the same second by id: the same order in every store and on every server)."""
        rows = self.conn.execute(LISTED + " ORDER BY updated DESC, id LIMIT ?",
                                 (limit,)).fetchall()
        found = [listed(row) for row in rows]
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
                found.append(listed(row))
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
        rows = applied(stored.match, entry)
        conn = self.conn
        moved = conn.execute(f"UPDATE matches SET revision = ?, summary = ?, "
                             f"updated = {conn.dialect.now} WHERE id = ? AND revision = ? "
                             f"AND held <> ?", (expected + len(rows), summary_json(stored.match),
                                                stored.id, expected, CONFIRMED))
        if moved.rowcount != 1:
            self._why_not_written(stored.id)
        self._append(stored.id, expected, rows)
        return self._written_at(stored, expected + len(rows))

    def _why_not_written(self, match_id: str):
        """Raise why a write's conditional UPDATE moved no row: the match was deleted, its
        card holds it, or another phone wrote first."""
        row = self.conn.execute(HEAD + " WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise MatchGone(match_id)
        head = Head(*row)
        if head.held == CONFIRMED:
            raise MatchHeld(head.id, head.fixture_id, head.game)
        raise StaleWrite(head.revision)

    def _write_reread(self, stored: Stored, expected: int, entry: Entry) -> Stored:
        """`write` when the phone's revision is not the one loaded: the row decides, locked."""
        conn = self.conn
        row = conn.execute(HEAD + " WHERE id = ?" + conn.dialect.for_update,
                           (stored.id,)).fetchone()
        if row is None:
            raise MatchGone(stored.id)
        head = Head(*row)
        if head.held == CONFIRMED:
            raise MatchHeld(head.id, head.fixture_id, head.game)
        if head.revision != expected:
            raise StaleWrite(head.revision)
        fresh = self.rebuild(head)
        if fresh.broken:  # the log broke since the phone read it: it must see that first
            raise StaleWrite(head.revision)
        rows = applied(fresh.match, entry)
        self._append(stored.id, expected, rows)
        conn.execute(f"UPDATE matches SET revision = ?, summary = ?, "
                     f"updated = {conn.dialect.now} WHERE id = ?",
                     (expected + len(rows), summary_json(fresh.match), stored.id))
        return self._written_at(fresh, expected + len(rows))

    def _append(self, match_id: str, after: int, rows: list[tuple[str, str]]) -> None:
        """Append entries (kind, data) after revision `after`, one revision each."""
        for seq, (kind, data) in enumerate(rows, after + 1):
            self.conn.execute("INSERT INTO entries (match_id, seq, kind, data) "
                              "VALUES (?, ?, ?, ?)", (match_id, seq, kind, data))

    def _written_at(self, stored: Stored, revision: int) -> Stored:
        stored.revision = revision
        self._written.append(stored)
        return stored

    def take_back(self, stored: Stored, expected: int) -> Stored:
        """Undo every event of a broken log from the first one the rules refuse, if the
        match is still at revision `expected`: one undo entry each, so the log stays
        append-only and the match is its legal part."""
        count = stored.broken.later + 1
        conn = self.conn
        moved = conn.execute(f"UPDATE matches SET revision = ?, summary = ?, "
                             f"updated = {conn.dialect.now} WHERE id = ? AND revision = ? "
                             f"AND held <> ?", (expected + count, summary_json(stored.match),
                                                stored.id, expected, CONFIRMED))
        if moved.rowcount != 1:
            self._why_not_written(stored.id)
        self._append(stored.id, expected, [("undo", "{}")] * count)
        stored.broken = None
        return self._written_at(stored, expected + count)

    def link(self, match_id: str, fixture_id: int, game: int) -> None:
        """The match scores game `game` of the fixture's card."""
        self.conn.execute("UPDATE matches SET fixture_id = ?, game = ? WHERE id = ?",
                          (fixture_id, game, match_id))

    def lock(self, match_ids: list[str]) -> None:
        """Hold these matches' rows until the transaction ends: a tap being written at the
        same moment commits before (and the caller reads its result) or waits, and then
        finds what the caller wrote (SQLite's write lock does this already)."""
        if match_ids:
            marks = ",".join("?" * len(match_ids))
            self.conn.execute(f"SELECT id FROM matches WHERE id IN ({marks})"
                              + self.conn.dialect.for_update, list(match_ids))

    def hold(self, match_ids: list[str], held: str) -> None:
        """Set how their card holds these matches: CONFIRMED, REMOVED, or '' (free)."""
        if match_ids:
            marks = ",".join("?" * len(match_ids))
            self.conn.execute(f"UPDATE matches SET held = ? WHERE id IN ({marks})",
                              [held, *match_ids])

    def rename_player(self, match_ids: list[str], old: str, new: str) -> None:
        """A player's name corrected in the matches of their games: each one's setup and
        summary, and its kept scoreboards go (made again when next asked for). A worker's
        kept match goes with its old setup (`MatchCache`)."""
        if not match_ids:
            return
        marks = ",".join("?" * len(match_ids))
        rows = self.conn.execute(f"SELECT id, setup, summary FROM matches WHERE id IN ({marks})",
                                 list(match_ids)).fetchall()
        for match_id, setup_text, summary_text in rows:
            setup = json.loads(setup_text)
            setup["players"] = [new if name == old else name for name in setup["players"]]
            table, summary = table_of(json.dumps(setup)), json.loads(summary_text)
            summary["sides"] = [table.side_name(side) for side in range(len(table.sides))]
            self.conn.execute("UPDATE matches SET setup = ?, summary = ? WHERE id = ?",
                              (json.dumps(setup), json.dumps(summary), match_id))
        self.conn.execute(f"DELETE FROM boards WHERE match_id IN ({marks})", list(match_ids))

    def delete(self, match_id: str, key: str) -> bool:
        """Delete a match and its log if `key` is its scoring key; True if it was there."""
        if self.find(match_id, key, scoring=True, lock=True) is None:  # no tap half-written
            return False
        self.conn.execute("DELETE FROM entries WHERE match_id = ?", (match_id,))
        self.conn.execute("DELETE FROM matches WHERE id = ?", (match_id,))
        return True
