"""The SQL that differs between SQLite and PostgreSQL, each phrase in one place.

Every query of the store is written once, with `?` for its parameters (the PostgreSQL
connection turns them into `%s`); what cannot be written once is a phrase of the
connection's `dialect`: the time as stored text, the start of a write, row locks,
the schema's column types, where the schema version is kept, and which errors mean
that the disk or the server failed rather than the code.
"""

from dataclasses import dataclass

SQLITE_FAULTS = ("SQLITE_FULL", "SQLITE_READONLY", "SQLITE_IOERR", "SQLITE_BUSY",
                 "SQLITE_LOCKED", "SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_CANTOPEN",
                 "SQLITE_PERM")
"""SQLite errors that say the disk or the file failed, not the code: answered 503."""

POSTGRESQL_FAULTS = ("08", "25006", "40", "53", "55P03", "57", "58", "XX")
"""SQLSTATE classes and codes that say the server failed, not the code: a lost
connection, a read-only database (a replica), a write it rolled back (a deadlock), a
full disk or no memory, a lock not granted in time, a shutdown, I/O."""


POSTGRESQL_LOCK_WAIT = "10s"
"""As SQLite's busy timeout: a write waits this long for another one's row lock, then
fails (503). Set in each write's transaction, not on the session: a pooler in transaction
mode (PgBouncer) refuses a connection's startup options and hands sessions round."""


@dataclass(frozen=True)
class Dialect:
    """The phrases of one database; a connection carries its own as `conn.dialect`."""

    name: str
    begin: str
    """Starts a write: SQLite's IMMEDIATE takes the write lock at once, as a row lock does;
    PostgreSQL's bounds the wait for a row lock."""
    now: str
    """The current UTC time as the text every timestamp column holds: 2026-12-01T20:15:00Z."""
    days_ago: str
    """The same text, a number of days (the one parameter) before now."""
    for_update: str
    """Locks the rows a SELECT read until the transaction ends (SQLite locks the file)."""
    ddl: tuple[tuple[str, str], ...]
    """The schema's words for this database, each replacing a token in db.SCHEMA."""
    json_values: str
    """FROM-list items and a value: one row per object of a JSON array in a text column."""
    versions: tuple[str, str, str]
    """Where the schema version is kept: statements that make the place, read it, set it."""
    upgrade_lock: str
    """Taken before an upgrade, so of several servers starting at once one upgrades."""
    error_code: str
    """The attribute of the driver's error that holds the database's code for it."""
    faults: tuple[str, ...]
    """The codes (or their beginnings) that say the disk or the server failed."""
    missing_reference: str
    """The code of a row refused because the row it refers to is gone."""
    unsynced: tuple[str, str]
    """Around a write that may be lost in a crash (a copy of what can be made again): what
    lets it commit without waiting for the disk, and what restores the durable default."""
    clock: str = ""
    """What reads the write limits' shared clock, in seconds; "" for the process's monotonic
    clock (SQLite's writers are all on one machine)."""
    admit: str = ""
    """Counts a request in its write limits' windows in one call of the database's own ("":
    the app counts it, in a transaction of its own: hits.py)."""

    def schema(self, script: str) -> str:
        for token, phrase in self.ddl:
            script = script.replace(token, phrase)
        return script

    def json_array_values(self, table: str, column: str, array: str, key: str) -> str:
        """A subquery: `key` of every object in the `array` of each row's JSON `column`."""
        value = self.json_values.format(table=table, column=column, array=array, key=key)
        return f"SELECT {value} IS NOT NULL"

    def is_fault(self, error: Exception) -> bool:
        """An error of the disk or the server (answered 503 "Not saved"), not of the code."""
        code = getattr(error, self.error_code, None)  # None: the driver's own error
        return bool(code) and code.startswith(self.faults)

    def is_missing_reference(self, error: Exception) -> bool:
        """A row refused because the row it refers to was deleted meanwhile."""
        return getattr(error, self.error_code, None) == self.missing_reference


SQLITE = Dialect(
    name="sqlite",
    begin="BEGIN IMMEDIATE",
    now="strftime('%Y-%m-%dT%H:%M:%SZ', 'now')",
    days_ago="strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-' || ? || ' days')",
    for_update="",
    error_code="sqlite_errorname",
    faults=SQLITE_FAULTS,
    missing_reference="SQLITE_CONSTRAINT_FOREIGNKEY",
    # WAL with synchronous=NORMAL stays consistent; the write's commit skips the fsync
    unsynced=("PRAGMA synchronous=NORMAL", "PRAGMA synchronous=FULL"),
    ddl=(("SERIAL_KEY", "INTEGER PRIMARY KEY"),
         ("NOW_TEXT", "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"),
         ("KEYED_ONLY", "WITHOUT ROWID"), ("ROWID_COLUMN", ""), ("BYTES", "BLOB"),
         ("SCRATCH_TABLE", "TABLE")),
    versions=("", "PRAGMA user_version", "PRAGMA user_version={:d}"),
    upgrade_lock="",  # BEGIN IMMEDIATE is that lock
    json_values=("json_extract(item.value, '$.{key}') FROM {table}, "
                 "json_each({table}.{column}, '$.{array}') AS item "
                 "WHERE json_extract(item.value, '$.{key}')"),
)

_PG_NOW = "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"

POSTGRESQL = Dialect(
    name="postgresql",
    begin=f"BEGIN; SET LOCAL lock_timeout = '{POSTGRESQL_LOCK_WAIT}'",
    now=_PG_NOW,
    days_ago=_PG_NOW.replace("now()", "(now() - make_interval(days => ?::integer))"),
    for_update=" FOR UPDATE",
    error_code="sqlstate",
    faults=POSTGRESQL_FAULTS,
    missing_reference="23503",  # foreign_key_violation
    unsynced=("", ""),  # one statement in autocommit; it locks one row, never the tables
    ddl=(("SERIAL_KEY", "INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
         ("NOW_TEXT", _PG_NOW), ("KEYED_ONLY", ""), ("BYTES", "BYTEA"),
         # SQLite numbers every row (rowid): a table ordered by it needs the column here
         ("ROWID_COLUMN", "rowid BIGINT GENERATED ALWAYS AS IDENTITY,"),
         ("SCRATCH_TABLE", "UNLOGGED TABLE")),  # counts only: no WAL, emptied by a crash
    versions=("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);"
              "INSERT INTO schema_version SELECT 0 WHERE NOT EXISTS "
              "(SELECT 1 FROM schema_version)",
              "SELECT version FROM schema_version", "UPDATE schema_version SET version = {:d}"),
    upgrade_lock="SELECT pg_advisory_xact_lock(5335)",  # any number, the same in every server
    json_values=("item ->> '{key}' FROM {table}, "
                 "jsonb_array_elements({table}.{column}::jsonb -> '{array}') AS item "
                 "WHERE item ->> '{key}'"),
    clock="SELECT EXTRACT(EPOCH FROM clock_timestamp())::float8",  # one for all app servers
    admit="SELECT write_admit(?::text[], ?::integer[], ?::float8[])",
)
