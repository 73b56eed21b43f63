"""A match opened from the store: its head's entries folded into a Match by the rules, from
what the worker kept of it when it can, and the value the web is handed (`Opened`)."""

from dataclasses import dataclass, field

from ..league.cards.card import CONFIRMED
from ..rules import Match, RuleError
from ..storage import Broken, Head, apply_entries, replayed, table_of, takes_back
from .unit_of_work import UnitOfWork


@dataclass
class Opened:
    """A match opened by its key: its ids, its revision (count of entries), the Match the
    rules rebuilt (this request's own: no write changes it), where its log breaks if the
    rules refuse it, and the league card game it scores, if any, and how the card holds it."""

    id: str
    score_key: str
    view_key: str
    revision: int
    match: Match
    broken: Broken | None = None
    fixture_id: int | None = None
    game: int | None = None
    hold: str = ""
    setup: str = field(default="", repr=False)
    """The setup as stored, which a kept match is checked against (a name corrected)."""

    @property
    def held(self) -> bool:
        """Its card is confirmed: its table can change nothing."""
        return self.hold == CONFIRMED

    def at(self, revision: int, match: Match) -> "Opened":
        """The same match after a write: at `revision`, the rules' `match`."""
        return Opened(self.id, self.score_key, self.view_key, revision, match, None,
                      self.fixture_id, self.game, self.hold, self.setup)


def opened(head: Head, match: Match, broken: Broken | None = None) -> Opened:
    return Opened(head.id, head.score_key, head.view_key, head.revision, match, broken,
                  head.fixture_id, head.game, head.held, head.setup)


def rebuilt(uow: UnitOfWork, head: Head) -> Opened:
    """The match of a head, at its revision: the one the worker kept; else one kept at an
    earlier revision brought up to date with the entries written since (by another
    worker), unless they take back what it holds (an undo there: the stored log then
    decides, replayed whole); else replayed from its whole log."""
    store, revision = uow.matches, head.revision
    kept = store.kept(head)
    after, match = kept or (0, Match(table_of(head.setup)))
    if kept is None or after < revision:
        entries = store.entries(head.id, after, revision) if after < revision else []
        if entries is not None and after and takes_back(entries):
            after, match = 0, Match(table_of(head.setup))
            entries = store.entries(head.id, 0, revision)
        if entries is None:  # deleted since the row was read: its log is gone, none kept
            match = Match(table_of(head.setup))
        else:
            try:
                apply_entries(match, entries)
            except RuleError:  # never kept: the table offers to take it back to its legal part
                return opened(head, *replayed(table_of(head.setup),
                                              store.entries(head.id, 0, revision) or []))
            store.keep(head, match)
    return opened(head, match)


def matches_by_id(uow: UnitOfWork, match_ids: list[str]) -> dict[str, Match]:
    """The matches named, rebuilt from their logs (a league archive holds their records)."""
    return {head.id: rebuilt(uow, head).match for head in uow.matches.heads(match_ids)}
