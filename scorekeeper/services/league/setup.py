"""A league opened by one of its links, and set up: created, its teams in their divisions,
rosters and fixtures (the cards' own use cases are in card.py).

Who may do what follows from the link used: the secretary's (everything), a captain's
(that team's roster and cards), or the public one (reading only). Every write runs in
one transaction; a refusal raises a LeagueError and changes nothing.
"""

import hmac
from dataclasses import dataclass
from datetime import date

from ...league import (
    Card,
    LeagueSetup,
    checked_name,
    dated,
    double_round_robin,
)
from ...league.errors import N_, LeagueError, SetupRefused
from ...league.limits import check_fixtures, check_roster, check_teams
from ...league.terms.setup import CAPTAIN, PUBLIC, SECRETARY
from ...league.terms.teams import check_squad, checked_division
from ..unit_of_work import UnitOfWork


class NotAllowed(LeagueError):
    """A link that does not give the right to do this (a captain of another team, the public)."""

    kind = "not_allowed"


class NoSuchFixture(LeagueError):
    kind = "no_such_fixture"


class CardChanged(LeagueError):
    """Someone else changed the card after this page showed it: the write is refused."""

    kind = "card_changed"


def no_such_team() -> NotAllowed:
    """A team the league does not have (a page from before it was deleted)."""
    return NotAllowed.worded(N_("This league has no such team."), "no_such_team")


def plays_already(name: str, team: str) -> SetupRefused:
    """A player who is on a team's roster already (in any letter case)."""
    return SetupRefused.worded(N_("%(name)s already plays for %(team)s."), "player_taken",
                               name=name, team=team)


def card_changed() -> CardChanged:
    """A card someone else changed after the page showed it."""
    return CardChanged.worded(N_("Someone else changed this card first. Here is the card "
                                 "now."), "card_changed")


@dataclass(frozen=True)
class Access:
    """A league opened with one of its links: who is asking, and the league's setup."""

    league_id: str
    key: str
    role: str
    team_id: int | None
    setup: LeagueSetup
    public_key: str

    @property
    def secretary(self) -> bool:
        return self.role == SECRETARY

    def may_edit(self, home: int, away: int) -> bool:
        return self.secretary or (self.role == CAPTAIN and self.team_id in (home, away))


def open_league(uow: UnitOfWork, league_id: str, key: str) -> Access | None:
    """The league and the role its link gives, or None; every key compared in constant time."""
    league = uow.leagues.league(league_id)
    if league is None:
        return None
    given, role, team_id = str(key).encode(), None, None
    for candidate, who, team in [(league.secretary_key, SECRETARY, None),
                                 (league.public_key, PUBLIC, None),
                                 *[(team.captain_key, CAPTAIN, team.id)
                                   for team in uow.leagues.teams(league_id)]]:
        if hmac.compare_digest(candidate.encode(), given):
            role, team_id = who, team
    if role is None:
        return None
    return Access(league.id, key, role, team_id, league.setup, league.public_key)


def create_league(uow: UnitOfWork, setup: LeagueSetup,
                  teams: list[tuple[str, str]]) -> Access:
    """A new league with its first teams, each (name, division); the answer is the
    secretary's access."""
    names = _new_team_names([], [name for name, _ in teams])
    check_teams(len(names))
    divisions = [checked_division(setup, division) for _, division in teams]
    with uow:
        league = uow.leagues.insert_league(setup)
        for name, division in zip(names, divisions, strict=True):
            uow.leagues.insert_team(league.id, name, [], division)
    return Access(league.id, league.secretary_key, SECRETARY, None, setup, league.public_key)


def new_team_name(existing: list[str], name: str) -> str:
    """A team's name, checked: one line, and no other team's (in any letter case)."""
    return _new_team_names(existing, [name])[0]


def _new_team_names(existing: list[str], names: list[str]) -> list[str]:
    taken = {name.casefold() for name in existing}
    checked = []
    for name in names:
        name = checked_name(name, N_("Every team needs a name."))
        if name.casefold() in taken:
            raise SetupRefused.worded(N_("There is already a team called %(team)s."),
                                      "duplicate_team", team=name)
        taken.add(name.casefold())
        checked.append(name)
    return checked


def secretary_only(access: Access) -> None:
    if not access.secretary:
        raise NotAllowed.worded(N_("Only the league secretary's link can do this."),
                                "secretary_only")


def add_team(uow: UnitOfWork, access: Access, name: str, division: str = "") -> None:
    secretary_only(access)
    division = checked_division(access.setup, division)
    with uow:
        uow.leagues.lock(access.league_id)
        existing = [team.name for team in uow.leagues.teams(access.league_id)]
        (name,) = _new_team_names(existing, [name])
        check_teams(len(existing) + 1)
        uow.leagues.insert_team(access.league_id, name, [], division)


def add_player(uow: UnitOfWork, access: Access, team_id: int, name: str) -> None:
    """A player joins a team's roster (on the night too; a former player of the team comes
    back); a name is once in a team (two teams may each have a Dave Smith), and a squad
    holds at most the league's limit of players a season, its former players counted."""
    if not (access.secretary or access.team_id == team_id):
        raise NotAllowed.worded(N_("A captain's link changes only that team's roster."),
                                "other_team")
    name = checked_name(name, N_("Every player needs a name."))
    with uow:
        uow.leagues.lock(access.league_id)
        teams = {team.id: team for team in uow.leagues.teams(access.league_id)}
        if team_id not in teams:
            raise no_such_team()
        team = teams[team_id]
        if name.casefold() in (player.casefold() for player in team.players):
            raise plays_already(name, team.name)
        roster, former = [*team.players, name], [gone for gone in team.former if gone != name]
        check_roster(len(roster))
        check_squad(access.setup, team.name, roster + former)
        uow.leagues.set_roster(team_id, roster, former)


def make_fixtures(uow: UnitOfWork, access: Access, first: date, days_between: int = 7) -> int:
    """A double round robin in each division, one round every `days_between` days."""
    secretary_only(access)
    with uow:
        uow.leagues.lock(access.league_id)
        if any(not fixture.play_off for fixture in uow.leagues.fixtures(access.league_id)):
            raise SetupRefused.worded(N_("The fixtures are already made: add or change them "
                                         "one by one."), "fixtures_exist")
        teams = uow.leagues.teams(access.league_id)
        check_teams(len(teams))  # bounds the fixtures made in this one request
        made = []
        for division in access.setup.divisions or ("",):
            team_ids = [team.id for team in teams if team.division == division]
            if len(team_ids) < 2:
                raise SetupRefused.worded(N_("A league needs at least two teams for fixtures."),
                                          "too_few_teams", division=division)
            check_teams(len(team_ids))  # bounds the fixtures made in this one request
            made += dated(double_round_robin(team_ids), first, days_between)
        check_fixtures(len(made))
        for home, away, day in made:
            insert_fixture(uow, access, home, away, day)
    return len(made)


def insert_fixture(uow: UnitOfWork, access: Access, home: int, away: int, day: date,
                    play_off: bool = False) -> int:
    return uow.leagues.insert_fixture(access.league_id, home, away, day.isoformat(),
                                      Card.blank(access.setup.games), play_off)


def find_fixture(uow: UnitOfWork, access: Access, fixture_id, lock: bool = False):
    fixture = uow.leagues.fixture(access.league_id, fixture_id, lock)
    if fixture is None:
        raise NoSuchFixture.worded(N_("This league has no such fixture."), "no_such_fixture")
    return fixture
