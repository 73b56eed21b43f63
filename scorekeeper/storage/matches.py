"""Matches in the database (SQLite or PostgreSQL): their rows and entries (match_log.py).

The store applies no rule: the use cases fold the entries into a match and say what to
write. A write names the revision it was made against, and runs inside the caller's
transaction (the unit of work's); the match it was made for is kept for the process once
that transaction commits.
"""

import hmac
import json
import secrets

from ..league.cards.card import CONFIRMED
from ..rules import Match
from ..rules.notation.events import Entry, Undo
from .errors import MatchGone, MatchHeld, StaleWrite
from .match_log import (
    HEAD,
    LISTED,
    Head,
    MatchCache,
    entry_of,
    event_json,
    listed,
    summary_json,
    table_json,
    table_of,
)


class MatchRepository:
    """The matches of one connection: their heads and entries, read and written as the use
    cases say. Reads stand alone; writes run inside the caller's transaction, and
    `committed` keeps the matches the use case rebuilt for them once it is committed."""

    def __init__(self, conn, cache: MatchCache | None = None):
        self.conn = conn
        self.cache = cache
        self._written: list[tuple] = []

    def committed(self) -> None:
        """The transaction committed: keep the matches its writes rebuilt."""
        if self.cache is not None:
            for kept in self._written:
                self.cache.put(*kept, handed_over=True)
        self._written.clear()

    def rolled_back(self) -> None:
        """The transaction was rolled back: nothing it wrote is kept."""
        self._written.clear()

    # -- what the worker keeps -------------------------------------------------

    def kept(self, head: Head) -> tuple[int, Match] | None:
        """A copy of the match kept of the head, at its revision or at the newest before."""
        if self.cache is None:
            return None
        return self.cache.get((head.id, head.score_key), head.revision, head.setup)

    def keep(self, head: Head, match: Match, once_committed: bool = False) -> None:
        """Keep the match of the head at its revision; a write's once it is committed, and
        then the match itself (the use cases never change a match they wrote)."""
        if self.cache is None:
            return
        kept = ((head.id, head.score_key), head.revision, match, head.setup)
        if once_committed:
            self._written.append(kept)
        else:
            self.cache.put(*kept)

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

    def entries(self, match_id: str, after: int, upto: int) -> list[Entry] | None:
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

    def heads(self, match_ids: list[str]) -> list[Head]:
        """The heads of the matches named (a league archive holds their records)."""
        if not match_ids:
            return []
        marks = ",".join("?" * len(match_ids))
        rows = self.conn.execute(f"{HEAD} WHERE id IN ({marks})", list(match_ids)).fetchall()
        return [Head(*row) for row in rows]

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

    def insert(self, match: Match) -> Head:
        """Store a new match, with the events it already has (an imported record)."""
        keys = (secrets.token_urlsafe(16), secrets.token_urlsafe(16))
        conn = self.conn
        while True:
            match_id = secrets.token_urlsafe(6)
            if not conn.execute("SELECT 1 FROM matches WHERE id = ?", (match_id,)).fetchone():
                break
        setup = table_json(match.table)
        conn.execute("INSERT INTO matches (id, score_key, view_key, setup, revision, summary) "
                     "VALUES (?, ?, ?, ?, ?, ?)",
                     (match_id, *keys, setup, len(match.log), summary_json(match)))
        conn.executemany("INSERT INTO entries (match_id, seq, kind, data) VALUES (?, ?, ?, ?)",
                         [(match_id, seq, "event", event_json(event))
                          for seq, event in enumerate(match.log, 1)])
        return Head(match_id, *keys, len(match.log), setup)

    def write(self, match_id: str, expected: int, entries: list[Entry], summary: str) -> int:
        """Append entries (events or undos) and the match's new summary if it is still at
        revision `expected` and no card holds it; its new revision.

        One conditional UPDATE both checks that no other phone wrote since and moves the
        revision (no second read of the row); else MatchGone, MatchHeld or StaleWrite.
        """
        conn = self.conn
        revision = expected + len(entries)
        moved = conn.execute(f"UPDATE matches SET revision = ?, summary = ?, "
                             f"updated = {conn.dialect.now} WHERE id = ? AND revision = ? "
                             f"AND held <> ?", (revision, summary, match_id, expected,
                                                CONFIRMED))
        if moved.rowcount != 1:
            self._why_not_written(match_id)
        for seq, entry in enumerate(entries, expected + 1):
            kind, data = ("undo", "{}") if isinstance(entry, Undo) else ("event",
                                                                       event_json(entry))
            conn.execute("INSERT INTO entries (match_id, seq, kind, data) VALUES (?, ?, ?, ?)",
                         (match_id, seq, kind, data))
        return revision

    def locked_at(self, match_id: str, expected: int) -> Head:
        """The match's head, held until the transaction ends, if it is at revision
        `expected` and no card holds it (a write on another revision than the one read);
        else MatchGone, MatchHeld or StaleWrite."""
        conn = self.conn
        row = conn.execute(HEAD + " WHERE id = ?" + conn.dialect.for_update,
                           (match_id,)).fetchone()
        head = self._free(match_id, row)
        if head.revision != expected:
            raise StaleWrite(head.revision)
        return head

    def _why_not_written(self, match_id: str):
        """Raise why a write's conditional UPDATE moved no row: the match was deleted, its
        card holds it, or another phone wrote first."""
        row = self.conn.execute(HEAD + " WHERE id = ?", (match_id,)).fetchone()
        raise StaleWrite(self._free(match_id, row).revision)

    @staticmethod
    def _free(match_id: str, row) -> Head:
        """The head of a row read to write on: MatchGone if there is none, MatchHeld if its
        card holds it."""
        if row is None:
            raise MatchGone(match_id)
        head = Head(*row)
        if head.held == CONFIRMED:
            raise MatchHeld(head.id, head.fixture_id, head.game)
        return head

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
