"""Past its capacity the server turns requests away at once (503, Retry-After) instead of
letting them queue for seconds; what it had queued is still answered."""

import http.client
import threading
import time

import pytest
from conftest import create_match, read_pos

from scorekeeper.serve import make_server

SLOW_SECONDS = 1.0
QUICK = {"read": 0.1, "write": 0.1}
"""Bounds for the test: turn away once the oldest queued request has waited 0.1 s."""


def ask(port: int, method: str, path: str, body: str | None = None, **headers):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    began = time.monotonic()
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    text = response.read().decode()
    conn.close()
    return response, text, time.monotonic() - began


def queue_slow(port: int, count: int) -> list[threading.Thread]:
    """`count` slow requests sent a moment apart: the threads are taken and a queue forms."""
    waiting = [threading.Thread(target=ask, args=(port, "GET", "/slow")) for _ in range(count)]
    for thread in waiting:
        thread.start()
        time.sleep(0.05)
    return waiting


@pytest.fixture
def overloaded(app):
    """A server of one thread, that thread busy with a slow request and another one queued
    behind it for longer than the bound: the server is past its capacity."""
    app.add_url_rule("/slow", "slow", lambda: time.sleep(SLOW_SECONDS) or "slow answer")
    url = create_match(app.test_client())
    server = make_server(app, threads=1, shed_after=QUICK)
    threading.Thread(target=server.run, daemon=True).start()
    port = server.effective_port
    answers = []
    waiting = [threading.Thread(target=lambda: answers.append(ask(port, "GET", "/slow")))
               for _ in range(2)]
    for thread in waiting:
        thread.start()
    time.sleep(0.3)
    yield port, url, answers
    for thread in waiting:
        thread.join()
    server.close()


def test_a_page_asked_of_an_overloaded_server_is_turned_away_at_once_in_its_language(
        overloaded):
    port, _url, answers = overloaded
    response, text, seconds = ask(port, "GET", "/rules", **{"Accept-Language": "cs"})
    assert response.status == 503
    assert seconds < SLOW_SECONDS / 2  # not queued behind the slow requests
    assert response.getheader("Retry-After") == "5"
    assert response.getheader("Scorekeeper-Busy") == "1"
    assert "Server je přetížený" in text and "<html" in text
    time.sleep(2 * SLOW_SECONDS + 0.2)
    assert [(r.status, text) for r, text, _ in answers] == [(200, "slow answer")] * 2
    assert ask(port, "GET", "/rules")[0].status == 200  # the queue is gone: served again


def test_a_tap_turned_away_is_not_applied_and_says_when_to_send_it_again(app, overloaded):
    port, url, _answers = overloaded
    pos = read_pos(app.test_client().get(url).text)
    response, text, seconds = ask(port, "POST", url + "/start", f"pos={pos}&seat=0",
                                  **{"HX-Request": "true"})
    assert response.status == 503 and seconds < SLOW_SECONDS / 2
    assert response.getheader("Retry-After") == "2"
    assert "<html" not in text and "Server busy" in text
    assert read_pos(app.test_client().get(url).text) == pos  # nothing stored


def test_a_request_is_turned_away_when_the_queue_ahead_will_take_too_long_before_any_waited(
        app):
    """One thread, one slow request in it, another just queued: at the pace the thread has
    been going (a second a request) the next one would wait a second, so it is not queued."""
    app.add_url_rule("/slow", "slow", lambda: time.sleep(SLOW_SECONDS) or "slow answer")
    server = make_server(app, threads=1, shed_after=QUICK)
    server.service_seconds = SLOW_SECONDS  # the pace measured so far
    threading.Thread(target=server.run, daemon=True).start()
    port = server.effective_port
    waiting = queue_slow(port, 2)
    response, _text, seconds = ask(port, "GET", "/rules")
    assert response.status == 503 and seconds < SLOW_SECONDS / 2
    for thread in waiting:
        thread.join()
    server.close()


def test_under_load_a_read_is_answered_and_told_to_poll_again_later(app):
    """Short of turning requests away, the server answers reads with Scorekeeper-Poll-After:
    the scoreboards slow down first. A tap is answered as ever."""
    app.add_url_rule("/slow", "slow", lambda: time.sleep(SLOW_SECONDS) or "slow answer")
    url = create_match(app.test_client())
    server = make_server(app, threads=1, shed_after={"read": 30, "write": 30},
                         stretch_after=0.1)
    server.service_seconds = 0.5  # the pace so far: a queued request waits half a second
    threading.Thread(target=server.run, daemon=True).start()
    port = server.effective_port
    calm, _text, _seconds = ask(port, "GET", "/rules")
    assert calm.status == 200 and calm.getheader("Scorekeeper-Poll-After") is None
    waiting = queue_slow(port, 2)
    answers = []
    reads = threading.Thread(target=lambda: answers.append(ask(port, "GET", "/rules")))
    reads.start()
    pos = read_pos(app.test_client().get(url).text)
    tapped, _text, _seconds = ask(port, "POST", url + "/start", f"pos={pos}&seat=0",
                                  **{"HX-Request": "true"})
    reads.join()
    for thread in waiting:
        thread.join()
    server.close()
    loaded = answers[0][0]
    assert loaded.status == 200 and loaded.getheader("Scorekeeper-Poll-After") == "5"
    assert tapped.status == 200 and tapped.getheader("Scorekeeper-Poll-After") is None


def test_an_overloaded_server_logs_what_it_turned_away_not_a_line_per_queued_request(
        app, monkeypatch, caplog):
    from scorekeeper import serve

    monkeypatch.setattr(serve, "BUSY_LOG_SECONDS", 0)  # a line for every 503, to count them
    caplog.set_level("WARNING")
    app.add_url_rule("/slow", "slow", lambda: time.sleep(SLOW_SECONDS) or "slow answer")
    server = make_server(app, threads=1, shed_after=QUICK)
    threading.Thread(target=server.run, daemon=True).start()
    port = server.effective_port
    waiting = queue_slow(port, 3)
    time.sleep(0.3)
    statuses = [ask(port, "GET", "/rules")[0].status for _ in range(4)]
    for thread in waiting:
        thread.join()
    server.close()
    said = [record.getMessage() for record in caplog.records]
    assert statuses == [503] * 4
    busy = [line for line in said if line.startswith("Server busy")]
    assert len(busy) == 4
    assert all(line.startswith("Server busy: 1 requests answered 503 in the last") for line in busy)
    assert not [line for line in said if "Task queue depth" in line]
