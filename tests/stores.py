"""The store as the storage tests reach it: one statement each, through the use cases that
fold its logs and write its taps (services.opened, services.matches), over a unit of work."""

from scorekeeper.services import matches
from scorekeeper.services.opened import Opened, rebuilt
from scorekeeper.services.unit_of_work import UnitOfWork
from scorekeeper.storage import MatchCache
from scorekeeper.storage.match_log import event_json, summary_json

Stored = Opened
"""A match as the store gives it back: what the use cases open."""

__all__ = ["MatchCache", "Stored", "create", "delete", "event_json", "find", "load",
           "rebuild", "summary_json", "write"]


def create(conn, match, cache: MatchCache | None = None) -> Opened:
    return matches.create_match(UnitOfWork(conn, cache), match)


def load(conn, match_id: str, key: str, scoring: bool = True,
         cache: MatchCache | None = None) -> Opened | None:
    uow = UnitOfWork(conn, cache)
    head = uow.matches.find(match_id, key, scoring)
    return None if head is None else rebuilt(uow, head)


def find(conn, match_id: str, key: str, scoring: bool = True):
    return UnitOfWork(conn).matches.find(match_id, key, scoring)


def rebuild(conn, head, cache: MatchCache | None = None) -> Opened:
    return rebuilt(UnitOfWork(conn, cache), head)


def write(conn, stored: Opened, expected: int, entry, cache: MatchCache | None = None
          ) -> Opened:
    return matches.write(UnitOfWork(conn, cache), stored, expected, entry)


def delete(conn, match_id: str, key: str) -> bool:
    uow = UnitOfWork(conn)
    with uow:
        return uow.matches.delete(match_id, key)
