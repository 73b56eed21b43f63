"""The store: matches, leagues and kept scoreboards in SQLite or PostgreSQL.

`open_store` checks and upgrades the database an app runs on; each unit of work gets a
connection from it and reaches the tables through the repositories. Only `services/`
uses this room; nothing here knows a request or a page.
"""

from .boards import BoardRepository
from .connection import (
    backup,
    begin,
    commit,
    connect,
    is_postgresql,
    location,
    rollback,
    upgrade,
)
from .errors import MatchGone, MatchHeld, StaleCard, StaleWrite, StorageRefused
from .leagues import (
    CONFIRMED,
    REMOVED,
    FixtureAtTable,
    LeagueRepository,
    StoredCorrection,
    StoredFixture,
    StoredLeague,
    StoredTeam,
)
from .match_log import Broken, Head, MatchCache, Stored
from .matches import MatchRepository
from .retention import Retention
from .store import Store, open_store

__all__ = [
    "BoardRepository", "Broken", "CONFIRMED", "FixtureAtTable", "Head", "LeagueRepository",
    "MatchCache", "MatchGone",
    "MatchHeld", "REMOVED",
    "MatchRepository", "Retention", "StaleCard", "StaleWrite", "StorageRefused", "Store",
    "Stored", "StoredCorrection", "StoredFixture", "StoredLeague", "StoredTeam", "backup",
    "begin", "commit", "connect", "is_postgresql", "location", "open_store", "rollback",
    "upgrade",
]
