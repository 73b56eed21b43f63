"""What a deletion would take away from the league's cards, and the asking first: a
deletion that would remove results is refused until the person, shown them, confirms;
one that would remove a confirmed result is refused with its reason."""

import hashlib
import json

from ...league import AWAY, HOME, WAITING, Card
from ...league.errors import N_, CardError, LeagueError
from ..unit_of_work import UnitOfWork
from .at_tables import outcomes


class AskFirst(LeagueError):
    """A deletion would take results away: shown them, the person confirms it (`seen`, the
    digest of what was shown, comes back with the confirmation)."""

    kind = "ask_first"
    template = N_("This deletion takes results off the league: look at them, then confirm "
                  "it or keep them.")

    def __init__(self, losses: list[dict], seen: str):
        super().__init__(self.template, self.kind)
        self.losses, self.seen = losses, seen


def card_losses(uow: UnitOfWork, setup, fixture, names: dict,
                games: list[int] | None = None) -> list[dict]:
    """The results on a fixture's card (of the games numbered, or of every game): each
    game begun, with its players and how it stands, and a walkover; a line each."""
    card: Card = fixture.card
    where = {HOME: names[fixture.home], AWAY: names[fixture.away], "day": fixture.day}
    if card.walkover:
        return [where | {"walkover": card.walkover}] if games is None else []
    lost = []
    for game, found in zip(card.games, outcomes(uow, setup, card), strict=True):
        if found.state == WAITING or (games is not None and game.number not in games):
            continue
        lost.append(where | {"game": game.number, "state": found.state,
                             "players": [list(game.home), list(game.away)],
                             "home_points": found.home_points,
                             "away_points": found.away_points,
                             "awarded": found.awarded})
    return lost


def ask_first(losses: list[dict], sure: str | None) -> None:
    """Refuse a deletion that takes results away, unless they were shown and confirmed."""
    if not losses:
        return
    seen = hashlib.sha256(json.dumps(losses, sort_keys=True).encode()).hexdigest()[:16]
    if sure != seen:
        raise AskFirst(losses, seen)


def refuse_confirmed(fixture, names: dict, who: str | None = None) -> None:
    """A confirmed result stays: a deletion that would take one away is refused, naming
    the card (and whose deletion it is: a team's or a player's)."""
    if not fixture.card.confirmed:
        return
    facts = {"home": names[fixture.home], "away": names[fixture.away]}
    if who is None:
        raise CardError.worded(N_("The card of %(home)s v %(away)s is confirmed: reopen it "
                                  "first to delete the fixture."), "delete_confirmed", **facts)
    raise CardError.worded(N_("%(name)s is on the confirmed card of %(home)s v %(away)s: a "
                              "confirmed result stays. Reopen that card first."),
                           "delete_confirmed", name=who, **facts)


def side_of(fixture, team_id: int) -> str:
    return HOME if fixture.home == team_id else AWAY
