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
from scorekeeper.server.supervise import RESTART_SECONDS

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
        statuses.append(sent_as_a_phone_does(port, url + "/start", f"pos=0&seat={seat}"))

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
        statuses.append(sent_as_a_phone_does(ports[index % 2], url + "/start", "pos=0&seat=1"))

    taps = [threading.Thread(target=tap, args=(index, url)) for index, url in enumerate(urls)]
    for thread in taps:
        thread.start()
    for thread in taps:
        thread.join()
    assert statuses == [200] * len(urls)
    assert [stored_entries(tmp_path, url) for url in urls] == [1] * len(urls)


def sent_as_a_phone_does(port: int, path: str, fields: str) -> int:
    """The status of a tap sent again after each 503, as a phone's kept tap is: a busy
    machine may turn some of twelve simultaneous taps away for a moment (the server's
    designed answer to load), and none may then be lost or stored twice."""
    deadline = time.monotonic() + 60
    while True:
        answer, _ = ask(port, "POST", path, fields, **HTMX)
        if answer.status != 503 or time.monotonic() > deadline:
            return answer.status
        time.sleep(min(float(answer.getheader("Retry-After") or 1), 1.0))


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


def start_in_session(tmp_path, name: str, workers: int) -> tuple[subprocess.Popen, int]:
    """`scorekeeper serve` in a process group of its own, as a terminal runs it (Ctrl+C
    reaches every process of the group), its output read through a file."""
    port = free_port()
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(tmp_path / "shared.sqlite"),
               SCOREKEEPER_SECRET_KEY="workers-test")
    log = open(tmp_path / f"{name}.log", "w")  # noqa: SIM115 - the process holds it
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--workers", str(workers)], env=env, stdout=log, stderr=log,
        start_new_session=True)
    log.close()
    return process, port


def get_rules(port: int) -> int | str:
    """GET /rules on a new connection, sent again if the connection was cut (a worker
    killed with it, or with it waiting in its socket), as a phone does: its status, or
    what went wrong. A refused connection is never sent again: nothing listened."""
    for attempt in (0, 1, 2):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
        try:
            conn.request("GET", "/rules")
            answer = conn.getresponse()
            answer.read()
            return answer.status
        except (ConnectionResetError, http.client.RemoteDisconnected) as cut:
            if attempt == 2:
                return type(cut).__name__
            time.sleep(0.1)
        except OSError as error:
            return type(error).__name__
        finally:
            conn.close()
    return "unreachable"


@pytest.mark.skipif(not hasattr(os, "fork") or not os.path.isdir("/proc"),
                    reason="worker processes are forked; /proc lists them")
def test_a_worker_killed_again_and_again_is_started_again_and_the_port_keeps_answering(
        tmp_path):
    """kill -9 of a worker, then of its replacement as soon as it is up, five times: Granian
    gave up at the second ("Worker crash loop detected, exiting") and the port refused
    connections until someone restarted the server."""
    process, port = start_in_session(tmp_path, "kills", 3)
    answers, asking = [], threading.Event()

    def keep_asking():
        while not asking.is_set():
            answers.append(get_rules(port))
            time.sleep(0.05)

    try:
        deadline = time.monotonic() + 30
        while len(workers_of(process.pid)) < 3 or get_rules(port) != 200:
            assert time.monotonic() < deadline, "serve did not start"
            time.sleep(0.2)
        asker = threading.Thread(target=keep_asking)
        asker.start()
        victim = min(workers_of(process.pid))
        for _ in range(5):
            before = workers_of(process.pid)
            os.kill(victim, signal.SIGKILL)
            deadline = time.monotonic() + 40
            while not workers_of(process.pid) - before:  # its replacement, as soon as it is up
                assert time.monotonic() < deadline, "the worker was not started again"
                time.sleep(0.05)
            victim = (workers_of(process.pid) - before).pop()
        while len(workers_of(process.pid)) < 3 or get_rules(port) != 200:
            assert time.monotonic() < deadline, "the workers were not all started again"
            time.sleep(0.2)
        asking.set()
        asker.join()
        assert process.poll() is None  # the server never gave up
    finally:
        asking.set()
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=20)
    refused = [answer for answer in answers if answer != 200]
    assert len(answers) > 20 and refused == [], refused
    said = (tmp_path / "kills.log").read_text()
    assert len(re.findall(r"ended \(killed by SIGKILL\).*starting it again", said)) == 1
    assert "workers ended 4 more times (killed by SIGKILL)" in said, said
    assert "crash loop" not in said.lower()


def test_every_worker_killed_again_and_again_leaves_the_port_closed_only_briefly(tmp_path):
    """Each time a worker is back, every worker is killed, six times: the last to end is
    started again at the first wait, whatever its count, so the port is closed for a
    moment each time (while a worker loads the app), not for each worker's own growing
    wait (8 s at the fifth time, up to 30 s)."""
    process, port = start_in_session(tmp_path, "all", 2)
    closed = []
    try:
        deadline = time.monotonic() + 30
        while get_rules(port) != 200:
            assert time.monotonic() < deadline, "serve did not start"
            time.sleep(0.05)
        for _ in range(6):
            for worker in workers_of(process.pid):
                os.kill(worker, signal.SIGKILL)
            killed = time.monotonic()
            while get_rules(port) != 200:
                assert time.monotonic() < killed + 40, "no worker was started again"
                time.sleep(0.05)
            closed.append(time.monotonic() - killed)
        assert process.poll() is None
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=20)
    assert max(closed) < RESTART_SECONDS[4], closed


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="a terminal's Ctrl+C: the process group")
@pytest.mark.parametrize("when", ["while its workers load the app", "while serving"])
def test_ctrl_c_stops_every_worker_cleanly_and_says_so(tmp_path, when):
    """Ctrl+C reaches every process of the terminal's group. A worker still loading the app
    ignored it, and was killed 3 s later: 'Killing worker-1 after it refused to gracefully
    stop'."""
    process, port = start_in_session(tmp_path, "ctrl-c", 3)
    log = tmp_path / "ctrl-c.log"
    deadline = time.monotonic() + 30
    while "Stop it with Ctrl+C" not in log.read_text():
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.05)
    if when == "while serving":
        while get_rules(port) != 200:
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        kept = socket.create_connection(("127.0.0.1", port))  # a phone's kept-alive one
        kept.sendall(b"GET /rules HTTP/1.1\r\nHost: pub\r\n\r\n")
        kept.recv(100)
    else:
        kept = None
        time.sleep(0.3)
    began = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)
    try:
        assert process.wait(timeout=20) == 0
    finally:
        if kept is not None:
            kept.close()
    said = log.read_text()
    assert time.monotonic() - began < 3, said
    assert said.rstrip().endswith("All Fives scorekeeper has stopped."), said
    for noise in ("Killing", "refused to gracefully stop", "Traceback", "ended ("):
        assert noise not in said, said
    assert workers_of(process.pid) == set()
