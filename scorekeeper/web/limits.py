"""Write limits (Flask-Limiter, in memory unless RATELIMIT_STORAGE_URI says otherwise).

A pub's phones reach a hosted server from the router's one address, so taps are
limited per scorer (the match and its scoring key), never per address; only creating
and importing matches is limited per address, with room for a whole league night
starting at once. A refused write answers 429 with Retry-After.
"""

import functools
import hashlib
import threading

from flask import current_app, g, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many
from limits.storage import MemoryStorage
from werkzeug.exceptions import TooManyRequests

READING = ("GET", "HEAD")


class WritesLimiter(Limiter):
    """Flask-Limiter, checked on writes only: every limit is on POST, and its check of a
    page or a scoreboard poll (finding no limit) cost a tenth of the poll's CPU. The
    scoring screen's taps are checked by `limit_taps` instead."""

    checks_its_own: set[str] = set()
    """The blueprints whose writes are limited by their own check."""

    def _check_request_limit(self, callable_name=None, in_middleware=True) -> None:
        if request.method not in READING and request.blueprint not in self.checks_its_own:
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


def _limit(name: str) -> str:
    """The app's setting of a limit, or its default."""
    return current_app.config.get(name, DEFAULTS[name])


def _setting(name: str):
    return lambda: _limit(name)


def check_tap() -> None:
    """Hold a scorer's taps to TAP_LIMIT: the scoring screen's before_request.

    The check is Flask-Limiter's own strategy on its storage (the limits library); only
    Flask-Limiter's way to it is left out, which resolves every route's, blueprint's and
    default limit on each request and writes three headers on its answer: 0.9 M of a
    tap's 7.3 M instructions (bench/request_instructions.py), this check 0.07 M. A
    refused tap is answered 429 with Retry-After (the error page), as a refused new
    match is. Of Flask-Limiter's settings only RATELIMIT_ENABLED and the storage apply
    here (not RATELIMIT_KEY_PREFIX, application or default limits, or its in-memory
    fallback).
    """
    if request.method != "POST" or not current_app.config.get("RATELIMIT_ENABLED", True):
        return  # a tap is a POST; an OPTIONS or a page is not
    strategy, who = limiter.limiter, scorer()
    for limit in _parsed(_limit("TAP_LIMIT")):
        if not strategy.hit(limit, "taps", who):
            g.retry_at = strategy.get_window_stats(limit, "taps", who).reset_time
            raise TooManyRequests()


def limit_taps(blueprint) -> None:
    """Every POST of `blueprint` (one match's scoring screen) counts against TAP_LIMIT."""
    WritesLimiter.checks_its_own.add(blueprint.name)
    blueprint.before_request(check_tap)


@functools.lru_cache(maxsize=8)
def _parsed(limits: str) -> tuple:
    """The limits, the shortest window first (as Flask-Limiter orders them): a tap the
    second's limit refuses is then not counted against the minute's."""
    return tuple(sorted(parse_many(limits)))


def retry_at() -> float | None:
    """When the limit this request broke lets its writer in again (a time), if one did."""
    if "retry_at" in g:
        return g.retry_at
    breached = limiter.current_limit
    return breached.reset_at if breached else None

new_matches = limiter.limit(_setting("NEW_MATCH_LIMIT"), methods=["POST"], scope="new")
imports = limiter.limit(_setting("IMPORT_LIMIT"), methods=["POST"], scope="import")
