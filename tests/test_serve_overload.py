"""Past its capacity the server turns requests away at once (503, Retry-After) instead of
letting them queue for seconds; what it had queued is still answered. The gateway is
driven here as Granian drives it (an RSGI scope and protocol), on one event loop."""

import asyncio
import logging
import threading
import time

import pytest
from conftest import create_match, read_pos

from scorekeeper import admission
from scorekeeper.admission import Admission
from scorekeeper.serve import gateway_for

SLOW_SECONDS = 1.0
QUICK = {"read": 0.1, "write": 0.1}
"""Bounds for the test: turn away once a request would wait 0.1 s for the thread."""


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

    async def _arriving(self):
        for chunk in self.chunks:
            await asyncio.sleep(self.pause)
            yield chunk

    def response_bytes(self, status, headers, body):
        self.answer = (status, dict(headers), body.decode())


def run(coroutine):
    """Run on an event loop of its own thread, as Granian's worker runs the gateway (the
    browser tests' Playwright keeps a loop running in the main thread)."""
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
    """The gateway's one thread busy with a slow request and another queued behind it for
    longer than the bound: past its capacity. `asking(gateway)` asks what the test asks."""

    async def night():
        slow = [asyncio.create_task(ask(gateway, "GET", "/slow")) for _ in range(2)]
        await asyncio.sleep(0.3)
        asked = await asking(gateway)
        return asked, await asyncio.gather(*slow)

    return run(night())


def test_a_page_asked_of_an_overloaded_server_is_turned_away_at_once_in_its_language(
        slow_app):
    gateway = gateway_for(slow_app, 1, admission=Admission(1, QUICK))

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
    gateway = gateway_for(slow_app, 1, admission=Admission(1, QUICK))

    async def tap(gateway):
        return await ask(gateway, "POST", url + "/start", f"pos={pos}&seat=0",
                         HX_Request="true")

    (status, headers, text, seconds), _slow = overloaded(gateway, tap)
    assert status == 503 and seconds < SLOW_SECONDS / 2
    assert headers["Retry-After"] == "2"
    assert "<html" not in text and "Server busy" in text
    assert read_pos(slow_app.test_client().get(url).text) == pos  # nothing stored


def test_a_request_is_turned_away_when_the_queue_ahead_will_take_too_long_before_any_waited(
        slow_app):
    """One thread, one slow request in it, another just queued: at the pace the thread has
    been going (a second a request) the next one would wait a second, so it is not queued."""
    gateway = gateway_for(slow_app, 1, admission=Admission(1, QUICK))
    gateway.admission.service_seconds = SLOW_SECONDS  # the pace measured so far

    async def night():
        slow = [asyncio.create_task(ask(gateway, "GET", "/slow")) for _ in range(2)]
        await asyncio.sleep(0.02)  # both arrived: one runs, one has just queued
        asked = await ask(gateway, "GET", "/rules")
        await asyncio.gather(*slow)
        return asked

    status, _headers, _text, seconds = run(night())
    assert status == 503 and seconds < SLOW_SECONDS / 2


def test_under_load_a_read_is_answered_and_told_to_poll_again_later(slow_app):
    """Short of turning requests away, the server answers reads with Scorekeeper-Poll-After:
    the scoreboards slow down first. A tap is answered as ever."""
    url = create_match(slow_app.test_client())
    pos = read_pos(slow_app.test_client().get(url).text)
    gateway = gateway_for(slow_app, 1, admission=Admission(
        1, {"read": 30, "write": 30}, stretch_after=0.1))
    gateway.admission.service_seconds = 0.5  # the pace so far: a queued request waits 0.5 s

    async def night():
        calm = await ask(gateway, "GET", "/rules")
        slow = [asyncio.create_task(ask(gateway, "GET", "/slow")) for _ in range(2)]
        await asyncio.sleep(0.05)
        loaded, tapped = await asyncio.gather(
            ask(gateway, "GET", "/rules"),
            ask(gateway, "POST", url + "/start", f"pos={pos}&seat=0", HX_Request="true"))
        await asyncio.gather(*slow)
        return calm, loaded, tapped

    calm, loaded, tapped = run(night())
    assert calm[0] == 200 and "Scorekeeper-Poll-After" not in calm[1]
    assert loaded[0] == 200 and loaded[1]["Scorekeeper-Poll-After"] == "5"
    assert tapped[0] == 200 and "Scorekeeper-Poll-After" not in tapped[1]


def test_an_overloaded_server_logs_what_it_turned_away_not_a_line_per_request(
        slow_app, monkeypatch, caplog):
    monkeypatch.setattr(admission, "BUSY_LOG_SECONDS", 0)  # a line for every 503, to count
    caplog.set_level(logging.WARNING)
    gateway = gateway_for(slow_app, 1, admission=Admission(1, QUICK))

    async def four(gateway):
        return [(await ask(gateway, "GET", "/rules"))[0] for _ in range(4)]

    statuses, _slow = overloaded(gateway, four)
    busy = [record.getMessage() for record in caplog.records
            if record.getMessage().startswith("Server busy")]
    assert statuses == [503] * 4
    assert len(busy) == 4
    assert all(line.startswith("Server busy: 1 requests answered 503 in the last")
               for line in busy)


def test_a_body_that_does_not_arrive_in_time_is_answered_408_without_a_thread(app):
    gateway = gateway_for(app, 1, request_seconds=0.3)
    trickling = Protocol([b"pos=1", b"&seat=0"], pause=1.0)
    scope = Scope("POST", "/new", b"pos=1&seat=0")
    began = time.monotonic()
    run(gateway.__rsgi__(scope, trickling))
    assert trickling.answer[0] == 408 and time.monotonic() - began < 0.9
    assert not gateway.admission.waiting and gateway.admission.service_seconds == 0  # no thread


def test_a_body_announced_over_the_ceiling_is_refused_in_words_before_it_is_read(app):
    gateway = gateway_for(app, 1)
    protocol = Protocol([b"x"])
    scope = Scope("POST", "/import", Accept_Language="cs",
                  **{"Content_Length": str(200 * 1024 * 1024)})
    run(gateway.__rsgi__(scope, protocol))
    status, _headers, page, _seconds = (*protocol.answer, None)
    assert status == 413 and not protocol.read_from
    assert "256 KB" in page and "a match record may be at most" not in page  # Czech


def test_a_chunked_body_growing_over_the_ceiling_is_refused(app):
    gateway = gateway_for(app, 1, body_ceiling=1000)
    protocol = Protocol([b"x" * 600] * 3)
    run(gateway.__rsgi__(Scope("POST", "/import", Transfer_Encoding="chunked"),
                                 protocol))
    assert protocol.answer[0] == 413


def test_the_app_sees_the_request_as_any_wsgi_server_would_give_it():
    seen = {}

    def echo(environ, start_response):
        seen.update(environ, body=environ["wsgi.input"].read())
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    from scorekeeper.gateway import Gateway

    gateway = Gateway(echo, busy=None, threads=1)
    scope = Scope("POST", "/b\xc3\xa9", b"a=1", X_Seen="1", Cookie="a=1")
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


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_the_scoreboards_are_told_to_poll_less_until_the_load_has_been_gone_a_while():
    """Slowed down at once, they would ease the load, speed up at once and bring it back."""
    clock = Clock()
    gate = Admission(1, {"read": 30, "write": 30}, stretch_after=0.05, clock=clock)
    gate.service_seconds = 0.1
    assert gate.verdict("GET").poll_after is None  # calm
    gate.queued()  # one waits for the busy thread: 0.1 s at its pace
    assert gate.verdict("GET").poll_after == 5
    assert gate.verdict("POST").poll_after is None  # a tap is answered as ever
    gate.started()  # the queue is gone
    assert not gate.waiting
    clock.now += admission.STRETCH_HOLD - 1
    assert gate.verdict("GET").poll_after == 5  # still told, for a while
    clock.now += 2
    assert gate.verdict("GET").poll_after is None
