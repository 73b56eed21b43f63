"""The database: SQLite in the instance folder, or PostgreSQL when one machine is not enough.

SQLite (the default, nothing to set up): WAL journal with synchronous=FULL so an
answered write survives a crash; a busy timeout so two phones writing at once wait
rather than fail. PostgreSQL (SCOREKEEPER_DATABASE_URL=postgresql://...): psycopg
(`postgres.py`). The SQL that differs between them is in `dialects.py`; everything
else here serves both: connecting, one write as a transaction, the schema's upgrade
at start, and SQLite's backup.
"""

import contextlib
import sqlite3

from ..rules.words import N_
from .dialects import SQLITE
from .errors import StorageRefused
from .schema import SCHEMA

POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")


class SQLiteConnection(sqlite3.Connection):
    dialect = SQLITE


def is_postgresql(location: str) -> bool:
    return location.startswith(POSTGRESQL_SCHEMES)


def location(config) -> str:
    """Where the matches are: the DATABASE_URL if one is set, else the SQLite file."""
    url = config.get("DATABASE_URL")
    if url and not is_postgresql(url):  # not shown: a mistyped scheme may carry a password
        raise StorageRefused.worded(N_("DATABASE_URL takes a postgresql:// URL; a SQLite file "
                                       "is set with SCOREKEEPER_DATABASE"), "not_postgresql")
    return url or config["DATABASE"]


def connect(where: str):
    """A connection with the durability settings every writer needs, to a SQLite file or to
    the PostgreSQL database a postgresql:// URL names."""
    if is_postgresql(where):
        return postgres().connect(where)
    conn = sqlite3.connect(where, timeout=10, isolation_level=None, check_same_thread=False,
                           factory=SQLiteConnection)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA busy_timeout=10000")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


def postgres():
    """The PostgreSQL module, whose driver is an optional install."""
    try:
        from . import postgres as module
    except ImportError as error:
        raise StorageRefused.worded(N_("DATABASE_URL names PostgreSQL but its driver is not "
                                       "installed (%(why)s): pip install "
                                       "'scorekeeper[postgresql]'"), "no_driver",
                                    why=str(error)) from None
    return module


def begin(conn) -> None:
    """Start one write (SQLite: BEGIN IMMEDIATE, which takes the write lock at once)."""
    conn.execute(conn.dialect.begin)


def commit(conn) -> None:
    conn.execute("COMMIT")


def rollback(conn) -> None:
    """Roll back the open transaction, if the database has not already done so.

    SQLite may already have rolled back by itself (a full disk, an interrupt): then
    there is nothing to roll back, and the original error is the one raised.
    """
    if conn.in_transaction:
        conn.execute("ROLLBACK")


@contextlib.contextmanager
def transaction(conn):
    """One write: BEGIN ... COMMIT; anything raised inside rolls it back and goes on up."""
    begin(conn)
    try:
        yield conn
        commit(conn)
    except BaseException:
        rollback(conn)
        raise


def upgrade(conn, database: str = "the database") -> int:
    """Bring the schema to the newest version, one step per transaction; returns it. A
    newer schema is refused naming `database` (the file or the server's database)."""
    dialect = conn.dialect
    make, read, write = dialect.versions
    for number, version_of in enumerate(SCHEMA, 1):
        script, fill = version_of if isinstance(version_of, tuple) else (version_of, None)
        with transaction(conn):
            if dialect.upgrade_lock:
                conn.execute(dialect.upgrade_lock)
            _run(conn, make)
            version = conn.execute(read).fetchone()[0]
            if version > len(SCHEMA):
                raise StorageRefused.worded(
                    N_("%(database)s is from a newer scorekeeper (schema %(version)s, this "
                       "one knows %(known)s): install the newer version"), "newer_schema",
                    database=database, version=version, known=len(SCHEMA))
            if version < number:
                _run(conn, dialect.schema(script))
                if fill is not None:
                    fill(conn)
                conn.execute(write.format(number))
    return len(SCHEMA)


def _run(conn, script: str) -> None:
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


def backup(source_path: str, target_path: str) -> None:
    """A consistent copy of the live SQLite database, safe while the app is serving."""
    source = connect(source_path)
    try:
        source.execute("VACUUM INTO ?", (target_path,))
    finally:
        source.close()


def open_checked(where: str):
    """Connect, refuse a damaged or unwritable database, upgrade the schema: what a start does."""
    postgresql = is_postgresql(where)
    errors = postgres().ERRORS if postgresql else (sqlite3.Error,)
    named = postgres().describe(where) if postgresql else where
    try:
        conn = connect(where)
    except errors as error:
        raise _unusable("cannot_open", postgresql, named, error) from None
    try:
        if not postgresql:
            _check_sound(conn, where)
        upgrade(conn, database=named)
    except errors as error:
        conn.close()
        raise _unusable("cannot_use", postgresql, named, error) from None
    except BaseException:
        conn.close()
        raise
    return conn


UNUSABLE = {
    ("cannot_open", True): N_("cannot open %(database)s (%(why)s): check that the server is "
                              "running and that the URL names it"),
    ("cannot_open", False): N_("cannot open %(database)s (%(why)s): check that its folder "
                               "exists and that this user may write in it (SQLite keeps its "
                               "journal beside the file)"),
    ("cannot_use", True): N_("cannot use %(database)s (%(why)s): check that the server is "
                             "running and that the URL names it"),
    ("cannot_use", False): N_("cannot use %(database)s (%(why)s): check that its folder "
                              "exists and that this user may write in it (SQLite keeps its "
                              "journal beside the file)"),
}
"""A database that cannot be opened, or opened but not used, by whether it is PostgreSQL:
what went wrong and what to do."""


def _unusable(kind: str, postgresql: bool, named: str, error: Exception) -> StorageRefused:
    return StorageRefused.worded(UNUSABLE[kind, postgresql], kind, database=named,
                                 why=_first_line(error))


def _first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def _check_sound(conn: sqlite3.Connection, path: str) -> None:
    """A file with damaged pages, or one this process cannot write, is refused at start."""
    verdict = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
    if verdict != "ok":
        raise StorageRefused.worded(N_("%(database)s is damaged (%(why)s): restore it from "
                                       "a backup"), "damaged", database=path, why=verdict)
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(f"PRAGMA user_version={int(version)}")  # a real write, rolled back
    except sqlite3.OperationalError as error:
        raise StorageRefused.worded(N_("cannot write %(database)s (%(why)s): check the "
                                       "file's permissions and the free disk space"),
                                    "unwritable", database=path, why=str(error)) from None
    finally:
        rollback(conn)
