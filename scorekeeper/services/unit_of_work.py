"""What a use case works over: one database connection and this process's rebuilt matches."""

from dataclasses import dataclass

from ..store import MatchCache


@dataclass(frozen=True)
class UnitOfWork:
    """The connection one request's reads and writes go through, and the cache they share.

    Each write the store makes is one transaction of its own (`db.transaction`), so a
    use case never leaves half an entry behind.
    """

    conn: object
    """A SQLite or PostgreSQL connection (`db.connect`): the store's SQL runs on both."""
    cache: MatchCache | None = None
