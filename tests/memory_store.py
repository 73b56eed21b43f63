"""A unit of work in memory, for the use cases' tests: the match repository's reads and
writes over dicts, with a transaction that puts everything back when its block raises.
No SQL, no connection: what the use cases decide is tested apart from how a store keeps it
(tests/test_storage_backends.py and tests/test_robust_storage.py test the real ones)."""

import copy
import secrets

from scorekeeper.league.cards.card import CONFIRMED
from scorekeeper.rules import Match
from scorekeeper.rules.notation.events import Entry
from scorekeeper.storage import Head, MatchGone, MatchHeld, StaleWrite
from scorekeeper.storage.match_log import summary_json, table_json


class MatchesInMemory:
    """MatchRepository's match path: each match a head and its list of entries."""

    def __init__(self):
        self.heads: dict[str, Head] = {}
        self.logs: dict[str, list[Entry]] = {}
        self.summaries: dict[str, str] = {}

    def find(self, match_id: str, key: str, scoring: bool, lock: bool = False) -> Head | None:
        head = self.heads.get(match_id)
        if head is None or key != (head.score_key if scoring else head.view_key):
            return None
        return head

    def kept(self, head: Head) -> None:
        return None  # nothing kept: every match is replayed from its log

    def keep(self, head: Head, match: Match, once_committed: bool = False) -> None:
        pass

    def entries(self, match_id: str, after: int, upto: int) -> list[Entry] | None:
        log = self.logs.get(match_id)
        return None if log is None or len(log) < upto else log[after:upto]

    def entries_since(self, match_id: str, revision: int) -> list[Entry]:
        return self.logs.get(match_id, [])[revision:]

    def insert(self, match: Match) -> Head:
        head = Head(secrets.token_urlsafe(6), secrets.token_urlsafe(16),
                    secrets.token_urlsafe(16), len(match.log), table_json(match.table))
        self.heads[head.id], self.logs[head.id] = head, list(match.log)
        self.summaries[head.id] = summary_json(match)
        return head

    def write(self, match_id: str, expected: int, entries: list[Entry], summary: str) -> int:
        head = self.locked_at(match_id, expected)
        self.logs[match_id].extend(entries)
        self.heads[match_id] = head._replace(revision=expected + len(entries))
        self.summaries[match_id] = summary
        return expected + len(entries)

    def locked_at(self, match_id: str, expected: int) -> Head:
        head = self.heads.get(match_id)
        if head is None:
            raise MatchGone(match_id)
        if head.held == CONFIRMED:
            raise MatchHeld(head.id, head.fixture_id, head.game)
        if head.revision != expected:
            raise StaleWrite(head.revision)
        return head

    def delete(self, match_id: str, key: str) -> bool:
        if self.find(match_id, key, scoring=True) is None:
            return False
        del self.heads[match_id], self.logs[match_id], self.summaries[match_id]
        return True


class UnitOfWorkInMemory:
    """The unit of work the use cases are handed, over MatchesInMemory: a `with` block
    that raises leaves the matches as they were before it."""

    def __init__(self):
        self.matches = MatchesInMemory()
        self._before = None

    def __enter__(self) -> "UnitOfWorkInMemory":
        self._before = copy.deepcopy(self.matches.__dict__)
        return self

    def __exit__(self, kind, error, trace) -> bool:
        if kind is not None:
            self.matches.__dict__ = self._before
        return False

    def entries_stored(self) -> int:
        return sum(len(log) for log in self.matches.logs.values())
