"""Hosted for a club, shared on a pub's Wi-Fi: behind a TLS proxy, with a full disk, a flood,
a stepped clock, and a log that must never hold a scoring key."""

import io
import logging
import re
import sqlite3
import time
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

import pytest
import stores
from conftest import HTMX, create_match, read_pos

from scorekeeper import create_app, storage
from scorekeeper.services import matches
from scorekeeper.storage import StorageRefused, connect
from scorekeeper.web.answers.work import unit_of_work
from scorekeeper.web.scoring import table

_CSRF_INPUT = re.compile(r'<input[^>]*name="csrf_token"[^>]*>')
NEW = {"count": "2", "player1": "Ann", "player2": "Bob", "target": "250", "hand_size": "7"}
PROXIED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "fives.example.org",
           "X-Forwarded-For": "203.0.113.9"}


def csrf(html: str) -> str:
    """The form token a page carries, as the browser would send it back."""
    return re.search(r'value="([^"]+)"', _CSRF_INPUT.search(html).group(0)).group(1)


def token(client, path="/new", **kwargs) -> str:
    return csrf(client.get(path, **kwargs).text)


def test_behind_a_tls_proxy_a_browser_creates_a_match_and_taps(app_factory):
    """Chromium sends the same-origin Referer that Flask-WTF wants over https; the cookie is
    https-only and HSTS is set."""
    app = app_factory(WTF_CSRF_ENABLED=True, PROXIES=1)
    client = app.test_client()
    page = client.get("/new", headers=PROXIED)
    assert page.headers["Referrer-Policy"] == "same-origin"
    assert page.headers["Strict-Transport-Security"].startswith("max-age=")
    assert "Secure" in page.headers["Set-Cookie"]
    referer = {"Referer": "https://fives.example.org/new", **PROXIED}
    made = client.post("/new", data=dict(NEW, csrf_token=csrf(page.text)),
                       headers=referer)
    assert made.status_code == 303, made.text
    table = client.get(made.headers["Location"], headers=PROXIED).text
    tapped = client.post(made.headers["Location"] + "/start", headers={**referer, **HTMX},
                         data={"csrf_token": csrf(table), "seat": "0",
                               "pos": str(read_pos(table))})
    assert tapped.status_code == 200 and "Ann" in tapped.text


def test_behind_a_tls_proxy_every_cookie_is_https_only(app_factory):
    page = app_factory(WTF_CSRF_ENABLED=True, PROXIES=1).test_client().get(
        "/new?lang=el", headers=PROXIED)
    cookies = page.headers.getlist("Set-Cookie")
    assert len(cookies) == 2 and all("; Secure" in cookie for cookie in cookies)


def test_without_a_proxy_setting_forwarded_headers_are_not_believed(app_factory):
    page = app_factory(WTF_CSRF_ENABLED=True).test_client().get("/new", headers=PROXIED)
    assert "Strict-Transport-Security" not in page.headers
    assert "Secure" not in page.headers["Set-Cookie"]


def test_the_home_page_is_kept_by_no_cache(client):
    assert client.get("/").headers["Cache-Control"] == "private, no-store"


# -- storage faults -------------------------------------------------------------------------


def test_a_database_from_a_newer_version_is_refused_at_start(tmp_path):
    path = tmp_path / "newer.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(StorageRefused, match="newer scorekeeper"):
        create_app({"DATABASE": str(path), "SECRET_KEY": "x"})


def test_a_database_with_damaged_pages_is_refused_at_start(tmp_path, app_factory):
    app = app_factory()
    client = app.test_client()
    for _ in range(40):
        create_match(client, players=("Ann " * 9, "Bob " * 9))
    path = app.config["DATABASE"]
    conn = connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    with open(path, "r+b") as file:  # scribble over the second half of the file, where
        file.seek((pages // 2) * 4096)  # the rows are (the first pages are empty tables')
        file.write(b"\xff" * 4096 * (pages - pages // 2))
    with pytest.raises(StorageRefused, match="damaged|malformed"):
        create_app({"DATABASE": path, "SECRET_KEY": "x"})


def test_a_database_that_cannot_be_written_is_refused_at_start(tmp_path):
    """chattr +i makes the file read-only even for root (chmod does not)."""
    import shutil
    import subprocess

    path = tmp_path / "locked.sqlite"
    connect(str(path)).close()
    if not shutil.which("chattr") or subprocess.run(["chattr", "+i", str(path)],
                                                    capture_output=True).returncode:
        pytest.skip("chattr +i is not available here")
    try:
        with pytest.raises(StorageRefused, match="cannot write"):
            create_app({"DATABASE": str(path), "SECRET_KEY": "x"})
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_serve_refuses_to_start_with_one_line_on_a_newer_database(tmp_path):
    import os
    import subprocess
    import sys

    path = tmp_path / "newer.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    conn.close()
    done = subprocess.run([sys.executable, "-m", "scorekeeper.cli", "serve", "--port", "0"],
                          env=dict(os.environ, SCOREKEEPER_DATABASE=str(path)),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert done.stderr.count("\n") == 1 and "newer scorekeeper" in done.stderr
    assert str(path) in done.stderr  # which database


@pytest.fixture
def read_only_folder(tmp_path):
    """An instance folder that no one may write in, root included (chattr +i), and a
    `serve` that starts with it as its instance folder: (folder, run serve)."""
    import os
    import shutil
    import subprocess
    import sys

    folder = tmp_path / "instance"
    folder.mkdir()
    locked = []

    def lock() -> None:
        if not shutil.which("chattr") or subprocess.run(["chattr", "+i", str(folder)],
                                                        capture_output=True).returncode:
            pytest.skip("chattr +i is not available here")
        locked.append(folder)

    def serve(**env) -> subprocess.CompletedProcess:
        lock()
        script = ("import flask, sys; flask.Flask.auto_find_instance_path = "
                  f"lambda app: {str(folder)!r}; from scorekeeper.cli import main; "
                  "sys.exit(main(['serve', '--port', '0']))")
        clean = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
        return subprocess.run([sys.executable, "-c", script], env={**clean, **env},
                              capture_output=True, text=True, timeout=60)

    yield folder, serve
    for path in locked:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_read_only_instance_folder_without_a_key_is_refused_in_one_line(read_only_folder):
    folder, serve = read_only_folder
    done = serve()
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert str(folder) in done.stderr and "SCOREKEEPER_SECRET_KEY" in done.stderr
    assert done.stderr.startswith("scorekeeper: not started: cannot keep the secret key")


def test_a_database_that_cannot_be_made_in_a_read_only_folder_is_refused_in_one_line(
        read_only_folder):
    folder, serve = read_only_folder
    (folder / "secret_key").write_text("kept")
    done = serve()
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert str(folder / "scorekeeper.sqlite") in done.stderr
    assert "this user may write in it" in done.stderr


def test_a_database_in_a_read_only_folder_is_refused_in_one_line(read_only_folder):
    """SQLite's journal cannot be made beside the file: no write would ever be stored."""
    folder, serve = read_only_folder
    connect(str(folder / "fives.sqlite")).close()
    for companion in folder.glob("fives.sqlite-*"):
        companion.unlink()
    done = serve(SCOREKEEPER_DATABASE=str(folder / "fives.sqlite"),
                 SCOREKEEPER_SECRET_KEY="set")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert str(folder / "fives.sqlite") in done.stderr and "may write in it" in done.stderr


class FullDisk:
    """A connection on a disk with no room left: its first write to the match log makes SQLite
    itself fail with SQLITE_FULL inside the transaction (and roll it back, as SQLite does)."""

    def __init__(self, conn, full_at: str = "INSERT INTO entries"):
        self._conn = conn
        self._full_at = full_at
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")

    def execute(self, sql, *args):
        if sql.startswith(self._full_at):
            self._conn.execute("INSERT INTO ballast VALUES (randomblob(1000000))")
        return self._conn.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._conn, name)


def test_a_full_disk_during_a_tap_says_not_saved_with_503(app_factory, monkeypatch, caplog):
    from scorekeeper.storage import store

    app = app_factory(DB_KEEP_CONNECTIONS=False)
    client = app.test_client()
    url = create_match(client)
    conn = connect(app.config["DATABASE"])
    conn.execute("CREATE TABLE ballast (x)")
    conn.close()
    opened = storage.connect
    monkeypatch.setattr(store, "connect", lambda path: FullDisk(opened(path)))
    page = client.get(url).text
    answer = client.post(url + "/start", data={"pos": read_pos(page), "seat": "0"},
                         headers=HTMX)
    assert answer.status_code == 503
    assert "Not saved" in answer.text and "<html" not in answer.text
    assert answer.headers["Retry-After"]
    assert "cannot rollback" not in caplog.text
    plain = client.post(url + "/start", data={"pos": read_pos(page), "seat": "0"})
    assert plain.status_code == 503 and "<html" in plain.text
    monkeypatch.undo()
    assert read_pos(client.get(url).text) == read_pos(page)  # nothing half-written


def test_on_a_full_disk_the_scoreboard_still_shows_the_latest_board(app_factory,
                                                                    monkeypatch):
    """Keeping a rendered board for the other workers fails on a full disk: the pub's TV
    gets its board all the same (it was answered "Not saved")."""
    from scorekeeper.storage import store

    app = app_factory(DB_KEEP_CONNECTIONS=False)
    client = app.test_client()
    url = create_match(client)
    board = re.search(r'class="board-link" href="http://localhost([^"]+)"',
                      client.get(url).text).group(1)
    assert client.post(url + "/start", data={"pos": 0, "seat": "0"}).status_code == 303
    conn = connect(app.config["DATABASE"])
    conn.execute("CREATE TABLE ballast (x)")
    conn.close()
    opened = storage.connect
    monkeypatch.setattr(store, "connect",
                        lambda path: FullDisk(opened(path), full_at="INSERT INTO boards"))
    for headers in ({}, HTMX):
        shown = client.get(board, headers=headers)
        assert shown.status_code == 200 and "Ann to play" in shown.text
        assert "Not saved" not in shown.text


def test_a_page_whose_store_cannot_be_read_says_so_not_not_saved(app, client, monkeypatch):
    url = create_match(client)
    board = re.search(r'class="board-link" href="http://localhost([^"]+)"',
                      client.get(url).text).group(1)

    def unreadable(*_args, **_kwargs):
        error = sqlite3.OperationalError("disk I/O error")
        error.sqlite_errorname = "SQLITE_IOERR"
        raise error

    monkeypatch.setattr(storage.MatchRepository, "find", unreadable)
    for path in (board, url):
        shown = client.get(path)
        assert shown.status_code == 503 and shown.headers["Retry-After"] == "30"
        assert "Cannot be read just now" in shown.text and "Not saved" not in shown.text
    assert "Not saved" in client.post(url + "/start", data={"pos": 0, "seat": "0"}).text


# -- flood ----------------------------------------------------------------------------------


def test_new_matches_from_one_address_are_limited_with_retry_after(app_factory):
    app = app_factory(RATELIMIT_ENABLED=True, NEW_MATCH_LIMIT="5 per minute")
    client = app.test_client()
    answers = [client.post("/new", data=NEW).status_code for _ in range(7)]
    assert answers == [303] * 5 + [429] * 2
    refused = client.post("/new", data=NEW)
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert len(refused.headers.getlist("Retry-After")) == 1
    assert "wait" in refused.text


def test_taps_are_limited_per_scorer_never_per_address(app_factory):
    """A whole pub shares one address: one table's flood does not stop the next table."""
    app = app_factory(RATELIMIT_ENABLED=True, TAP_LIMIT="3 per minute")
    client = app.test_client()
    flooded, other = create_match(client), create_match(client, players=("Cat", "Dan"))
    answers = [client.post(flooded + "/undo", data={"pos": 0}) for _ in range(4)]
    assert [a.status_code for a in answers] == [422, 422, 422, 429]  # nothing to undo
    assert 0 < int(answers[-1].headers["Retry-After"]) <= 60
    assert "wait" in answers[-1].text
    assert client.post(other + "/start", data={"pos": 0, "seat": "1"}).status_code == 303
    assert client.get(flooded).status_code == 200  # reading the screen is never limited


def test_the_tap_limit_counts_each_scorer_in_its_own_window(app_factory):
    """Two limits at once (a second's and a minute's), as TAP_LIMIT has them: the first
    one broken refuses, and the refusal says when the scorer may tap again."""
    app = app_factory(RATELIMIT_ENABLED=True, TAP_LIMIT="2 per minute; 50 per hour")
    client = app.test_client()
    url = create_match(client)
    statuses = [client.post(url + "/undo", data={"pos": 0}, headers=HTMX).status_code
                for _ in range(3)]
    assert statuses[-1] == 429 and 429 not in statuses[:2]
    refused = client.post(url + "/undo", data={"pos": 0}, headers=HTMX)
    assert refused.status_code == 429 and "<html" not in refused.text
    assert 50 <= int(refused.headers["Retry-After"]) <= 60


def test_only_a_tap_counts_against_the_tap_limit(app_factory):
    """An OPTIONS (a browser's or a bot's) is no tap: it neither counts nor is refused."""
    app = app_factory(RATELIMIT_ENABLED=True, TAP_LIMIT="2 per minute")
    client = app.test_client()
    url = create_match(client)
    assert [client.options(url + "/undo").status_code for _ in range(3)] == [200] * 3
    assert client.post(url + "/undo", data={"pos": 0}).status_code == 422  # not 429


def test_a_burst_refused_by_the_seconds_limit_does_not_use_up_the_minutes(app_factory):
    """Limits written longest window first are checked shortest first: the taps the
    second's limit refuses are not counted against the minute's."""
    app = app_factory(RATELIMIT_ENABLED=True, TAP_LIMIT="3 per minute; 1 per second")
    client = app.test_client()
    url = create_match(client)
    burst = [client.post(url + "/undo", data={"pos": 0}).status_code for _ in range(4)]
    assert burst == [422, 429, 429, 429]
    time.sleep(1.1)
    assert client.post(url + "/undo", data={"pos": 0}).status_code == 422  # 2 of 3 a minute


def test_imports_from_one_address_are_limited(app_factory):
    app = app_factory(RATELIMIT_ENABLED=True, IMPORT_LIMIT="2 per minute")
    client = app.test_client()
    answers = [client.post("/import", data={"record": (io.BytesIO(b"{}"), "m.json")},
                           content_type="multipart/form-data").status_code for _ in range(3)]
    assert answers == [422, 422, 429]


def test_my_match_stays_on_my_home_page_after_a_flood_of_others(app, client):
    mine = create_match(client, players=("Ann", "Zed"))
    flooder = app.test_client()
    for _ in range(105):
        create_match(flooder)
    assert f'href="{mine}"' in client.get("/").text


def test_the_creator_deletes_a_match_and_a_stranger_cannot(app, client):
    url = create_match(client)
    match_id = url.split("/")[2]
    stranger = app.test_client()
    assert stranger.post(f"/mine/{match_id}/delete").status_code == 404
    assert "Delete the match?" in client.get(f"/mine/{match_id}/delete").text
    answer = client.post(f"/mine/{match_id}/delete")
    assert answer.status_code == 303
    assert "The match was deleted." in client.get("/").text
    assert client.get(url).status_code == 404
    conn = connect(app.config["DATABASE"])
    assert conn.execute("SELECT COUNT(*) FROM entries WHERE match_id = ?",
                        (match_id,)).fetchone()[0] == 0
    conn.close()


def test_a_tap_on_a_match_deleted_while_it_was_being_answered_is_not_found(
        app, client, match_count, monkeypatch):
    """The creator deletes the match between the tap's load and its write: the same 404 as
    a tap that came a moment later, never a 500."""
    url = create_match(client)
    match_id, key = url.split("/")[2:4]
    load = table.load_or_404

    def load_then_delete(*args):
        stored = load(*args)
        with app.app_context():
            assert matches.delete_match(unit_of_work(), match_id, key)
        return stored

    monkeypatch.setattr(table, "load_or_404", load_then_delete)
    answer = client.post(f"{url}/start", data={"pos": 0, "seat": 0})
    assert answer.status_code == 404
    assert match_count() == 0


def test_prune_deletes_matches_not_played_for_the_given_days(app, client, runner):
    old, fresh = create_match(client), create_match(client)
    conn = connect(app.config["DATABASE"])
    conn.execute("UPDATE matches SET updated = '2020-01-01T00:00:00Z' WHERE id = ?",
                 (old.split("/")[2],))
    conn.close()
    result = runner.invoke(args=["prune", "--older-than", "90d"])
    assert result.exit_code == 0 and "Deleted 1 match " in result.output
    assert client.get(old).status_code == 404 and client.get(fresh).status_code == 200
    assert runner.invoke(args=["prune", "--older-than", "soon"]).exit_code != 0


# -- logs, clock, echoes --------------------------------------------------------------------


def test_a_500_logs_the_match_id_and_never_the_scoring_key(app, client, monkeypatch, caplog):
    url = create_match(client)
    _, _, match_id, key = url.split("/")

    def broken(*_args, **_kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(storage.MatchRepository, "write", broken)
    app.testing = False  # let Flask log and answer 500 as it does in production
    app.config["PROPAGATE_EXCEPTIONS"] = False
    with caplog.at_level(logging.ERROR):
        assert client.post(url + "/start", data={"pos": 0, "seat": "0"}).status_code == 500
    logged = "\n".join(caplog.messages) + caplog.text
    assert match_id in logged and "boom" in logged
    assert key not in logged


class FakeClock:
    """itsdangerous reads time.time(); this one is moved by the test, not by the system."""

    def __init__(self, now: float):
        self.now = now

    def time(self) -> float:
        return self.now


def test_my_matches_survive_a_clock_stepped_back_and_31_days(app_factory, monkeypatch):
    import itsdangerous.timed

    clock = FakeClock(1_800_000_000.0)
    monkeypatch.setattr(itsdangerous.timed, "time", clock)
    app = app_factory(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    made = client.post("/new", data=dict(NEW, csrf_token=token(client)))
    url = made.headers["Location"]
    expires = re.search(r"Expires=([^;]+)", made.headers["Set-Cookie"]).group(1)
    kept = parsedate_to_datetime(expires) - datetime.now(UTC)
    assert kept > timedelta(days=365)  # the browser keeps the links past 31 days too
    for step in (-3600, 31 * 24 * 3600 + 3600):
        clock.now += step
        assert f'href="{url}"' in client.get("/").text, step
    table = client.get(url).text
    tapped = client.post(url + "/start", data={"csrf_token": csrf(table),
                                               "seat": "0", "pos": read_pos(table)})
    assert tapped.status_code == 303


def test_the_session_cookie_is_renewed_once_a_day_not_signed_again_on_every_tap(
        app_factory, monkeypatch):
    import time

    import itsdangerous.timed

    clock = FakeClock(time.time() - 2 * 24 * 3600)
    monkeypatch.setattr(itsdangerous.timed, "time", clock)
    app = app_factory(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    url = client.post("/new", data=dict(NEW, csrf_token=token(client))).headers["Location"]
    clock.now = time.time()  # the cookie was signed two days ago
    renewed = client.get(url)
    expires = re.search(r"Expires=([^;]+)", renewed.headers["Set-Cookie"]).group(1)
    assert parsedate_to_datetime(expires) - datetime.now(UTC) > timedelta(days=399)
    table = client.get(url)
    tapped = client.post(url + "/start", data={"csrf_token": csrf(table.text), "seat": "0",
                                               "pos": read_pos(table.text)})
    assert tapped.status_code == 303
    assert "Set-Cookie" not in table.headers and "Set-Cookie" not in tapped.headers
    assert f'href="{url}"' in client.get("/").text


def test_an_import_error_quotes_at_most_a_few_hundred_characters(client):
    record = b'{"format": "' + b"A" * 200_000 + b'"}'
    answer = client.post("/import", data={"record": (io.BytesIO(record), "m.json")},
                         content_type="multipart/form-data")
    assert answer.status_code == 422 and "format" in answer.text
    assert len(answer.data) < 10_000


def test_the_scoreboard_fragment_shows_the_latest_hands_only(app, client):
    import random

    from simulation import play_match

    from scorekeeper.rules import Table

    match = play_match(random.Random(14), Table.create(["Ann", "Bob"], target=1000))
    assert len(match.hands) > 8
    conn = connect(app.config["DATABASE"])
    stored = stores.create(conn, match)
    conn.close()
    board = client.get(f"/board/{stored.id}/{stored.view_key}", headers=HTMX).text
    shown = re.findall(r'<th scope="row">(\d+)</th>', board)
    assert len(shown) <= 8 and "earlier hands are in the totals" in board


# -- reaching the app from the phones ------------------------------------------------------


@pytest.fixture
def on_the_wifi(monkeypatch):
    """This machine's address on the pub's Wi-Fi, as `scorekeeper serve` would find it."""
    from scorekeeper.web.answers import sharing

    monkeypatch.setattr(sharing, "lan_addresses", lambda: ["192.168.1.20"])


def _board_link(html: str) -> str:
    return re.search(r'class="board-link" href="([^"]+)"', html).group(1)


def test_opened_on_the_server_itself_the_share_link_carries_the_lan_address(app_factory,
                                                                           on_the_wifi):
    app = app_factory(SHARE_LAN_ADDRESS=True)
    client = app.test_client()
    url = create_match(client)
    page = client.get(url, base_url="http://127.0.0.1:8080").text
    assert _board_link(page).startswith("http://192.168.1.20:8080/board/")
    assert "other phones reach it at 192.168.1.20" in page


def test_opened_from_a_phone_the_share_link_is_the_address_it_used(app_factory, on_the_wifi):
    app = app_factory(SHARE_LAN_ADDRESS=True)
    client = app.test_client()
    url = create_match(client)
    page = client.get(url, base_url="http://192.168.1.20:8080").text
    assert _board_link(page).startswith("http://192.168.1.20:8080/board/")
    assert "other phones reach it at" not in page


def test_a_look_alike_name_is_refused_at_its_field_in_the_players_language(client):
    answer = client.post("/new", data=dict(NEW, player2="\u0410nn", player1="Ann"))
    assert answer.status_code == 422
    assert "looks just like Ann on a phone" in answer.text


def test_the_access_log_of_the_development_server_names_no_key(app, client, caplog):
    url = create_match(client)
    _, _, match_id, key = url.split("/")
    with caplog.at_level(logging.INFO, logger="werkzeug"):
        logging.getLogger("werkzeug").info('127.0.0.1 - - "GET %s HTTP/1.1" 200 -', url)
    assert match_id in caplog.text and key not in caplog.text
