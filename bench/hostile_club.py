"""The attacks of issue 28, run from outside against `scorekeeper serve` on 127.0.0.1.

A hostile person on the pub's Wi-Fi (with a session, so CSRF is off here: it stops no
one who has opened a page) and a careless club admin. With bounded traffic only:

* a league flood: a card of 21 singles, teams added one by one for `--seconds`, then the
  fixtures asked for, while three other tables tap twice a second;
* huge numbers and malformed paths: every answer's status, and whether the log got a
  traceback;
* a worker killed, then its replacement as soon as it is up, five times: whether the
  port kept answering;
* 300 connections parking chunked bodies: the worker's memory before, at the peak and
  after;
* team names a spreadsheet would run: what the CSV exports hold;
* (issue 38, `--only heavy_exports`) three readers downloading the largest league's
  archive again and again while three tables tap.

    python bench/hostile_club.py [--code /path/to/an/older/checkout] [--seconds 7]
"""

import argparse
import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from urllib.parse import quote

import lib  # noqa: F401 - puts the checkout on the path, for tests.ports
from lib.server import children

from tests.ports import free_port

HOST = "127.0.0.1"
CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
LEAGUE = ("name=Flood&season=1&games=" + "S" * 21 + "&scheme=two_plus_games&target=250"
          "&singles_hand=7&pairs_hand=5&teams=A%0AB&tie_break1=game_difference")


def start(folder: str, code: str | None, workers: int):
    port = free_port()
    env = dict(os.environ, SCOREKEEPER_DATABASE=os.path.join(folder, "h.sqlite"),
               SCOREKEEPER_SECRET_KEY="hostile-club", SCOREKEEPER_WTF_CSRF_ENABLED="false")
    env["PYTHONPATH"] = code or CHECKOUT
    log = open(os.path.join(folder, "server.log"), "w")  # noqa: SIM115 - closed by main
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", HOST, "--port",
         str(port), "--workers", str(workers)], cwd=code or CHECKOUT, env=env, stdout=log,
        stderr=log, start_new_session=True)  # cwd: the checkout's package comes first
    deadline = time.monotonic() + 40
    while ask(port, "GET", "/rules")[0] != 200:
        if time.monotonic() > deadline:
            raise SystemExit("the server did not start")
        time.sleep(0.2)
    return process, port, log


def ask(port: int, method: str, path: str, body: str | None = None, timeout: float = 70,
        source: str = HOST):
    """(status or what went wrong, seconds, headers, text) on a new connection from
    `source` (the attacker is 127.0.0.1; the other tables' phones other addresses)."""
    began = time.monotonic()
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout, source_address=(source, 0))
    try:
        conn.request(method, path, body=body, headers=FORM if body is not None else {})
        answer = conn.getresponse()
        text = answer.read().decode(errors="replace")
        return answer.status, time.monotonic() - began, answer.headers, text
    except OSError as error:
        return type(error).__name__, time.monotonic() - began, {}, ""
    finally:
        conn.close()


def new_match(port: int, source: str = HOST) -> str:
    made = ask(port, "POST", "/new", "count=2&player1=Ann&player2=Bob&target=250&hand_size=7",
               source=source)
    return made[2]["Location"].split(str(port), 1)[-1]


def tap(port: int, phone: str, url: str, taps: list, stop: threading.Event) -> None:
    """A table's phone tapping twice a second until `stop`: (status, seconds) of each."""
    while not stop.is_set():
        status, took, _, _ = ask(port, "POST", url + "/undo", "pos=0", timeout=30,
                                 source=phone)
        taps.append((status, took))
        stop.wait(0.5)


def league_flood(port: int, seconds: float) -> dict:
    """Teams added for `seconds`, then the fixtures, while three tables tap."""
    secretary = ask(port, "POST", "/league/new", LEAGUE)[2]["Location"].split(str(port))[-1]
    phones = [f"127.0.0.{n}" for n in (2, 3, 4)]
    tables = {phone: new_match(port, phone) for phone in phones}
    taps, stop = [], threading.Event()

    tappers = [threading.Thread(target=tap, args=(port, *item, taps, stop))
               for item in tables.items()]
    for thread in tappers:
        thread.start()
    added, statuses, end = 0, {}, time.monotonic() + seconds
    while time.monotonic() < end and added < 800:
        status = ask(port, "POST", f"{secretary}/teams", f"name=Team+{added}")[0]
        statuses[status] = statuses.get(status, 0) + 1
        added += 1
    status, took, _, _ = ask(port, "POST", f"{secretary}/fixtures/make",
                             "first=2026-09-01&every=7")
    # and the largest league the app takes (30 teams once it has limits), from elsewhere
    most = LEAGUE.replace("Flood", "Most").replace("teams=A%0AB", "teams=" + "%0A".join(
        f"Team+{n}" for n in range(30)))
    largest = ask(port, "POST", "/league/new", most, source="127.0.0.5")[2]["Location"]
    biggest = ask(port, "POST", largest.split(str(port))[-1] + "/fixtures/make",
                  "first=2026-09-01&every=7", source="127.0.0.5")
    stop.set()
    for thread in tappers:
        thread.join()
    return {"team_adds": added, "team_answers": statuses, "fixtures": status,
            "fixtures_seconds": round(took, 2), "fixtures_of_30_teams": biggest[0],
            "fixtures_of_30_teams_seconds": round(biggest[1], 2), "other_taps": len(taps),
            "other_taps_not_answered": sum(1 for s, _ in taps if s != 422),
            "other_taps_worst_seconds": round(max((t for _, t in taps), default=0), 2)}


def heavy_exports(port: int, seconds: float) -> dict:
    """Three clients (three addresses, each within its export limit) download the largest
    league's season archive again and again for `seconds`, while three tables tap twice a
    second (issue 38.1)."""
    most = LEAGUE.replace("Flood", "Heavy").replace("teams=A%0AB", "teams=" + "%0A".join(
        f"Team+{n}" for n in range(30)))
    secretary = ask(port, "POST", "/league/new", most, source="127.0.0.5")[2]["Location"]
    secretary = secretary.split(str(port))[-1]
    ask(port, "POST", f"{secretary}/fixtures/make", "first=2026-09-01&every=7",
        source="127.0.0.5")
    tables = {phone: new_match(port, phone) for phone in ("127.0.0.2", "127.0.0.3",
                                                          "127.0.0.4")}
    taps, exports, stop = [], [], threading.Event()

    def export(reader):  # the worst within the limits: asked again once told it may be
        while not stop.is_set():
            status, _, headers, _ = ask(port, "GET", f"{secretary}/season.json.gz",
                                        source=reader)
            exports.append(status)
            if status in (429, 503):
                stop.wait(float(headers.get("Retry-After", 1)))

    threads = [threading.Thread(target=tap, args=(port, *item, taps, stop))
               for item in tables.items()] + [
        threading.Thread(target=export, args=(f"127.0.0.{n}",)) for n in (6, 7, 8)]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    took = sorted(t for _, t in taps)
    return {"taps": len(taps), "taps_not_answered": sum(1 for s, _ in taps if s != 422),
            "tap_p50_seconds": round(took[len(took) // 2], 3),
            "tap_p99_seconds": round(took[int(len(took) * 0.99)], 3),
            "tap_worst_seconds": round(took[-1], 3),
            "exports": {str(status): exports.count(status) for status in set(exports)}}


def hostile_numbers(port: int, log_path: str) -> dict:
    big = "9" * 400
    url = new_match(port)
    secretary = ask(port, "POST", "/league/new", LEAGUE.replace("Flood", "Numbers"))
    secretary = secretary[2]["Location"].split(str(port))[-1]
    asked = [("POST", "/new", f"count=2&target={big}&hand_size=7"),
             ("POST", url + "/start", f"pos={big}&seat=0"),
             ("POST", url + "/start", f"pos=0&seat={big}"),
             ("POST", "/league/new", LEAGUE.replace("target=250", f"target={big}")),
             ("POST", f"{secretary}/fixtures/make", "first=9999-12-31&every=7"),
             ("POST", f"{secretary}/card/1/game/1/enter", f"rev={big}&home=1&away=2"),
             ("GET", f"{secretary}/card/{'9' * 40}", None),
             ("POST", f"{secretary}/fixtures/{'9' * 40}/day", "day=2026-09-01"),
             ("GET", "/%ff%fe", None), ("GET", "/rules%80", None)]
    answers = [ask(port, method, path, body)[0] for method, path, body in asked]
    with open(log_path) as log:
        logged = log.read()
    return {"answers": answers, "5xx": sum(1 for a in answers if str(a).startswith("5")),
            "tracebacks_logged": logged.count("Traceback")}


def workers_of(pid: int) -> set[int]:
    return set(children(pid))


def kill_workers(port: int, pid: int) -> dict:
    """A worker killed, then its replacement as soon as it is up, five times; GET /rules
    asked all along (sent again once when its connection is cut, as a browser does)."""
    answers, stop = [], threading.Event()

    def keep_asking():
        while not stop.is_set():
            status = ask(port, "GET", "/rules", timeout=10)[0]
            if status != 200:
                status = ask(port, "GET", "/rules", timeout=10)[0]
            answers.append(status)
            stop.wait(0.05)

    asker = threading.Thread(target=keep_asking)
    asker.start()
    victim, killed = min(workers_of(pid)), 0
    for _ in range(5):
        before = workers_of(pid)
        os.kill(victim, signal.SIGKILL)
        killed += 1
        deadline = time.monotonic() + 40
        while not workers_of(pid) - before and time.monotonic() < deadline:
            time.sleep(0.05)
        if not workers_of(pid) - before:
            break
        victim = (workers_of(pid) - before).pop()
    time.sleep(3)
    stop.set()
    asker.join()
    return {"killed": killed, "requests": len(answers),
            "not_answered": sum(1 for a in answers if a != 200),
            "server_still_running": ask(port, "GET", "/rules", timeout=10)[0] == 200}


def rss_mb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) // 1024 for line in status if line.startswith("VmRSS"))


def parked_bodies(port: int, pid: int, connections: int = 300) -> dict:
    """Chunked bodies of 960 KB, 16 KB at a time, parked; the worker's memory."""
    worker = max(workers_of(pid))
    before, parked = rss_mb(worker), []
    piece = b"4000\r\n" + b"a" * 0x4000 + b"\r\n"
    for _ in range(connections):
        sock = socket.create_connection((HOST, port), timeout=5)
        sock.sendall(b"POST /new HTTP/1.1\r\nHost: x\r\nContent-Type: application/"
                     b"x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n")
        parked.append(sock)
    for _ in range(60):
        for sock in parked:
            try:
                sock.sendall(piece)
            except OSError:
                pass
    time.sleep(2)
    peak = rss_mb(worker)
    for sock in parked:
        sock.close()
    time.sleep(30)
    return {"connections": connections, "worker_mb_before": before, "worker_mb_peak": peak,
            "worker_mb_30s_after": rss_mb(worker)}


def formulas(port: int) -> dict:
    teams = ['=HYPERLINK("http://x","y")', "+1+1", "-2", "@SUM(1)"]
    body = LEAGUE.replace("A%0AB", "%0A".join(quote(name, safe="") for name in teams))
    secretary = ask(port, "POST", "/league/new", body.replace("Flood", "Formulas"))
    secretary = secretary[2]["Location"].split(str(port))[-1]
    text = ask(port, "GET", f"{secretary}/standings.csv")[3]
    return {"written_as_typed": sum(1 for name in teams if f",{name}," in text
                                    or f',"{name.replace(chr(34), chr(34) * 2)}",' in text),
            "prefixed": sum(1 for name in teams if f"'{name[:3]}" in text)}


@contextlib.contextmanager
def served(folder: str, code: str | None, workers: int):
    """The server while the block runs: (its first process, its port, its log file)."""
    process, port, log = start(folder, code, workers)
    try:
        yield process, port, log
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        log.close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", help="an older checkout to serve (its scorekeeper)")
    parser.add_argument("--seconds", type=float, default=7)
    parser.add_argument("--only", choices=["heavy_exports"],
                        help="run this attack alone (issue 38's)")
    args = parser.parse_args(argv)
    results = {"code": args.code or "this checkout"}
    with tempfile.TemporaryDirectory() as folder:
        if args.only:
            with served(folder, args.code, 3) as (_process, port, _log):
                results[args.only] = heavy_exports(port, args.seconds * 3)
            print(json.dumps(results, indent=2))
            return 0
        with served(folder, args.code, 3) as (process, port, log):
            results["league_flood"] = league_flood(port, args.seconds)
            results["hostile_numbers"] = hostile_numbers(port, log.name)
            results["formulas_in_csv"] = formulas(port)
            results["kill_workers"] = kill_workers(port, process.pid)
        with served(folder, args.code, 1) as (process, port, _log):
            results["parked_bodies"] = parked_bodies(port, process.pid)
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
