"""What the pages of a league's people show: a team (its roster, former players, fixtures
and the links to correct them), a player (every counted game, with the season's figures),
and the secretary's record of the season's changes."""

from datetime import date

from ...league import counted
from ...league.season.player_stats import by_kind, player_records, ranked
from ..unit_of_work import UnitOfWork
from .setup import Access
from .views import fixture_line, league_state


def counted_results(access: Access, state: dict) -> list[tuple[str, object]]:
    """Every counted card's result, with its date: what the players' figures come from."""
    teams, found = state["teams"], []
    for fixture in state["fixtures"]:
        result = counted(access.setup, teams[fixture.home].name, teams[fixture.away].name,
                         state["cards"][fixture.id], state["outcomes"][fixture.id],
                         fixture.play_off)
        if result is not None:
            found.append((fixture.day, result))
    return found


def records(uow: UnitOfWork, access: Access) -> list:
    """Every player's season, most games won first (the player averages)."""
    state = league_state(uow, access)
    divisions = {team.name: team.division for team in state["teams"].values()}
    return [(divisions.get(record.team, ""), record)
            for record in ranked(player_records(counted_results(access, state)))]


def team_view(uow: UnitOfWork, access: Access, team_id: int, today: date) -> dict | None:
    """A team's page: its roster with each player's figures, its former players, its
    fixtures, and (for the secretary) its captain's link and the other teams."""
    state = league_state(uow, access)
    team = state["teams"].get(team_id)
    if team is None:
        return None
    found = player_records(counted_results(access, state))
    figures = {name: record for (name_team, name), record in found.items()
               if name_team == team.name}
    return {"id": team.id, "name": team.name, "division": team.division,
            "players": [(name, figures.get(name)) for name in team.players],
            "former": [(name, figures.get(name)) for name in team.former],
            "fixtures": [fixture_line(access, state, fixture, today)
                         for fixture in state["fixtures"]
                         if team_id in (fixture.home, fixture.away)],
            "captain_key": team.captain_key if access.secretary else None,
            "manages": access.secretary or access.team_id == team_id,
            "others": [(other.id, other.name) for other in state["teams"].values()
                       if other.id != team_id]}


def player_view(uow: UnitOfWork, access: Access, team_id: int, name: str) -> dict | None:
    """A player's page: every counted game they played for the team, and the figures."""
    state = league_state(uow, access)
    team = state["teams"].get(team_id)
    if team is None or name not in (*team.players, *team.former):
        return None
    found = player_records(counted_results(access, state)).get((team.name, name))
    return {"name": name, "team": team.name, "team_id": team.id,
            "former": name in team.former, "record": found,
            "averages": by_kind(found, access.setup.averaged_apart) if found else []}


def changes(uow: UnitOfWork, access: Access) -> list:
    """The season's changes, newest first (the secretary's page lists them)."""
    if not access.secretary:
        return []
    return list(reversed(uow.audit.changes(access.league_id)))
