"""Write limits (Flask-Limiter, in memory unless RATELIMIT_STORAGE_URI says otherwise).

A pub's phones reach a hosted server from the router's one address, so taps are
limited per scorer (the match and its scoring key), never per address; only creating
and importing matches is limited per address, with room for a whole league night
starting at once. A refused write answers 429 with Retry-After.
"""

import hashlib
import threading

from flask import current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits.storage import MemoryStorage

READING = ("GET", "HEAD")


class WritesLimiter(Limiter):
    """Flask-Limiter, checked on writes only: every limit is on POST, and its check of a
    page or a scoreboard poll (finding no limit) cost a tenth of the poll's CPU."""

    def _check_request_limit(self, callable_name=None, in_middleware=True) -> None:
        if request.method not in READING:
            super()._check_request_limit(callable_name, in_middleware)


limiter = WritesLimiter(get_remote_address, headers_enabled=True, strategy="moving-window")
"""Its storage is the RATELIMIT_STORAGE_URI setting: this process's memory unless set."""


@limiter.request_filter
def _reading() -> bool:
    """Every limit is on POST, also where a view checks its limits itself."""
    return request.method in READING


DEFAULTS = {
    "TAP_LIMIT": "10 per second; 240 per minute",
    "NEW_MATCH_LIMIT": "120 per minute; 1200 per hour",
    "IMPORT_LIMIT": "60 per minute; 300 per hour",
}
"""Per scorer for taps, per address for new matches and imports (see docs/SECURITY.md)."""


class CalmMemoryStorage(MemoryStorage):
    """The limits library's memory storage, swept of expired entries every few seconds.

    Its own sweep starts a new thread 10 ms after every hit and scans every key: at 400
    scorers that cost more CPU than the tap it limited. The limits stay exact (a moving
    window reads the entries' times, a fixed window its expiry); only memory waits.
    """

    STORAGE_SCHEME = ["scorekeeper-memory"]
    SWEEP_SECONDS = 10.0

    def _MemoryStorage__schedule_expiry(self) -> None:  # replaces the 10 ms sweep
        if not self.timer.is_alive():
            self.timer = threading.Timer(self.SWEEP_SECONDS, self._MemoryStorage__expire_events)
            self.timer.daemon = True  # a pending sweep never holds up the end of a process
            self.timer.start()


def scorer() -> str:
    """What identifies a scorer: the match and its scoring key (hashed: keys stay out of
    every store but the database)."""
    args = request.view_args or {}
    key = hashlib.sha256(str(args.get("key", "")).encode()).hexdigest()[:16]
    return f"{args.get('match_id', '')}:{key}"


def _setting(name: str):
    return lambda: current_app.config.get(name, DEFAULTS[name])


taps = limiter.limit(_setting("TAP_LIMIT"), key_func=scorer, methods=["POST"], scope="taps")
"""Every POST of one match's scoring screen, per scorer (applied to the blueprint)."""
new_matches = limiter.limit(_setting("NEW_MATCH_LIMIT"), methods=["POST"], scope="new")
imports = limiter.limit(_setting("IMPORT_LIMIT"), methods=["POST"], scope="import")
