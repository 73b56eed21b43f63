"""docs/DEPLOY.md's nginx and Caddy configurations, as Debian ships those servers: each is
read from the document, loaded, and put in front of `scorekeeper serve` on a port other
than 443, where a real Chromium creates a match and taps. Their access logs keep no key
of a link, and neither proxy tells its version.

Without nginx or Caddy these tests are skipped here, in one line; under CI=true they
fail (.ci/run installs Debian's packages).
"""

import http.client
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

import pytest
import trustme
from playwright.sync_api import expect
from ports import free_port

from .conftest import under_ci
from .pages import Watcher, new_match

pytestmark = pytest.mark.browser
DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "DEPLOY.md"


def documented(language: str) -> str:
    """The configuration docs/DEPLOY.md gives for `language` (its one fenced block)."""
    blocks = re.findall(rf"```{language}\n(.*?)```", DEPLOY.read_text(), re.S)
    assert len(blocks) == 1, f"DEPLOY.md should give one {language} block"
    return blocks[0]


def binary(name: str) -> str:
    found = shutil.which(name) or next(
        (path for path in (f"/usr/sbin/{name}", f"/usr/bin/{name}") if os.access(path, os.X_OK)),
        None)
    if found is None:
        hint = f"{name} not found: apt-get install -y {name} (Debian's, as CI has it)"
        if under_ci():
            pytest.fail(hint + " (CI=true: the proxy tests must run)")
        pytest.skip(hint)
    return found


def wait_for(port: int, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                said = log.read_text() if log.exists() else "did not start"
                raise AssertionError(said) from None
            time.sleep(0.1)


@pytest.fixture
def app_port(tmp_path):
    """`scorekeeper serve` on the machine itself, told that one proxy stands in front."""
    port = free_port()
    env = dict(os.environ, SCOREKEEPER_DATABASE=str(tmp_path / "proxied.sqlite"),
               SCOREKEEPER_SECRET_KEY="proxied", SCOREKEEPER_PROXIES="1")
    log = tmp_path / "app.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--workers", "1"], env=env, stdout=out, stderr=out)
    try:
        wait_for(port, process, log)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.fixture
def certificate(tmp_path) -> tuple[str, str]:
    """A throw-away authority's certificate for localhost: (certificate, key) files."""
    issued = trustme.CA().issue_cert("localhost")
    cert, key = tmp_path / "fullchain.pem", tmp_path / "privkey.pem"
    issued.private_key_pem.write_to_path(str(key))
    with cert.open("wb") as out:
        for blob in issued.cert_chain_pems:
            out.write(blob.bytes())
    return str(cert), str(key)


class Proxy:
    """A proxy running the documented configuration: its https port and its access log."""

    def __init__(self, port: int, access_log: Path):
        self.port, self.access_log = port, access_log
        self.url = f"https://localhost:{port}"


def nginx_conf(tmp_path: Path, app: int, port: int, plain: int, cert: str, key: str) -> str:
    """The documented server blocks inside a minimal nginx.conf of the test's own."""
    block = documented("nginx")
    for old, new in [("127.0.0.1:8080", f"127.0.0.1:{app}"),
                     ("listen 443 ssl http2;", f"listen 127.0.0.1:{port} ssl http2;"),
                     ("listen 80;", f"listen 127.0.0.1:{plain};"),
                     ("/etc/letsencrypt/live/scores.example.org/fullchain.pem", cert),
                     ("/etc/letsencrypt/live/scores.example.org/privkey.pem", key),
                     ("/var/log/nginx/scorekeeper.log", str(tmp_path / "access.log")),
                     ("scores.example.org", "localhost")]:
        assert old in block, old
        block = block.replace(old, new)
    temp = " ".join(f"{kind}_temp_path {tmp_path / kind};"
                    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (f"pid {tmp_path / 'nginx.pid'}; error_log {tmp_path / 'error.log'};\n"
            f"{'user root;' if os.geteuid() == 0 else ''}\n"
            f"events {{}}\nhttp {{\n{temp}\n{block}\n}}\n")


@pytest.fixture
def nginx(tmp_path, app_port, certificate):
    server = binary("nginx")
    port, plain = free_port(), free_port()
    conf = tmp_path / "nginx.conf"
    conf.write_text(nginx_conf(tmp_path, app_port, port, plain, *certificate))
    checked = subprocess.run([server, "-t", "-p", str(tmp_path), "-c", str(conf),
                              "-e", str(tmp_path / "error.log")],
                             capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr  # e.g. 'unknown directive "http2"'
    process = subprocess.Popen([server, "-p", str(tmp_path), "-c", str(conf),
                                "-e", str(tmp_path / "error.log"), "-g", "daemon off;"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(port, process, tmp_path / "error.log")
        yield Proxy(port, tmp_path / "access.log")
    finally:
        process.terminate()
        process.wait(timeout=20)


def caddyfile(tmp_path: Path, app: int, port: int, cert: str, key: str) -> str:
    """The documented Caddyfile, on a port of the test's, with the test's certificate and
    neither an admin endpoint nor a redirect listener on port 80."""
    block = documented("caddy")
    for old, new in [("127.0.0.1:8080", f"127.0.0.1:{app}"),
                     ("scores.example.org {", f"localhost:{port} {{\n    tls {cert} {key}"),
                     ("/var/log/caddy/scorekeeper.log", str(tmp_path / "access.log")),
                     ("{\n    servers {", "{\n    admin off\n    auto_https disable_redirects"
                                         "\n    servers {")]:
        assert old in block, old
        block = block.replace(old, new)
    return block


@pytest.fixture
def caddy(tmp_path, app_port, certificate):
    server = binary("caddy")
    port = free_port()
    conf = tmp_path / "Caddyfile"
    conf.write_text(caddyfile(tmp_path, app_port, port, *certificate))
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), HOME=str(tmp_path))
    checked = subprocess.run([server, "validate", "--config", str(conf), "--adapter",
                              "caddyfile"], capture_output=True, text=True, env=env,
                             timeout=60)
    assert checked.returncode == 0, checked.stderr
    log = tmp_path / "caddy.log"
    with log.open("w") as out:
        process = subprocess.Popen([server, "run", "--config", str(conf), "--adapter",
                                    "caddyfile"], env=env, stdout=out, stderr=out)
    try:
        wait_for(port, process, log)
        yield Proxy(port, tmp_path / "access.log")
    finally:
        process.terminate()
        process.wait(timeout=20)


def browser_writes_through(chromium, pixel7, proxy: Proxy) -> list[str]:
    """A phone creates a match and taps through the proxy; the keys of its two links."""
    context = chromium.new_context(**{**pixel7, "base_url": proxy.url,
                                      "ignore_https_errors": True})
    context.set_default_timeout(10000)
    try:
        page = context.new_page()
        watcher = Watcher(page)
        watcher.expect("error occurred when fetching the script")  # self-signed: no worker
        table = new_match(page, 2)
        expect(table.heading).to_have_text("Hand 1: who holds the highest double?")
        table.start("Ann")
        expect(table.heading).to_have_text("Ann to lead")  # a write, not "Form expired"
        table.lay("2-3")
        expect(table.side_score("Ann")).to_have_text("5")
        scoring = table.url.rstrip("/").rsplit("/", 1)[-1]
        board = page.locator("a.board-link").get_attribute("href")
        page.goto(board)
        expect(page.locator(".turn")).to_have_text("Bob to play")
        assert all(cookie["secure"] for cookie in context.cookies())
        assert not watcher.unexpected()
        return [scoring, board.rstrip("/").rsplit("/", 1)[-1]]
    finally:
        context.close()


def served_by(proxy: Proxy, path: str) -> http.client.HTTPResponse:
    trusting = ssl.create_default_context()
    trusting.check_hostname, trusting.verify_mode = False, ssl.CERT_NONE  # the test's own CA
    conn = http.client.HTTPSConnection("localhost", proxy.port, timeout=10, context=trusting)
    conn.request("GET", path)
    answer = conn.getresponse()
    answer.read()
    conn.close()
    return answer


def assert_keeps_no_key(access_log: Path, keys: list[str]) -> None:
    """Once the last request (a league's QR code) is logged: Caddy writes a moment later."""
    deadline = time.monotonic() + 5
    while "/league/" not in (logged := access_log.read_text() if access_log.exists() else ""):
        assert time.monotonic() < deadline, "nothing logged"
        time.sleep(0.1)
    assert "<key>" in logged
    for key in keys:
        assert key not in logged


@pytest.mark.parametrize("proxy", ["nginx", "caddy"])
def test_a_phone_scores_through_the_documented_proxy_on_a_port_other_than_443(
        request, chromium, pixel7, proxy):
    """The keys of the links the phone used are in no line of the log: not in a path, a
    redirect's Location (`POST /new`), a header; nor is a league's QR query, which
    carries the start of its public key."""
    running = request.getfixturevalue(proxy)
    keys = browser_writes_through(chromium, pixel7, running)
    served_by(running, "/league/1/PublicKeyOfALeague/qr.svg?v=PublicKe")
    assert_keeps_no_key(running.access_log, [*keys, "PublicKe"])
    answer = served_by(running, "/rules")
    assert answer.status == 200 and answer.getheader("Strict-Transport-Security")
    servers = answer.headers.get_all("Server")
    assert len(servers) == 1 and not re.search(r"\d", servers[0]), servers


def test_nginx_tells_no_version_on_its_own_pages_either(nginx):
    answer = served_by(nginx, "/" + "x" * 9000)  # a request line nginx refuses itself
    assert answer.getheader("Server") == "nginx"
    assert answer.status >= 400
