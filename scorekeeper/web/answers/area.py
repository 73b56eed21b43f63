"""Each area's policy, carried by its blueprint: who may keep its answers (caches, search
engines) and the write limits its links and views count against.

A blueprint is made as an `Area` with its `Policy`, so `headers.py` and `limits.py` read
the policy of the request's own blueprint and keep no list of areas or views of their own;
an area cannot be made without one.
"""

from dataclasses import dataclass, field

from flask import Blueprint

from .headers import ENGINE_CSP, SECURITY_HEADERS


@dataclass(frozen=True)
class Limit:
    """A write limit: its setting (limits.DEFAULTS has its default) and the scope it is
    counted in."""

    setting: str
    scope: str


TAPS = Limit("TAP_LIMIT", "taps")
LEAGUE_WRITES = Limit("LEAGUE_LIMIT", "league")
NEW_MATCHES = Limit("NEW_MATCH_LIMIT", "new")
IMPORTS = Limit("IMPORT_LIMIT", "import")
NEW_LEAGUES = Limit("NEW_LEAGUE_LIMIT", "leagues")
EXPORTS = Limit("EXPORT_LIMIT", "exports")


@dataclass(frozen=True)
class ViewLimit:
    """A view whose requests of one method count against a limit of their address."""

    limit: Limit
    method: str


@dataclass(frozen=True)
class Policy:
    """What an area's answers carry and what its requests count against."""

    headers: tuple[tuple[str, str], ...]
    """The headers every answer of the area carries (SECURITY_HEADERS at least)."""
    per_link: Limit | None = None
    """The limit of its link (a match or league and its key) that a POST to a link counts
    against."""
    per_view: dict[str, ViewLimit] = field(default_factory=dict)
    """By view name, the limit of their address that a view's requests count against."""
    view_headers: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    """By view name, the headers of a view that differs from the rest of its area."""

    def headers_of(self, endpoint: str) -> tuple[tuple[str, str], ...]:
        """The headers of an answer of `endpoint` (blueprint.view), one of this area's."""
        if not self.view_headers:
            return self.headers
        return self.view_headers.get(endpoint.rpartition(".")[2], self.headers)

    def limit_of(self, endpoint: str) -> ViewLimit | None:
        """The limit of their address that requests of `endpoint` count against, if any."""
        return self.per_view.get(endpoint.rpartition(".")[2]) if self.per_view else None


NOT_INDEXED = ("X-Robots-Tag", "noindex, nofollow")
KEYED_PAGES = (*SECURITY_HEADERS, NOT_INDEXED, ("Cache-Control", "no-store"))
"""A match's scoring screen or a league's pages and cards, whose addresses carry their keys:
kept out of search engines and of every cache."""
SCORING_PAGES = tuple(("Content-Security-Policy", ENGINE_CSP) if name == "Content-Security-Policy"
                      else (name, value) for name, value in KEYED_PAGES)
"""A match's scoring screen: a keyed page that runs the offline table (WebAssembly)."""
KEYED_VIEWS = (*SECURITY_HEADERS, NOT_INDEXED, ("Cache-Control", "no-cache"))
"""A scoreboard or a replay, whose addresses carry a key: kept out of search engines, and
asked of the server again each time (it answers 304 when nothing changed)."""
PHONES_OWN = (*SECURITY_HEADERS, ("Cache-Control", "private, no-store"))
"""The home pages, which list this phone's keys."""
PUBLIC = SECURITY_HEADERS
"""Pages anyone may keep: they hold no key."""


class Area(Blueprint):
    """A blueprint with its area's policy."""

    def __init__(self, name: str, import_name: str, policy: Policy, **options):
        super().__init__(name, import_name, **options)
        self.policy = policy
