"""Crash safety: the app under waitress is killed with SIGKILL while phones are writing.

Several clients play random matches at once over HTTP, with CSRF on, the way a
browser does: GET a page for the session cookie and token, POST each tap with the
revision it saw. The server is killed mid-flight several times and restarted on
the same database. Every write that was answered with success must still be
there, exactly once; a write whose answer was lost is sent again after the
restart and must then succeed without being stored twice; the database must pass
its integrity check and every match must replay.
"""

import http.client
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from urllib.parse import urlencode

import pytest
import stores
from ports import free_port
from simulation import RandomTable, random_table

from scorekeeper import storage
from scorekeeper.rules import Draw, Lay, Match, Pass, Remaining, Start, move_text, tile_text
from scorekeeper.rules.match.record import load_record, read_record

ROUNDS = 3
CLIENTS = 6
SEED = 20240531

TOKEN = re.compile(r'name="csrf_token"[^>]*? value="([^"]+)"')
POS = re.compile(r'name="pos" value="(\d+)"')
MATCH_PATH = re.compile(r"/match/([^/]+)/([^/?#]+)$")
LOST = (OSError, http.client.HTTPException)


class Server:
    """`python -m waitress ... --call scorekeeper:create_app` on one database (a SQLite
    file or a PostgreSQL URL)."""

    def __init__(self, database: str, log_path: str):
        self.database = database
        self.log_path = log_path
        self.port = 0
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.port = free_port()
        where = "DATABASE_URL" if storage.is_postgresql(self.database) else "DATABASE"
        env = dict(os.environ, **{f"SCOREKEEPER_{where}": self.database},
                   SCOREKEEPER_SECRET_KEY="fixed-secret-for-the-crash-test",
                   SCOREKEEPER_RATELIMIT_ENABLED="false")  # phones here tap flat out
        with open(self.log_path, "a") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "waitress", "--host=127.0.0.1", f"--port={self.port}",
                 "--threads=4", "--call", "scorekeeper:create_app"],
                env=env, stdout=log, stderr=subprocess.STDOUT,
                cwd=os.path.dirname(self.log_path))
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"the server exited ({self.process.returncode}):\n{self.log()}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/")
                if conn.getresponse().status == 200:
                    conn.close()
                    return
                conn.close()
            except LOST:
                pass
            time.sleep(0.05)
        self.kill()
        pytest.fail(f"the server did not answer:\n{self.log()}")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def log(self) -> str:
        with open(self.log_path) as log:
            return log.read()


class Lost(Exception):
    """The connection broke: the server was killed before it answered."""


class OneTileDraws(RandomTable):
    """RandomTable whose draws take one tile, as the Draw button does."""

    def _move(self):
        event = super()._move()
        if isinstance(event, Draw) and event.count > 1:
            hand = self.hands[self.match.turn]
            extra = hand[len(hand) - event.count + 1:]
            del hand[len(hand) - event.count + 1:]
            self.boneyard[:0] = extra
            event = Draw(1)
        return event


class Client:
    """One phone scoring its own matches; it knows the real tiles, so every tap is legal."""

    def __init__(self, number: int, server: Server):
        self.number = number
        self.server = server
        self.rng = random.Random(SEED + number)
        self.cookie: str | None = None
        self.token: str | None = None
        self.matches: dict[str, dict] = {}  # id -> key, entries the client believes stored
        self.current: str | None = None
        self.sim: OneTileDraws | None = None
        self.revision = 0
        self.pending: dict | None = None  # a write sent whose answer was lost
        self.acked: list[tuple[str, int, str, str]] = []  # (match, seq, kind, data)
        self.problems: list[str] = []
        self.lost = 0

    # -- HTTP ---------------------------------------------------------------

    def request(self, method: str, path: str, fields=None, htmx: bool = False):
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=20)
        try:
            headers = {}
            body = None
            if self.cookie:
                headers["Cookie"] = self.cookie
            if fields is not None:
                body = urlencode(fields, doseq=True)
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            if htmx:
                headers["HX-Request"] = "true"
            conn.request(method, path, body, headers)
            response = conn.getresponse()
            text = response.read().decode()
            for cookie in response.headers.get_all("Set-Cookie") or []:
                if cookie.startswith("session="):
                    self.cookie = cookie.split(";", 1)[0]
            return response.status, response.headers, text
        except LOST as error:
            raise Lost(str(error)) from None
        finally:
            conn.close()

    def base(self) -> str:
        return f"/match/{self.current}/{self.matches[self.current]['key']}"

    # -- playing ------------------------------------------------------------

    def run(self, stop: threading.Event) -> None:
        try:
            while not stop.is_set():
                self.step()
        except Lost:
            self.lost += 1
        except Exception as error:  # reported by the test through self.problems
            self.problems.append(f"client {self.number}: {error!r}")

    def step(self) -> None:
        if self.pending is None:
            if self.current is None or self.sim.match.is_over():
                self.new_match()
                return
            self.pending = self.next_write()
        self.send_pending()

    def new_match(self) -> None:
        table = random_table(self.rng)
        count = len(table.players)
        status, _, text = self.request("GET", f"/new?players={count}")
        assert status == 200, status
        self.token = TOKEN.search(text).group(1)
        fields = {"csrf_token": self.token, "count": str(count), "target": str(table.target),
                  "hand_size": str(table.hand_size)}
        for seat, name in enumerate(table.players, 1):
            fields[f"player{seat}"] = name
        if table.partnerships:
            fields["partnerships"] = "y"
        status, headers, text = self.request("POST", "/new", fields)
        if status != 303:
            self.problems.append(f"new match answered {status}: {text[:300]}")
            return
        match_id, key = MATCH_PATH.search(headers["Location"]).groups()
        self.matches[match_id] = {"key": key, "entries": []}
        self.current = match_id
        self.sim = OneTileDraws(Match(table), self.rng)
        self.revision = 0

    def next_write(self) -> dict:
        """The next tap: usually the next event of the random table, sometimes an undo."""
        fields = {"csrf_token": self.token, "pos": str(self.revision)}
        htmx = self.rng.random() < 0.5
        if self.sim.match.log and self.rng.random() < 0.05:  # confirmed, if it asks
            return {"path": "/undo", "fields": dict(fields, confirm="1"), "htmx": htmx,
                    "kind": "undo", "data": "{}", "event": None}
        event = self.sim.step()
        if isinstance(event, Start):
            path, fields["seat"] = "/start", str(event.seat)
        elif isinstance(event, Lay):
            path, fields["move"] = "/lay", move_text(event)
        elif isinstance(event, Draw):
            assert event.count == 1
            path = "/draw"
        elif isinstance(event, Pass):
            path = "/pass"
        else:
            assert isinstance(event, Remaining)
            if any(value == () for _, value in event.held):  # no tiles to tap: the form says 0
                self.sim.match.pop()
                event = self.sim.match.push(Remaining(tuple(
                    (seat, 0 if value == () else value) for seat, value in event.held)))
            path = "/end"
            for seat, value in event.held:
                if isinstance(value, tuple) and value:
                    fields[f"tiles_{seat}"] = [tile_text(tile) for tile in value]
                else:
                    fields[f"pips_{seat}"] = str(value if isinstance(value, int) else 0)
        return {"path": path, "fields": fields, "htmx": htmx, "kind": "event",
                "data": stores.event_json(event), "event": event}

    def send_pending(self) -> None:
        """Send the pending write (again, if its answer was lost) and settle it by the answer."""
        write = self.pending
        status, headers, text = self.request("POST", self.base() + write["path"],
                                             write["fields"], write["htmx"])
        expected = int(write["fields"]["pos"]) + 1
        if status in (200, 303):
            if status == 200:
                shown = POS.search(text)
                assert write["htmx"] and shown, text[:300]
                if int(shown.group(1)) != expected:
                    self.problems.append(f"{write['path']} at {expected - 1} answered revision "
                                         f"{shown.group(1)}")
            else:
                assert headers["Location"].endswith(self.base()), headers["Location"]
            self.pending = None
            if write["kind"] == "undo":
                self.sim.undo()
            self.revision = expected
            self.matches[self.current]["entries"].append((write["kind"], write["data"]))
            self.acked.append((self.current, expected, write["kind"], write["data"]))
            return
        self.pending = None
        self.problems.append(f"{write['path']} {write['fields']} answered {status}: "
                             f"{text[:400]}")
        if write["kind"] == "event":
            self.sim.undo()
        self.matches.pop(self.current, None)  # the client may no longer mirror this match
        self.current = None


def check_database(path: str, clients: list[Client], settled: bool) -> int:
    """Integrity, no half-written move, every acknowledged entry present; returns matches."""
    conn = storage.connect(path)
    try:
        if not storage.is_postgresql(path):  # PostgreSQL checks its foreign keys at each write
            assert [tuple(row) for row in conn.execute("PRAGMA integrity_check")] == [("ok",)]
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        rows = conn.execute("SELECT * FROM matches").fetchall()
        for row in rows:
            seqs = [seq for (seq,) in conn.execute(
                "SELECT seq FROM entries WHERE match_id = ? ORDER BY seq", (row["id"],))]
            assert seqs == list(range(1, row["revision"] + 1)), (row["id"], row["revision"])
            stored = stores.load(conn, row["id"], row["score_key"], scoring=True)
            assert row["summary"] == stores.summary_json(stored.match)
        assert conn.execute("SELECT count(*) FROM entries WHERE match_id NOT IN "
                            "(SELECT id FROM matches)").fetchone()[0] == 0
        for client in clients:
            for match_id, seq, kind, data in client.acked:
                revision = conn.execute("SELECT revision FROM matches WHERE id = ?",
                                        (match_id,)).fetchone()[0]
                assert revision >= seq, f"{match_id} is at {revision}, {seq} was answered"
                found = conn.execute("SELECT kind, data FROM entries WHERE match_id = ? "
                                     "AND seq = ?", (match_id, seq)).fetchone()
                assert found is not None, f"acknowledged entry {seq} of {match_id} is lost"
                assert tuple(found) == (kind, data), (match_id, seq, tuple(found), kind, data)
            if settled:
                for match_id, mine in client.matches.items():
                    stored = conn.execute("SELECT kind, data FROM entries WHERE match_id = ? "
                                          "ORDER BY seq", (match_id,)).fetchall()
                    assert [tuple(entry) for entry in stored] == mine["entries"], match_id
        return len(rows)
    finally:
        conn.close()


def test_killed_server_keeps_every_answered_write(tmp_path, database):
    server = Server(database, str(tmp_path / "server.log"))
    clients = [Client(number, server) for number in range(CLIENTS)]
    pacing = random.Random(SEED)
    server.start()
    try:
        status, _, _ = clients[0].request("POST", "/new", {"count": "2", "player1": "A",
                                                           "player2": "B", "target": "61",
                                                           "hand_size": "7"})
        assert status == 400  # CSRF is on: a form without its token is refused
        for _ in range(ROUNDS):
            stop = threading.Event()
            threads = [threading.Thread(target=client.run, args=(stop,)) for client in clients]
            for thread in threads:
                thread.start()
            time.sleep(pacing.uniform(1.5, 2.5))
            server.kill()  # mid-flight: every client is in a request or about to send one
            stop.set()
            for thread in threads:
                thread.join(timeout=30)
                assert not thread.is_alive()
            for client in clients:
                assert not client.problems, client.problems
            server.start()
            check_database(database, clients, settled=False)

        for client in clients:  # settle the writes whose answers the last kill cut off
            if client.pending is not None:
                client.send_pending()
            assert not client.problems, client.problems
        count = check_database(database, clients, settled=True)

        acked = sum(len(client.acked) for client in clients)
        assert acked >= 100, f"only {acked} writes were answered"
        assert count >= CLIENTS
        conn = storage.connect(database)
        try:
            for row in conn.execute("SELECT id, score_key FROM matches").fetchall():
                status, _, text = clients[0].request(
                    "GET", f"/match/{row['id']}/{row['score_key']}/export")
                assert status == 200
                stored = stores.load(conn, row["id"], row["score_key"], scoring=True)
                assert read_record(load_record(text), pending_pips=True).log == stored.match.log
        finally:
            conn.close()
    finally:
        server.kill()
    assert "Traceback" not in server.log()
