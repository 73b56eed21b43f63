"""Several server processes on one database, as `scorekeeper serve --workers N` runs them:
what each process keeps for itself (rebuilt matches, rendered scoreboards) never shows a
phone an old table, and SQLite takes their writes one at a time."""

import http.client
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import date

import pytest
from ports import free_port

from scorekeeper.rules import default_hand_size, default_target

HTMX = {"HX-Request": "true"}


def start(tmp_path, name: str, workers: int) -> tuple[subprocess.Popen, int]:
    """`scorekeeper serve` on the shared scratch database, CSRF off for brevity."""
    port = free_port()
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(tmp_path / "shared.sqlite"),
               SCOREKEEPER_SECRET_KEY="workers-test", SCOREKEEPER_WTF_CSRF_ENABLED="false")
    log = open(tmp_path / f"{name}.log", "w")  # noqa: SIM115 - the process holds it
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--workers", str(workers)], env=env, stdout=log, stderr=log)
    log.close()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError((tmp_path / f"{name}.log").read_text())


def stop(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture
def two_servers(tmp_path):
    """Two server processes (one worker each) on one database: ports of each."""
    first = start(tmp_path, "first", 1)
    try:
        second = start(tmp_path, "second", 1)
    except BaseException:
        stop(first[0])
        raise
    yield first[1], second[1]
    stop(first[0])
    stop(second[0])


def ask(port: int, method: str, path: str, fields: str | None = None, **headers):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    if fields is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    conn.request(method, path, body=fields, headers=headers)
    response = conn.getresponse()
    text = response.read().decode()
    conn.close()
    return response, text


def new_match(port: int, players: int = 2) -> str:
    names = "".join(f"&player{seat}={name}"
                    for seat, name in enumerate(("Ann", "Bob", "Cat", "Dan")[:players], 1))
    made, _ = ask(port, "POST", "/new", f"count={players}&target={default_target(players, False)}"
                                        f"&hand_size={default_hand_size(players)}{names}")
    assert made.status == 303
    return made.getheader("Location").replace(f"http://127.0.0.1:{port}", "")


def pos_of(text: str) -> int:
    return int(re.search(r'name="pos" value="(\d+)"', text).group(1))


def board_of(port: int, url: str) -> str:
    return re.search(r'class="board-link" href="http://[^/]+(/board/[^"]+)"',
                     ask(port, "GET", url)[1]).group(1)


def test_a_tap_through_one_process_shows_on_the_board_polled_through_the_other(two_servers):
    first, second = two_servers
    url = new_match(first)
    board = board_of(first, url)
    before, text = ask(second, "GET", board, **HTMX)
    assert "Waiting for the next hand" in text
    tapped, table = ask(first, "POST", url + "/start", "pos=0&seat=0", **HTMX)
    assert tapped.status == 200
    after, text = ask(second, "GET", board, **HTMX, **{"If-None-Match": before.getheader("ETag")})
    assert after.status == 200 and "Ann to play" in text
    # the second process rebuilt the match at its new revision, and scores on from it
    laid, table = ask(second, "POST", url + "/lay", f"pos={pos_of(table)}&move=6-4", **HTMX)
    assert laid.status == 200 and "Bob to play" in table
    again, table = ask(first, "POST", url + "/draw", f"pos={pos_of(table)}", **HTMX)
    assert again.status == 200 and pos_of(table) == 3


def test_two_processes_tapping_one_revision_at_once_one_wins_the_other_is_told(
        two_servers, tmp_path):
    first, second = two_servers
    url = new_match(first, players=4)  # four different taps: none repeats another
    statuses = []
    barrier = threading.Barrier(4)

    def tap(port, seat):
        barrier.wait()
        statuses.append(ask(port, "POST", url + "/start", f"pos=0&seat={seat}", **HTMX)[0].status)

    taps = [threading.Thread(target=tap, args=(port, seat))
            for port, seat in zip((first, second, first, second), range(4), strict=True)]
    for thread in taps:
        thread.start()
    for thread in taps:
        thread.join()
    assert sorted(statuses) == [200, 409, 409, 409]
    assert stored_entries(tmp_path, url) == 1


def test_taps_on_different_matches_through_two_processes_are_all_stored(two_servers, tmp_path):
    ports = two_servers
    urls = [new_match(ports[index % 2]) for index in range(12)]
    statuses = []
    barrier = threading.Barrier(len(urls))

    def tap(index, url):
        barrier.wait()
        statuses.append(ask(ports[index % 2], "POST", url + "/start", "pos=0&seat=1",
                            **HTMX)[0].status)

    taps = [threading.Thread(target=tap, args=(index, url)) for index, url in enumerate(urls)]
    for thread in taps:
        thread.start()
    for thread in taps:
        thread.join()
    assert statuses == [200] * len(urls)
    assert [stored_entries(tmp_path, url) for url in urls] == [1] * len(urls)


def stored_entries(tmp_path, url: str) -> int:
    conn = sqlite3.connect(tmp_path / "shared.sqlite")
    try:
        return conn.execute("SELECT count(*) FROM entries WHERE match_id = ?",
                            (url.split("/")[2],)).fetchone()[0]
    finally:
        conn.close()


def workers_of(pid: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as file:
                    if int(file.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.add(int(entry))
            except OSError:
                pass
    return found


@pytest.mark.skipif(not hasattr(os, "fork") or not os.path.isdir("/proc"),
                    reason="worker processes are forked; /proc lists them")
def test_serve_with_two_workers_answers_from_both_and_replaces_one_that_dies(tmp_path):
    process, port = start(tmp_path, "workers", 2)
    try:
        deadline = time.monotonic() + 10
        while len(workers_of(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = workers_of(process.pid)
        assert len(workers) == 2
        os.kill(min(workers), signal.SIGKILL)
        deadline = time.monotonic() + 10
        while (len(workers_of(process.pid) - workers) < 1 and time.monotonic() < deadline):
            time.sleep(0.1)
        assert len(workers_of(process.pid)) == 2 and max(workers) in workers_of(process.pid)
        assert [ask(port, "GET", "/rules")[0].status for _ in range(6)] == [200] * 6
    finally:
        stop(process)
    assert workers_of(process.pid) == set()


def test_a_league_night_started_through_one_process_shows_on_the_public_page_of_the_other(
        two_servers):
    """The public page's live part is kept by each process for PUBLIC_PAGE_SECONDS (2 s):
    the other process shows tonight's fixtures once its own copy is that old, not later."""
    first, second = two_servers
    made, _ = ask(first, "POST", "/league/new", "&".join([
        "name=Bench+League", "season=2026", "games=SSP", "scheme=two_plus_games",
        "target=250", "singles_hand=7", "pairs_hand=5", "teams=Bell%0ACrown",
        "tie_break1=game_difference", "tie_break2=games_won", "tie_break3=head_to_head"]))
    assert made.status == 303
    secretary = made.getheader("Location").replace(f"http://127.0.0.1:{first}", "")
    page = ask(first, "GET", secretary)[1]
    public = re.search(r'class="board-link" href="[^"]*?(/league/[\w-]+/[\w-]+)"', page)[1]
    assert "Tonight" not in ask(second, "GET", public, **HTMX)[1]  # kept by the second now
    fixtures, _ = ask(first, "POST", f"{secretary}/fixtures/make",
                      f"first={date.today().isoformat()}&every=7")
    assert fixtures.status == 303
    made_at = time.monotonic()
    while "Tonight" not in ask(second, "GET", public, **HTMX)[1]:
        assert time.monotonic() - made_at < 2 + 1  # PUBLIC_PAGE_SECONDS, and a second
        time.sleep(0.2)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="worker processes are forked")
def test_serve_stopped_while_it_starts_its_workers_stops_and_leaves_none_listening(tmp_path):
    """SIGTERM as soon as the port listens, while the workers are being forked."""
    for attempt in range(3):
        process, port = start(tmp_path, f"early{attempt}", 2)
        process.terminate()
        process.wait(timeout=10)
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
