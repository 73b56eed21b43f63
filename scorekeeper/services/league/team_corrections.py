"""The secretary's corrections of a season's teams and players: rename, delete, move
between teams, or mark that a player left; each kept in the league's audit with what it
removed. Deleting what holds results asks first; a confirmed result is never deleted.

A player's games stay with the team they were played for: a player who moves or leaves
is kept as that team's former player, and a name corrected is corrected on the team's
cards and at the tables of its games.
"""

from datetime import date

from ...league.cards.card import REMOVED
from ...league.cards.card_edits import names_on, renamed, without_player
from ...league.errors import N_, CardError, SetupRefused
from ...league.limits import check_former, check_roster
from ...league.season.adjustments import ADJUSTED, adjustment
from ...league.terms.setup import checked_name
from ...league.terms.teams import check_squad
from ..unit_of_work import UnitOfWork
from .fixture_corrections import remove_fixture
from .losses import ask_first, card_losses, refuse_confirmed, side_of
from .setup import (
    Access,
    NotAllowed,
    new_team_name,
    no_such_team,
    plays_already,
    secretary_only,
)


def _team(teams: dict, team_id: int):
    if team_id not in teams:
        raise no_such_team()
    return teams[team_id]


def _roster_write(access: Access, team_id: int) -> None:
    if not (access.secretary or access.team_id == team_id):
        raise NotAllowed.worded(N_("A captain's link changes only that team's roster."),
                                "other_team")


def adjust_points(uow: UnitOfWork, access: Access, team_id: int, points: int, day: date,
                  reason: str) -> None:
    """The secretary deducts points from a team (negative) or awards it some, with a reason
    and a date: kept in the league's changes, which the standings read."""
    secretary_only(access)
    with uow:
        uow.leagues.lock(access.league_id)
        team = _team({team.id: team for team in uow.leagues.teams(access.league_id)}, team_id)
        uow.audit.add_change(access.league_id, ADJUSTED,
                             adjustment(team.name, points, day, reason).as_facts())


def rename_team(uow: UnitOfWork, access: Access, team_id: int, name: str) -> None:
    secretary_only(access)
    with uow:
        uow.leagues.lock(access.league_id)
        teams = {team.id: team for team in uow.leagues.teams(access.league_id)}
        old = _team(teams, team_id).name
        name = new_team_name([team.name for team in teams.values() if team.id != team_id],
                             name)
        if name != old:
            uow.leagues.rename_team(team_id, name)
            uow.audit.add_change(access.league_id, "team_renamed", {"from": old, "to": name})


def delete_team(uow: UnitOfWork, access: Access, team_id: int, sure: str | None = None) -> None:
    """A team goes with its roster and fixtures (a test team, a team that withdrew);
    results on its cards are shown first, and a confirmed one keeps the team."""
    secretary_only(access)
    with uow:
        uow.leagues.lock(access.league_id)
        teams = {team.id: team for team in uow.leagues.teams(access.league_id)}
        team = _team(teams, team_id)
        names = {found.id: found.name for found in teams.values()}
        fixtures = [fixture for fixture in uow.leagues.fixtures(access.league_id)
                    if team_id in (fixture.home, fixture.away)]
        for fixture in fixtures:
            refuse_confirmed(fixture, names, team.name)
        ask_first([loss for fixture in fixtures
                   for loss in card_losses(uow, access.setup, fixture, names)], sure)
        removed = [remove_fixture(uow, access, fixture, names) for fixture in fixtures]
        uow.leagues.delete_team(team_id)
        uow.audit.add_change(access.league_id, "team_deleted", {
            "team": team.name, "division": team.division, "players": team.players,
            "former": team.former, "fixtures": removed})


def _player(team, name: str) -> str:
    if name not in team.players:
        raise SetupRefused.worded(N_("%(name)s is not on the team's roster."),
                                  "not_on_roster", name=str(name)[:40])
    return name


def _team_fixtures(uow: UnitOfWork, access: Access, team_id: int, lock: bool = False):
    """The team's fixtures with their cards (each row held, with `lock`)."""
    return [uow.leagues.fixture(access.league_id, fixture.id, lock)
            for fixture in uow.leagues.fixtures(access.league_id)
            if team_id in (fixture.home, fixture.away)]


def rename_player(uow: UnitOfWork, access: Access, team_id: int, old: str, new: str) -> None:
    """A player's name corrected on the roster, on the team's cards and at the tables of
    their games (a name another player has is refused)."""
    _roster_write(access, team_id)
    new = checked_name(new, N_("Every player needs a name."))
    with uow:
        uow.leagues.lock(access.league_id)
        teams = {team.id: team for team in uow.leagues.teams(access.league_id)}
        team = _team(teams, team_id)
        _player(team, old)
        if new == old:
            return
        for name in team.players + team.former:
            if name != old and name.casefold() == new.casefold():
                raise plays_already(name, team.name)
        for fixture in _team_fixtures(uow, access, team_id, lock=True):
            side = side_of(fixture, team_id)
            if old in names_on(fixture.card, side):
                games = [game for game in fixture.card.games if old in getattr(game, side)]
                uow.matches.rename_player([match for game in games for match in game.matches],
                                          old, new)
                uow.leagues.save_card(fixture.id, fixture.revision,
                                      renamed(fixture.card, side, old, new))
        uow.leagues.set_roster(team_id, [new if name == old else name for name in team.players])
        uow.audit.add_change(access.league_id, "player_renamed",
                             {"team": team.name, "from": old, "to": new})


def delete_player(uow: UnitOfWork, access: Access, team_id: int, name: str,
                  sure: str | None = None) -> None:
    """A player taken off the roster and off the team's open cards: a game of theirs
    already begun loses its result (shown first, and kept on the card's corrections); a
    player on a confirmed card stays (they can be marked as having left instead)."""
    _roster_write(access, team_id)
    with uow:
        uow.leagues.lock(access.league_id)
        teams = {team.id: team for team in uow.leagues.teams(access.league_id)}
        team = _team(teams, team_id)
        _player(team, name)
        names = {found.id: found.name for found in teams.values()}
        named = [fixture for fixture in _team_fixtures(uow, access, team_id, lock=True)
                 if name in names_on(fixture.card, side_of(fixture, team_id))]
        losses = []
        for fixture in named:
            refuse_confirmed(fixture, names, name)
            side = side_of(fixture, team_id)
            games = [game.number for game in fixture.card.games if name in getattr(game, side)]
            losses += card_losses(uow, access.setup, fixture, names, games)
        if losses and not access.secretary:
            raise NotAllowed.worded(N_("%(name)s has results on a card: only the secretary "
                                       "can delete a player with results."),
                                    "results_secretary_only", name=name)
        ask_first(losses, sure)
        for fixture in named:
            _take_off_card(uow, fixture, side_of(fixture, team_id), name)
        uow.leagues.set_roster(team_id, [player for player in team.players if player != name])
        uow.audit.add_change(access.league_id, "player_deleted",
                             {"team": team.name, "name": name, "results": losses})


def _take_off_card(uow: UnitOfWork, fixture, side: str, name: str) -> None:
    """The player off one card: their games begun lose their results (their tables are
    told), and the card's corrections say so."""
    card, taken_off = without_player(fixture.card, side, name)
    uow.matches.hold([match for game in taken_off for match in game.matches], REMOVED)
    uow.leagues.save_card(fixture.id, fixture.revision, card)
    uow.leagues.add_correction(fixture.id, "player_removed", {
        "name": name, "side": side, "games": [game.number for game in taken_off]})


def move_player(uow: UnitOfWork, access: Access, team_id: int, name: str,
                to: int | None) -> None:
    """A player moves to another team (`to`), or leaves the league (None). Their games so
    far stay with the team they played them for (a former player of it); a game they were
    only picked for is picked again. A player who has played moves only where the league
    allows transfers."""
    secretary_only(access)
    with uow:
        uow.leagues.lock(access.league_id)
        teams = {team.id: team for team in uow.leagues.teams(access.league_id)}
        team = _team(teams, team_id)
        _player(team, name)
        fixtures = _team_fixtures(uow, access, team_id, lock=True)
        played = any(_has_played(fixture, side_of(fixture, team_id), name)
                     for fixture in fixtures)
        if to is not None:
            _join(uow, access, teams, _team(teams, to), name, played, team_id)
        for fixture in fixtures:
            _unpick(uow, fixture, side_of(fixture, team_id), name)
        former = [*team.former, name] if played and name not in team.former else team.former
        check_former(len(former))
        uow.leagues.set_roster(team_id, [player for player in team.players if player != name],
                               former)
        uow.audit.add_change(access.league_id, "player_moved" if to else "player_left", {
            "name": name, "from": team.name, "to": teams[to].name if to else None})


def _has_played(fixture, side: str, name: str) -> bool:
    """Named in a game begun, or on a confirmed card."""
    return any(name in getattr(game, side) and (game.begun or fixture.card.confirmed)
               for game in fixture.card.games)


def _join(uow: UnitOfWork, access: Access, teams: dict, target, name: str, played: bool,
          team_id: int) -> None:
    if target.id == team_id:
        raise plays_already(name, target.name)
    if played and not access.setup.transfers:
        raise SetupRefused.worded(N_("%(name)s has played for the team this season, and "
                                     "this league lets no player change teams during a "
                                     "season."), "no_transfers", name=name)
    for player in target.players:
        if player.casefold() == name.casefold():
            raise plays_already(player, target.name)
    roster = [*target.players, name]
    check_roster(len(roster))
    check_squad(access.setup, target.name, roster + [player for player in target.former
                                                     if player != name])
    uow.leagues.set_roster(target.id, roster,
                           [player for player in target.former if player != name])


def _unpick(uow: UnitOfWork, fixture, side: str, name: str) -> None:
    """The player off the games of an open card they were picked for and have not begun,
    and out of a line-up handed in: the captain picks again."""
    card = fixture.card
    if card.confirmed or card.walkover or name not in names_on(card, side):
        return
    begun = [game for game in card.games if game.begun and name in getattr(game, side)]
    if begun:
        raise CardError.worded(N_("%(name)s is playing game %(game)s of a card not yet "
                                  "confirmed: confirm it, or take the game off it, first."),
                               "player_playing", name=name, game=begun[0].number)
    uow.leagues.save_card(fixture.id, fixture.revision, without_player(card, side, name)[0])
