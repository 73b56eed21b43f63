"""The secretary's fixtures beyond the round robin, and corrections of them: one added by
hand (a play-off between teams level on points), moved to another date, postponed and
later rearranged, home and away swapped, deleted. Each change is kept on the card's
corrections and in the league's audit (a fixture deleted, with its card).
"""

from datetime import date

from ...league import check_fixture
from ...league.cards.card_edits import swapped
from ...league.errors import N_, CardError, SetupRefused
from ...league.limits import check_fixtures
from ...league.terms.teams import check_same_division
from ..unit_of_work import UnitOfWork
from .losses import ask_first, card_losses, refuse_confirmed
from .setup import Access, find_fixture, insert_fixture, no_such_team, secretary_only
from .views import league_changes, league_state, tables


def add_fixture(uow: UnitOfWork, access: Access, home: int, away: int, day: date,
                play_off: bool = False) -> None:
    """One more fixture between two teams of one division; a play-off settles a tie on
    points, so only between teams level on points."""
    secretary_only(access)
    check_fixture(home, away)
    with uow:
        uow.leagues.lock(access.league_id)
        teams = {team.id: team for team in uow.leagues.teams(access.league_id)}
        if not {home, away} <= set(teams):
            raise no_such_team()
        check_same_division({team.id: team.division for team in teams.values()}, home, away)
        check_fixtures(uow.leagues.count_fixtures(access.league_id) + 1)
        if play_off:
            _check_level(uow, access, teams[home].name, teams[away].name)
        insert_fixture(uow, access, home, away, day, play_off)


def _check_level(uow: UnitOfWork, access: Access, home: str, away: str) -> None:
    points = {row.team: row.points for table in tables(access, league_state(uow, access),
                                                       league_changes(uow, access))
              for row in table.rows}
    if points[home] != points[away]:
        raise SetupRefused.worded(N_("A play-off settles a tie on points: %(home)s have "
                                     "%(home_points)s, %(away)s %(away_points)s."),
                                  "play_off_not_level", home=home, away=away,
                                  home_points=points[home], away_points=points[away])


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
        _changed(uow, access, fixture, "rearranged" if fixture.postponed else "moved",
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
        _changed(uow, access, fixture, "postponed", {"day": fixture.day})


def swap_fixture(uow: UnitOfWork, access: Access, fixture_id: int) -> None:
    """Home and away exchanged, with the sides of the players already picked."""
    secretary_only(access)
    with uow:
        fixture = find_fixture(uow, access, fixture_id, lock=True)
        uow.leagues.swap_sides(fixture.id, fixture.revision, swapped(fixture.card))
        _changed(uow, access, fixture, "swapped", {})


def _changed(uow: UnitOfWork, access: Access, fixture, kind: str, facts: dict) -> None:
    """A change of a fixture, kept on its card's corrections and in the season's changes
    (`fixture_moved`, ...: the fixture named by its teams as they were)."""
    uow.leagues.add_correction(fixture.id, kind, facts)
    names = _names(uow, access)
    uow.audit.add_change(access.league_id, f"fixture_{kind}", {
        "home": names[fixture.home], "away": names[fixture.away], "day": fixture.day,
        **facts})


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
