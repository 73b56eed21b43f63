"""The secretary's corrections of a season's fixtures: move one to another date, postpone
it and later rearrange it, swap home and away, delete it. Each is kept: on the card's
corrections, or (a fixture deleted, with its card) in the league's audit.
"""

from datetime import date

from ...league.cards.card_edits import swapped
from ...league.errors import N_, CardError
from ..unit_of_work import UnitOfWork
from .losses import ask_first, card_losses, refuse_confirmed
from .setup import Access, find_fixture, secretary_only


def _names(uow: UnitOfWork, access: Access) -> dict:
    return {team.id: team.name for team in uow.leagues.teams(access.league_id)}


def move_fixture(uow: UnitOfWork, access: Access, fixture_id: int, day: date) -> None:
    """The fixture to another date; a postponed one is rearranged to it."""
    secretary_only(access)
    with uow:
        fixture = find_fixture(uow, access, fixture_id, lock=True)
        if fixture.day == day.isoformat() and not fixture.postponed:
            return
        uow.leagues.set_day(fixture.id, day.isoformat())
        uow.leagues.add_correction(fixture.id, "rearranged" if fixture.postponed else "moved",
                                   {"from": fixture.day, "to": day.isoformat()})


def postpone_fixture(uow: UnitOfWork, access: Access, fixture_id: int) -> None:
    """Not played on its date, and no new date yet: it keeps its place in the list,
    marked postponed, until it is rearranged."""
    secretary_only(access)
    with uow:
        fixture = find_fixture(uow, access, fixture_id, lock=True)
        if fixture.postponed:
            raise CardError.worded(N_("This fixture is already postponed: give it its new "
                                      "date."), "already_postponed")
        if fixture.card.confirmed or fixture.card.walkover:
            raise CardError.worded(N_("This fixture has its result: a played fixture is not "
                                      "postponed."), "postponed_after_result")
        uow.leagues.set_day(fixture.id, fixture.day, postponed=True)
        uow.leagues.add_correction(fixture.id, "postponed", {"day": fixture.day})


def swap_fixture(uow: UnitOfWork, access: Access, fixture_id: int) -> None:
    """Home and away exchanged, with the sides of the players already picked."""
    secretary_only(access)
    with uow:
        fixture = find_fixture(uow, access, fixture_id, lock=True)
        uow.leagues.swap_sides(fixture.id, fixture.revision, swapped(fixture.card))
        uow.leagues.add_correction(fixture.id, "swapped", {})


def delete_fixture(uow: UnitOfWork, access: Access, fixture_id: int,
                   sure: str | None = None) -> None:
    """A fixture made by mistake goes, with its card; results on it are shown first, and a
    confirmed card is reopened before."""
    secretary_only(access)
    with uow:
        fixture = find_fixture(uow, access, fixture_id, lock=True)
        names = _names(uow, access)
        refuse_confirmed(fixture, names)
        ask_first(card_losses(uow, access.setup, fixture, names), sure)
        uow.audit.add_change(access.league_id, "fixture_deleted",
                             remove_fixture(uow, access, fixture, names))


def remove_fixture(uow: UnitOfWork, access: Access, fixture, names: dict) -> dict:
    """Delete a fixture; what it was, for the audit: its teams, date, card, the results
    it held and its corrections (its matches stay, as ordinary matches)."""
    kept = {"home": names[fixture.home], "away": names[fixture.away], "day": fixture.day,
            "play_off": fixture.play_off, "card": fixture.card.as_dict(),
            "results": card_losses(uow, access.setup, fixture, names),
            "corrections": [{"at": c.at, "kind": c.kind, "facts": c.facts}
                            for c in uow.leagues.corrections(access.league_id)
                            if c.fixture_id == fixture.id]}
    uow.leagues.delete_fixture(fixture.id)
    return kept
