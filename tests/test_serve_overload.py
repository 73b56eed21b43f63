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
    waiting = [threading.Thread(target=ask, args=(port, "GET", "/slow")) for _ in range(2)]
    for thread in waiting:
        thread.start()
        time.sleep(0.05)
    response, _text, seconds = ask(port, "GET", "/rules")
    assert response.status == 503 and seconds < SLOW_SECONDS / 2
    for thread in waiting:
        thread.join()
    server.close()
