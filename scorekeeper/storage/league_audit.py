"""What a league keeps of its own changes: the secretary's renames, moves and deletions
(each with what it removed), and the links withdrawn, by a hash of their key: an old link
is known as withdrawn on every worker at once, and no key is kept twice."""

import hashlib
import json
from dataclasses import dataclass


@dataclass(frozen=True)
class StoredChange:
    """A change to a league's teams, players or fixtures: when (UTC text), what kind, and
    its facts (what was there before)."""

    at: str
    kind: str
    facts: dict


def key_hash(key: str) -> str:
    """What identifies a withdrawn link's key without keeping it."""
    return hashlib.sha256(str(key).encode()).hexdigest()


class LeagueAudit:
    """A league's changes and withdrawn links, on one connection; writes run inside the
    caller's transaction."""

    def __init__(self, conn):
        self.conn = conn

    def add_change(self, league_id: str, kind: str, facts: dict,
                   at: str | None = None) -> None:
        """A change made now (or, restored from an archive, at `at`)."""
        if at is None:
            self.conn.execute("INSERT INTO league_changes (league_id, kind, facts) "
                              "VALUES (?, ?, ?)", (league_id, kind, json.dumps(facts)))
        else:
            self.conn.execute("INSERT INTO league_changes (league_id, at, kind, facts) "
                              "VALUES (?, ?, ?, ?)", (league_id, at, kind, json.dumps(facts)))

    def changes(self, league_id: str) -> list[StoredChange]:
        """The league's changes, oldest first."""
        return [StoredChange(row[0], row[1], json.loads(row[2])) for row in self.conn.execute(
            "SELECT at, kind, facts FROM league_changes WHERE league_id = ? ORDER BY rowid",
            (league_id,)).fetchall()]

    def withdraw(self, league_id: str, key: str, role: str) -> None:
        self.conn.execute("INSERT INTO withdrawn_links (league_id, key_hash, role) "
                          "VALUES (?, ?, ?)", (league_id, key_hash(key), role))

    def withdrawn(self, league_id: str, key: str) -> bool:
        """Whether `key` was once a link of the league, withdrawn since."""
        return self.conn.execute("SELECT 1 FROM withdrawn_links WHERE league_id = ? AND "
                                 "key_hash = ?", (league_id, key_hash(key))).fetchone() \
            is not None
