"""db.transaction(): one write, all or nothing, whatever the database did on its own."""

import sqlite3

import pytest

from scorekeeper.storage import connect
from scorekeeper.storage.connection import transaction


def _with_table(where: str):
    conn = connect(where)
    conn.execute("CREATE TABLE t (x INTEGER)")
    return conn


@pytest.fixture
def conn(database):
    """On SQLite and on PostgreSQL."""
    conn = _with_table(database)
    yield conn
    conn.close()


@pytest.fixture
def sqlite_conn(tmp_path):
    conn = _with_table(str(tmp_path / "t.sqlite"))
    yield conn
    conn.close()


def test_a_transaction_writes_all_or_nothing(conn):
    with pytest.raises(ZeroDivisionError), transaction(conn):
        conn.execute("INSERT INTO t VALUES (1)")
        1 / 0  # noqa: B018
    with transaction(conn):
        conn.execute("INSERT INTO t VALUES (2)")
    assert [tuple(row) for row in conn.execute("SELECT x FROM t")] == [(2,)]


def test_a_full_disk_raises_its_own_error_not_one_from_the_rollback(sqlite_conn):
    """SQLite may roll back by itself on a full disk; ROLLBACK then would fail too."""
    conn = sqlite_conn
    conn.execute("PRAGMA max_page_count = 8")  # a disk that fills at 8 pages
    with pytest.raises(sqlite3.OperationalError, match="full"), transaction(conn):
        conn.execute("INSERT INTO t VALUES (zeroblob(100000))")
    assert not conn.in_transaction
    assert conn.execute("SELECT count(*) FROM t").fetchone()[0] == 0


def test_a_transaction_the_database_already_rolled_back_raises_the_first_error(conn):
    with pytest.raises(KeyError), transaction(conn):
        conn.execute("ROLLBACK")  # as SQLite does on its own after some errors
        raise KeyError("the first error")
    assert not conn.in_transaction
