"""The store as the storage tests reach it: one statement each, over the repositories of
`scorekeeper.storage` and a unit of work for each write (as the use cases do)."""

from scorekeeper.services.unit_of_work import UnitOfWork
from scorekeeper.storage import MatchCache, MatchRepository, Stored
from scorekeeper.storage.match_log import event_json, summary_json

__all__ = ["MatchCache", "Stored", "create", "delete", "event_json", "find", "load",
           "rebuild", "summary_json", "write"]


def create(conn, match, cache: MatchCache | None = None) -> Stored:
    uow = UnitOfWork(conn, cache)
    with uow:
        return uow.matches.insert(match)


def load(conn, match_id: str, key: str, scoring: bool = True,
         cache: MatchCache | None = None) -> Stored | None:
    return MatchRepository(conn, cache).load(match_id, key, scoring)


def find(conn, match_id: str, key: str, scoring: bool = True):
    return MatchRepository(conn).find(match_id, key, scoring)


def rebuild(conn, head, cache: MatchCache | None = None) -> Stored:
    return MatchRepository(conn, cache).rebuild(head)


def write(conn, stored: Stored, expected: int, entry, cache: MatchCache | None = None
          ) -> Stored:
    uow = UnitOfWork(conn, cache)
    with uow:
        return uow.matches.write(stored, expected, entry)


def delete(conn, match_id: str, key: str) -> bool:
    uow = UnitOfWork(conn)
    with uow:
        return uow.matches.delete(match_id, key)
