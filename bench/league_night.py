"""League night over HTTP: 50 tables scoring at once against the production server.

The app runs under waitress in a subprocess on 127.0.0.1 (the command the README
recommends: `waitress-serve --threads=8 --connection-limit=500 --call
scorekeeper:create_app`, with a scratch database); this process is the load
generator. For each table:

* one scorer makes one tap every ~2 s with the requests the browser sends: an
  htmx POST (HX-Request: true) of csrf_token, pos and the button's field
  (move=6-3@L, seat=N, pips_N, or nothing for Draw/Pass). The tap is decided by
  the simulation (a RandomTable per table, on this side, holding the real
  hidden tiles); the lay is checked to be one of the buttons the last response
  offered, and every answer must be 200 with pos one higher than before;
* 3 scoreboard viewers poll GET /board/<id>/<view_key> every 2 s with
  HX-Request: true and If-None-Match from the last ETag, as htmx polling does.

Tables start part-way through a match (imported from a record the simulation
played, untimed), so logs have a league night's lengths; a table whose match
ends starts a new one. In the same run two floor clients fetch trivial
endpoints: GET /static/app.css (the floor the targets compare with) and
GET /rules (a template render without the database).

    python bench/league_night.py [--seconds 60] [--tables 50] [--profile]
"""

import argparse
import http.client
import json
import os
import random
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, deque
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

from _common import RESULTS, ROOT, default_table, percentile, print_table, summary_ms, write_results

from scorekeeper.rules import Draw, Lay, Match, Pass, Remaining, Start, normal, pips
from scorekeeper.rules.events import button_value
from scorekeeper.rules.record import write_record
from scorekeeper.simulation import RandomTable

HOST = "127.0.0.1"
FLOOR = "/static/app.css"
FLOORS = (FLOOR, "/rules")
TARGET_MOVE_P99_MS = 50
TARGET_MOVE_OVER_FLOOR = 3

_INPUT = re.compile(r"<input\b[^>]*>")
_VALUE = re.compile(r'\bvalue="([^"]*)"')
_BOARD_LINK = re.compile(r'class="board-link" href="([^"]+)"')


def field_value(html: str, name: str) -> str | None:
    """The value of the first <input name=NAME> of a page or fragment."""
    for tag in _INPUT.finditer(html):
        if f'name="{name}"' in tag.group(0):
            found = _VALUE.search(tag.group(0))
            return found.group(1) if found else ""
    return None


class BrowserTable(RandomTable):
    """The simulation, but a lead is laid as its button names it (low-high): the screen
    offers one button per tile for the lead, so the scorer cannot lay it the other way."""

    def _move(self):
        move = super()._move()
        if isinstance(move, Lay) and move.end is None:
            move = Lay(normal(move.tile), None)
        return move


# -- transports: a browser's keep-alive connection, or Flask's test client ---------------


class Reply:
    __slots__ = ("status", "headers", "body")

    def __init__(self, status: int, headers, body: bytes):
        self.status, self.headers, self.body = status, headers, body

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class HttpClient:
    """One browser: one kept-alive connection and its cookie jar."""

    def __init__(self, port: int, timeout: float):
        self.port = port
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None
        self.cookies: dict[str, str] = {}
        self.reused = False
        self.retries = 0

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.conn = None

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict | None = None) -> Reply:
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
                self.reused = False
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A kept-alive connection the server closed while idle: a browser retries
                # once on a new one. A fresh connection failing is an error.
                was_reused = self.reused
                self.close()
                if attempt == 0 and was_reused:
                    self.retries += 1
                    continue
                raise
            except BaseException:
                self.close()
                raise
            self.reused = True
            for line in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(line).items():
                    if morsel.value and morsel["max-age"] != "0":
                        self.cookies[name] = morsel.value
                    else:
                        self.cookies.pop(name, None)
            if response.will_close:
                self.close()
            return Reply(response.status, response.headers, data)
        raise AssertionError("unreachable")


class TestClient:
    """The same interface over Flask's test client, for profiling in-process."""

    def __init__(self, app):
        self.client = app.test_client()
        self.retries = 0

    def request(self, method, path, body=None, headers=None) -> Reply:
        response = self.client.open(path, method=method, data=body, headers=headers or {})
        return Reply(response.status_code, response.headers, response.get_data())

    def close(self) -> None:
        pass


# -- the people at a table -----------------------------------------------------------------


class Recorder:
    """Every timed request: (category, kind, started at, seconds, status, error or None)."""

    def __init__(self):
        self.rows: list[tuple] = []
        self.window = (0.0, float("inf"))
        self.lock = threading.Lock()

    def add(self, category, kind, started, seconds, status, error=None) -> None:
        if self.window[0] <= started <= self.window[1]:
            with self.lock:
                self.rows.append((category, kind, started, seconds, status, error))


def timed(client, recorder, category, kind, method, path, body=None, headers=None):
    """Send one request, record its latency and outcome; returns the Reply or None."""
    clock = time.perf_counter
    start = clock()
    try:
        reply = client.request(method, path, body, headers)
    except (OSError, http.client.HTTPException) as error:
        recorder.add(category, kind, start, clock() - start, 0, f"{type(error).__name__}")
        return None
    recorder.add(category, kind, start, clock() - start, reply.status, None)
    return reply


class Scorer:
    """The phone on one table: decides each tap with the simulation and posts it."""

    def __init__(self, index: int, seed: int, client, recorder: Recorder, preplay: bool):
        self.index = index
        self.rng = random.Random(seed * 100_003 + index)
        self.client = client
        self.recorder = recorder
        self.preplay = preplay
        self.pending: deque = deque()
        self.kinds: Counter = Counter()
        self.errors: list[str] = []
        self.board_path: str | None = None
        self.page_url = ""
        self.last_request: tuple | None = None  # (kind, path, body) of the last tap
        self.last_reply: Reply | None = None
        self.matches = 0

    # setting up a match (timed under the category "new match" when it happens mid-run)

    def new_match(self, preplay: bool, category: str = "setup") -> bool:
        table = default_table(self.rng)
        fraction = self.rng.uniform(0.0, 0.9) if preplay else 0.0
        state = self.rng.getstate()
        steps = 0
        if fraction:
            probe_rng = random.Random()
            probe_rng.setstate(state)
            probe = BrowserTable(Match(table), probe_rng)
            while not probe.match.is_over():
                probe.step()
            steps = int(fraction * len(probe.match.log))
        self.match = Match(table)
        self.sim = BrowserTable(self.match, self.rng)
        for _ in range(steps):
            self.sim.step()
        self.pending.clear()
        self.matches += 1
        if steps:
            reply = self._import(category)
        else:
            reply = self._create(category, table)
        if reply is None or reply.status != 200:
            return self._fail(f"could not start a match ({reply and reply.status})")
        return self._enter(reply.text)

    def _create(self, category, table) -> Reply | None:
        count = len(table.players)
        page = timed(self.client, self.recorder, category, "new", "GET", f"/new?players={count}")
        if page is None or page.status != 200:
            return page
        fields = {"csrf_token": field_value(page.text, "csrf_token"), "count": count,
                  "target": table.target, "hand_size": table.hand_size}
        for seat, name in enumerate(table.players, 1):
            fields[f"player{seat}"] = name
        if table.partnerships:
            fields["partnerships"] = "y"
        body = urlencode(fields).encode()
        reply = timed(self.client, self.recorder, category, "new", "POST", "/new", body,
                      {"Content-Type": "application/x-www-form-urlencoded"})
        return self._follow(category, reply)

    def _import(self, category) -> Reply | None:
        home = timed(self.client, self.recorder, category, "import", "GET", "/")
        if home is None or home.status != 200:
            return home
        boundary = "bench" + secrets.token_hex(8)
        record = json.dumps(write_record(self.match))
        body = (f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'
                f'{field_value(home.text, "csrf_token")}\r\n'
                f'--{boundary}\r\nContent-Disposition: form-data; name="record"; '
                f'filename="match.json"\r\nContent-Type: application/json\r\n\r\n'
                f'{record}\r\n--{boundary}--\r\n').encode()
        reply = timed(self.client, self.recorder, category, "import", "POST", "/import", body,
                      {"Content-Type": f"multipart/form-data; boundary={boundary}"})
        return self._follow(category, reply)

    def _follow(self, category, reply) -> Reply | None:
        if reply is None or reply.status != 303:
            return reply
        location = urlsplit(reply.headers["Location"])
        self.page_url = location.path
        return timed(self.client, self.recorder, category, "page", "GET", location.path)

    def _enter(self, html: str) -> bool:
        self.csrf = field_value(html, "csrf_token")
        self.pos = int(field_value(html, "pos"))
        if self.pos != len(self.match.log):
            return self._fail(f"the server is at {self.pos}, the table at {len(self.match.log)}")
        self.last_html = html
        found = _BOARD_LINK.search(html)
        self.board_path = urlsplit(found.group(1)).path if found else None
        self.broken = False
        return True

    def _fail(self, why: str) -> bool:
        self.errors.append(f"table {self.index}: {why}")
        self.broken = True
        return False

    # one tap

    def tick(self) -> None:
        if self.broken or (not self.pending and self.match.is_over()):
            self.new_match(False, "new match")
            return
        if not self.pending:
            self._plan()
        kind, path, fields = self.pending.popleft()
        if kind == "lay" and f'name="move" value="{fields["move"]}"' not in self.last_html:
            self._fail(f"{fields['move']} is not offered as a button")
        fields = {"csrf_token": self.csrf, "pos": self.pos, **fields}
        headers = {"HX-Request": "true", "HX-Current-URL": f"http://{HOST}{self.page_url}",
                   "HX-Target": "table", "Content-Type": "application/x-www-form-urlencoded"}
        body = urlencode(fields).encode()
        self.last_request = (kind, self.page_url + path, body)
        reply = timed(self.client, self.recorder, "move", kind, "POST", self.page_url + path,
                      body, headers)
        self.kinds[kind] += 1
        self.last_reply = reply
        if reply is None:
            self._fail(f"{kind}: no answer")
            return
        html = reply.text
        pos = field_value(html, "pos")
        if reply.status != 200 or pos is None or int(pos) != self.pos + 1:
            self._fail(f"{kind} {fields}: status {reply.status}, pos {pos}, "
                       f"expected {self.pos + 1}: {html[:200]!r}")
            return
        self.pos += 1
        self.csrf = field_value(html, "csrf_token") or self.csrf
        self.last_html = html

    def _plan(self) -> None:
        """Let the simulation make the next event, and queue the taps that enter it."""
        match = self.match
        required = match.needed_remaining()[0] if match.phase == "end" else []
        event = self.sim.step()
        if isinstance(event, Start):
            self.pending.append(("start", "/start", {"seat": event.seat}))
        elif isinstance(event, Lay):
            text = button_value(event.tile, event.end)
            self.pending.append(("lay", "/lay", {"move": text}))
        elif isinstance(event, Draw):
            self.pending.extend(("draw", "/draw", {}) for _ in range(event.count))
        elif isinstance(event, Pass):
            self.pending.append(("pass", "/pass", {}))
        elif isinstance(event, Remaining):
            held = dict(event.held)
            fields = {}
            for seat in required:  # the form asks only for these; optional seats are omitted
                value = held[seat]
                fields[f"pips_{seat}"] = value if isinstance(value, int) else sum(
                    pips(tile) for tile in value)
            self.pending.append(("end", "/end", fields))


class Viewer:
    """A phone or the TV showing one table's scoreboard, polling like htmx does."""

    def __init__(self, scorer: Scorer, client, recorder: Recorder):
        self.scorer = scorer
        self.client = client
        self.recorder = recorder
        self.path = None
        self.etag = None

    def tick(self) -> None:
        path = self.scorer.board_path
        if path is None:
            return
        if path != self.path:
            self.path, self.etag = path, None
        headers = {"HX-Request": "true", "HX-Current-URL": f"http://{HOST}{path}",
                   "HX-Target": "board", "HX-Trigger": "board"}
        if self.etag:
            headers["If-None-Match"] = self.etag
        reply = timed(self.client, self.recorder, "poll", "poll", "GET", path, None, headers)
        if reply is not None and reply.status == 200:
            self.etag = reply.headers.get("ETag")


class Floor:
    """A client fetching a trivial endpoint of the app, for the floor under the figures."""

    def __init__(self, path: str, client, recorder: Recorder):
        self.path, self.client, self.recorder = path, client, recorder

    def tick(self) -> None:
        timed(self.client, self.recorder, f"floor {self.path}", "floor", "GET", self.path)


# -- the server ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def start_server(folder: str, threads: int, connection_limit: int | None, log_path,
                 app: str = "scorekeeper:create_app"):
    port = free_port()
    command = [sys.executable, "-m", "waitress", f"--threads={threads}",
               f"--listen={HOST}:{port}"]
    if connection_limit:
        command.append(f"--connection-limit={connection_limit}")
    command += ["--call", app]
    env = dict(os.environ, SCOREKEEPER_DATABASE=os.path.join(folder, "league.sqlite"),
               SCOREKEEPER_SECRET_KEY="bench-" + secrets.token_hex(16))
    log = open(log_path, "w")  # noqa: SIM115 - closed by stop_server
    process = subprocess.Popen(command, cwd=folder, env=env, stdout=log, stderr=log)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited: see {log_path}")
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return process, port, log, command
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start listening within 20 s")


def stop_server(process, log) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    log.close()


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- checks and profiling in-process ---------------------------------------------------------


def check_304_without_rebuild() -> dict:
    """An unchanged scoreboard poll: 304 with no rebuild and no template rendered."""
    from flask import template_rendered

    from scorekeeper import create_app, store
    from scorekeeper.db import get_db

    folder = tempfile.mkdtemp(prefix="bench-304-")
    try:
        app = create_app({"DATABASE": os.path.join(folder, "db.sqlite"),
                          "SECRET_KEY": "bench"})
        rng = random.Random(5)
        match = Match(default_table(rng))
        sim = BrowserTable(match, rng)
        for _ in range(60):
            sim.step()
        with app.app_context():
            stored = store.create(get_db(), match)
        client = app.test_client()
        path = f"/board/{stored.id}/{stored.view_key}"
        first = client.get(path, headers={"HX-Request": "true"})
        counts = Counter()
        rebuild = store.rebuild

        def counting_rebuild(*args, **kwargs):
            counts["rebuilds"] += 1
            return rebuild(*args, **kwargs)

        def rendered(_app, template, context, **_extra):
            counts["templates"] += 1

        store.rebuild = counting_rebuild
        template_rendered.connect(rendered, app)
        try:
            again = client.get(path, headers={"HX-Request": "true",
                                              "If-None-Match": first.headers["ETag"]})
        finally:
            store.rebuild = rebuild
            template_rendered.disconnect(rendered, app)
        return {"first_status": first.status_code, "etag": first.headers.get("ETag"),
                "unchanged_status": again.status_code, "unchanged_bytes": len(again.data),
                "rebuilds": counts["rebuilds"], "templates_rendered": counts["templates"],
                "ok": again.status_code == 304 and not counts["rebuilds"]
                and not counts["templates"]}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def profile_in_process(tables: int, taps: int, seed: int) -> dict:
    """pyinstrument over the same taps and polls, through Flask's test client (no server)."""
    from pyinstrument import Profiler

    from scorekeeper import create_app

    folder = tempfile.mkdtemp(prefix="bench-profile-")
    try:
        app = create_app({"DATABASE": os.path.join(folder, "db.sqlite"),
                          "SECRET_KEY": "bench"})
        recorder = Recorder()
        scorers = [Scorer(i, seed, TestClient(app), recorder, True) for i in range(tables)]
        for scorer in scorers:
            scorer.new_match(True)
        viewers = [Viewer(s, TestClient(app), recorder) for s in scorers for _ in range(3)]
        results = {}
        for name, clients in (("moves", scorers), ("polls", viewers)):
            profiler = Profiler(interval=0.0005)
            profiler.start()
            for _ in range(taps):
                for client in clients:
                    client.tick()
                if name == "polls":  # change the match so that polls render, as on the night
                    for scorer in scorers:
                        scorer.tick()
            profiler.stop()
            path = RESULTS / f"league_night.profile-{name}.txt"
            path.write_text(profiler.output_text(unicode=True, color=False))
            results[name] = str(path.relative_to(ROOT))
        errors = [e for s in scorers for e in s.errors]
        results["errors"] = errors[:5]
        return results
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# -- the run ---------------------------------------------------------------------------------


def figures(rows, category) -> dict:
    chosen = [row for row in rows if row[0] == category]
    good = [row[3] for row in chosen if row[5] is None]
    errors = [row for row in chosen if row[5] is not None or row[4] >= 400]
    result = summary_ms([row[3] for row in chosen])
    result["errors"] = len(errors)
    result["statuses"] = dict(Counter(str(row[4]) for row in chosen))
    if not good:
        result["count"] = len(chosen)
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60, help="measured time (default 60)")
    parser.add_argument("--warmup", type=float, default=5, help="unmeasured start (default 5)")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--viewers", type=int, default=3, help="scoreboard viewers per table")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between taps/polls")
    parser.add_argument("--floor-interval", type=float, default=0.5)
    parser.add_argument("--threads", type=int, default=8, help="waitress --threads")
    parser.add_argument("--connection-limit", type=int, default=500,
                        help="waitress --connection-limit (the README's 500; waitress's "
                             "own default, 100, is too few for 200 polling phones)")
    parser.add_argument("--fresh-start", action="store_true",
                        help="start every table at a new match instead of part-way through")
    parser.add_argument("--timeout", type=float, default=15, help="client socket timeout")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true",
                        help="only profile taps and polls in-process with pyinstrument")
    parser.add_argument("--app", default="scorekeeper:create_app",
                        help="the app factory waitress calls (for A/B experiments)")
    parser.add_argument("--name", default="league_night", help="results file name")
    args = parser.parse_args(argv)
    if not (0 < args.seconds <= 3600 and 0 < args.tables <= 200 and 0 <= args.viewers <= 10
            and args.interval >= 0.1 and args.floor_interval >= 0.05):
        parser.error("keep it bounded: seconds ≤ 3600, tables ≤ 200, viewers ≤ 10, "
                     "interval ≥ 0.1 s")
    RESULTS.mkdir(parents=True, exist_ok=True)

    if args.profile:
        found = profile_in_process(min(args.tables, 10), 30, args.seed)
        print(json.dumps(found, indent=2))
        return 0

    check = check_304_without_rebuild()
    print(f"unchanged poll: status {check['unchanged_status']}, rebuilds {check['rebuilds']}, "
          f"templates rendered {check['templates_rendered']}")

    folder = tempfile.mkdtemp(prefix="bench-league-")
    log_path = RESULTS / f"{args.name}.server.log"
    process, port, log, command = start_server(folder, args.threads, args.connection_limit,
                                               log_path, args.app)
    try:
        recorder = Recorder()
        rng = random.Random(args.seed)
        scorers = [Scorer(i, args.seed, HttpClient(port, args.timeout), recorder,
                          not args.fresh_start) for i in range(args.tables)]
        print(f"server: {' '.join(command[1:])} (pid {process.pid}); setting up "
              f"{args.tables} tables ...", flush=True)
        for scorer in scorers:
            if not scorer.new_match(not args.fresh_start):
                raise SystemExit(f"setup failed: {scorer.errors[-1]}")
        viewers = [Viewer(s, HttpClient(port, args.timeout), recorder)
                   for s in scorers for _ in range(args.viewers)]
        floors = [Floor(path, HttpClient(port, args.timeout), recorder) for path in FLOORS]
        log_length = [len(s.match.log) for s in scorers]
        print(f"running {args.warmup:g} s warm-up + {args.seconds:g} s measured: "
              f"{len(scorers)} scorers, {len(viewers)} viewers, {len(floors)} floor clients "
              f"(log lengths at start: median {percentile(log_length, 0.5):.0f}, "
              f"max {max(log_length)}) ...", flush=True)
        cpu_before, gen_before = None, os.times()

        def mark():
            nonlocal cpu_before
            cpu_before = cpu_seconds(process.pid)

        timer = threading.Timer(args.warmup + 0.2, mark)
        timer.start()
        start, end, late = run_clients(scorers + viewers, floors, args, recorder, rng)
        cpu_after, gen_after = cpu_seconds(process.pid), os.times()
        timer.cancel()
    finally:
        stop_server(process, log)
        shutil.rmtree(folder, ignore_errors=True)

    measured = end - start
    rows = recorder.rows
    server_log = log_path.read_text()
    result = {
        "command": "python bench/league_night.py " + " ".join(argv or sys.argv[1:]),
        "server_command": " ".join(["waitress-serve", *command[3:]]),
        "tables": args.tables, "viewers_per_table": args.viewers, "interval_s": args.interval,
        "seconds": round(measured, 1), "warmup_s": args.warmup,
        "start": "part-way through a match" if not args.fresh_start else "new matches",
        "log_length_at_start": {"median": percentile(log_length, 0.5), "max": max(log_length)},
        "floor_endpoint": f"GET {FLOOR}",
        "offered_per_s": {"moves": round(args.tables / args.interval, 1),
                          "polls": round(args.tables * args.viewers / args.interval, 1),
                          "floor": round(len(floors) / args.floor_interval, 1)},
        "move": figures(rows, "move"),
        "move_by_kind": {kind: figures([r for r in rows if r[1] == kind], "move")
                         for kind in sorted({r[1] for r in rows if r[0] == "move"})},
        "poll": figures(rows, "poll"),
        "poll_200": summary_ms([r[3] for r in rows if r[0] == "poll" and r[4] == 200]),
        "poll_304": summary_ms([r[3] for r in rows if r[0] == "poll" and r[4] == 304]),
        "floors": {path: figures(rows, f"floor {path}") for path in FLOORS},
        "new_match": figures(rows, "new match"),
        "generator_errors": [r[5] for r in rows if r[0] == "generator"][:10],
        "table_errors": [e for s in scorers for e in s.errors][:20],
        "late_ticks": late,
        "retries_on_closed_keepalive": sum(c.client.retries for c in [*scorers, *viewers]),
        "achieved_per_s": {
            "moves": round(sum(1 for r in rows if r[0] == "move") / measured, 1),
            "polls": round(sum(1 for r in rows if r[0] == "poll") / measured, 1)},
        "server_cpu_percent": round(100 * (cpu_after - cpu_before) / measured, 1)
        if cpu_before is not None else None,
        "generator_cpu_percent": round(100 * ((gen_after.user + gen_after.system)
                                              - (gen_before.user + gen_before.system))
                                       / (measured + args.warmup), 1),
        "server_warnings": [line for line in server_log.splitlines()
                            if "WARNING" in line or "ERROR" in line][:20],
        "server_warning_count": sum(1 for line in server_log.splitlines()
                                    if "WARNING" in line or "ERROR" in line),
        "check_304_without_rebuild": check,
    }
    floor = result["floors"][FLOOR]
    move = result["move"]
    poll = result["poll"]
    errors = move["errors"] + poll["errors"] + sum(f["errors"] for f in result["floors"].values())
    errors += len(result["generator_errors"]) + result["new_match"]["errors"]
    polls_304 = poll["statuses"].get("304", 0)
    result["targets"] = {
        "errors": {"value": errors + len(result["table_errors"]), "target": 0,
                   "met": errors + len(result["table_errors"]) == 0},
        "move_p99_ms": {"value": move.get("p99_ms"), "target": TARGET_MOVE_P99_MS,
                        "met": move.get("p99_ms", 1e9) <= TARGET_MOVE_P99_MS},
        "move_p50_over_floor_p50": {
            "value": round(move["p50_ms"] / floor["p50_ms"], 2)
            if move.get("p50_ms") and floor.get("p50_ms") else None,
            "target": TARGET_MOVE_OVER_FLOOR,
            "met": bool(move.get("p50_ms") and floor.get("p50_ms")
                        and move["p50_ms"] <= TARGET_MOVE_OVER_FLOOR * floor["p50_ms"])},
        "unchanged_poll_304_without_rebuild": {"value": check["ok"], "met": check["ok"]},
    }

    table_rows = []
    for label, data in [("move (all taps)", move),
                        *[(f"  {kind}", data) for kind, data in result["move_by_kind"].items()],
                        ("poll (all)", poll),
                        ("  poll answered 200", {**result["poll_200"], "errors": ""}),
                        ("  poll answered 304", {**result["poll_304"], "errors": ""}),
                        *[(f"floor GET {path}", data)
                          for path, data in result["floors"].items()],
                        ("new match (mid-run)", result["new_match"])]:
        table_rows.append([label, data.get("count", 0), data.get("p50_ms", float("nan")),
                           data.get("p95_ms", float("nan")), data.get("p99_ms", float("nan")),
                           data.get("max_ms", float("nan")), data.get("errors", 0)])
    print_table(f"League night: {args.tables} tables × (1 scorer + {args.viewers} viewers), "
                f"a tap or poll every {args.interval:g} s each, {measured:.0f} s measured, "
                f"waitress --threads={args.threads}",
                ["requests", "count", "p50 ms", "p95 ms", "p99 ms", "max ms", "errors"],
                table_rows)
    share = polls_304 / poll["count"] if poll.get("count") else 0
    print(f"\npolls answered 304: {polls_304:,} of {poll.get('count', 0):,} ({share:.0%}); "
          f"an unchanged poll rebuilt {check['rebuilds']} matches and rendered "
          f"{check['templates_rendered']} templates")
    print(f"achieved: {result['achieved_per_s']['moves']} taps/s, "
          f"{result['achieved_per_s']['polls']} polls/s; server CPU "
          f"{result['server_cpu_percent']}% of one core, load generator "
          f"{result['generator_cpu_percent']}%; late ticks {late}; "
          f"server warnings {result['server_warning_count']}")
    for line in result["table_errors"][:5] + result["generator_errors"][:5]:
        print(f"  error: {line}")
    print_table("Targets", ["target", "value", "met"],
                [["0 errors", result["targets"]["errors"]["value"],
                  "yes" if result["targets"]["errors"]["met"] else "NO"],
                 [f"move p99 ≤ {TARGET_MOVE_P99_MS} ms", move.get("p99_ms", float("nan")),
                  "yes" if result["targets"]["move_p99_ms"]["met"] else "NO"],
                 [f"move p50 ≤ {TARGET_MOVE_OVER_FLOOR}× floor p50 (GET {FLOOR})",
                  result["targets"]["move_p50_over_floor_p50"]["value"] or float("nan"),
                  "yes" if result["targets"]["move_p50_over_floor_p50"]["met"] else "NO"],
                 ["unchanged poll → 304, no rebuild", str(check["ok"]),
                  "yes" if check["ok"] else "NO"]])
    write_results(args.name, result)
    return 0


def run_clients(people, floors, args, recorder, rng):
    """Each client ticks every ~interval (±10%) from a random phase, the floor clients every
    ~floor-interval; returns the measured window and how many ticks started late."""
    stop = threading.Event()
    late = Counter()
    begin = time.perf_counter() + 0.2
    recorder.window = (begin + args.warmup, begin + args.warmup + args.seconds)

    def loop(client, interval, phase, jitter):
        next_at = begin + phase
        while not stop.is_set():
            delay = next_at - time.perf_counter()
            if delay > 0 and stop.wait(delay):
                break
            try:
                client.tick()
            except Exception as error:  # a bug in the generator must not pass for a timing
                recorder.add("generator", type(error).__name__, time.perf_counter(), 0, 0,
                             repr(error))
            next_at += interval * jitter.uniform(0.9, 1.1)
            if next_at < time.perf_counter():
                late["late"] += 1
                next_at = time.perf_counter()

    plan = [(c, args.interval) for c in people] + [(c, args.floor_interval) for c in floors]
    threads = [threading.Thread(target=loop, daemon=True,
                                args=(client, interval, rng.uniform(0, interval),
                                      random.Random(rng.random())))
               for client, interval in plan]
    for thread in threads:
        thread.start()
    time.sleep(max(0.0, recorder.window[1] - time.perf_counter()))
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    return recorder.window[0], recorder.window[1], late["late"]


if __name__ == "__main__":
    sys.exit(main())
