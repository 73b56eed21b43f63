"""Write limits: how often a scorer may tap, and an address start or import matches.

A pub's phones reach a hosted server from the router's one address, so taps are
limited per scorer (the match and its scoring key), never per address; only creating
and importing matches is limited per address, with room for a whole league night
starting at once. A refused write answers 429 with Retry-After (the error page).

The limits library's moving window does the counting, through its public API: a
strategy over a storage that RATELIMIT_STORAGE_URI names (Redis or memcached for several
app servers), by default `LocalCounts` in this process's memory.
"""

import functools
import hashlib
import threading
import time
from collections import deque

from flask import current_app, g, request
from limits import parse_many
from limits.storage import MovingWindowSupport, Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

DEFAULTS = {
    "TAP_LIMIT": "10 per second; 240 per minute",
    "NEW_MATCH_LIMIT": "120 per minute; 1200 per hour",
    "IMPORT_LIMIT": "60 per minute; 300 per hour",
}
"""Per scorer for taps, per address for new matches and imports (see docs/SECURITY.md)."""
LIMITS = "scorekeeper.limits"
"""Where the app keeps its strategy (app.extensions)."""


class LocalCounts(Storage, MovingWindowSupport):
    """The moving windows of this process, in its memory, on the monotonic clock.

    A clock stepped back or forward changes no window. Expired entries go when their
    key is next used, and every SWEEP_SECONDS all at once; no thread is started.
    """

    STORAGE_SCHEME = ["scorekeeper-memory"]
    SWEEP_SECONDS = 10.0
    clock = staticmethod(time.monotonic)

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options):
        super().__init__(uri, wrap_exceptions, **options)
        self._lock = threading.Lock()
        self._hits: dict[str, tuple[deque, float]] = {}
        """Per key: when each hit in its window came (oldest first), and the window."""
        self._swept = self.clock()

    @property
    def base_exceptions(self) -> type[Exception]:
        return ValueError

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        """Count `amount` hits now, if the window holds room for them."""
        if amount > limit:
            return False
        with self._lock:
            now = self.clock()
            self._sweep(now)
            times = self._window(key, expiry, now)
            if len(times) + amount > limit:
                return False
            times.extend([now] * amount)
            return True

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        """When the window's oldest hit came (now, if none), and how many it holds."""
        with self._lock:
            now = self.clock()
            times = self._window(key, expiry, now, keep=False)
            return (times[0] if times else now), len(times)

    def _window(self, key: str, expiry: float, now: float, keep: bool = True) -> deque:
        """The key's hits still in its window (a new window is kept only for a hit)."""
        found = self._hits.get(key)
        if found is None:
            times = deque()
            if keep:
                self._hits[key] = (times, expiry)
            return times
        times = found[0]
        while times and times[0] <= now - expiry:
            times.popleft()
        return times

    def _sweep(self, now: float) -> None:
        if now - self._swept < self.SWEEP_SECONDS:
            return
        self._swept = now
        for key, (times, expiry) in list(self._hits.items()):
            if not times or times[-1] <= now - expiry:
                del self._hits[key]

    # A storage's counters, for the limits library's other strategies (unused here).

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        with self._lock:
            now = self.clock()
            times = self._window(key, expiry, now)
            times.extend([now] * amount)
            return len(times)

    def get(self, key: str) -> int:
        with self._lock:
            times, expiry = self._hits.get(key, ((), 0))
            return sum(1 for at in times if at > self.clock() - expiry)

    def get_expiry(self, key: str) -> float:
        with self._lock:
            times, expiry = self._hits.get(key, ((), 0))
            return (times[0] + expiry) if times else self.clock()

    def check(self) -> bool:
        return True

    def reset(self) -> int | None:
        with self._lock:
            count = len(self._hits)
            self._hits.clear()
            return count

    def clear(self, key: str) -> None:
        with self._lock:
            self._hits.pop(key, None)


def init_limits(app) -> None:
    """The app's strategy, on the storage its settings name."""
    app.config.setdefault("RATELIMIT_ENABLED", not app.testing)  # a test asks for limits
    app.config.setdefault("RATELIMIT_STORAGE_URI", "scorekeeper-memory://")
    storage = storage_from_string(app.config["RATELIMIT_STORAGE_URI"])
    app.extensions[LIMITS] = MovingWindowRateLimiter(storage)


def scorer() -> str:
    """What identifies a scorer: the match and its scoring key (hashed: keys stay out of
    every store but the database)."""
    args = request.view_args or {}
    key = hashlib.sha256(str(args.get("key", "")).encode()).hexdigest()[:16]
    return f"{args.get('match_id', '')}:{key}"


def address() -> str:
    """What identifies a client: its address (the proxy's client's, behind a trusted one)."""
    return request.remote_addr or ""


def check(setting: str, scope: str, who: str) -> None:
    """Count one write of `who` against the limits of `setting`; past them, 429 with the
    seconds until the first of them lets `who` in again (Retry-After)."""
    if request.method != "POST" or not current_app.config.get("RATELIMIT_ENABLED", True):
        return  # every limit is on a write: an OPTIONS or a page is not one
    strategy = current_app.extensions[LIMITS]
    for limit in _parsed(current_app.config.get(setting, DEFAULTS[setting])):
        if not strategy.hit(limit, scope, who):
            reset = strategy.get_window_stats(limit, scope, who).reset_time
            clock = getattr(strategy.storage, "clock", time.time)  # Redis's: the wall clock
            g.retry_after = max(1, round(reset - clock()))
            raise TooManyRequests()


@functools.lru_cache(maxsize=8)
def _parsed(limits: str) -> tuple:
    """The limits, the shortest window first: a write the second's limit refuses is then
    not counted against the minute's."""
    return tuple(sorted(parse_many(limits)))


def retry_after() -> int:
    """The seconds until the broken limit lets this writer in again."""
    return g.get("retry_after", 60)


def limit_taps(blueprint) -> None:
    """Every POST of `blueprint` (one match's scoring screen) counts against TAP_LIMIT, per
    scorer."""
    blueprint.before_request(lambda: check("TAP_LIMIT", "taps", scorer()))


def limited(setting: str, scope: str):
    """A view whose POSTs count against `setting`, per address."""
    def decorate(view):
        @functools.wraps(view)
        def limited_view(*args, **kwargs):
            check(setting, scope, address())
            return view(*args, **kwargs)
        return limited_view
    return decorate


new_matches = limited("NEW_MATCH_LIMIT", "new")
imports = limited("IMPORT_LIMIT", "import")
