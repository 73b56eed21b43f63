"""Answers compressed for the phones (brotli where the browser takes it, else gzip).

Pages, fragments and the manifest are compressed per answer by Flask-Compress at a
cheap level (a table fragment costs a fraction of a millisecond); the static files,
the same bytes for every phone, are compressed once per process at the smallest size.
"""

import gzip
import threading

import brotli
from flask import request
from flask_compress import Compress

compress = Compress()

ENCODINGS = ("br", "gzip")
"""What the app sends, best first; browsers take brotli over https only, so a pub's LAN
(plain http) gets gzip."""
STATIC_TYPES = {"text/css", "text/javascript", "application/javascript", "image/svg+xml"}
STATIC_KEPT = 64
"""Compressed static files kept per process (the app has a handful, in two encodings)."""


def init_compression(app) -> None:
    app.config.setdefault("COMPRESS_ALGORITHM", list(ENCODINGS))
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)  # as small as 6, cheaper than 4 here
    app.config.setdefault("COMPRESS_LEVEL", 6)
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)  # smaller ones would not shrink
    compress.init_app(app)
    app.after_request(_static_compressed)  # registered later, so it runs before Compress


def squeezed(body: bytes, encoding: str) -> bytes:
    """The smallest output of each encoding: worth its milliseconds once per file."""
    if encoding == "br":
        return brotli.compress(body, quality=11)
    return gzip.compress(body, compresslevel=9, mtime=0)


_kept: dict[tuple[str, str], bytes] = {}
_lock = threading.Lock()


def _static_compressed(response):
    """A static file compressed once (by its ETag, which changes with the file), with an ETag
    of its own per encoding; Compress then leaves it as it is."""
    if (request.endpoint != "static" or response.status_code != 200
            or response.mimetype not in STATIC_TYPES):
        return response
    encoding = request.accept_encodings.best_match(ENCODINGS)
    etag, _weak = response.get_etag()
    if encoding is None or etag is None:
        return response
    response.direct_passthrough = False
    with _lock:
        body = _kept.get((etag, encoding))
    if body is None:
        body = squeezed(response.get_data(), encoding)
        with _lock:
            if len(_kept) >= STATIC_KEPT:
                _kept.clear()
            _kept[etag, encoding] = body
    response.close()  # the file it was going to send
    response.set_data(body)
    response.headers["Content-Encoding"] = encoding
    response.set_etag(f"{etag}-{encoding}")
    return response.make_conditional(request)
