"""The people at a table: the scorer's phone, the scoreboard viewers, and the floor clients.

Each is ticked by the run (about every 2 s); every request is timed into a Recorder.
"""

import http.client
import json
import random
import re
import secrets
import threading
import time
from collections import Counter, deque
from urllib.parse import urlencode, urlsplit

from simulation import RandomTable

from scorekeeper.rules import Draw, Lay, Match, Pass, Remaining, Start, normal, pips
from scorekeeper.rules.match.record import write_record
from scorekeeper.rules.notation.events import button_value

from .clients import HOST, Reply
from .common import default_table

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


BUSY = "Scorekeeper-Busy"
"""The server turned the request away (503) before the app saw it: send it again later."""


def turned_away(reply) -> float | None:
    """The seconds to wait when a busy server turned this request away, else None."""
    if reply is None or reply.status != 503 or not reply.headers.get(BUSY):
        return None
    return float(reply.headers.get("Retry-After") or 2)


def poll_later(reply) -> float | None:
    """The seconds a poll waits before the next, as app.js makes it: turned away, or answered
    by a server under load that asked for it (Scorekeeper-Poll-After)."""
    asked = reply.headers.get("Scorekeeper-Poll-After") if reply is not None else None
    return turned_away(reply) or (float(asked) if asked else None)


class Resting:
    """A client that waits as long as a busy server asked, and up to half as long again,
    before it asks again (as app.js and table.js do: phones told to wait at the same moment
    must not all come back at the same moment)."""

    resting_until = 0.0

    def resting(self) -> bool:
        return time.monotonic() < self.resting_until

    def rest(self, seconds: float) -> None:
        self.resting_until = time.monotonic() + seconds * random.uniform(1.0, 1.5)


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


class Scorer(Resting):
    """The phone on one table: decides each tap with the simulation and posts it; a tap the
    busy server turned away is sent again after Retry-After, as table.js does."""

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
        if self.resting():
            return
        if self.broken or (not self.pending and self.match.is_over()):
            self.new_match(False, "new match")
            return
        if not self.pending:
            self._plan()
        tap = self.pending.popleft()
        kind, path, fields = tap
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
        wait = turned_away(reply)
        if wait is not None:
            self.pending.appendleft(tap)
            self.rest(wait)
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


class Viewer(Resting):
    """A phone or the TV showing one table's scoreboard, polling like htmx does (and, as
    app.js makes it, not before a busy server's Retry-After)."""

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
        if self.resting():  # a poll the night asks for, not sent: the server asked to wait
            self.recorder.add("poll held back", "resting", time.perf_counter(), 0, 0)
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
        wait = poll_later(reply)
        if wait is not None:
            self.recorder.add("poll slowed", "poll-after", time.perf_counter(), wait, 0)
            self.rest(wait)


class Floor:
    """A client fetching a trivial endpoint of the app, for the floor under the figures."""

    def __init__(self, path: str, client, recorder: Recorder):
        self.path, self.client, self.recorder = path, client, recorder

    def tick(self) -> None:
        timed(self.client, self.recorder, f"floor {self.path}", "floor", "GET", self.path)
