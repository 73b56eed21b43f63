"""The SQLite database in the instance folder: one connection per request, schema upgrades.

WAL journal with synchronous=FULL so an answered write survives a crash; a
busy timeout so two phones writing at once wait rather than fail.
"""

import contextlib
import os
import sqlite3
import threading

import click
from flask import current_app, g
from flask.cli import with_appcontext

SCHEMA = [
    # version 1: a match is its setup and an append-only list of entries
    """
    CREATE TABLE matches (
        id TEXT PRIMARY KEY,
        score_key TEXT NOT NULL,
        view_key TEXT NOT NULL,
        setup TEXT NOT NULL,
        created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
        updated TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
        revision INTEGER NOT NULL DEFAULT 0,
        summary TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE entries (
        match_id TEXT NOT NULL REFERENCES matches(id),
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('event', 'undo')),
        data TEXT NOT NULL,
        created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
        PRIMARY KEY (match_id, seq)
    ) WITHOUT ROWID;
    CREATE INDEX matches_by_update ON matches(updated);
    """,
    # version 2: pub leagues; a card is a JSON value with a revision, its games link matches
    """
    CREATE TABLE leagues (
        id TEXT PRIMARY KEY,
        secretary_key TEXT NOT NULL,
        public_key TEXT NOT NULL,
        setup TEXT NOT NULL,
        created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
    );
    CREATE TABLE teams (
        id INTEGER PRIMARY KEY,
        league_id TEXT NOT NULL REFERENCES leagues(id),
        name TEXT NOT NULL,
        captain_key TEXT NOT NULL,
        players TEXT NOT NULL DEFAULT '[]',
        UNIQUE (league_id, name)
    );
    CREATE TABLE fixtures (
        id INTEGER PRIMARY KEY,
        league_id TEXT NOT NULL REFERENCES leagues(id),
        home INTEGER NOT NULL REFERENCES teams(id),
        away INTEGER NOT NULL REFERENCES teams(id),
        day TEXT NOT NULL,
        card TEXT NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0,
        CHECK (home != away)
    );
    CREATE TABLE corrections (
        fixture_id INTEGER NOT NULL REFERENCES fixtures(id),
        at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
        kind TEXT NOT NULL,
        facts TEXT NOT NULL
    );
    CREATE INDEX fixtures_by_league ON fixtures(league_id, day);
    CREATE INDEX corrections_by_fixture ON corrections(fixture_id)
    """,
]
"""Each item upgrades the schema by one version; PRAGMA user_version counts them."""


class StorageRefused(Exception):
    """A database the app must not run on (newer, damaged, unwritable): one line says why."""


def connect(path: str) -> sqlite3.Connection:
    """A connection with the durability settings every writer needs."""
    conn = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA busy_timeout=10000")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection):
    """One BEGIN IMMEDIATE ... COMMIT; anything raised inside rolls it back and goes on up.

    SQLite may already have rolled back by itself (a full disk, an interrupt): then
    there is nothing to roll back, and the original error is the one raised.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        rollback(conn)
        raise


def rollback(conn: sqlite3.Connection) -> None:
    """Roll back the open transaction, if SQLite has not already done so."""
    if conn.in_transaction:
        conn.execute("ROLLBACK")


def get_db() -> sqlite3.Connection:
    """This request's connection: each server thread keeps one open for the app.

    Opening a connection per request made SQLite checkpoint and delete its WAL on
    every close; a kept connection is several milliseconds cheaper per write.
    """
    if "db" not in g:
        kept = current_app.extensions["scorekeeper.db"]
        conn = getattr(kept, "conn", None)
        if conn is None:
            conn = connect(current_app.config["DATABASE"])
            if current_app.config["DB_KEEP_CONNECTIONS"]:
                kept.conn = conn
        g.db = conn
    return g.db


def close_db(_error=None) -> None:
    conn = g.pop("db", None)
    if conn is None:
        return
    rollback(conn)  # never hand a half-done transaction to the next request
    if not current_app.config["DB_KEEP_CONNECTIONS"]:
        conn.close()


def upgrade(conn: sqlite3.Connection) -> int:
    """Bring the schema to the newest version, one step per transaction; returns it."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > len(SCHEMA):
        raise StorageRefused(f"the database is from a newer scorekeeper (schema {version}, this "
                             f"one knows {len(SCHEMA)}): install the newer version")
    for number, script in enumerate(SCHEMA[version:], version + 1):
        with transaction(conn):
            for statement in script.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version={number}")
    return len(SCHEMA)


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
    """Write a consistent copy of the match database to TARGET (safe while serving)."""
    if os.path.exists(target):
        raise click.ClickException(f"{target} exists: choose a new file name")
    try:
        backup(current_app.config["DATABASE"], target)
    except sqlite3.Error as error:
        raise click.ClickException(f"cannot write {target}: {error}") from None
    click.echo(f"Backed up {current_app.config['DATABASE']} to {target}")


def init_app(app) -> None:
    app.config.setdefault("DB_KEEP_CONNECTIONS", True)
    app.extensions["scorekeeper.db"] = threading.local()  # one connection per thread
    app.teardown_appcontext(close_db)
    from .retention import prune_command  # it opens the database with connect() above

    app.cli.add_command(backup_command)
    app.cli.add_command(prune_command)
    open_checked(app.config["DATABASE"]).close()



def open_checked(path: str) -> sqlite3.Connection:
    """Connect, refuse a damaged or unwritable file, upgrade the schema: what a start does."""
    try:
        conn = connect(path)
    except sqlite3.Error as error:
        raise StorageRefused(f"cannot open {path}: {error}") from None
    try:
        _check_sound(conn, path)
        upgrade(conn)
    except sqlite3.Error as error:
        conn.close()
        raise StorageRefused(f"cannot use {path}: {error}") from None
    except BaseException:
        conn.close()
        raise
    return conn


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
