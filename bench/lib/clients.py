"""Transports with one interface: a browser's keep-alive connection, or Flask's test client."""

import gzip
import http.client
import itertools
from http.cookies import SimpleCookie

HOST = "127.0.0.1"


def unpacked(body: bytes, encoding: str | None) -> bytes:
    """A body as the browser reads it, whichever encoding it came in."""
    if encoding == "br":
        import brotli

        return brotli.decompress(body)
    if encoding == "gzip":
        return gzip.decompress(body)
    return body


_PHONES = itertools.count()


def phone_address(number: int) -> str:
    """A loopback address of its own for phone `number` (Linux answers all of 127/8)."""
    return f"127.1.{number // 250}.{number % 250 + 1}"


class Reply:
    """An answer; `body` as the page reads it, `wire` its length as sent (compressed)."""

    __slots__ = ("status", "headers", "body", "wire")

    def __init__(self, status: int, headers, body: bytes, wire: int | None = None):
        self.status, self.headers, self.body = status, headers, body
        self.wire = len(body) if wire is None else wire

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class HttpClient:
    """One browser: one kept-alive connection and its cookie jar."""

    def __init__(self, port: int, timeout: float, source: str | None = None):
        self.port = port
        self.timeout = timeout
        # each browser is a phone with its own address, as on a pub's Wi-Fi
        self.source = source or phone_address(next(_PHONES))
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
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout,
                                                       source_address=(self.source, 0))
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
    """The same interface over Flask's test client, for profiling in-process; with
    `accept_encoding` it asks for compressed answers as a browser does and unpacks them."""

    def __init__(self, app, accept_encoding: str | None = None):
        self.client = app.test_client()
        self.retries = 0
        self.accept = {"Accept-Encoding": accept_encoding} if accept_encoding else {}

    def request(self, method, path, body=None, headers=None) -> Reply:
        response = self.client.open(path, method=method, data=body,
                                    headers={**self.accept, **(headers or {})})
        sent = response.get_data()
        return Reply(response.status_code, response.headers,
                     unpacked(sent, response.headers.get("Content-Encoding")), len(sent))

    def close(self) -> None:
        pass
