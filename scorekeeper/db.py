"""The database: SQLite in the instance folder, or PostgreSQL when one machine is not enough.

SQLite (the default, nothing to set up): WAL journal with synchronous=FULL so an
answered write survives a crash; a busy timeout so two phones writing at once wait
rather than fail; one kept connection per server thread. PostgreSQL
(SCOREKEEPER_DATABASE_URL=postgresql://...): a pool of connections per process
(`postgres.py`), so several app servers share one database. The SQL that differs
between them is in `dialects.py`; everything else here serves both.
"""

import contextlib
import os
import sqlite3
import threading

import click
from flask import current_app, g
from flask.cli import with_appcontext

from .dialects import SQLITE
from .schema import SCHEMA

POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")


class StorageRefused(Exception):
    """A database the app must not run on (newer, damaged, unwritable): one line says why."""


class SQLiteConnection(sqlite3.Connection):
    dialect = SQLITE


def is_postgresql(location: str) -> bool:
    return location.startswith(POSTGRESQL_SCHEMES)


def location(config) -> str:
    """Where the matches are: the DATABASE_URL if one is set, else the SQLite file."""
    url = config.get("DATABASE_URL")
    if url and not is_postgresql(url):  # not shown: a mistyped scheme may carry a password
        raise StorageRefused("DATABASE_URL takes a postgresql:// URL; a SQLite file is "
                             "set with SCOREKEEPER_DATABASE")
    return url or config["DATABASE"]


def connect(where: str):
    """A connection with the durability settings every writer needs, to a SQLite file or to
    the PostgreSQL database a postgresql:// URL names."""
    if is_postgresql(where):
        return _postgres().connect(where)
    conn = sqlite3.connect(where, timeout=10, isolation_level=None, check_same_thread=False,
                           factory=SQLiteConnection)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA busy_timeout=10000")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


def _postgres():
    """The PostgreSQL module, whose driver is an optional install."""
    try:
        from . import postgres
    except ImportError as error:
        raise StorageRefused(f"DATABASE_URL names PostgreSQL but its driver is not installed "
                             f"({error}): pip install 'scorekeeper[postgresql]'") from None
    return postgres


@contextlib.contextmanager
def transaction(conn):
    """One write: BEGIN (IMMEDIATE on SQLite) ... COMMIT; anything raised inside rolls it
    back and goes on up.

    SQLite may already have rolled back by itself (a full disk, an interrupt): then
    there is nothing to roll back, and the original error is the one raised.
    """
    conn.execute(conn.dialect.begin)
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        rollback(conn)
        raise


def rollback(conn) -> None:
    """Roll back the open transaction, if the database has not already done so."""
    if conn.in_transaction:
        conn.execute("ROLLBACK")


class KeptConnections:
    """SQLite: each server thread keeps one connection open for the app.

    Opening a connection per request made SQLite checkpoint and delete its WAL on
    every close; a kept connection is several milliseconds cheaper per write.
    """

    dialect = SQLITE
    errors = (sqlite3.DatabaseError,)
    is_fault = staticmethod(SQLITE.is_fault)

    def __init__(self, path: str, keep: bool):
        self.path = path
        self.keep = keep
        self.kept = threading.local()

    def acquire(self):
        conn = getattr(self.kept, "conn", None)
        if conn is None:
            conn = connect(self.path)
            if self.keep:
                self.kept.conn = conn
        return conn

    def release(self, conn) -> None:
        if not self.keep:
            conn.close()

    def close(self) -> None:
        """Nothing to close: each thread's connection goes with its thread."""


def connections(app):
    """Where this app's requests get their connections: SQLite's kept ones, or a pool."""
    return app.extensions["scorekeeper.db"]


def storage_errors(app) -> tuple[type, ...]:
    """The driver's error classes; `is_storage_fault` tells which of them the web answers 503."""
    return connections(app).errors


def is_storage_fault(error: Exception) -> bool:
    return connections(current_app).is_fault(error)


def get_db():
    """This request's connection (the same one for the whole request)."""
    if "db" not in g:
        g.db = connections(current_app).acquire()
    return g.db


def close_db(_error=None) -> None:
    conn = g.pop("db", None)
    if conn is None:
        return
    try:
        rollback(conn)  # never hand a half-done transaction to the next request
    finally:
        connections(current_app).release(conn)


def upgrade(conn) -> int:
    """Bring the schema to the newest version, one step per transaction; returns it."""
    dialect = conn.dialect
    make, read, write = dialect.versions
    for number, script in enumerate(SCHEMA, 1):
        with transaction(conn):
            if dialect.upgrade_lock:
                conn.execute(dialect.upgrade_lock)
            _run(conn, make)
            version = conn.execute(read).fetchone()[0]
            if version > len(SCHEMA):
                raise StorageRefused(f"the database is from a newer scorekeeper (schema "
                                     f"{version}, this one knows {len(SCHEMA)}): install "
                                     f"the newer version")
            if version < number:
                _run(conn, dialect.schema(script))
                conn.execute(write.format(number))
    return len(SCHEMA)


def _run(conn, script: str) -> None:
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


def backup(source_path: str, target_path: str) -> None:
    """A consistent copy of the live database, safe while the app is serving."""
    source = connect(source_path)
    try:
        source.execute("VACUUM INTO ?", (target_path,))
    finally:
        source.close()


@click.command("backup")
@click.argument("target", type=click.Path(dir_okay=False, writable=True))
@with_appcontext
def backup_command(target: str) -> None:
    """Write a consistent copy of the SQLite match database to TARGET (safe while serving)."""
    if current_app.config.get("DATABASE_URL"):
        raise click.ClickException("backup copies the SQLite file; these matches are in "
                                   "PostgreSQL: back them up with pg_dump (docs/DEPLOY.md)")
    if os.path.exists(target):
        raise click.ClickException(f"{target} exists: choose a new file name")
    try:
        backup(current_app.config["DATABASE"], target)
    except sqlite3.Error as error:
        raise click.ClickException(f"cannot write {target}: {error}") from None
    click.echo(f"Backed up {current_app.config['DATABASE']} to {target}")


def init_app(app) -> None:
    app.config.setdefault("DB_KEEP_CONNECTIONS", True)
    app.config.setdefault("DATABASE_POOL_SIZE", 10)
    where = location(app.config)
    open_checked(where).close()
    if is_postgresql(where):
        app.extensions["scorekeeper.db"] = _postgres().Pool(
            where, int(app.config["DATABASE_POOL_SIZE"]))
    else:
        app.extensions["scorekeeper.db"] = KeptConnections(
            where, app.config["DB_KEEP_CONNECTIONS"])
    app.teardown_appcontext(close_db)
    from .retention import prune_command  # it opens the database with connect() above

    app.cli.add_command(backup_command)
    app.cli.add_command(prune_command)


def open_checked(where: str):
    """Connect, refuse a damaged or unwritable database, upgrade the schema: what a start does."""
    postgresql = is_postgresql(where)
    errors = _postgres().ERRORS if postgresql else (sqlite3.Error,)
    named = _postgres().describe(where) if postgresql else where
    try:
        conn = connect(where)
    except errors as error:
        raise StorageRefused(f"cannot open {named}: {_first_line(error)}") from None
    try:
        if not postgresql:
            _check_sound(conn, where)
        upgrade(conn)
    except errors as error:
        conn.close()
        raise StorageRefused(f"cannot use {named}: {_first_line(error)}") from None
    except BaseException:
        conn.close()
        raise
    return conn


def _first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def _check_sound(conn: sqlite3.Connection, path: str) -> None:
    """A file with damaged pages, or one this process cannot write, is refused at start."""
    verdict = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
    if verdict != "ok":
        raise StorageRefused(f"{path} is damaged ({verdict}): restore it from a backup")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(f"PRAGMA user_version={int(version)}")  # a real write, rolled back
    except sqlite3.OperationalError as error:
        raise StorageRefused(f"cannot write {path} ({error}): check the file's "
                             f"permissions and the free disk space") from None
    finally:
        rollback(conn)
