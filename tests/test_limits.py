"""Write limits counted once for the whole server: in the app's database, shared by every
worker process (and app server), on a clock that no one steps; every kind of write
limited by client and by link; a league's lists bounded, so no request runs long."""

import http.client
import os
import re
import socket
import subprocess
import sys
import threading
import time

import pytest
from conftest import create_match
from ports import free_port

from scorekeeper.storage import HitLog, connect, location
from scorekeeper.web.answers.work import app_unit_of_work

LEAGUE = {"name": "Fives League", "season": "2026–27", "games": "SSP",
          "scheme": "two_plus_games", "target": "250", "singles_hand": "7", "pairs_hand": "5",
          "teams": "Anchor\nBell\nCrown", "tie_break1": "game_difference"}


@pytest.fixture
def app(app_factory, database):
    return app_factory(database=database, RATELIMIT_ENABLED=True)


def undo(client, url: str) -> int:
    """A tap that changes nothing (nothing to undo: 422), counted like any other."""
    return client.post(url + "/undo", data={"pos": 0}).status_code


# -- one count for every worker ---------------------------------------------------------


def test_two_app_processes_on_one_database_share_one_count(app_factory, database):
    """Each worker process has its own app; the count is the database's, not theirs."""
    limits = {"RATELIMIT_ENABLED": True, "TAP_LIMIT": "4 per minute"}
    first = app_factory(database=database, **limits)
    second = app_factory("second.sqlite", database=database, **limits)
    url = create_match(first.test_client())
    clients = [first.test_client(), second.test_client()]
    statuses = [undo(clients[n % 2], url) for n in range(6)]
    assert statuses == [422] * 4 + [429] * 2


def start_serve(tmp_path, workers: int, **settings) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(tmp_path / "s.sqlite"),
               SCOREKEEPER_SECRET_KEY="limits", SCOREKEEPER_WTF_CSRF_ENABLED="false",
               **{f"SCOREKEEPER_{name}": value for name, value in settings.items()})
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1", "--port",
         str(port), "--workers", str(workers)], env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return process, port
        except OSError:
            assert time.monotonic() < deadline, "serve did not start"
            time.sleep(0.1)


def post(port: int, path: str, body: str) -> http.client.HTTPResponse:
    """One request on a connection of its own: any worker may take it."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", path, body=body,
                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    answer = conn.getresponse()
    answer.read()
    conn.close()
    return answer


def test_the_workers_of_serve_count_a_limit_once_not_once_each(tmp_path):
    """Three workers used to keep three counts: 15 taps let in of a limit of 5."""
    process, port = start_serve(tmp_path, 3, TAP_LIMIT="5 per minute")
    try:
        made = post(port, "/new", "count=2&player1=Ann&player2=Bob&target=250&hand_size=7")
        url = made.getheader("Location").split(str(port), 1)[-1]
        statuses = [post(port, url + "/undo", "pos=0").status for _ in range(12)]
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert statuses == [422] * 5 + [429] * 7


# -- the clock ----------------------------------------------------------------------------


def test_a_wall_clock_stepped_either_way_changes_no_limit_on_either_store(app, monkeypatch):
    """A laptop correcting its time by an hour, either way, neither locks a scorer out
    ('wait 3580 seconds') nor lets a flood through. SQLite's counts run on the machine's
    monotonic clock; PostgreSQL's on the database server's, which no app server moves."""
    client = app.test_client()
    app.config["TAP_LIMIT"] = "3 per minute"
    url = create_match(client)
    wall = [time.time()]
    monkeypatch.setattr(time, "time", lambda: wall[0])
    statuses = []
    for step in (0, -3600, 7200, -3600):
        wall[0] += step
        statuses.append(undo(client, url))
    assert statuses == [422, 422, 422, 429]
    refused = client.post(url + "/undo", data={"pos": 0})
    assert 50 <= int(refused.headers["Retry-After"]) <= 60


def test_hits_stamped_after_now_count_in_no_window(app):
    """The counters' clock stepped back an hour (PostgreSQL's server), or the machine
    restarted (SQLite's monotonic clock starts again): the hits from before cannot lock
    a scorer out for an hour, the window forgets them."""
    client = app.test_client()
    app.config["TAP_LIMIT"] = "3 per minute"
    url = create_match(client)
    assert [undo(client, url) for _ in range(4)] == [422, 422, 422, 429]
    conn = connect(location(app.config))
    conn.execute("UPDATE write_hits SET at = at + 3600, until = until + 3600")
    conn.close()
    assert [undo(client, url) for _ in range(4)] == [422, 422, 422, 429]


def test_hits_out_of_their_window_are_swept_and_no_thread_is_started(app, monkeypatch):
    from scorekeeper.storage import hits

    monkeypatch.setattr(hits, "SWEEP_SECONDS", 0.0)
    with app.app_context():
        uow = app_unit_of_work(app)
        started = threading.active_count()  # with PostgreSQL's pool, opened just now
        try:
            log: HitLog = uow.hits
            allowed = [log.admit([(f"scorer{n % 5}", 3, 60)]) == 0 for n in range(50)]
            assert allowed.count(True) == 15  # three per scorer, then refused
            uow.conn.execute("UPDATE write_hits SET until = until - 61, at = at - 61")
            assert log.admit([("scorer9", 3, 60)]) == 0  # the sweep comes with a request
            rows = uow.conn.execute("SELECT count(*) FROM write_hits").fetchone()[0]
        finally:
            uow.close()
    assert rows == 1 and threading.active_count() == started


def test_a_refused_writer_is_told_how_long_to_wait_by_the_stores_clock(app):
    client = app.test_client()
    app.config["TAP_LIMIT"] = "2 per minute"
    url = create_match(client)
    [undo(client, url) for _ in range(2)]
    refused = client.post(url + "/undo", data={"pos": 0})
    assert refused.status_code == 429 and 55 <= int(refused.headers["Retry-After"]) <= 60


def test_a_request_is_counted_in_all_its_windows_or_in_none(app):
    """A request one window refuses is not counted in the others (a burst the second's
    limit turns away leaves the minute's alone), and is told to wait until all have room."""
    with app.app_context():
        uow = app_unit_of_work(app)
        try:
            log: HitLog = uow.hits
            second, minute = ("k:1s", 2, 1.0), ("k:1m", 5, 60.0)
            assert [log.admit([second, minute]) for _ in range(2)] == [0, 0]
            wait = log.admit([second, minute])
            assert 0 < wait <= 1.0
            assert (log.held("k:1s"), log.held("k:1m")) == (2, 2)
            assert log.admit([("k:1m", 2, 60.0)]) > 55  # the longer window's wait
            assert log.reset() == 4
        finally:
            uow.close()


# -- every write, by client and by link ----------------------------------------------------


def new_league(client, **fields) -> str:
    made = client.post("/league/new", data={**LEAGUE, **fields})
    assert made.status_code == 303, made.text
    return made.headers["Location"]


def test_a_leagues_writes_are_limited_per_link(app):
    """A secretary setting up a league is counted on the secretary's link; a captain's
    link has a count of its own."""
    client = app.test_client()
    secretary = new_league(client)
    app.config["LEAGUE_LIMIT"] = "3 per minute"
    page = client.get(secretary).text
    team = re.search(r"/teams/(\d+)/players", page).group(1)
    statuses = [client.post(f"{secretary}/teams/{team}/players",
                            data={"name": f"Player {n}"}).status_code for n in range(4)]
    assert statuses == [303, 303, 303, 429]
    captain = re.search(r"Captain's link: <a href=\"http://localhost(/league/[\w-]+/[\w-]+)",
                        page).group(1)
    captains_team = re.search(r"/teams/(\d+)/players", client.get(captain).text).group(1)
    assert client.post(f"{captain}/teams/{captains_team}/players",
                       data={"name": "Zed"}).status_code == 303


def test_every_write_from_one_address_counts_against_its_limit(app):
    """Taps on different matches, a new league, a team: one address's writes together."""
    client = app.test_client()
    urls = [create_match(client) for _ in range(2)]
    app.config["WRITE_LIMIT"] = "5 per minute"
    statuses = [undo(client, urls[n % 2]) for n in range(4)]
    statuses.append(client.post("/league/new", data=LEAGUE).status_code)
    statuses.append(client.post("/new", data={"count": "2", "target": "250",
                                              "hand_size": "7"}).status_code)
    assert statuses == [422, 422, 422, 422, 303, 429]
    other = app.test_client()
    assert undo(other, urls[0]) == 429  # the same address (the test client's)
    assert other.post(urls[0] + "/undo", data={"pos": 0},
                      environ_base={"REMOTE_ADDR": "203.0.113.9"}).status_code == 422


def test_new_leagues_and_the_exports_are_limited_per_address(app):
    client = app.test_client()
    app.config.update(NEW_LEAGUE_LIMIT="2 per minute", EXPORT_LIMIT="3 per minute")
    made = [client.post("/league/new", data=LEAGUE).status_code for _ in range(3)]
    assert made == [303, 303, 429]
    conn = connect(location(app.config))
    league_id, key = conn.execute("SELECT id, secretary_key FROM leagues").fetchone()
    conn.close()
    secretary = f"/league/{league_id}/{key}"
    exports = [client.get(f"{secretary}/{name}").status_code
               for name in ("standings.csv", "results.csv", "season.json", "standings.csv")]
    assert exports == [200, 200, 200, 429]
    assert client.get(secretary).status_code == 200  # the pages themselves are not limited


# -- a league's lists ----------------------------------------------------------------------


def teams(count: int) -> str:
    return "\n".join(f"Team {n}" for n in range(count))


def test_a_league_has_at_most_30_teams_however_they_are_added(client):
    refused = client.post("/league/new", data={**LEAGUE, "teams": teams(31)})
    assert refused.status_code == 422 and "at most 30 teams" in refused.text
    secretary = new_league(client, teams=teams(30))
    added = client.post(f"{secretary}/teams", data={"name": "One too many"})
    assert added.status_code == 422 and "at most 30 teams" in added.text


def test_a_team_has_at_most_30_players(client):
    secretary = new_league(client)
    team = re.search(r"/teams/(\d+)/players", client.get(secretary).text).group(1)
    for n in range(30):
        assert client.post(f"{secretary}/teams/{team}/players",
                           data={"name": f"Player {n}"}).status_code == 303
    refused = client.post(f"{secretary}/teams/{team}/players", data={"name": "Player 30"})
    assert refused.status_code == 422 and "at most 30 players" in refused.text


def test_a_league_has_at_most_its_limit_of_fixtures(client, monkeypatch):
    from scorekeeper.league import limits

    secretary = new_league(client)  # three teams: six fixtures
    assert client.post(f"{secretary}/fixtures/make",
                       data={"first": "2026-09-01", "every": "7"}).status_code == 303
    monkeypatch.setattr(limits, "MAX_FIXTURES", 7)
    ids = re.findall(r'<option value="(\d+)"', client.get(secretary).text)[:2]
    fixture = {"home": ids[0], "away": ids[1], "day": "2026-12-01"}
    assert client.post(f"{secretary}/fixtures", data=fixture).status_code == 303
    refused = client.post(f"{secretary}/fixtures", data=fixture)
    assert refused.status_code == 422 and "at most 7 fixtures" in refused.text


def test_the_largest_league_is_made_shown_and_exported_in_seconds_not_minutes(client):
    """30 teams, a card of 21 singles: 870 fixtures. (700 teams once held a worker past a
    minute.) Counted in this process's CPU seconds; the slowest, the season's archive,
    takes about 0.9 s, so the bound is 3 s: a busy machine (whose caches other work
    thrashes) cannot fail it, and a list left unbounded still would."""
    secretary = new_league(client, teams=teams(30), games="S" * 21)
    for method, path, data in [
            ("POST", f"{secretary}/fixtures/make", {"first": "2026-09-01", "every": "7"}),
            ("GET", secretary, None), ("GET", f"{secretary}/standings.csv", None),
            ("GET", f"{secretary}/results.csv", None), ("GET", f"{secretary}/games.csv", None),
            ("GET", f"{secretary}/players.csv", None), ("GET", f"{secretary}/print", None),
            ("GET", f"{secretary}/season.json", None)]:
        began = time.process_time()
        answer = client.open(path, method=method, data=data)
        assert answer.status_code in (200, 303), path
        assert time.process_time() - began < 3.0, (method, path)
