"""Transports with one interface: a browser's keep-alive connection, or Flask's test client."""

import gzip
import itertools
import socket
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


class Headers(dict):
    """An answer's headers by lower-case name (a repeated one keeps its last value, and all
    of them under get_all)."""

    def __init__(self):
        super().__init__()
        self.repeated: dict[str, list[str]] = {}

    def add(self, name: str, value: str) -> None:
        name = name.lower()
        self[name] = value
        self.repeated.setdefault(name, []).append(value)

    def get(self, name: str, default=None):
        return super().get(name.lower(), default)

    def __getitem__(self, name: str) -> str:
        return super().__getitem__(name.lower())

    def get_all(self, name: str) -> list[str]:
        return self.repeated.get(name.lower(), [])


class ClosedWhileIdle(ConnectionError):
    """The server closed a kept-alive connection before this request's answer began."""


class HttpClient:
    """One browser: one kept-alive connection and its cookie jar, asking for gzip as a
    browser on plain http does.

    HTTP/1.1 over a plain socket rather than http.client (whose header parsing costs more
    than the server's answer to a poll): at 800 tables the load generator must stay light.
    """

    ACCEPT = b"Accept-Encoding: gzip, deflate\r\n"

    def __init__(self, port: int, timeout: float, source: str | None = None):
        self.port = port
        self.timeout = timeout
        # each browser is a phone with its own address, as on a pub's Wi-Fi
        self.source = source or phone_address(next(_PHONES))
        self.sock: socket.socket | None = None
        self.buffer = b""
        self.cookies: dict[str, str] = {}
        self.reused = False
        self.retries = 0

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock, self.buffer = None, b""

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict | None = None) -> Reply:
        lines = [f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"]
        lines += [f"{name}: {value}\r\n" for name, value in (headers or {}).items()]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items())
                         + "\r\n")
        if body is not None:
            lines.append(f"Content-Length: {len(body)}\r\n")
        message = "".join(lines).encode("latin-1") + self.ACCEPT + b"\r\n" + (body or b"")
        for attempt in (0, 1):
            if self.sock is None:
                self.sock = socket.create_connection((HOST, self.port), self.timeout,
                                                     source_address=(self.source, 0))
                self.reused = False
            try:
                self.answered = bool(self.buffer)
                self.sock.sendall(message)
                reply, closing = self._answer(method)
            except (ClosedWhileIdle, BrokenPipeError):
                # A kept-alive connection the server closed while idle: a browser retries
                # once on a new one. A fresh connection failing is an error.
                was_reused = self.reused
                self.close()
                if attempt == 0 and was_reused:
                    self.retries += 1
                    continue
                raise ConnectionResetError("the server closed the connection") from None
            except BaseException:
                self.close()
                raise
            self.reused = True
            self._keep_cookies(reply.headers)
            if closing:
                self.close()
            return reply
        raise AssertionError("unreachable")

    def _answer(self, method: str) -> tuple[Reply, bool]:
        head = self._until(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split(" ", 2)[1])
        headers = Headers()
        for line in header_lines:
            name, _, value = line.partition(":")
            headers.add(name, value.strip())
        if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            sent = b""
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            sent = self._chunked()
        elif "content-length" in headers:
            sent = self._exactly(int(headers["content-length"]))
        else:
            sent = self._until_closed()
        closing = headers.get("connection", "").lower() == "close"
        encoding = headers.get("content-encoding")
        return Reply(status, headers, unpacked(sent, encoding), len(sent)), closing

    def _fill(self) -> None:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionResetError if self.answered else ClosedWhileIdle
        self.answered = True
        self.buffer += data

    def _until(self, mark: bytes) -> bytes:
        while (end := self.buffer.find(mark)) < 0:
            self._fill()
        found, self.buffer = self.buffer[:end], self.buffer[end + len(mark):]
        return found

    def _exactly(self, size: int) -> bytes:
        while len(self.buffer) < size:
            self._fill()
        found, self.buffer = self.buffer[:size], self.buffer[size:]
        return found

    def _chunked(self) -> bytes:
        parts = []
        while (size := int(self._until(b"\r\n").split(b";")[0], 16)):
            parts.append(self._exactly(size))
            self._until(b"\r\n")
        self._until(b"\r\n")
        return b"".join(parts)

    def _until_closed(self) -> bytes:
        while True:
            data = self.sock.recv(65536)
            if not data:
                found, self.buffer = self.buffer, b""
                return found
            self.buffer += data

    def _keep_cookies(self, headers: Headers) -> None:
        for line in headers.get_all("Set-Cookie"):
            for name, morsel in SimpleCookie(line).items():
                if morsel.value and morsel["max-age"] != "0":
                    self.cookies[name] = morsel.value
                else:
                    self.cookies.pop(name, None)


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
