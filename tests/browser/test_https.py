"""The app served over https, as a club hosts it: a real Chromium creates a match and taps.

A throw-away certificate authority (trustme) signs a certificate for 127.0.0.1; the
server terminates TLS itself. Over https Flask-WTF wants a same-origin Referer, which
the Referrer-Policy must let Chromium send.
"""

import ssl
import threading

import pytest
import trustme
from playwright.sync_api import expect
from werkzeug.serving import make_server

from scorekeeper import create_app

from .pages import Watcher, new_match

pytestmark = pytest.mark.browser


@pytest.fixture
def https_url(tmp_path):
    authority = trustme.CA()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    authority.issue_cert("127.0.0.1").configure_cert(context)
    app = create_app({"DATABASE": str(tmp_path / "tls.sqlite"), "SECRET_KEY": "tls"})
    server = make_server("127.0.0.1", 0, app, threaded=True, ssl_context=context)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"https://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()
    thread.join(5)


def test_over_https_a_phone_creates_a_match_and_taps(chromium, pixel7, https_url):
    context = chromium.new_context(**{**pixel7, "base_url": https_url,
                                      "ignore_https_errors": True})
    context.set_default_timeout(5000)
    try:
        page = context.new_page()
        watcher = Watcher(page)
        # a service worker is never fetched over a self-signed certificate: the page says
        # nothing of it, Chromium's console does (an "unknown" or an "SSL certificate" error)
        watcher.expect("error occurred when fetching the script")
        table = new_match(page, 2)
        expect(table.heading).to_have_text("Hand 1: who holds the highest double?")
        table.start("Ann")
        expect(table.heading).to_have_text("Ann to lead")
        table.lay("2-3")
        expect(table.side_score("Ann")).to_have_text("5")
        cookies = context.cookies()
        assert cookies and all(cookie["secure"] for cookie in cookies)
        assert not watcher.unexpected()
    finally:
        context.close()
