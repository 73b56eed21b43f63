"""League use cases: create a league, its teams, rosters and fixtures, and work its cards.

Who may do what follows from the link used: the secretary's (everything), a captain's
(that team's roster and cards), or the public one (reading only). Every write runs in
one transaction; a refusal raises a LeagueError and changes nothing.
"""

import hmac
from dataclasses import dataclass
from datetime import date

from ..league import (
    AWAY,
    HOME,
    Card,
    LeagueSetup,
    check_fixture,
    checked_name,
    dated,
    double_round_robin,
    outcome,
)
from ..league.errors import N_, LeagueError, SetupRefused
from ..league.limits import check_fixtures, check_roster, check_teams
from ..rules import Match
from ..storage import CONFIRMED, REMOVED, StaleCard
from .unit_of_work import UnitOfWork

SECRETARY, CAPTAIN, PUBLIC = "secretary", "captain", "public"


class NotAllowed(LeagueError):
    """A link that does not give the right to do this (a captain of another team, the public)."""

    kind = "not_allowed"


class NoSuchFixture(LeagueError):
    kind = "no_such_fixture"


class CardChanged(LeagueError):
    """Someone else changed the card after this page showed it: the write is refused."""

    kind = "card_changed"


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


def create_league(uow: UnitOfWork, setup: LeagueSetup, team_names: list[str]) -> Access:
    """A new league with its first teams; the answer is the secretary's access."""
    names = _new_team_names([], team_names)
    check_teams(len(names))
    with uow:
        league = uow.leagues.insert_league(setup)
        for name in names:
            uow.leagues.insert_team(league.id, name, [])
    return Access(league.id, league.secretary_key, SECRETARY, None, setup, league.public_key)


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


def _secretary_only(access: Access) -> None:
    if not access.secretary:
        raise NotAllowed.worded(N_("Only the league secretary's link can do this."),
                                "secretary_only")


def add_team(uow: UnitOfWork, access: Access, name: str) -> None:
    _secretary_only(access)
    with uow:
        uow.leagues.lock(access.league_id)
        existing = [team.name for team in uow.leagues.teams(access.league_id)]
        (name,) = _new_team_names(existing, [name])
        check_teams(len(existing) + 1)
        uow.leagues.insert_team(access.league_id, name, [])


def add_player(uow: UnitOfWork, access: Access, team_id: int, name: str) -> None:
    """A player joins a team's roster (on the night too); a player plays for one team."""
    if not (access.secretary or access.team_id == team_id):
        raise NotAllowed.worded(N_("A captain's link changes only that team's roster."),
                                "other_team")
    name = checked_name(name, N_("Every player needs a name."))
    with uow:
        uow.leagues.lock(access.league_id)
        teams = {team.id: team for team in uow.leagues.teams(access.league_id)}
        if team_id not in teams:
            raise NotAllowed.worded(N_("This league has no such team."), "no_such_team")
        for team in teams.values():
            if name.casefold() in (player.casefold() for player in team.players):
                raise SetupRefused.worded(N_("%(name)s already plays for %(team)s."),
                                          "player_taken", name=name, team=team.name)
        check_roster(len(teams[team_id].players) + 1)
        uow.leagues.set_roster(team_id, [*teams[team_id].players, name])


def make_fixtures(uow: UnitOfWork, access: Access, first: date, days_between: int = 7) -> int:
    """A double round robin of the league's teams, one round every `days_between` days."""
    _secretary_only(access)
    with uow:
        uow.leagues.lock(access.league_id)
        if uow.leagues.fixtures(access.league_id):
            raise SetupRefused.worded(N_("The fixtures are already made: add or change them "
                                         "one by one."), "fixtures_exist")
        team_ids = [team.id for team in uow.leagues.teams(access.league_id)]
        if len(team_ids) < 2:
            raise SetupRefused.worded(N_("A league needs at least two teams for fixtures."),
                                      "too_few_teams")
        check_teams(len(team_ids))  # bounds the fixtures made in this one request
        made = dated(double_round_robin(team_ids), first, days_between)
        check_fixtures(len(made))
        for home, away, day in made:
            _insert_fixture(uow, access, home, away, day)
    return len(made)


def add_fixture(uow: UnitOfWork, access: Access, home: int, away: int, day: date) -> None:
    _secretary_only(access)
    check_fixture(home, away)
    with uow:
        uow.leagues.lock(access.league_id)
        if not {home, away} <= {team.id for team in uow.leagues.teams(access.league_id)}:
            raise NotAllowed.worded(N_("This league has no such team."), "no_such_team")
        check_fixtures(uow.leagues.count_fixtures(access.league_id) + 1)
        _insert_fixture(uow, access, home, away, day)


def _insert_fixture(uow: UnitOfWork, access: Access, home: int, away: int, day: date) -> int:
    return uow.leagues.insert_fixture(access.league_id, home, away, day.isoformat(),
                                      Card.blank(access.setup.games))


def move_fixture(uow: UnitOfWork, access: Access, fixture_id: int, day: date) -> None:
    _secretary_only(access)
    with uow:
        _fixture(uow, access, fixture_id)
        uow.leagues.set_day(fixture_id, day.isoformat())


def _fixture(uow: UnitOfWork, access: Access, fixture_id):
    fixture = uow.leagues.fixture(access.league_id, fixture_id)
    if fixture is None:
        raise NoSuchFixture.worded(N_("This league has no such fixture."), "no_such_fixture")
    return fixture


def _write_card(uow: UnitOfWork, access: Access, fixture_id: int, revision: int, change,
                correction=None) -> None:
    """Change a card in one transaction, if this link may and it is still at `revision`.

    The secretary's changes are kept as corrections: when, and what changed (`correction`:
    a (kind, facts) pair, or a function of the card before and after that makes one, or
    None). The matches of a card both captains have signed are held: their tables can
    change nothing until the card is reopened.
    """
    try:
        with uow:
            fixture = _fixture(uow, access, fixture_id)
            if not access.may_edit(fixture.home, fixture.away):
                raise NotAllowed.worded(N_("Only the captains of this fixture and the "
                                           "secretary can change its card."), "not_your_card")
            changed = change(fixture.card, fixture)
            uow.leagues.save_card(fixture.id, revision, changed)
            if fixture.card.signed != changed.signed:
                uow.matches.hold(_match_ids(changed), CONFIRMED if changed.signed else "")
            if callable(correction):
                correction = correction(fixture.card, changed)
            if correction and (access.secretary or correction[0] == "reopened"):
                uow.leagues.add_correction(fixture.id, *correction)
    except StaleCard:
        raise CardChanged.worded(N_("Someone else changed this card first. Here is the card "
                                    "now."), "card_changed") from None


def _match_ids(card: Card) -> list[str]:
    return [game.match_id for game in card.games if game.match_id]


def set_players(uow: UnitOfWork, access: Access, fixture_id: int, revision: int, number: int,
                home: list[str], away: list[str]) -> None:
    def change(card: Card, fixture) -> Card:
        rosters = {HOME: _roster(uow, fixture.home), AWAY: _roster(uow, fixture.away)}
        return card.with_players(number, home, away, rosters)

    _write_card(uow, access, fixture_id, revision, change,
                ("players", {"game": number, "home": list(home), "away": list(away)}))


def _roster(uow: UnitOfWork, team_id: int) -> list[str]:
    return next(team.players for team in uow.leagues.teams_by_id([team_id]))


def start_game(uow: UnitOfWork, access: Access, fixture_id: int, revision: int,
               number: int) -> None:
    """The game becomes an ordinary match of the app, linked to the card, in one write."""
    def change(card: Card, fixture) -> Card:
        card.started(number, "")  # refuses a game begun or without players, before storing
        game = card.game(number)
        stored = uow.matches.insert(Match(access.setup.table(game.kind, game.players)))
        uow.matches.link(stored.id, fixture.id, number)
        return card.started(number, stored.id)

    _write_card(uow, access, fixture_id, revision, change, ("started", {"game": number}))


def enter_score(uow: UnitOfWork, access: Access, fixture_id: int, revision: int, number: int,
                home_points, away_points) -> None:
    """A game played on paper: its final score, marked entered, not scored."""
    _write_card(uow, access, fixture_id, revision,
                lambda card, _row: card.with_entered(number, home_points, away_points,
                                                     access.setup.target,
                                                     access.setup.rule_set.exact_target),
                ("entered", {"game": number, "home": home_points, "away": away_points}))


def clear_game(uow: UnitOfWork, access: Access, fixture_id: int, revision: int,
               number: int) -> None:
    """The secretary takes a game's result off a reopened card, to enter it again; the
    correction keeps the score taken off, and the game's table is told."""
    _secretary_only(access)
    taken_off = {}

    def change(card: Card, _fixture) -> Card:
        game, found = card.game(number), outcomes(uow, card)[number - 1]
        if found.state != "waiting":
            taken_off.update(home=found.home_points, away=found.away_points,
                             state=found.state)
        if game.match_id:
            uow.matches.hold([game.match_id], REMOVED)
        return card.cleared(number)

    _write_card(uow, access, fixture_id, revision, change,
                lambda _before, _after: ("cleared", {"game": number, "taken_off": taken_off}))


def reopen(uow: UnitOfWork, access: Access, fixture_id: int, revision: int) -> None:
    """The secretary reopens a card (audited): its games' tables are free again."""
    _secretary_only(access)
    _write_card(uow, access, fixture_id, revision, lambda card, _fixture: card.reopened(),
                ("reopened", {"by": SECRETARY}))


def ask_reopen(uow: UnitOfWork, access: Access, fixture_id: int, revision: int) -> None:
    """A captain asks to reopen the signed card; with both captains asking it reopens
    (audited), and its games' tables are free again."""
    def change(card: Card, fixture) -> Card:
        return card.with_reopen_asked(_captains_side(access, fixture))

    _write_card(uow, access, fixture_id, revision, change,
                lambda before, after: ("reopened", {"by": CAPTAIN})
                if before.signed and not after.signed else None)


def _captains_side(access: Access, fixture) -> str:
    side = (HOME if access.team_id == fixture.home else
            AWAY if access.team_id == fixture.away else None)
    if access.role != CAPTAIN or side is None:
        raise NotAllowed.worded(N_("Only the captains of this fixture confirm its card, "
                                   "each from their own link."), "not_a_captain")
    return side


def confirm(uow: UnitOfWork, access: Access, fixture_id: int, revision: int) -> None:
    """A captain signs the card from their own link, once every game is over. The games'
    matches are locked first: no tap comes between reading their scores and the signing."""
    def change(card: Card, fixture) -> Card:
        side = _captains_side(access, fixture)
        uow.matches.lock(_match_ids(card))
        return card.with_confirmation(side, outcomes(uow, card))

    _write_card(uow, access, fixture_id, revision, change)


def outcomes(uow: UnitOfWork | None, card: Card, summaries: dict | None = None) -> list:
    """How each game of the card stands, read off its match where it is scored at a table."""
    if summaries is None:
        summaries = uow.matches.summaries([g.match_id for g in card.games if g.match_id])
    found = []
    for game in card.games:
        summary = summaries.get(game.match_id) if game.match_id else None
        found.append(outcome(game, summary["scores"], summary["winner"]) if summary
                     else outcome(game))
    return found
