"""The store: matches, leagues and kept scoreboards in SQLite or PostgreSQL.

`open_store` checks and upgrades the database an app runs on; each unit of work gets a
connection from it and reaches the tables through the repositories (and the write
limits' counts through `HitLog`); `move_store` copies a whole store into another
database, and checks the copy (the `move-store` command). Only `services/` and the
commands use this room; nothing here knows a request or a page.
"""

from .boards import BoardRepository
from .connection import (
    backup,
    begin,
    commit,
    connect,
    describe,
    is_postgresql,
    location,
    rollback,
    upgrade,
)
from .errors import (
    MatchGone,
    MatchHeld,
    MoveFailed,
    MoveRefused,
    StaleCard,
    StaleWrite,
    StorageRefused,
)
from .hits import HitLog, Sweeps
from .league_audit import LeagueAudit, StoredChange
from .leagues import (
    FixtureAtTable,
    LeagueRepository,
    StoredCorrection,
    StoredFixture,
    StoredLeague,
    StoredTeam,
)
from .match_log import (
    Broken,
    Head,
    MatchCache,
    apply_entries,
    replayed,
    summary_json,
    table_of,
    takes_back,
)
from .matches import MatchRepository
from .retention import Retention
from .store import Store, open_store
from .transfer.move import Moved, move_store

__all__ = [
    "BoardRepository", "Broken", "FixtureAtTable", "Head", "HitLog",
    "LeagueAudit", "LeagueRepository", "MatchCache", "MatchGone", "MatchHeld", "Moved",
    "MoveFailed", "MoveRefused", "MatchRepository", "Retention", "StaleCard",
    "StaleWrite", "StorageRefused", "Store", "StoredChange", "StoredCorrection",
    "StoredFixture", "StoredLeague", "StoredTeam", "Sweeps", "apply_entries", "backup",
    "begin", "commit", "connect", "describe", "is_postgresql", "location", "move_store",
    "open_store", "replayed", "rollback", "summary_json", "table_of", "takes_back",
    "upgrade",
]
