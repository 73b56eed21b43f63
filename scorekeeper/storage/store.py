"""The app's store: where each request gets its connection, and this process's rebuilt
matches. Opened once at start, after the database is checked and its schema upgraded."""

import sqlite3
import threading

from .connection import connect, is_postgresql, location, open_checked, postgres
from .dialects import SQLITE
from .hits import Sweeps
from .match_log import MatchCache


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


class Store:
    """The database an app runs on: its connections (SQLite's kept ones, or a PostgreSQL
    pool), the driver's errors and which of them are the disk's or the server's fault
    (answered 503), the process's cache of rebuilt matches and when it last swept the
    write limits' counts."""

    def __init__(self, where: str, connections):
        self.location = where
        self.connections = connections
        self.cache = MatchCache()
        self.sweeps = Sweeps()
        self.errors: tuple[type, ...] = connections.errors

    def acquire(self):
        return self.connections.acquire()

    def release(self, conn) -> None:
        self.connections.release(conn)

    def is_fault(self, error: Exception) -> bool:
        """An error of the disk or the database server, not of the code."""
        return self.connections.is_fault(error)

    def close(self) -> None:
        self.connections.close()


def open_store(config) -> Store:
    """The store a config names (DATABASE_URL, else the DATABASE file), checked and upgraded;
    StorageRefused with one line saying why when it cannot be used."""
    where = location(config)
    open_checked(where).close()
    if is_postgresql(where):
        connections = postgres().Pool(where, int(config.get("DATABASE_POOL_SIZE", 10)))
    else:
        connections = KeptConnections(where, config.get("DB_KEEP_CONNECTIONS", True))
    return Store(where, connections)
