"""A card's games as their tables play them: how each game stands, read off its legs'
matches, and a table that starts its best-of game's next leg."""

from dataclasses import dataclass

from ...league import Card, LeagueSetup
from ...league.errors import N_, CardError
from ...league.season.season import outcomes as game_outcomes
from ...rules import Match
from ...storage import FixtureAtTable, StaleCard
from ..opened import Opened, opened
from ..unit_of_work import UnitOfWork
from .setup import card_changed


def outcomes(uow: UnitOfWork | None, setup: LeagueSetup, card: Card,
             summaries: dict | None = None) -> list:
    """How each game of the card stands, read off its legs' matches where it is scored at
    tables."""
    if summaries is None:
        summaries = uow.matches.summaries(card.match_ids)
    legs = {match_id: (summary["scores"], summary["winner"])
            for match_id, summary in summaries.items()}
    return game_outcomes(setup, card, legs)



@dataclass(frozen=True)
class Leg:
    """Where a table's match stands in its best-of game: its leg, of how many, and
    whether the game's next leg may be started from this table now."""

    number: int
    best_of: int
    next_due: bool


def leg_of(uow: UnitOfWork, stored: Opened, found: FixtureAtTable) -> Leg | None:
    """The leg a match scores, if it scores one of a best-of game on the card `found`."""
    if not found.setup.has_legs:
        return None
    game = found.card.game(stored.game)
    best_of = found.setup.format_of(game.kind).legs
    if best_of == 1 or stored.id not in game.matches:
        return None
    last = game.matches[-1] == stored.id and not found.card.confirmed
    due = last and stored.match.is_over() and \
        outcomes(uow, found.setup, found.card)[game.number - 1].next_leg
    return Leg(game.matches.index(stored.id) + 1, best_of, due)


def next_leg_at_table(uow: UnitOfWork, stored: Opened) -> Opened:
    """The table that scored a leg starts the game's next one (its scoring link is the
    right to): a new match, linked to the card, to be scored at the same table."""
    try:
        with uow:
            found = uow.leagues.fixture_at_table(stored.fixture_id) \
                if stored.fixture_id is not None else None
            game = found.card.game(stored.game) if found else None
            if game is None or stored.id not in game.matches:
                raise CardError.worded(N_("This table scores no game of a league card."),
                                       "not_on_card")
            setup, fixture = found.setup, found
            if game.matches[-1] != stored.id:
                raise CardError.worded(N_("The next leg of this game has already started."),
                                       "no_next_leg", game=game.number)
            leg = outcomes(uow, setup, fixture.card)[game.number - 1]
            fixture.card.with_next_leg(game.number, "", leg)  # refuses before storing
            match = Match(setup.table(game.kind, game.players))
            new = uow.matches.insert(match)
            uow.matches.link(new.id, fixture.id, game.number)
            uow.leagues.save_card(fixture.id, fixture.revision,
                                  fixture.card.with_next_leg(game.number, new.id, leg))
        return opened(new._replace(fixture_id=fixture.id, game=game.number), match)
    except StaleCard:
        raise card_changed() from None
