"""What a use case works over: one SQLite connection and this process's rebuilt matches."""

import sqlite3
from dataclasses import dataclass

from ..store import MatchCache


@dataclass(frozen=True)
class UnitOfWork:
    """The connection one request's reads and writes go through, and the cache they share.

    Each write the store makes is one transaction of its own (`db.transaction`), so a
    use case never leaves half an entry behind.
    """

    conn: sqlite3.Connection
    cache: MatchCache | None = None
