"""Past its capacity the server turns requests away at once (503, Retry-After) instead of
letting them queue for seconds; what it had queued is still answered. The gateway is
driven here as Granian drives it (an RSGI scope and protocol), on one event loop."""

import asyncio
import logging
import threading
import time

import pytest
from conftest import create_match, read_pos

from scorekeeper.server import admission
from scorekeeper.server.admission import Admission
from scorekeeper.server.serve import gateway_for

SLOW_SECONDS = 0.5
QUICK = {"read": 0.1, "write": 0.1}
"""Bounds for the test: turn away once a request would wait 0.1 s for the worker."""


class Headers(dict):
    def items(self):
        return list(super().items())


class Scope:
    """What Granian tells the app of a request."""

    proto, scheme, http_version = "http", "http", "1.1"
    server, client = "127.0.0.1:8080", "127.0.0.2:50000"

    def __init__(self, method: str, path: str, body: bytes = b"", **headers):
        self.method, self.path, self.query_string = method, path, ""
        self.headers = Headers({name.lower().replace("_", "-"): value
                                for name, value in headers.items()})
        self.headers["host"] = self.server
        if body:
            self.headers["content-length"] = str(len(body))
            self.headers["content-type"] = "application/x-www-form-urlencoded"


class Protocol:
    """The connection's side: the body as it arrives, the answer as given."""

    def __init__(self, chunks=(), pause: float = 0.0):
        self.chunks, self.pause = list(chunks), pause
        self.answer = None
        self.read_from = False

    def __aiter__(self):
        self.read_from = True
        return self._arriving()

    async def __call__(self):
        """The whole body, as Granian gives it when its length is announced."""
        self.read_from = True
        return b"".join([chunk async for chunk in self._arriving()])

    async def _arriving(self):
        for chunk in self.chunks:
            await asyncio.sleep(self.pause)
            yield chunk

    def response_bytes(self, status, headers, body):
        self.answer = (status, dict(headers), body.decode())


def run(coroutine):
    """Run on an event loop of its own thread, as Granian's worker runs the gateway (the
    browser tests' Playwright keeps a loop running in the main thread). Requests asked
    together (asyncio.gather) arrive together: each is queued or turned away before the
    worker serves the first, as when Granian hands over several at once."""
    done = []
    thread = threading.Thread(target=lambda: done.append(asyncio.run(coroutine)))
    thread.start()
    thread.join()
    return done[0]


async def ask(gateway, method: str, path: str, body: str = "", **headers):
    """One request through the gateway: (status, headers, text, seconds it took)."""
    protocol = Protocol([body.encode()] if body else [])
    began = time.monotonic()
    await gateway.__rsgi__(Scope(method, path, body.encode(), **headers), protocol)
    return (*protocol.answer, time.monotonic() - began)


@pytest.fixture
def slow_app(app):
    app.add_url_rule("/slow", "slow", lambda: time.sleep(SLOW_SECONDS) or "slow answer")
    return app


def overloaded(gateway, asking):
    """Two slow requests arrive, then what the test asks (`asking(gateway)`), all at once:
    at the pace the worker has been going, the second waits within the bound and what the
    test asks would wait longer, past the server's capacity."""
    gateway.admission.service_seconds = 0.07  # the pace so far: 2 ahead take 0.14 s > 0.1

    async def night():
        *slow, asked = await asyncio.gather(
            ask(gateway, "GET", "/slow"), ask(gateway, "GET", "/slow"), asking(gateway))
        return asked, slow

    return run(night())


def test_a_page_asked_of_an_overloaded_server_is_turned_away_at_once_in_its_language(
        slow_app):
    gateway = gateway_for(slow_app, admission=Admission(shed_after=QUICK))

    async def page(gateway):
        turned_away = await ask(gateway, "GET", "/rules", Accept_Language="cs")
        return turned_away

    (status, headers, text, seconds), slow = overloaded(gateway, page)
    assert status == 503
    assert seconds < SLOW_SECONDS / 2  # not queued behind the slow requests
    assert headers["Retry-After"] == "5" and headers["Scorekeeper-Busy"] == "1"
    assert "Server je přetížený" in text and "<html" in text
    assert [(status, text) for status, _, text, _ in slow] == [(200, "slow answer")] * 2
    assert run(ask(gateway, "GET", "/rules"))[0] == 200  # the queue is gone


def test_a_tap_turned_away_is_not_applied_and_says_when_to_send_it_again(slow_app):
    url = create_match(slow_app.test_client())
    pos = read_pos(slow_app.test_client().get(url).text)
    gateway = gateway_for(slow_app, admission=Admission(shed_after=QUICK, pace=0.07))
    gateway.admission.queued("write")  # two taps ahead, at 0.07 s each: 0.14 s > 0.1
    gateway.admission.queued("write")

    status, headers, text, seconds = run(ask(
        gateway, "POST", url + "/start", f"pos={pos}&seat=0", HX_Request="true"))
    assert status == 503 and seconds < SLOW_SECONDS / 2
    assert headers["Retry-After"] == "2"
    assert "<html" not in text and "Server busy" in text
    assert read_pos(slow_app.test_client().get(url).text) == pos  # nothing stored


def test_a_tap_turned_away_is_answered_from_its_head_its_body_unread(slow_app):
    gateway = gateway_for(slow_app, admission=Admission(shed_after=QUICK, pace=0.07))
    gateway.admission.queued("write")
    gateway.admission.queued("write")
    protocol = Protocol([b"pos=0&seat=0"])
    scope = Scope("POST", "/match/x/y/start", b"pos=0&seat=0", HX_Request="true")
    run(gateway.__rsgi__(scope, protocol))
    assert protocol.answer[0] == 503 and not protocol.read_from


def test_taps_let_in_from_their_heads_together_are_judged_again_with_their_bodies(
        slow_app):
    """Ten taps whose heads arrive together all find the queue empty; once their bodies
    are in, each is judged with the ones let in before it: at 0.05 s a tap and a 0.1 s
    bound, three are queued and the rest turned away (a burst of heads, then of bodies,
    does not slip past the bound)."""
    slow_app.add_url_rule("/slow-tap", "slow_tap", lambda: time.sleep(0.05) or "tapped",
                          methods=["POST"])
    gateway = gateway_for(slow_app, admission=Admission(shed_after=QUICK, pace=0.05))

    async def burst():
        return await asyncio.gather(*(ask(gateway, "POST", "/slow-tap", "n=1")
                                      for _ in range(10)))

    statuses = [status for status, *_ in run(burst())]
    assert statuses.count(200) == 3 and statuses.count(503) == 7


def test_under_load_a_read_is_answered_and_told_to_poll_again_later(slow_app):
    """Short of turning requests away, the server answers reads with Scorekeeper-Poll-After
    once it has been busier than its target: the scoreboards slow down first. A tap is
    answered as ever."""
    url = create_match(slow_app.test_client())
    pos = read_pos(slow_app.test_client().get(url).text)
    gateway = gateway_for(slow_app, admission=Admission(0.2, {"read": 30, "write": 30}))

    async def night():
        calm = await ask(gateway, "GET", "/rules")
        await ask(gateway, "GET", "/slow")  # busy all the while, past STEER_SECONDS
        loaded, tapped = await asyncio.gather(
            ask(gateway, "GET", "/rules"),
            ask(gateway, "POST", url + "/start", f"pos={pos}&seat=0", HX_Request="true"))
        return calm, loaded, tapped

    calm, loaded, tapped = run(night())
    assert calm[0] == 200 and "Scorekeeper-Poll-After" not in calm[1]
    assert loaded[0] == 200 and float(loaded[1]["Scorekeeper-Poll-After"]) >= 0.5
    assert tapped[0] == 200 and "Scorekeeper-Poll-After" not in tapped[1]


def test_an_overloaded_server_logs_what_it_turned_away_not_a_line_per_request(
        slow_app, monkeypatch, caplog):
    monkeypatch.setattr(admission, "BUSY_LOG_SECONDS", 0)  # a line for every 503, to count
    caplog.set_level(logging.WARNING)
    gateway = gateway_for(slow_app, admission=Admission(shed_after=QUICK))

    async def four(gateway):
        return [answer[0] for answer in await asyncio.gather(
            *(ask(gateway, "GET", "/rules") for _ in range(4)))]

    statuses, _slow = overloaded(gateway, four)
    busy = [record.getMessage() for record in caplog.records
            if record.getMessage().startswith("Server busy")]
    assert statuses == [503] * 4
    assert len(busy) == 4
    assert all(line.startswith("Server busy: 1 requests answered 503 in the last")
               for line in busy)


def test_a_body_that_does_not_arrive_in_time_is_answered_408_without_the_app(app):
    gateway = gateway_for(app, request_seconds=0.3)
    trickling = Protocol([b"pos=1", b"&seat=0"], pause=1.0)
    scope = Scope("POST", "/new", b"pos=1&seat=0")
    began = time.monotonic()
    scope.headers["accept-language"] = "cs"
    run(gateway.__rsgi__(scope, trickling))
    assert trickling.answer[0] == 408 and time.monotonic() - began < 0.9
    status, headers, page = trickling.answer
    assert "Nesrozumitelný požadavek" in page and "<html" in page  # the app's, in Czech
    assert headers["Connection"] == "close"  # the rest of the body is not a next request
    assert not any(gateway.admission.waiting.values())  # never queued, and the app not run
    assert gateway.admission.busy_seconds == 0


def test_a_body_announced_over_the_ceiling_is_refused_in_words_before_it_is_read(app):
    gateway = gateway_for(app)
    protocol = Protocol([b"x"])
    scope = Scope("POST", "/import", Accept_Language="cs",
                  **{"Content_Length": str(200 * 1024 * 1024)})
    run(gateway.__rsgi__(scope, protocol))
    status, _headers, page, _seconds = (*protocol.answer, None)
    assert status == 413 and not protocol.read_from
    assert "256 KB" in page and "a match record may be at most" not in page  # Czech


def test_a_chunked_body_growing_over_the_ceiling_is_refused(app):
    gateway = gateway_for(app, body_ceiling=1000)
    protocol = Protocol([b"x" * 600] * 3)
    run(gateway.__rsgi__(Scope("POST", "/import", Transfer_Encoding="chunked",
                               Accept_Language="cs"), protocol))
    status, headers, page = protocol.answer
    assert status == 413 and "Soubor je příliš velký" in page  # the app's page, in Czech
    assert headers["Connection"] == "close"


def test_the_app_sees_the_request_as_any_wsgi_server_would_give_it():
    seen = {}

    def echo(environ, start_response):
        seen.update(environ, body=environ["wsgi.input"].read())
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    from scorekeeper.server.gateway import Gateway

    gateway = Gateway(echo, pages=None)
    scope = Scope("POST", "/bé", b"a=1", X_Seen="1", Cookie="a=1")  # decoded, as UTF-8
    scope.headers["x_forwarded_for"] = "6.6.6.6"  # an underscore: not a proxy's header
    scope.query_string = "q=%20a"
    protocol = Protocol([b"a=1"])
    run(gateway.__rsgi__(scope, protocol))
    assert protocol.answer[:1] == (200,)
    assert seen["PATH_INFO"].encode("latin-1").decode() == "/bé"
    assert (seen["QUERY_STRING"], seen["body"], seen["CONTENT_LENGTH"]) == ("q=%20a", b"a=1", "3")
    assert (seen["REMOTE_ADDR"], seen["SERVER_NAME"], seen["SERVER_PORT"]) == (
        "127.0.0.2", "127.0.0.1", "8080")
    assert seen["HTTP_X_SEEN"] == "1" and seen["HTTP_COOKIE"] == "a=1"
    assert "HTTP_X_FORWARDED_FOR" not in seen


def test_the_worker_serves_the_taps_waiting_before_the_reads():
    """A scorer waits for the tap; a scoreboard's poll can wait behind it."""
    from scorekeeper.server.gateway import Gateway

    served = []

    def recording(environ, start_response):
        served.append(f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']}")
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    gateway = Gateway(recording, pages=None)

    async def arriving_together():
        return await asyncio.gather(ask(gateway, "GET", "/board/a"),
                                    ask(gateway, "GET", "/board/b"),
                                    ask(gateway, "POST", "/match/m/draw"))

    answers = run(arriving_together())
    assert [status for status, *_ in answers] == [200, 200, 200]
    assert served == ["POST /match/m/draw", "GET /board/a", "GET /board/b"]


def test_a_read_waits_behind_the_taps_only_so_long():
    clock = Clock()
    gate = Admission(clock=clock)
    gate.queued("read")
    gate.queued("write")
    assert gate.next_kind() == "write"
    clock.now += admission.READ_PATIENCE
    assert gate.next_kind() == "read"  # the oldest read has waited long enough
    gate.started("read")
    assert gate.next_kind() == "write"
    gate.started("write")
    assert gate.next_kind() == "read"  # nothing waiting: either will do


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_a_request_is_turned_away_when_the_oldest_waiting_has_waited_too_long():
    """At a pace that promised no wait, a slow request still holds the worker: the one
    behind it has waited past the bound, so the next is turned away."""
    clock = Clock()
    gate = Admission(shed_after=QUICK, pace=0.001, clock=clock)
    gate.queued("read")
    assert gate.verdict("GET") == admission.SERVE
    clock.now += 0.2
    assert gate.verdict("GET").retry_after == admission.RETRY_AFTER["read"]


def test_the_scoreboards_slow_down_and_speed_up_by_degrees_with_the_load():
    """Above its target share of time spent serving, the worker adds to the poll-again time
    in proportion; below it, it takes off: no switch that sends every board back at once."""
    clock = Clock()
    gate = Admission(0.5, clock=clock)

    def busy(share: float) -> float | None:
        clock.now += admission.STEER_SECONDS
        gate.finished(share * admission.STEER_SECONDS)
        return gate.verdict("GET").poll_after

    assert busy(0.5) is None  # on target
    told = [busy(1.0) for _ in range(4)]  # twice the target: +2 s a step
    assert told == [2.0, 4.0, 6.0, 8.0]
    assert gate.verdict("POST").poll_after is None  # a tap is answered as ever
    assert busy(0.75) == 9.0  # half over: +1 s
    easing = [busy(0.25) for _ in range(4)]  # half under: -1 s a step
    assert easing == [8.0, 7.0, 6.0, 5.0]
    for _ in range(10):
        busy(0.0)
    assert busy(0.0) is None and gate.poll_after == 0.0  # calm again, never below nothing
    for _ in range(100):
        busy(1.0)
    assert busy(1.0) == admission.SLOWEST_POLL


def test_an_app_that_fails_before_it_can_answer_gets_the_servers_own_500_page(app, caplog):
    """Not Granian's empty 500: the error page, in the reader's language, and one log entry."""
    def broken(environ, start_response):
        raise RuntimeError("failed before the app's own error handling")

    gateway = gateway_for(app)
    app.wsgi_app = broken
    with caplog.at_level(logging.ERROR, logger="scorekeeper.serve"):
        status, headers, text, _seconds = run(ask(gateway, "GET", "/rules",
                                                  Accept_Language="el"))
    assert status == 500 and "<html" in text and "Κάτι πήγε στραβά" in text
    assert "failed before it could answer a GET" in caplog.text
