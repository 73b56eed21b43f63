"""Real-browser fixtures: the app served on 127.0.0.1, one Chromium per session, phones.

Every phone is a fresh browser context emulating a Pixel 7 (412 px wide, touch).
Each page it opens records console errors, uncaught exceptions and
Content-Security-Policy violations; a test fails at teardown if any were seen
that it did not expect.
"""

import logging
import os
import shutil
import threading
from pathlib import Path

import pytest
import stores
from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.rules import Match
from scorekeeper.storage import connect

from .pages import Watcher

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
INSTALL_HINT = "Chromium not found: install it with `apt-get install -y chromium`"


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives a real Chromium (Playwright)")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Without Chromium, every browser test is skipped for one reason: say it once."""
    report = yield
    if (report.skipped and isinstance(report.longrepr, tuple)
            and str(report.longrepr[2]).endswith(INSTALL_HINT)):
        report.longrepr = (str(Path(__file__).parent), None, report.longrepr[2])
    return report


def find_chromium() -> str | None:
    """Debian's Chromium (Playwright's own browser download cannot work here), or the
    browser named by SCOREKEEPER_CHROMIUM."""
    named = os.environ.get("SCOREKEEPER_CHROMIUM")
    for path in [named] if named else [shutil.which("chromium"), "/usr/bin/chromium"]:
        if path and os.access(path, os.X_OK):
            return path
    return None


def under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


class LiveServer:
    """The real app (CSRF on) on a free port, served by werkzeug in a thread."""

    def __init__(self, database: str):
        self.app = create_app({"DATABASE": database, "SECRET_KEY": "x", "POLL_SECONDS": 1})
        self._server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *_exc):
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)

    def entries(self, match_id: str) -> list:
        """The stored entries of a match (kind, data), in order."""
        conn = connect(self.app.config["DATABASE"])
        try:
            return conn.execute("SELECT kind, data FROM entries WHERE match_id = ? "
                                "ORDER BY seq", (match_id,)).fetchall()
        finally:
            conn.close()

    def enter(self, links: dict, event) -> None:
        """Another phone enters `event` on a stored match (straight into the store)."""
        match_id, key = links["table"].rsplit("/", 2)[-2:]
        conn = connect(self.app.config["DATABASE"])
        try:
            now = stores.load(conn, match_id, key)
            stores.write(conn, now, now.revision, event)
        finally:
            conn.close()

    def store_match(self, match: Match) -> dict:
        """Store a match built with the rules engine; returns its three addresses."""
        conn = connect(self.app.config["DATABASE"])
        try:
            stored = stores.create(conn, match)
        finally:
            conn.close()
        table = f"{self.url}/match/{stored.id}/{stored.score_key}"
        return {"table": table, "sheet": f"{table}/sheet",
                "board": f"{self.url}/board/{stored.id}/{stored.view_key}"}


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    database = tmp_path_factory.mktemp("instance") / "scorekeeper.sqlite"
    with LiveServer(str(database)) as live:
        yield live


@pytest.fixture(scope="session")
def playwright_session():
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def chromium(playwright_session):
    """One browser for the whole session; a missing Chromium skips, except under CI."""
    path = find_chromium()
    if path is None:
        if under_ci():
            pytest.fail(INSTALL_HINT + " (CI=true: the browser tests must run)")
        pytest.skip(INSTALL_HINT)
    browser = playwright_session.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def pixel7(playwright_session) -> dict:
    device = dict(playwright_session.devices["Pixel 7"])
    device.pop("default_browser_type", None)
    return device


@pytest.fixture
def open_phone(chromium, pixel7, server):
    """open_phone(engine=False, **context_options) -> a page on a new phone (Pixel 7 unless
    overridden), with the offline table (WebAssembly) only if `engine`.

    The page carries `.watcher`: call `page.watcher.expect("409")` before a step
    that makes the browser log an error on purpose.
    """
    contexts, watchers = [], []

    def open_(engine: bool = False, **options):
        context = chromium.new_context(**{**pixel7, "base_url": server.url, **options})
        if not engine:  # a phone with no WebAssembly: the table page loads no offline table
            # (tests/browser/test_offline.py asks for it: its start takes seconds of CPU)
            context.add_init_script("delete globalThis.WebAssembly")
        context.set_default_timeout(5000)
        contexts.append(context)
        page = context.new_page()
        page.watcher = Watcher(page)
        page.javascript = options.get("java_script_enabled", True)
        watchers.append(page.watcher)
        return page

    yield open_
    for context in contexts:
        context.close()
    problems = [problem for watcher in watchers for problem in watcher.unexpected()]
    assert not problems, "the browser reported errors:\n" + "\n".join(problems)


@pytest.fixture
def mobile(open_phone):
    """A page on one Pixel 7, JavaScript on, light colours."""
    return open_phone()


@pytest.fixture
def routed(open_phone):
    """A Pixel 7 whose requests a test may answer itself (page.route): without the service
    worker, which would otherwise take over the page mid-test and send them past the route."""
    return open_phone(service_workers="block")
