"""Storage: the schema upgrades itself, connections are durable, backups are consistent,
oversized imports are refused, and match links cannot be guessed or told apart."""

import base64
import io
import json
import os
import random
import sqlite3
import subprocess
import sys
import threading
import time

import pytest
import stores
from simulation import RandomTable, play_match

from scorekeeper import create_app, storage
from scorekeeper.rules import Match, Start, Table
from scorekeeper.rules.match.record import write_record
from scorekeeper.storage import StaleWrite
from scorekeeper.web.answers.work import unit_of_work

CONFIG = {"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "storage-test"}


def make_app(path, **config):
    return create_app({**CONFIG, "DATABASE": str(path), **config})


def user_version(path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def tables(path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'index')")}
    finally:
        conn.close()


def dump(path) -> tuple[list, list]:
    conn = sqlite3.connect(path)
    try:
        return (conn.execute("SELECT * FROM matches ORDER BY id").fetchall(),
                conn.execute("SELECT * FROM entries ORDER BY match_id, seq").fetchall())
    finally:
        conn.close()


def integrity(path) -> list:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA integrity_check").fetchall()
    finally:
        conn.close()


def stored_matches(path, count: int = 3, seed: int = 5) -> list[stores.Stored]:
    """A few whole random matches, stored as imported ones are."""
    rng = random.Random(seed)
    conn = storage.connect(str(path))
    try:
        storage.upgrade(conn)
        return [stores.create(conn, play_match(rng)) for _ in range(count)]
    finally:
        conn.close()


# -- the schema ------------------------------------------------------------

def test_a_missing_database_is_created_at_the_newest_version(tmp_path):
    path = tmp_path / "new.sqlite"
    assert not path.exists()
    make_app(path)
    assert user_version(path) == len(storage.connection.SCHEMA)
    assert {"matches", "entries", "matches_by_update"} <= tables(path)


def test_a_version_0_database_is_upgraded(tmp_path):
    path = tmp_path / "empty.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE unrelated (x)")  # a file that exists but has no schema yet
    conn.commit()
    conn.close()
    assert user_version(path) == 0
    make_app(path)
    assert user_version(path) == len(storage.connection.SCHEMA)
    assert {"matches", "entries", "unrelated"} <= tables(path)


def test_starting_twice_changes_nothing(tmp_path):
    path = tmp_path / "twice.sqlite"
    make_app(path)
    stored_matches(path, count=2)
    before = dump(path)
    make_app(path)
    make_app(path)
    assert user_version(path) == len(storage.connection.SCHEMA)
    assert dump(path) == before
    conn = storage.connect(str(path))
    try:
        assert storage.upgrade(conn) == len(storage.connection.SCHEMA)
    finally:
        conn.close()


def test_an_upgrade_keeps_the_data_and_a_failed_one_leaves_no_trace(tmp_path, monkeypatch):
    path = tmp_path / "upgrade.sqlite"
    stored = stored_matches(path, count=2)
    before = dump(path)
    version = len(storage.connection.SCHEMA)

    monkeypatch.setattr(storage.connection, "SCHEMA", [*storage.connection.SCHEMA,
                                                       "CREATE TABLE half (x); CREATE TABLE ("])
    with pytest.raises(storage.StorageRefused):  # the start refuses, naming SQLite's error
        make_app(path)
    assert user_version(path) == version
    assert "half" not in tables(path)
    assert dump(path) == before

    monkeypatch.setattr(storage.connection, "SCHEMA", [*storage.connection.SCHEMA[:version],
                                       "ALTER TABLE matches ADD COLUMN note TEXT"])
    app = make_app(path)
    assert user_version(path) == version + 1
    with app.test_client() as client:
        for match in stored:
            response = client.get(f"/match/{match.id}/{match.score_key}/export")
            assert response.status_code == 200
            assert response.json == write_record(match.match)


# -- connections -------------------------------------------------------------

def test_every_connection_is_durable_and_waits_for_a_busy_writer(tmp_path):
    app = make_app(tmp_path / "pragmas.sqlite")

    def settings(conn):
        return tuple(conn.execute(f"PRAGMA {name}").fetchone()[0]
                     for name in ("journal_mode", "synchronous", "busy_timeout", "foreign_keys"))

    conn = storage.connect(app.config["DATABASE"])
    try:
        assert settings(conn) == ("wal", 2, 10000, 1)  # synchronous 2 is FULL
    finally:
        conn.close()
    with app.app_context():
        assert settings(unit_of_work().conn) == ("wal", 2, 10000, 1)


def test_a_second_writer_waits_rather_than_fails(tmp_path):
    path = str(tmp_path / "busy.sqlite")
    conn = storage.connect(path)
    storage.upgrade(conn)
    stored = stores.create(conn, Match(Table.create(["Ann", "Bob"])))
    conn.close()
    holder = storage.connect(path)
    holder.execute("BEGIN IMMEDIATE")  # another phone's write, not yet committed
    timer = threading.Timer(0.5, lambda: holder.execute("COMMIT"))
    writer = storage.connect(path)
    try:
        began = time.monotonic()
        timer.start()
        written = stores.write(writer, stored, 0, Start(0))
        assert time.monotonic() - began >= 0.4
        assert written.revision == 1
    finally:
        timer.join()
        writer.close()
        holder.close()


# -- backups -----------------------------------------------------------------

def test_backup_writes_a_consistent_copy_while_a_write_is_open(tmp_path):
    path = tmp_path / "live.sqlite"
    app = make_app(path)
    stored = stored_matches(path)
    committed = dump(path)

    writer = storage.connect(str(path))  # another connection in the middle of a write
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE matches SET summary = 'half-written'")
    writer.execute("DELETE FROM entries WHERE seq > 3")
    try:
        target = tmp_path / "copy.sqlite"
        result = app.test_cli_runner().invoke(args=["backup", str(target)])
        assert result.exit_code == 0, result.output
        assert str(target) in result.output
    finally:
        writer.execute("ROLLBACK")
        writer.close()

    assert integrity(target) == [("ok",)]
    assert dump(target) == committed  # the open write is not in the copy
    assert user_version(target) == len(storage.connection.SCHEMA)
    copy = make_app(target)
    with copy.test_client() as client:
        for match in stored:
            response = client.get(f"/match/{match.id}/{match.score_key}/export")
            assert response.json == write_record(match.match)


def test_backup_during_a_stream_of_writes_is_always_consistent(tmp_path):
    path = str(tmp_path / "busy.sqlite")
    table = Table.create(["Ann", "Bob"], target=10_000)
    conn = storage.connect(path)
    storage.upgrade(conn)
    stored = stores.create(conn, Match(table))
    conn.close()
    stop = threading.Event()
    problems = []

    def play():
        writer = storage.connect(path)
        sim = RandomTable(Match(table), random.Random(1))
        current = stored
        try:
            while not stop.is_set():
                current = stores.write(writer, current, current.revision, sim.step())
        except Exception as error:  # reported below
            problems.append(error)
        finally:
            writer.close()

    def revision() -> int:
        return dump(path)[0][0][6]

    thread = threading.Thread(target=play)
    thread.start()
    seen = []
    try:
        for number in range(5):
            least = revision() + 5
            while revision() < least and thread.is_alive():
                time.sleep(0.01)
            target = str(tmp_path / f"copy{number}.sqlite")
            storage.backup(path, target)
            assert integrity(target) == [("ok",)]
            (row,), entries = dump(target)
            assert [entry[1] for entry in entries] == list(range(1, row[6] + 1))  # revision
            copy = storage.connect(target)
            try:
                rebuilt = stores.load(copy, row[0], row[1], scoring=True)
                assert row[7] == stores.summary_json(rebuilt.match)
            finally:
                copy.close()
            seen.append(row[6])
    finally:
        stop.set()
        thread.join()
    assert not problems
    assert seen == sorted(seen) and len(set(seen)) == len(seen), seen  # written in between


def test_backup_refuses_to_overwrite_a_file(tmp_path):
    app = make_app(tmp_path / "live.sqlite")
    stored_matches(tmp_path / "live.sqlite", count=1)
    target = tmp_path / "precious.sqlite"
    target.write_bytes(b"yesterday's backup")
    result = app.test_cli_runner().invoke(args=["backup", str(target)])
    assert result.exit_code != 0
    assert "exists" in result.output and "choose a new file name" in result.output
    assert "Traceback" not in result.output
    assert target.read_bytes() == b"yesterday's backup"


def test_backup_into_a_missing_folder_says_so(tmp_path):
    app = make_app(tmp_path / "live.sqlite")
    target = tmp_path / "no-such-folder" / "copy.sqlite"
    result = app.test_cli_runner().invoke(args=["backup", str(target)])
    assert result.exit_code != 0
    assert f"cannot write {target}" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not target.exists()


def test_the_backup_command_from_the_shell(tmp_path):
    """`flask --app scorekeeper backup FILE` with the database named by SCOREKEEPER_DATABASE."""
    path = tmp_path / "live.sqlite"
    make_app(path)
    stored_matches(path, count=2)
    target = tmp_path / "shell-copy.sqlite"
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(path), SCOREKEEPER_SECRET_KEY="shell")
    command = [sys.executable, "-m", "flask", "--app", "scorekeeper", "backup", str(target)]
    done = subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert integrity(target) == [("ok",)]
    assert dump(target) == dump(path)
    again = subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True,
                           timeout=60, check=False)
    assert again.returncode != 0
    assert "exists" in again.stderr and "Traceback" not in again.stderr


# -- imports -----------------------------------------------------------------

def _import(client, body: bytes):
    return client.post("/import", data={"record": (io.BytesIO(body), "match.json")},
                       content_type="multipart/form-data")


@pytest.mark.parametrize("csrf", [False, True])
def test_a_record_over_256_kb_is_refused_and_nothing_is_made(tmp_path, csrf):
    path = tmp_path / "import.sqlite"
    app = make_app(path, WTF_CSRF_ENABLED=csrf)
    record = write_record(play_match(random.Random(3)))
    text = json.dumps(record)
    padded = text[:-1] + " " * (256 * 1024 - len(text)) + "}"
    with app.test_client() as client:
        response = _import(client, padded.encode())
        assert response.status_code == 413
        assert "Traceback" not in response.get_data(as_text=True)
    assert dump(path) == ([], [])


def test_a_large_record_under_the_limit_is_imported(tmp_path):
    path = tmp_path / "import.sqlite"
    app = make_app(path)
    record = write_record(play_match(random.Random(3)))
    text = json.dumps(record)
    padded = text[:-1] + " " * (200 * 1024) + "}"
    with app.test_client() as client:
        response = _import(client, padded.encode())
        assert response.status_code == 303
        response = client.get(response.headers["Location"] + "/export")
        assert response.json == record
    assert len(dump(path)[0]) == 1


def test_an_export_waiting_for_pips_imports_again(tmp_path):
    """A match exported while the table counts the pips left must read back as it was."""
    path = tmp_path / "waiting.sqlite"
    app = make_app(path)
    match = Match(Table.create(["Ann", "Bob"]))
    sim = RandomTable(match, random.Random(1))
    while match.phase != "end":
        sim.step()
    conn = storage.connect(str(path))
    try:
        waiting = stores.create(conn, match)
    finally:
        conn.close()
    with app.test_client() as client:
        exported = client.get(f"/match/{waiting.id}/{waiting.score_key}/export")
        assert exported.status_code == 200
        response = _import(client, exported.data)
        assert response.status_code == 303, response.get_data(as_text=True)[-600:]
        again = client.get(response.headers["Location"] + "/export")
        assert again.json == exported.json


# -- match links ---------------------------------------------------------------

def _key_bits(key: str) -> int:
    assert set(key) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    return len(base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))) * 8


def test_match_keys_carry_at_least_128_random_bits(tmp_path):
    app = make_app(tmp_path / "keys.sqlite")
    keys = set()
    with app.test_client() as client:
        for _ in range(20):
            response = client.post("/new", data={"count": "2", "player1": "Ann",
                                                 "player2": "Bob", "target": "61",
                                                 "hand_size": "7"})
            assert response.status_code == 303
            _, _, match_id, key = response.headers["Location"].split("/")
            assert _key_bits(key) >= 128
            keys.add(key)
    conn = storage.connect(app.config["DATABASE"])
    try:
        for score_key, view_key in conn.execute("SELECT score_key, view_key FROM matches"):
            assert _key_bits(score_key) >= 128 and _key_bits(view_key) >= 128
            assert score_key != view_key
            keys.add(view_key)
    finally:
        conn.close()
    assert len(keys) == 40


def test_an_unknown_match_and_a_wrong_key_look_the_same(tmp_path):
    path = tmp_path / "links.sqlite"
    app = make_app(path)
    (match,) = stored_matches(path, count=1)
    wrong = match.score_key[:-1] + ("A" if match.score_key[-1] != "A" else "B")
    other = "zzzzzzzz"
    checks = [
        ("GET", "/match/{id}/{key}", None), ("GET", "/match/{id}/{key}/sheet", None),
        ("GET", "/match/{id}/{key}/export", None),
        ("POST", "/match/{id}/{key}/undo", {"pos": str(match.revision)}),
        ("POST", "/match/{id}/{key}/lay", {"pos": str(match.revision), "move": "6-6"}),
        ("GET", "/board/{id}/{key}", None), ("GET", "/board/{id}/{key}/qr.svg", None),
    ]
    before = dump(path)
    with app.test_client() as client:
        for method, pattern, data in checks:
            answers = []
            for match_id, key in [(match.id, wrong), (other, wrong), (other, match.score_key),
                                  (match.id, match.view_key if "/match/" in pattern else ""),
                                  (match.id, "x")]:
                if not key:
                    continue
                response = client.open(pattern.format(id=match_id, key=key), method=method,
                                       data=data)
                answers.append((response.status_code, response.get_data(as_text=True),
                                sorted(response.headers.items())))
            assert {answer[0] for answer in answers} == {404}, (pattern, answers)
            assert all(answer == answers[0] for answer in answers), pattern
    assert dump(path) == before


def test_a_tap_on_the_revision_it_loaded_writes_without_reading_the_row_again(tmp_path):
    """One conditional UPDATE checks the revision and moves it; a stale one still fails."""
    conn = storage.connect(str(tmp_path / "reads.sqlite"))
    try:
        storage.upgrade(conn)
        made = stores.create(conn, Match(Table.create(["Ann", "Bob"])))
        loaded = stores.load(conn, made.id, made.score_key, True)
        other_phone = stores.load(conn, made.id, made.score_key, True)
        statements = []
        conn.set_trace_callback(statements.append)
        written = stores.write(conn, loaded, 0, Start(1))
        conn.set_trace_callback(None)
        assert [sql.split()[0] for sql in statements] == ["BEGIN", "UPDATE", "INSERT", "COMMIT"]
        assert written.revision == 1 and written.match.log == [Start(1)]
        again = stores.load(conn, made.id, made.score_key, True)
        assert again.revision == 1 and again.match.log == [Start(1)]
        with pytest.raises(StaleWrite) as stale:
            stores.write(conn, other_phone, 0, Start(0))
        assert stale.value.current == 1
        assert stores.load(conn, made.id, made.score_key, True).match.log == [Start(1)]
    finally:
        conn.close()


def test_a_cached_match_is_handed_out_as_a_copy_that_a_write_may_change(tmp_path):
    conn = storage.connect(str(tmp_path / "cache.sqlite"))
    try:
        storage.upgrade(conn)
        cache = stores.MatchCache(size=2)
        made = stores.create(conn, Match(Table.create(["Ann", "Bob"])))
        first = stores.load(conn, made.id, made.score_key, True, cache)
        first.match.start(0)  # a request changing its own copy, without storing it
        again = stores.load(conn, made.id, made.score_key, True, cache)
        assert again.match.phase == "start" and again.match.log == []
        written = stores.write(conn, again, 0, Start(1), cache)
        later = stores.load(conn, made.id, made.score_key, True, cache)
        assert later.revision == 1 and later.match is not written.match
        assert later.match.log == written.match.log == [Start(1)]
        assert write_record(later.match) == write_record(stores.load(
            conn, made.id, made.score_key, True).match)  # the same as a replay without cache
    finally:
        conn.close()


def test_a_kept_connection_never_carries_an_open_transaction_to_the_next_request(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "kept.sqlite"),
                      "SECRET_KEY": "x"})
    with app.app_context():
        conn = unit_of_work().conn
        conn.execute("BEGIN IMMEDIATE")
    with app.app_context():
        assert unit_of_work().conn is conn  # the same thread keeps its connection
        assert not conn.in_transaction
