"""Heavy work let in a few requests at a time across all the server's workers: a season
restored or previewed, an archive or an export written, a league printed. Each holds a
worker's core for up to a second or more, and three at once held every worker while the
tables' taps waited. Past HEAVY_AT_ONCE running, another is answered 503 at once with
Retry-After (the error page), and the taps keep the other workers.

The workers are processes: a slot is a lock on a file (`flock`), released by the system
when its worker ends, however it ends. Windows, which serves with one worker (serve.py),
needs none: its one request at a time is the bound.
"""

import contextlib
import functools
import hashlib
import os

from flask import current_app, g
from werkzeug.exceptions import HTTPException, ServiceUnavailable

from .work import STORE

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

HEAVY_AT_ONCE = 1
"""Heavy requests served at once, by default: with the default workers (one more than the
cores), the others keep a core each for the taps."""
HEAVY_RETRY_SECONDS = 5


def heavy(view):
    """The view, run only in a free slot of the server's heavy work (and, under `serve`,
    on a thread of its own: `is_heavy`)."""
    @functools.wraps(view)
    def in_a_slot(*args, **kwargs):
        with _slot():
            return view(*args, **kwargs)
    in_a_slot.heavy = True
    return in_a_slot


def is_heavy(app, environ) -> bool:
    """Whether a request is for a heavy view (server/gateway.py serves it off the loop)."""
    try:
        endpoint, _ = app.url_map.bind_to_environ(environ).match()
    except HTTPException:  # not found, another method, a redirect: none is heavy
        return False
    return getattr(app.view_functions.get(endpoint), "heavy", False)


@contextlib.contextmanager
def _slot():
    if fcntl is None:
        yield
        return
    for path in _slot_files():
        held = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(held)
            continue
        try:
            yield
        finally:
            os.close(held)  # and the lock with it
        return
    g.retry_after = HEAVY_RETRY_SECONDS
    raise ServiceUnavailable()


def _slot_files() -> list[str]:
    """One file a slot in the instance folder, named after the store: the workers of one
    server share them, two servers (or two tests' apps) on other stores do not."""
    store = hashlib.sha256(current_app.extensions[STORE].location.encode()).hexdigest()[:12]
    return [os.path.join(current_app.instance_path, f"heavy-{store}-{number}.lock")
            for number in range(current_app.config.get("HEAVY_AT_ONCE", HEAVY_AT_ONCE))]
