"""PostgreSQL connections (psycopg 3) that the store uses as it uses SQLite's.

Imported only when SCOREKEEPER_DATABASE_URL names a PostgreSQL database, so the app
needs psycopg only then (`pip install '.[postgresql]'`). A connection here takes the
store's `?` placeholders, answers rows by position and by column name, and is in
autocommit outside a transaction (whose BEGIN bounds its wait for a row lock).
"""

import functools
import threading

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg.pq import TransactionStatus
from psycopg.rows import tuple_row
from psycopg_pool import ConnectionPool, PoolTimeout

from ..rules.words import N_
from .dialects import POSTGRESQL
from .errors import StorageRefused

POOL_WAIT = 3
"""Seconds a request waits for a connection of its process's pool, then fails (503 "Not
saved"). A worker serves one request at a time, so it never waits for another's
connection: only for the database to take a new one."""
DOWN_WAIT = 0.2
"""The wait while the database is out of reach (the last request got no connection, or
its connection broke): the requests queued behind it fail at once ("Not saved", kept by
the phone) instead of each after POOL_WAIT, 30 s for the third. The pool reconnects
meanwhile, and the first request it serves ends the outage."""
RECONNECT_GIVE_UP = 5
"""Seconds the pool retries a connection (its delays doubling) before it gives up, and
the next request starts it again at once: so a database back after a long outage is
used within seconds, not after the minutes its doubled delay had reached."""
ERRORS = (psycopg.Error,)
"""Every error the driver raises; `is_fault` tells the server's from the code's."""
LOST = (psycopg.OperationalError, psycopg.InterfaceError)
"""The driver's errors without a server's code: the server could not be reached, or the
connection broke, or no pooled connection came free in time."""


def is_fault(error: Exception) -> bool:
    """The database server failed or is out of reach (503 "Not saved"), not the code."""
    if getattr(error, "sqlstate", None) is None:
        return isinstance(error, LOST)
    return POSTGRESQL.is_fault(error)


class Row:
    """A row read by position (`row[0]`) or by column name (`row["id"]`), as sqlite3.Row."""

    __slots__ = ("_values", "_names")

    def __init__(self, values, names: dict[str, int]):
        self._values = values
        self._names = names

    def __getitem__(self, key):
        return self._values[self._names[key] if isinstance(key, str) else key]

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def keys(self) -> list[str]:
        return list(self._names)


def _rows(cursor):
    names = {column.name: number for number, column in enumerate(cursor.description or ())}
    return functools.partial(Row, names=names)


@functools.lru_cache(maxsize=512)
def _paramstyle(query: str) -> str:
    """The store's `?` placeholders as psycopg's `%s` (a literal % doubled)."""
    return query.replace("%", "%%").replace("?", "%s")


class Connection(psycopg.Connection):
    """A psycopg connection that reads the store's SQL as a SQLite connection does."""

    dialect = POSTGRESQL
    errors = ERRORS

    def execute(self, query, params=None, **options):
        if params is not None:
            query = _paramstyle(query)
        return super().execute(query, params, **options)

    def executemany(self, query, params_seq):
        cursor = self.cursor()
        cursor.executemany(_paramstyle(query), params_seq)
        return cursor

    def stream(self, query: str, size: int = 5000):
        """The rows a query reads, as batches of plain tuples, through a server-side cursor
        (a whole table never sits in memory); inside the caller's transaction."""
        with self.cursor(name="stream", row_factory=tuple_row) as cursor:
            cursor.itersize = size
            cursor.execute(query)
            while batch := cursor.fetchmany(size):
                yield batch

    def load(self, table: str, columns: list[str], rows) -> None:
        """Insert rows of values for these columns, numbered columns too: one COPY."""
        names = ", ".join(f'"{column}"' for column in columns)
        with self.cursor() as cursor, cursor.copy(f'COPY "{table}" ({names}) FROM STDIN') as copy:
            for row in rows:
                copy.write_row(row)

    @property
    def in_transaction(self) -> bool:
        return self.info.transaction_status in (TransactionStatus.INTRANS,
                                                TransactionStatus.INERROR)


SETTINGS = {"autocommit": True, "row_factory": _rows, "connect_timeout": 10}


def connect(url: str) -> Connection:
    """One connection of its own (a command, a test); the app's requests use `Pool`."""
    return Connection.connect(url, **SETTINGS)


def connect_read_only(url: str) -> Connection:
    """A connection whose every transaction is read-only: the server refuses any write."""
    conn = connect(url)
    conn.execute("SET default_transaction_read_only = on")
    return conn


def describe(url: str) -> str:
    """The database a URL names, for a message: never its password."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.Error:  # libpq's reason quotes the part it could not read
        raise StorageRefused.worded(N_("cannot read the PostgreSQL URL: percent-encode any "
                                       "of %(signs)s in its user name or password"),
                                    "bad_url", signs=": / ? # @ %") from None
    return f"PostgreSQL database {parts.get('dbname', '')!r} on {parts.get('host', 'localhost')}"


def place(url: str) -> tuple[str, str, str]:
    """The server and database a URL names (host, port, database), to tell two apart."""
    parts = conninfo_to_dict(url)
    return (parts.get("host", ""), str(parts.get("port", "")), parts.get("dbname", ""))


class Pool:
    """This process's connections, opened at its first request (after any fork)."""

    dialect = POSTGRESQL
    errors = ERRORS
    is_fault = staticmethod(is_fault)

    def __init__(self, url: str, size: int):
        self.url = url
        self.size = size
        self._pool: ConnectionPool | None = None
        self._lock = threading.Lock()
        self.unreachable = False
        """The database was out of reach at the last request: wait DOWN_WAIT."""

    def acquire(self) -> Connection:
        if self._pool is None:
            with self._lock:
                if self._pool is None:
                    self._pool = ConnectionPool(
                        self.url, min_size=1, max_size=self.size, timeout=POOL_WAIT,
                        connection_class=Connection, kwargs=SETTINGS, open=True,
                        check=ConnectionPool.check_connection,  # one lost with a restart
                        reconnect_timeout=RECONNECT_GIVE_UP, name="scorekeeper")
        try:
            conn = self._pool.getconn(DOWN_WAIT if self.unreachable else POOL_WAIT)
        except PoolTimeout:
            self.unreachable = True
            raise
        self.unreachable = False
        return conn

    def release(self, conn: Connection) -> None:
        if conn.broken:
            self.unreachable = True
        self._pool.putconn(conn)

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.close()
                self._pool = None
