"""`scorekeeper serve`, the README's first command: reachable from the phones, and held up by
no slow client, no huge body and no unchanged poll."""

import http.client
import os
import re
import socket
import subprocess
import sys
import time

import pytest
from ports import free_port

from scorekeeper.web.answers.network import is_loopback


@pytest.fixture
def served(tmp_path):
    """`scorekeeper serve` (the documented command) on a scratch database; its port and output."""
    port = free_port()
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(tmp_path / "s.sqlite"),
               SCOREKEEPER_SECRET_KEY="serve-test")
    log = open(tmp_path / "serve.log", "w+")  # noqa: SIM115 - closed below
    process = subprocess.Popen([sys.executable, "-m", "scorekeeper.cli", "serve",
                                "--port", str(port)], env=env, stdout=log, stderr=log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.1)
    yield port, log
    process.terminate()
    process.wait(timeout=10)
    log.close()


def get(port: int, path: str, source: str = "127.0.0.2", **headers):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(source, 0))
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    return conn, response, response.read()


def test_serve_says_which_address_the_phones_open(served):
    _port, log = served
    log.seek(0)
    said = log.read()
    assert "On the phones at the table, open:" in said or "no network address" in said
    for address in re.findall(r"http://([\d.]+):\d+", said.split("(On this machine")[0]):
        assert not is_loopback(address)


def test_other_phones_are_answered_within_a_second_while_520_clients_trickle(served):
    port, _log = served
    trickling = []
    for _ in range(520):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=2,
                                            source_address=("127.0.0.3", 0))
            sock.sendall(b"POST /new HTTP/1.1\r\nHost: pub\r\n")
            trickling.append(sock)
        except OSError:
            break
    try:
        for sock in trickling[:50]:
            try:
                sock.send(b"X")
            except OSError:
                pass
        for _ in range(3):
            began = time.monotonic()
            conn, response, _body = get(port, "/rules")
            conn.close()
            assert response.status == 200
            assert time.monotonic() - began < 1.0
    finally:
        for sock in trickling:
            sock.close()


def test_a_body_over_the_limit_is_refused_before_it_is_read(served):
    port, _log = served
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(b"POST /import HTTP/1.1\r\nHost: pub\r\nContent-Length: 209715200\r\n\r\n")
    answer = sock.recv(200)
    sock.close()
    assert answer.startswith(b"HTTP/1.1 413")


def test_a_record_a_little_over_the_limit_is_refused_in_words(served):
    """Between the app's 256 KB and the server's ceiling the app answers, with its page."""
    port, _log = served
    body = (b"--x\r\nContent-Disposition: form-data; name=\"record\"; filename=\"m.json\"\r\n"
            b"\r\n" + b"0" * 300_000 + b"\r\n--x--\r\n")
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", "/import", body=body,
                 headers={"Content-Type": "multipart/form-data; boundary=x"})
    answer = conn.getresponse()
    page = answer.read().decode()
    conn.close()
    assert answer.status == 413 and "a match record may be at most 256 KB" in page


def test_an_unchanged_scoreboard_poll_keeps_its_connection(served, tmp_path):
    port, _log = served
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/new")
    page = conn.getresponse()
    html = page.read().decode()
    cookie = page.headers["Set-Cookie"].split(";")[0]
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
    conn.request("POST", "/new", headers={
        "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded",
        "Referer": f"http://127.0.0.1:{port}/new"},
        body=f"csrf_token={token}&count=2&player1=Ann&player2=Bob&target=250&hand_size=7")
    made = conn.getresponse()
    made.read()
    conn.request("GET", made.headers["Location"], headers={"Cookie": cookie})
    table = conn.getresponse().read().decode()
    board = re.search(r'class="board-link" href="[^"]*?(/board/[^"]+)"', table).group(1)
    conn.request("GET", board, headers={"HX-Request": "true"})
    first = conn.getresponse()
    first.read()
    conn.request("GET", board, headers={"HX-Request": "true",
                                        "If-None-Match": first.headers["ETag"]})
    unchanged = conn.getresponse()
    unchanged.read()
    assert unchanged.status == 304 and not unchanged.will_close
    conn.request("GET", board, headers={"HX-Request": "true"})  # the same connection again
    assert conn.getresponse().status == 200
    conn.close()


def test_a_request_whose_head_does_not_arrive_in_time_is_closed(tmp_path):
    """Granian closes a connection whose request head trickles in past REQUEST_SECONDS (1 s
    here); a body that does is gateway.py's (test_serve_overload.py)."""
    port = free_port()
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(tmp_path / "s.sqlite"),
               SCOREKEEPER_SECRET_KEY="serve-test")
    script = ("from scorekeeper.server import serve; serve.REQUEST_SECONDS = 1; "
              f"serve.run('127.0.0.1', {port}, workers=1)")
    process = subprocess.Popen([sys.executable, "-c", script], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        sock = listening(port)
        sock.sendall(b"GET /rules HTTP/1.1\r\n")
        began = time.monotonic()
        closed = False
        for _ in range(10):  # a byte every 0.4 s: never idle, never whole
            time.sleep(0.4)
            try:
                sock.send(b"X")
            except OSError:
                closed = True
                break
        if not closed:
            sock.settimeout(1)
            closed = sock.recv(100) in (b"",) or sock.recv(100) == b""
        assert closed and time.monotonic() - began < 4
        sock.close()
    finally:
        process.terminate()
        process.wait(timeout=10)


def listening(port: int) -> socket.socket:
    deadline = time.monotonic() + 30
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_a_tap_turned_away_busy_is_answered_from_its_head_and_the_connection_goes_on(tmp_path):
    """Past capacity the gateway answers 503 before reading a body; Granian then skips a
    small unread body already sent, so the next request on the same kept-alive
    connection is read whole."""
    port = free_port()
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(tmp_path / "s.sqlite"),
               SCOREKEEPER_SECRET_KEY="serve-test")
    script = ("from scorekeeper.server import admission, serve; "
              "admission.SHED_AFTER.update(read=-1.0, write=-1.0); "  # all one too many
              f"serve.run('127.0.0.1', {port}, workers=1)")
    process = subprocess.Popen([sys.executable, "-c", script], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        listening(port).close()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("POST", "/new", body="players=Ann&players=Bob",
                     headers={"Content-Type": "application/x-www-form-urlencoded"})
        refused = conn.getresponse()
        refused.read()
        assert refused.status == 503 and refused.headers["Retry-After"] == "2"
        assert refused.headers["Scorekeeper-Busy"] == "1" and not refused.will_close
        conn.request("GET", "/rules")  # the same connection: the body above did not stay
        again = conn.getresponse()
        again.read()
        assert again.status == 503 and again.headers["Retry-After"] == "5"
        conn.close()
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.parametrize("framing", ["Content-Length: 100", "Transfer-Encoding: chunked"])
def test_a_body_that_trickles_past_the_deadline_is_answered_408_by_the_real_server(
        tmp_path, framing):
    """Under Granian itself, not only the gateway's test double: the deadline on a body (1 s
    here) holds whether its length was announced (read in one wait) or not (piece by piece)."""
    port = free_port()
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(tmp_path / "s.sqlite"),
               SCOREKEEPER_SECRET_KEY="serve-test")
    script = ("from scorekeeper.server import gateway, serve; "  # request_seconds=1.0 by default:
              "d = list(gateway.Gateway.__init__.__defaults__); d[1] = 1.0; "
              "gateway.Gateway.__init__.__defaults__ = tuple(d); "
              f"serve.run('127.0.0.1', {port}, workers=1)")
    process = subprocess.Popen([sys.executable, "-c", script], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        sock = listening(port)
        first = b"5\r\nplaye\r\n" if "chunked" in framing else b"players=Ann"
        sock.sendall(b"POST /new HTTP/1.1\r\nHost: t\r\nContent-Type: "
                     b"application/x-www-form-urlencoded\r\n" + framing.encode()
                     + b"\r\n\r\n" + first)
        began = time.monotonic()
        head = sock.recv(200)
        assert head.startswith(b"HTTP/1.1 408") and 0.9 < time.monotonic() - began < 5
        sock.close()
    finally:
        process.terminate()
        process.wait(timeout=10)


MALFORMED_PATHS = ["/%ff%fe", "/match/%ff/%fe", "/rules%80", "/%c3%a9", "/board/%00/x",
                   "/league/%ed%a0%80/x"]


def test_a_malformed_path_is_answered_with_the_not_found_page(served):
    """Granian hands the app the path read as UTF-8 (a byte that is not, replaced): passed
    on as it came, `/%ff%fe` made the app fail before it could answer, an empty 500."""
    port, log = served
    for path in MALFORMED_PATHS:
        conn, response, body = get(port, path, **{"Accept-Language": "cs"})
        conn.close()
        assert response.status == 404 and "<html" in body.decode(), path
        assert "Nenalezeno" in body.decode(), path  # the reader's language
    log.seek(0)
    assert "Traceback" not in log.read()


def rss_mb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) // 1024 for line in status if line.startswith("VmRSS"))


def worker_of(pid: int) -> int:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        return int(entry)
            except OSError:
                pass
    raise AssertionError("no worker")


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="/proc gives a worker's memory")
def test_memory_taken_by_parked_bodies_is_given_back(tmp_path):
    """150 connections park chunked bodies of 200 KB each, then go: the worker's memory
    goes back near where it was (it stayed at its peak, 400 MB and more for 1 MB bodies)."""
    port = free_port()
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(tmp_path / "s.sqlite"),
               SCOREKEEPER_SECRET_KEY="serve-test")
    script = ("from scorekeeper.server import gateway, serve; "  # bodies given up after 2 s
              "d = list(gateway.Gateway.__init__.__defaults__); d[1] = 2.0; "
              "gateway.Gateway.__init__.__defaults__ = tuple(d); "
              f"serve.run('127.0.0.1', {port}, workers=1)")
    process = subprocess.Popen([sys.executable, "-c", script], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    parked = []
    try:
        listening(port).close()
        worker = worker_of(process.pid)
        time.sleep(1)
        before = rss_mb(worker)
        piece = b"4000\r\n" + b"a" * 0x4000 + b"\r\n"  # 16 KB chunks
        for _ in range(150):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(b"POST /new HTTP/1.1\r\nHost: pub\r\nContent-Type: application/"
                         b"x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n")
            parked.append(sock)
        for _ in range(12):  # 192 KB each: under the 256 KB the app takes
            for sock in parked:
                sock.sendall(piece)
        deadline = time.monotonic() + 5
        while rss_mb(worker) <= before + 20 and time.monotonic() < deadline:
            time.sleep(0.2)  # the worker takes the bodies in as they arrive
        peak = rss_mb(worker)
        for sock in parked:
            sock.close()
        deadline = time.monotonic() + 20
        while rss_mb(worker) > before + 15 and time.monotonic() < deadline:
            time.sleep(0.5)
        after = rss_mb(worker)
    finally:
        for sock in parked:
            sock.close()
        process.terminate()
        process.wait(timeout=10)
    assert peak > before + 20, (before, peak)  # the bodies were held
    assert after <= before + 15, (before, peak, after)
