"""Write limits: how often a scorer may tap, a league's link write, an address write.

A pub's phones reach a hosted server from the router's one address, so each link has a
limit of its own (a match's scoring key, a league's secretary or captain key) and an
address one for all its writes far above a whole pub's night; new matches, imports, new
leagues and the league's exports are limited per address besides. A refused request
answers 429 with Retry-After (the error page).

Every window a request counts in is counted at once, before its view, in the app's own
database (services/limits.py: one count for every worker process and, on PostgreSQL,
every app server), with the limits library's moving window and keys. A
RATELIMIT_STORAGE_URI (`redis://...`) counts them with that library's storage instead.
"""

import functools
import hashlib
import math
import time

from flask import current_app, g, request
from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

from ...services import limits as counts
from .work import unit_of_work

DEFAULTS = {
    "TAP_LIMIT": "10 per second; 240 per minute",
    "LEAGUE_LIMIT": "60 per minute; 1200 per hour",
    "WRITE_LIMIT": "60 per second; 2400 per minute",
    "NEW_MATCH_LIMIT": "120 per minute; 1200 per hour",
    "IMPORT_LIMIT": "60 per minute; 300 per hour",
    "NEW_LEAGUE_LIMIT": "10 per minute; 60 per hour",
    "EXPORT_LIMIT": "30 per minute; 300 per hour",
}
"""Each limit's setting and its default (docs/SECURITY.md has why each is what it is)."""
LIMITS = "scorekeeper.limits"
"""Where the app keeps the limits library's strategy, if it counts (app.extensions)."""


def init_limits(app) -> None:
    """Every request counted before its view: a write against its address's limit, and
    its link's and its view's (its area's policy: `area.Policy`)."""
    app.config.setdefault("RATELIMIT_ENABLED", not app.testing)  # a test asks for limits
    uri = app.config.setdefault("RATELIMIT_STORAGE_URI", "")
    if uri:
        app.extensions[LIMITS] = MovingWindowRateLimiter(storage_from_string(uri))
    app.before_request(_count)


def _count() -> None:
    if current_app.config.get("RATELIMIT_ENABLED", True):
        check(*limits_of_this_request())


def limits_of_this_request() -> list[tuple[str, str, str]]:
    """(setting, scope, who) of every limit this request counts against."""
    found = [("WRITE_LIMIT", "writes", address())] if request.method == "POST" else []
    area = current_app.blueprints.get(request.blueprint or "")
    if area is None:
        return found
    policy = area.policy
    per_link = policy.per_link
    if per_link and request.method == "POST" and "key" in (request.view_args or {}):
        found.append((per_link.setting, per_link.scope, link()))
    per_view = policy.limit_of(request.endpoint)
    if per_view and request.method == per_view.method:
        found.append((per_view.limit.setting, per_view.limit.scope, address()))
    return found


def link() -> str:
    """What identifies a link: its match or league and its key (hashed: keys stay out of
    every table but their own)."""
    args = request.view_args or {}
    key = hashlib.sha256(str(args.get("key", "")).encode()).hexdigest()[:16]
    return f"{args.get('match_id') or args.get('league_id', '')}:{key}"


def address() -> str:
    """What identifies a client: its address (the proxy's client's, behind a trusted one)."""
    return request.remote_addr or ""


def check(*limits: tuple[str, str, str]) -> None:
    """Count this request against each (setting, scope, who); past one of them, 429 with
    the seconds until all of them let it in (Retry-After), and counted in none."""
    windows = [(item, scope, who) for setting, scope, who in limits
               for item in _parsed(current_app.config.get(setting, DEFAULTS[setting]))]
    if not windows:
        return
    strategy = current_app.extensions.get(LIMITS)
    if strategy is None:
        wait = counts.admit(unit_of_work(), [(item.key_for(scope, who), item.amount,
                                              item.get_expiry())
                                             for item, scope, who in windows])
    else:
        wait = _wait_elsewhere(strategy, windows)
    if wait:
        g.retry_after = max(1, math.ceil(wait))
        raise TooManyRequests()


def _wait_elsewhere(strategy, windows) -> float:
    """The limits library's own storage (Redis): each window counted in turn, the
    shortest first, on its clock (the wall clock)."""
    for item, scope, who in windows:
        if not strategy.hit(item, scope, who):
            return strategy.get_window_stats(item, scope, who).reset_time - time.time()
    return 0.0


@functools.lru_cache(maxsize=16)
def _parsed(limits: str) -> tuple:
    """The limits, the shortest window first (the order the library's storage counts
    them in: a request the second's limit refuses is not counted against the minute's)."""
    return tuple(sorted(parse_many(limits)))


def pace_ms(setting: str) -> int:
    """The gap between two requests that stays within every window of the limit `setting`:
    the taps a phone kept offline are sent at this pace, so that none is turned away."""
    windows = _parsed(current_app.config.get(setting, DEFAULTS[setting]))
    return max((math.ceil(item.get_expiry() * 1000 / item.amount) for item in windows),
               default=0)


def retry_after() -> int:
    """The seconds until the broken limit lets this writer in again."""
    return g.get("retry_after", 60)
