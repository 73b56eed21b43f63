"""What a use case works over: the repositories of one connection, and one transaction
per `with` block (Cosmic Python's unit of work)."""

from functools import cached_property

from ..storage import (
    BoardRepository,
    HitLog,
    LeagueAudit,
    LeagueRepository,
    MatchCache,
    MatchRepository,
    Retention,
    Store,
    Sweeps,
    begin,
    commit,
    rollback,
)


class UnitOfWork:
    """One request's (or one command's) way to the store.

    Reads stand alone. A write is a `with uow:` block: it commits when the block ends and
    rolls back when anything is raised inside it, so a use case never leaves half a write
    behind; what its writes rebuilt is kept for the process only once committed.
    """

    def __init__(self, conn, cache: MatchCache | None = None, release=None,
                 sweeps: Sweeps | None = None):
        self.conn = conn
        self.matches = MatchRepository(conn, cache)
        self._sweeps = sweeps
        self._release = release

    # The other repositories are made when a use case first reaches for one: a tap needs
    # none of them.
    leagues = cached_property(lambda self: LeagueRepository(self.conn))
    audit = cached_property(lambda self: LeagueAudit(self.conn))
    boards = cached_property(lambda self: BoardRepository(self.conn))
    retention = cached_property(lambda self: Retention(self.conn))
    hits = cached_property(lambda self: HitLog(self.conn, self._sweeps))

    @classmethod
    def opened(cls, store: Store) -> "UnitOfWork":
        """A unit of work on a connection of the app's store, given back by `close`."""
        return cls(store.acquire(), store.cache, store.release, store.sweeps)

    def __enter__(self) -> "UnitOfWork":
        begin(self.conn)
        return self

    def __exit__(self, kind, error, trace) -> bool:
        if kind is not None:
            try:
                rollback(self.conn)
            finally:
                self.matches.rolled_back()
            return False
        try:
            commit(self.conn)
        except BaseException:
            try:
                rollback(self.conn)
            finally:
                self.matches.rolled_back()
            raise
        self.matches.committed()
        return False

    def close(self) -> None:
        """Never hand a half-done transaction on: roll it back, and give the connection back."""
        try:
            rollback(self.conn)
        finally:
            if self._release is not None:
                self._release(self.conn)
            else:
                self.conn.close()
