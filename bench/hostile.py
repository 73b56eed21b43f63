"""The network attacks of docs/SECURITY.md, measured against a server on 127.0.0.1 only.

Starts the app with a server command (the README's, by default) on a scratch
database and measures, with bounded traffic:

* slow clients: N sockets that send a request's first bytes and then one byte every
  few seconds; how long an ordinary GET /rules then takes;
* a large body: one POST /import announcing 50 MB; how much of it the server takes in
  before it answers, and what it answers;
* a flood of new matches: POST /new from one client as fast as it can for a few seconds;
  how many were stored and how many refused with 429;
* an unchanged scoreboard poll: whether the 304 keeps the connection open.

    python bench/hostile.py [--sockets 520] [--serve "waitress-serve ... --call ..."]

The default server command is the README's; pass the old one to measure an older main.
"""

import argparse
import http.client
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import tempfile
import threading
import time

import lib  # noqa: F401 - puts the checkout on the path, for tests.ports

from tests.ports import free_port

HOST = "127.0.0.1"
SERVE = "scorekeeper serve --host 127.0.0.1 --port {port}"
_CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
_BOARD = re.compile(r'class="board-link" href="[^"]*?(/board/[^"]+)"')


def start(command: str, folder: str):
    port = free_port()
    argv = shlex.split(command.format(port=port))
    if argv[0] == "scorekeeper":
        argv = [sys.executable, "-m", "scorekeeper.cli", *argv[1:]]
    elif argv[0] == "waitress-serve":
        argv = [sys.executable, "-m", "waitress", *argv[1:]]
    env = dict(os.environ, SCOREKEEPER_DATABASE=os.path.join(folder, "h.sqlite"),
               SCOREKEEPER_SECRET_KEY="hostile-bench", TMPDIR=folder)
    log = open(os.path.join(folder, "server.log"), "w")  # noqa: SIM115 - closed by stop
    process = subprocess.Popen(argv, cwd=folder, env=env, stdout=log, stderr=log)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return process, port, log
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def get(port: int, path: str, source: str = "127.0.0.2", timeout: float = 15.0):
    """One request on a new connection from another loopback address; (status, seconds)."""
    began = time.monotonic()
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout,
                                      source_address=(source, 0))
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status, time.monotonic() - began
    except OSError as error:
        return f"no answer ({type(error).__name__})", time.monotonic() - began
    finally:
        conn.close()


def slow_clients(port: int, count: int, seconds: float) -> dict:
    """`count` sockets trickling a header byte each 2 s; the latency of GET /rules meanwhile."""
    sockets = []
    for _ in range(count):
        try:
            sock = socket.create_connection((HOST, port), timeout=2,
                                            source_address=("127.0.0.3", 0))
            sock.sendall(b"POST /new HTTP/1.1\r\nHost: x\r\n")
            sockets.append(sock)
        except OSError:
            break
    stop = threading.Event()

    def trickle():
        while not stop.wait(2):
            for sock in sockets:
                try:
                    sock.send(b"X")
                except OSError:
                    pass

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    time.sleep(1)
    samples = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        samples.append(get(port, "/rules", timeout=5))
        time.sleep(0.5)
    stop.set()
    thread.join()
    for sock in sockets:
        sock.close()
    answered = [s for status, s in samples if status == 200]
    return {"sockets_opened": len(sockets), "requests": len(samples),
            "answered": len(answered),
            "worst_seconds": round(max((s for _, s in samples), default=0), 3)}


def large_body(port: int, folder: str, megabytes: int) -> dict:
    """POST /import announcing `megabytes` MB, sent until the server answers or stops reading."""
    sock = socket.create_connection((HOST, port), timeout=5)
    size = megabytes * 1024 * 1024
    sock.sendall((f"POST /import HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  f"Content-Length: {size}\r\n\r\n").encode())
    chunk, sent, answer = b"0" * 65536, 0, b""
    largest_tmp = 0
    sock.settimeout(0.001)
    began = time.monotonic()
    while sent < size:
        try:
            sent += sock.send(chunk)
        except (BlockingIOError, TimeoutError):
            pass
        except OSError:
            break
        try:
            answer += sock.recv(4096)
        except (BlockingIOError, TimeoutError):
            pass
        except OSError:
            break
        if answer:
            break
        if sent % (4 << 20) < 65536:
            largest_tmp = max(largest_tmp, _tmp_bytes(folder))
    sock.settimeout(5)
    try:
        answer += sock.recv(4096)
    except OSError:
        pass
    sock.close()
    status = answer.split(b"\r\n", 1)[0].decode(errors="replace")
    return {"announced_mb": megabytes, "sent_mb": round(sent / 2**20, 1),
            "largest_temp_file_mb": round(largest_tmp / 2**20, 1), "answer": status,
            "seconds": round(time.monotonic() - began, 2)}


def _tmp_bytes(folder: str) -> int:
    total = 0
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        if name.startswith("tmp") or name.startswith("waitress"):
            try:
                total += os.path.getsize(path)
            except OSError:
                pass
    return total


def flood(port: int, seconds: float) -> dict:
    """New matches from one client as fast as it can; stored, refused (429) and other."""
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    conn.request("GET", "/new")
    response = conn.getresponse()
    page = response.read().decode()
    cookie = response.headers.get("Set-Cookie", "").split(";")[0]
    token = _CSRF.search(page).group(1)
    body = (f"csrf_token={token}&count=2&player1=Ann&player2=Bob&target=250&hand_size=7")
    counts = {"stored": 0, "refused_429": 0, "other": 0}
    retry_after = None
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        conn.request("POST", "/new", body=body, headers={
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie,
            "Referer": f"http://{HOST}:{port}/new", "Origin": f"http://{HOST}:{port}"})
        response = conn.getresponse()
        response.read()
        if response.status == 303:
            counts["stored"] += 1
        elif response.status == 429:
            counts["refused_429"] += 1
            retry_after = response.headers.get("Retry-After")
        else:
            counts["other"] += 1
        if response.will_close:
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=10)
    conn.close()
    return dict(counts, seconds=seconds, stored_per_second=round(counts["stored"] / seconds, 1),
                retry_after=retry_after)


def poll_304(port: int) -> dict:
    """Two scoreboard polls on one connection: the second is a 304; is the connection kept?"""
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    conn.request("GET", "/")
    home = conn.getresponse().read().decode()
    found = _BOARD.search(home) or re.search(r'href="(/board/[^"]+)"', home)
    if found is None:
        return {"error": "no scoreboard link on the home page"}
    path = found.group(1)
    conn.request("GET", path, headers={"HX-Request": "true"})
    first = conn.getresponse()
    first.read()
    etag = first.headers["ETag"]
    conn.request("GET", path, headers={"HX-Request": "true", "If-None-Match": etag})
    second = conn.getresponse()
    second.read()
    conn.close()
    return {"status": second.status, "connection": second.headers.get("Connection", "keep-alive"),
            "kept_alive": not second.will_close}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve", default=SERVE, help="the server command ({port} is filled)")
    parser.add_argument("--sockets", type=int, default=520)
    parser.add_argument("--seconds", type=float, default=6)
    parser.add_argument("--body-mb", type=int, default=50)
    args = parser.parse_args(argv)
    results = {"serve": args.serve}
    with tempfile.TemporaryDirectory() as folder:
        process, port, log = start(args.serve, folder)
        try:
            results["slow_clients"] = slow_clients(port, args.sockets, args.seconds)
            results["large_body"] = large_body(port, folder, args.body_mb)
            results["flood_new_matches"] = flood(port, args.seconds)
            results["poll_304"] = poll_304(port)
        finally:
            process.terminate()
            process.wait(timeout=10)
            log.close()
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
