"""The door between Granian and the WSGI app: a request is read whole, queued and served
by the worker one at a time (taps first), or turned away at once, and answered.

Granian (Rust) holds the connections and parses HTTP; its WSGI mode would read a body
on an app thread, where a phone trickling one could hold the thread. Here, on Granian's
RSGI interface, whether to serve a request is decided from its head, at once (and for a
body, again once it is in, counting the requests let in meanwhile); then its body is
awaited on the event loop within REQUEST_SECONDS, in one wait when its length is
announced, or left unread when that length is far over the app's limit (the app then
refuses it in the reader's words, from that length alone), with as few turns of the loop
as can be: each one between two requests served moves a tap one step on. The app then
runs on the event loop itself, one request at a time: handing each to a thread and back
cost more than serving it. Between two requests the loop lets the new ones in: each is
queued (admission.py) or, past the server's capacity, answered the busy page (pages.py)
there and then. docs/PERFORMANCE.md §5 has the measurements behind each choice.

Heavy work (a season restored, an archive or an export written: `heavy`, the app's
web/answers/heavy.py) is the exception: it runs on a thread of its own, and the loop goes
on serving the taps between its slices of the interpreter. On the loop, an export of the
largest league held its worker a second, and every tap that reached that worker waited.
"""

import asyncio
import io
import logging
import sys
import time
from collections import deque

from .admission import Admission, kind_of
from .memory import BodyMemory
from .pages import FAILED, TOO_LARGE, TOO_SLOW, ServerPages

REQUEST_SECONDS = 20
"""A request's body must arrive within this (Granian closes one whose head is slower)."""
BODY_CEILING = 1024 * 1024
"""Bodies up to this are read (`serve` sets it to the app's own limit, MAX_CONTENT_LENGTH:
256 KB); a larger one announced is not read, the app refusing it from its
Content-Length in the reader's words, and a chunked one growing past it is cut off and
refused (413) in the same words. At 1 MB, 300 connections trickling chunked bodies
held a worker's 400 MB."""
POLL_AFTER = "Scorekeeper-Poll-After"
FAILED_LOG = logging.getLogger("scorekeeper.serve")


class TooLarge(Exception):
    """The body is over BODY_CEILING."""


class Gateway:
    """An RSGI app serving a WSGI app on its event loop, one request at a time, with
    admission control."""

    def __init__(self, app, pages: ServerPages, admission: Admission | None = None,
                 request_seconds: float = REQUEST_SECONDS, body_ceiling: int = BODY_CEILING,
                 heavy=None):
        self.app, self.pages = app, pages
        self.heavy = heavy
        """Whether a request (its environ) is heavy work, served on a thread; None: none is."""
        self.admission = admission or Admission()
        self.request_seconds, self.body_ceiling = request_seconds, body_ceiling
        self.bodies = BodyMemory()
        self.waiting: dict[str, deque] = {"write": deque(), "read": deque()}
        """(environ, future of its answer) of each request waiting, by kind."""
        self.serving = None  # the task serving the queue, while there is one

    async def __rsgi__(self, scope, proto):
        if scope.proto != "http":
            return
        verdict = self.admission.verdict(scope.method)
        if verdict.retry_after:  # at once, from the head alone: its body is left unread
            proto.response_bytes(*self.pages.busy(wsgi_environ(scope, b""),
                                                  verdict.retry_after))
            return
        body = b""
        if _announced(scope.headers) > self.body_ceiling:
            pass  # unread: the app refuses it from its Content-Length, in the reader's words
        elif _has_body(scope.headers):  # a poll has none: no timer
            self.bodies.started()
            try:
                async with asyncio.timeout(self.request_seconds):  # in this task: no other
                    body = await self._body(proto, "transfer-encoding" not in scope.headers)
            except TooLarge:
                return self._refuse(scope, proto, TOO_LARGE)
            except TimeoutError:
                return self._refuse(scope, proto, TOO_SLOW)
            finally:
                self.bodies.finished(len(body) or self.body_ceiling)
        environ = wsgi_environ(scope, body)
        if body:  # the others let in while it arrived count now: judged again with them
            verdict = self.admission.verdict(scope.method)
            if verdict.retry_after:
                proto.response_bytes(*self.pages.busy(environ, verdict.retry_after))
                return
        if self.heavy is not None and self.heavy(environ):
            status, headers, data = await asyncio.to_thread(answer, self.app, environ)
        else:
            status, headers, data = await self._served(environ, kind_of(scope.method))
        if verdict.poll_after:
            headers = [*headers, (POLL_AFTER, f"{verdict.poll_after:g}")]
        proto.response_bytes(status, headers, data)

    def _refuse(self, scope, proto, code: int) -> None:
        """The refusal of a request whose body was not read whole, at once, and the
        connection closed (what is left of the body must not pass for the next request)."""
        proto.response_bytes(*self.pages.answer(wsgi_environ(scope, b""), code,
                                                (("Connection", "close"),)))

    async def _body(self, proto, announced: bool) -> bytes:
        """The body as it arrives: whole in one wait when its length is announced (and under
        the ceiling); a chunked one, which announces none, piece by piece, refused once it
        grows past the ceiling."""
        if announced:
            return await proto()
        body = bytearray()  # one buffer, not a piece per chunk: fewer blocks for the heap
        async for chunk in proto:
            if len(body) + len(chunk) > self.body_ceiling:
                raise TooLarge
            body += chunk
        return bytes(body)

    async def _served(self, environ, kind: str) -> tuple[int, list, bytes]:
        """The app's answer, once the requests ahead of this one are served."""
        loop = asyncio.get_running_loop()
        answered = loop.create_future()
        self.waiting[kind].append((environ, answered))
        self.admission.queued(kind)
        if self.serving is None:
            self.serving = loop.create_task(self._serve_waiting())
        return await answered

    async def _serve_waiting(self) -> None:
        """Serve the queue, taps first, one request at a time; after each, a turn of the
        loop sends the answer and lets the requests that arrived meanwhile in."""
        admission = self.admission
        try:
            while self.waiting["write"] or self.waiting["read"]:
                kind = admission.next_kind()
                environ, answered = self.waiting[kind].popleft()
                admission.started(kind)
                if answered.cancelled():
                    continue
                began = time.monotonic()
                try:
                    answered.set_result(answer(self.app, environ))
                except Exception:  # failed before the app could answer with its 500 page
                    FAILED_LOG.exception("the app failed before it could answer a %s",
                                         environ["REQUEST_METHOD"])
                    answered.set_result(self.pages.answer(environ, FAILED))
                finally:
                    admission.finished(time.monotonic() - began)
                await asyncio.sleep(0)
        finally:
            self.serving = None


def _announced(headers) -> int:
    length = headers.get("content-length", "")
    return int(length) if length.isdigit() else 0


def _has_body(headers) -> bool:
    length = headers.get("content-length")
    return (length is not None and length != "0") or "transfer-encoding" in headers


def answer(app, environ) -> tuple[int, list, bytes]:
    """Call a WSGI app and collect its whole answer (the app's answers are small)."""
    started = []

    def start_response(status, headers, exc_info=None):
        started[:] = [int(status[:3]), headers]

    result = app(environ, start_response)
    try:
        data = b"".join(result)
    finally:
        if hasattr(result, "close"):
            result.close()
    return started[0], started[1], data


def wsgi_environ(scope, body: bytes) -> dict:
    """PEP 3333's environ for an RSGI scope.

    Granian gives the path percent-decoded and read as UTF-8 (a byte that is not UTF-8
    already replaced); WSGI wants its bytes as latin-1 text, which the app reads back as
    UTF-8. Passed as it came, `/%ff%fe` made the app fail before it could answer (an
    empty 500) and `/%c3%a9` reached it as another path.
    """
    server_name, _, server_port = scope.server.rpartition(":")
    client, _, client_port = scope.client.rpartition(":")
    path = scope.path.encode("utf-8", "surrogatepass").decode("latin-1")
    environ = {
        "REQUEST_METHOD": scope.method, "SCRIPT_NAME": "", "PATH_INFO": path,
        "QUERY_STRING": scope.query_string, "SERVER_NAME": server_name.strip("[]"),
        "SERVER_PORT": server_port, "SERVER_PROTOCOL": f"HTTP/{scope.http_version}",
        "REMOTE_ADDR": client.strip("[]"), "REMOTE_PORT": client_port,
        "wsgi.version": (1, 0), "wsgi.url_scheme": scope.scheme,
        "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr,
        "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False,
        "wsgi.input_terminated": True,
    }
    for name, value in scope.headers.items():
        if "_" in name:  # would pass for a proxy's X-Forwarded-For: dropped, as waitress did
            continue
        key = name.upper().replace("-", "_")
        if key not in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            key = "HTTP_" + key
        if key in environ:
            value = f"{environ[key]}{'; ' if key == 'HTTP_COOKIE' else ','}{value}"
        environ[key] = value
    if body and "CONTENT_LENGTH" not in environ:
        environ["CONTENT_LENGTH"] = str(len(body))
    return environ
