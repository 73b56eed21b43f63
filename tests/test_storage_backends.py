"""The same storage on SQLite and on PostgreSQL: schema versions, a second writer waiting,
faults said plainly, and the commands that are SQLite's only refusing clearly."""

import os
import subprocess
import sys
import threading
import time

import pytest
import stores
from conftest import HTMX, create_match, read_pos

from scorekeeper import create_app, storage
from scorekeeper.league import Card, LeagueSetup, PointsScheme
from scorekeeper.rules import Lay, Match, Start, Table
from scorekeeper.storage import StaleWrite
from scorekeeper.storage.connection import transaction
from scorekeeper.web.answers.work import STORE, unit_of_work

CONFIG = {"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "backends-test"}


def start_on(database: str, tmp_path, **config):
    where = "DATABASE_URL" if storage.is_postgresql(database) else "DATABASE"
    return create_app({**CONFIG, "DATABASE": str(tmp_path / "unused.sqlite"),
                       where: database, **config})


def version(database: str) -> int:
    conn = storage.connect(database)
    try:
        return conn.execute(conn.dialect.versions[1]).fetchone()[0]
    finally:
        conn.close()


def matches_stored(database: str) -> list[tuple]:
    conn = storage.connect(database)
    try:
        return [tuple(row) for row in conn.execute("SELECT id, revision FROM matches")]
    finally:
        conn.close()


@pytest.fixture
def blank(request, tmp_path):
    """A database with no schema at all, on each backend."""
    if request.param == "sqlite":
        return str(tmp_path / "blank.sqlite")
    cluster = request.getfixturevalue("postgresql_cluster")
    return cluster.create_database(f"blank{os.getpid()}{time.monotonic_ns()}")


BOTH = pytest.mark.parametrize(
    "blank", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)],
    indirect=True)


@BOTH
def test_a_blank_database_is_brought_to_the_newest_schema_once(blank, tmp_path):
    for _ in range(2):
        app = start_on(blank, tmp_path)
        app.extensions[STORE].close()
    assert version(blank) == len(storage.connection.SCHEMA)
    conn = storage.connect(blank)
    try:
        stored = stores.create(conn, Match(Table.create(["Ann", "Bob"])))
        assert storage.upgrade(conn) == len(storage.connection.SCHEMA)
    finally:
        conn.close()
    assert matches_stored(blank) == [(stored.id, 0)]


@BOTH
def test_a_failed_upgrade_leaves_no_trace_and_a_newer_schema_is_refused(blank, tmp_path,
                                                                        monkeypatch):
    start_on(blank, tmp_path).extensions[STORE].close()
    monkeypatch.setattr(storage.connection, "SCHEMA", [*storage.connection.SCHEMA,
                                                       "CREATE TABLE half (x INTEGER); CREATE ("])
    with pytest.raises(storage.StorageRefused, match="cannot use"):
        start_on(blank, tmp_path)
    assert version(blank) == len(storage.connection.SCHEMA) - 1
    conn = storage.connect(blank)
    try:
        conn.execute("SELECT count(*) FROM matches")
        with pytest.raises(Exception, match="half"):
            conn.execute("SELECT * FROM half")
    finally:
        conn.close()
    monkeypatch.undo()
    conn = storage.connect(blank)
    conn.execute(conn.dialect.versions[2].format(99))
    conn.close()
    with pytest.raises(storage.StorageRefused, match="newer scorekeeper"):
        start_on(blank, tmp_path)


def test_a_second_writer_waits_for_the_first_and_is_then_told_the_match_moved_on(database):
    first, second = storage.connect(database), storage.connect(database)
    try:
        stored = stores.create(first, Match(Table.create(["Ann", "Bob"])))
        answers = []

        def tap() -> None:
            try:
                stores.write(second, stored, 0, Start(1))
            except StaleWrite as stale:
                answers.append(stale.current)

        waiting = threading.Thread(target=tap)
        with transaction(first):  # the first phone's write, held open
            first.execute("UPDATE matches SET revision = 1 WHERE id = ?", (stored.id,))
            first.execute("INSERT INTO entries (match_id, seq, kind, data) "
                          "VALUES (?, 1, 'event', '{\"start\": 0}')", (stored.id,))
            waiting.start()
            time.sleep(0.3)
            assert waiting.is_alive()  # it waits for the row (the file), it does not fail
        waiting.join(10)
        assert answers == [1]
        assert matches_stored(database) == [(stored.id, 1)]
    finally:
        first.close()
        second.close()


def test_a_second_captain_writing_a_card_at_once_waits_and_is_told_it_moved_on(database):
    """Two captains' phones at the same moment: the first card is kept, the second is stale."""
    first, second = storage.connect(database), storage.connect(database)
    leagues = storage.LeagueRepository(first)
    setup = LeagueSetup.create("Fives League", "2026", "SSP", PointsScheme.create(1, 2, 1))
    blank = Card.blank(setup.games)
    try:
        with transaction(first):
            league = leagues.insert_league(setup)
            teams = [leagues.insert_team(league.id, "Anchor", ["A1", "A2"]),
                     leagues.insert_team(league.id, "Bell", ["B1", "B2"])]
            fixture = leagues.insert_fixture(league.id, *teams, "2026-12-01", blank)
        answers = []
        rosters = {"home": ["A1", "A2"], "away": ["B1", "B2"]}
        by_anchor = blank.with_players(1, ["A1"], ["B1"], rosters)
        by_bell = blank.with_players(1, ["A2"], ["B2"], rosters)

        def write(conn, card) -> None:
            try:
                with transaction(conn):
                    storage.LeagueRepository(conn).save_card(fixture, 0, card)
            except storage.StaleCard as stale:
                answers.append(stale.current)

        waiting = threading.Thread(target=write, args=(second, by_bell))
        with transaction(first):  # the first captain's write, held open
            leagues.save_card(fixture, 0, by_anchor)
            waiting.start()
            time.sleep(0.3)
            assert waiting.is_alive()
        waiting.join(10)
        assert answers == [1]
        card = leagues.fixture(league.id, fixture)
        assert (card.revision, card.card.as_dict()) == (1, by_anchor.as_dict())
    finally:
        first.close()
        second.close()


def test_a_match_deleted_while_a_tap_is_written_waits_and_goes_with_that_tap(database):
    """A delete locks the match's row first, as a tap does: on PostgreSQL it otherwise
    deleted the entries it could see, then failed on the one the tap had just added."""
    first, second = storage.connect(database), storage.connect(database)
    try:
        stored = stores.create(first, Match(Table.create(["Ann", "Bob"])))
        deleted = []
        deleting = threading.Thread(
            target=lambda: deleted.append(stores.delete(second, stored.id, stored.score_key)))
        with transaction(first):  # a tap's write, held open
            first.execute("INSERT INTO entries (match_id, seq, kind, data) "
                          "VALUES (?, 1, 'event', '{\"start\": 0}')", (stored.id,))
            first.execute("UPDATE matches SET revision = 1 WHERE id = ?", (stored.id,))
            deleting.start()
            time.sleep(0.3)
            assert deleting.is_alive()  # it waits for the tap, as on SQLite
        deleting.join(10)
        assert deleted == [True]
        assert matches_stored(database) == []
        assert first.execute("SELECT count(*) FROM entries").fetchone()[0] == 0
    finally:
        first.close()
        second.close()


def test_a_request_never_hands_an_open_transaction_to_the_next(database, tmp_path):
    app = start_on(database, tmp_path)
    try:
        with app.app_context():
            conn = unit_of_work().conn
            conn.execute(conn.dialect.begin)
            conn.execute("UPDATE matches SET revision = 0")
        assert not conn.in_transaction  # rolled back before the connection is kept or pooled
        with app.app_context():
            assert not unit_of_work().conn.in_transaction
    finally:
        app.extensions[STORE].close()


@pytest.mark.postgresql
def test_a_read_only_postgresql_says_not_saved_and_changes_nothing(app_factory,
                                                                    postgresql_database,
                                                                    postgresql_cluster):
    from psycopg.conninfo import conninfo_to_dict

    database = postgresql_database
    app = app_factory(database=database)
    client = app.test_client()
    url = create_match(client)
    page = client.get(url).text
    app.extensions[STORE].close()  # the next requests open new connections
    name = conninfo_to_dict(database)["dbname"]
    admin = storage.connect(postgresql_cluster.url())
    admin.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    admin.close()
    answer = client.post(url + "/start", data={"pos": read_pos(page), "seat": "0"},
                         headers=HTMX)
    assert answer.status_code == 503
    assert "Not saved" in answer.text and answer.headers["Retry-After"]
    assert read_pos(client.get(url).text) == read_pos(page)


@pytest.mark.postgresql
def test_a_write_waits_for_a_row_lock_at_most_ten_seconds_whatever_the_session_says(
        postgresql_database):
    """Through a pooler in transaction mode (PgBouncer) the session is not the app's own:
    it takes no startup options, and another client may have changed its settings."""
    conn = storage.connect(postgresql_database)
    try:
        conn.execute("SET lock_timeout = 0")  # wait for ever, as another client left it
        with transaction(conn):
            assert conn.execute("SHOW lock_timeout").fetchone()[0] == "10s"
        assert conn.execute("SHOW lock_timeout").fetchone()[0] == "0"  # only the write's
    finally:
        conn.close()


@pytest.mark.postgresql
def test_an_app_server_pointed_at_a_read_only_postgresql_refuses_to_start(
        postgresql_database, postgresql_cluster, tmp_path):
    """As on a replica (docs/DEPLOY.md): a server that cannot write says so at start."""
    from psycopg.conninfo import conninfo_to_dict

    name = conninfo_to_dict(postgresql_database)["dbname"]
    admin = storage.connect(postgresql_cluster.url())
    admin.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    admin.close()
    with pytest.raises(storage.StorageRefused, match="read-only transaction"):
        start_on(postgresql_database, tmp_path)


@pytest.mark.postgresql
def test_a_tap_after_the_database_dropped_every_connection_is_saved(app_factory,
                                                                     postgresql_database,
                                                                     postgresql_cluster):
    """As after a restart of PostgreSQL: the pool replaces a connection that broke."""
    from psycopg.conninfo import conninfo_to_dict

    app = app_factory(database=postgresql_database)
    client = app.test_client()
    url = create_match(client)
    page = client.get(url).text
    admin = storage.connect(postgresql_cluster.url())
    dropped = admin.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                            "WHERE datname = ?",
                            (conninfo_to_dict(postgresql_database)["dbname"],)).fetchone()[0]
    admin.close()
    assert dropped >= 1
    answer = client.post(url + "/start", data={"pos": read_pos(page), "seat": "0"},
                         headers=HTMX)
    assert answer.status_code == 200
    assert read_pos(client.get(url).text) == read_pos(page) + 1


@pytest.mark.postgresql
def test_the_sqlite_backup_command_on_postgresql_points_to_pg_dump(app_factory,
                                                                   postgresql_database,
                                                                   tmp_path):
    app = app_factory(database=postgresql_database)
    result = app.test_cli_runner().invoke(args=["backup", str(tmp_path / "copy.sqlite")])
    assert result.exit_code != 0 and "pg_dump" in result.output
    assert not (tmp_path / "copy.sqlite").exists()


def test_the_app_needs_no_postgresql_driver_until_a_url_names_postgresql(tmp_path):
    """psycopg is an optional install: hidden here, SQLite still serves, and a URL says
    what to install."""
    script = ("import sys; sys.modules['psycopg'] = None\n"
              "from scorekeeper import create_app, storage\n"
              f"create_app({{'DATABASE': {str(tmp_path / 'plain.sqlite')!r}}})\n"
              "try:\n"
              "    create_app({'DATABASE_URL': 'postgresql://nobody@/none'})\n"
              "except storage.StorageRefused as refused:\n"
              "    print(refused)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "pip install 'scorekeeper[postgresql]'" in done.stdout


@pytest.mark.postgresql
@pytest.mark.parametrize(("error", "fault"), [
    ("errors.DiskFull", True), ("errors.ReadOnlySqlTransaction", True),
    ("errors.LockNotAvailable", True), ("errors.AdminShutdown", True),
    ("OperationalError", True), ("errors.UndefinedTable", False),
    ("errors.UniqueViolation", False), ("ProgrammingError", False)])
def test_a_postgresql_fault_is_the_servers_never_a_bug_in_the_code(postgresql_cluster, error,
                                                                    fault):
    """The server's failures are answered "Not saved" (503); a bug stays a 500 in the log."""
    import operator

    import psycopg

    from scorekeeper.storage import postgres

    assert postgres.is_fault(operator.attrgetter(error)(psycopg)("said")) is fault


@pytest.mark.postgresql
@pytest.mark.parametrize(("password", "said"), [
    ("hunter2secret", "cannot open PostgreSQL database 'scorekeeper'"),
    ("50%off", "cannot read the PostgreSQL URL: percent-encode")],  # a % not encoded
    ids=["no server", "unreadable URL"])
def test_serve_without_its_postgresql_refuses_in_one_line_that_never_shows_the_password(
        tmp_path, password, said):
    url = f"postgresql://scorekeeper:{password}@/scorekeeper?host={tmp_path}/no-server"
    done = subprocess.run([sys.executable, "-m", "scorekeeper.cli", "serve", "--port", "0"],
                          env=dict(os.environ, SCOREKEEPER_DATABASE_URL=url),
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode != 0
    assert done.stderr.count("\n") == 1
    assert said in done.stderr
    assert password[:4] not in done.stderr and password[-3:] not in done.stderr


def test_a_database_url_that_is_not_postgresql_is_refused_before_anything_is_made(tmp_path):
    """A SQLite path given as the URL would start a pool that never connects: every tap 503."""
    path = tmp_path / "matches.sqlite"
    with pytest.raises(storage.StorageRefused, match="postgresql:// URL.*SCOREKEEPER_DATABASE"):
        create_app({**CONFIG, "DATABASE": str(tmp_path / "unused.sqlite"),
                    "DATABASE_URL": str(path)})
    assert not path.exists()


def test_a_match_held_after_it_was_loaded_refuses_the_write(database):
    """The held-match guard of the write itself, not only the page's: a tap loaded before
    the card was signed and written after it is refused, by the quick path (the phone saw
    the revision it loaded) and by the locked one (it saw another), and so is a take-back."""
    from scorekeeper.league.cards.card import CONFIRMED
    from scorekeeper.storage import MatchHeld, MatchRepository
    from scorekeeper.storage.connection import transaction

    conn = storage.connect(database)
    try:
        made = stores.create(conn, Match(Table.create(["Ann", "Bob"])))
        stores.write(conn, stores.load(conn, made.id, made.score_key), 0, Start(0))
        quick = stores.load(conn, made.id, made.score_key)
        reread = stores.load(conn, made.id, made.score_key)
        with transaction(conn):
            MatchRepository(conn).hold([made.id], CONFIRMED)
        with pytest.raises(MatchHeld):
            stores.write(conn, quick, 1, Lay((6, 6)))
        reread.revision = 0  # as when the phone saw another revision than the one loaded
        with pytest.raises(MatchHeld):
            stores.write(conn, reread, 1, Lay((6, 6)))
        with transaction(conn):
            MatchRepository(conn).hold([made.id], "")
        assert stores.write(conn, stores.load(conn, made.id, made.score_key), 1,
                            Lay((6, 6))).revision == 2
    finally:
        conn.close()


def test_upgrading_a_version_3_database_links_and_holds_the_games_of_signed_cards(tmp_path):
    """Schema version 4 fills matches.fixture_id, game and held from the stored cards."""
    import json
    import sqlite3

    from scorekeeper.storage.connection import _run
    from scorekeeper.storage.dialects import SQLITE
    from scorekeeper.storage.schema import SCHEMA

    path = str(tmp_path / "v3.sqlite")
    conn = storage.connect(path)
    for number, script in enumerate(SCHEMA[:3], 1):
        _run(conn, SQLITE.schema(script))
        conn.execute(f"PRAGMA user_version={number}")
    for match_id in ("m1", "m2", "m3"):
        conn.execute("INSERT INTO matches (id, score_key, view_key, setup) VALUES (?, 'k', 'v', "
                     "'{}')", (match_id,))
    conn.execute("INSERT INTO leagues (id, secretary_key, public_key, setup) VALUES "
                 "('L', 's', 'p', '{}')")
    conn.execute("INSERT INTO teams (id, league_id, name, captain_key) VALUES "
                 "(1, 'L', 'Anchor', 'a'), (2, 'L', 'Bell', 'b')")
    game = {"kind": "singles", "home": ["A"], "away": ["B"], "entered": None}
    signed = {"games": [{**game, "match_id": "m1"}, {**game, "match_id": None}],
              "confirmed": ["away", "home"]}
    open_card = {"games": [{**game, "match_id": None}, {**game, "match_id": "m2"}],
                 "confirmed": ["home"]}
    for fixture_id, card in ((1, signed), (2, open_card)):
        conn.execute("INSERT INTO fixtures (id, league_id, home, away, day, card) VALUES "
                     "(?, 'L', 1, 2, '2026-12-01', ?)", (fixture_id, json.dumps(card)))
    conn.close()
    conn = storage.connect(path)
    assert storage.upgrade(conn) == len(SCHEMA)
    rows = conn.execute("SELECT id, fixture_id, game, held FROM matches ORDER BY id").fetchall()
    conn.close()
    assert [tuple(row) for row in rows] == [("m1", 1, 1, "confirmed"), ("m2", 2, 2, ""),
                                            ("m3", None, None, "")]
    assert isinstance(rows[0], sqlite3.Row)
