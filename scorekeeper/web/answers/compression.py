"""Answers compressed for the phones (brotli where the browser takes it, else gzip).

Pages, fragments and the manifest are compressed per answer by Flask-Compress at a
cheap level (a table fragment costs a fraction of a millisecond); the static files,
the same bytes for every phone, are compressed once per process at the smallest size;
a scoreboard, the same bytes for every viewer of a revision, once per revision for all
workers (`web/scoring/board.py` keeps it).
"""

import gzip
import threading
from collections import OrderedDict

import brotli
from flask import current_app, request
from flask_compress import Compress

compress = Compress()

ENCODINGS = ("br", "gzip")
"""What the app sends, best first; browsers take brotli over https only, so a pub's LAN
(plain http) gets gzip."""
STATIC_TYPES = {"text/css", "text/javascript", "application/javascript", "image/svg+xml",
                # the offline table's runtime (static/pyodide-*): its WebAssembly, its
                # standard library (a zip of uncompressed files) and its lock file
                "application/wasm", "application/zip", "application/json"}
LARGE = 1024 * 1024
"""Past this size a static file is compressed at a lower quality: brotli's best takes 30 s
on the runtime's 8.6 MB, quality 9 one second, for 3.5 % more bytes."""
STATIC_KEPT = 64
"""Compressed static files kept per process (the app has a handful, in two encodings)."""


def init_compression(app) -> None:
    app.config.setdefault("COMPRESS_ALGORITHM", list(ENCODINGS))
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)  # as small as 6, cheaper than 4 here
    # 3: half the CPU of 6 on a table fragment (deflate's fast path) for 9 % more bytes
    app.config.setdefault("COMPRESS_LEVEL", 3)
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)  # smaller ones would not shrink
    compress.init_app(app)
    app.after_request(_static_compressed)  # registered later, so it runs before Compress


def squeezed(body: bytes, encoding: str) -> bytes:
    """The smallest output of each encoding: worth its milliseconds once per file."""
    if encoding == "br":
        return brotli.compress(body, quality=11 if len(body) <= LARGE else 9)
    return gzip.compress(body, compresslevel=9, mtime=0)


def cheap(body: bytes, encoding: str) -> bytes:
    """At Flask-Compress's levels, for answers made many times a second."""
    if encoding == "br":
        return brotli.compress(body, quality=current_app.config["COMPRESS_BR_LEVEL"])
    return gzip.compress(body, compresslevel=current_app.config["COMPRESS_LEVEL"], mtime=0)


class Kept:
    """Compressed bodies by (key, encoding), the least recently used dropped past `size`."""

    def __init__(self, size: int):
        self.size = size
        self._kept: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str, encoding: str, body, compress) -> bytes:
        """The kept bytes, or `compress(body(), encoding)` kept from now on."""
        with self._lock:
            found = self._kept.get((key, encoding))
            if found is not None:
                self._kept.move_to_end((key, encoding))
                return found
        found = compress(body(), encoding)
        with self._lock:
            self._kept[key, encoding] = found
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return found


_static = Kept(STATIC_KEPT)


def accepted_encoding() -> str | None:
    """The encoding this browser takes that the app sends (None: plain)."""
    return request.accept_encodings.best_match(ENCODINGS)


def compressed(body: str, encoding: str | None) -> tuple[bytes, str | None]:
    """An answer in the encoding asked for, or plain if too small to shrink; and its
    encoding."""
    data = body.encode()
    if encoding is None or len(data) < current_app.config["COMPRESS_MIN_SIZE"]:
        return data, None
    return cheap(data, encoding), encoding


def _static_compressed(response):
    """A static file compressed once (by its ETag, which changes with the file), with an ETag
    of its own per encoding; Compress then leaves it as it is."""
    if (request.endpoint != "static" or response.status_code != 200
            or response.mimetype not in STATIC_TYPES):
        return response
    encoding = accepted_encoding()
    etag, _weak = response.get_etag()
    if encoding is None or etag is None:
        return response
    response.direct_passthrough = False
    body = _static.get(etag, encoding, response.get_data, squeezed)
    response.close()  # the file it was going to send
    response.set_data(body)
    response.headers["Content-Encoding"] = encoding
    response.set_etag(f"{etag}-{encoding}")
    return response.make_conditional(request)
