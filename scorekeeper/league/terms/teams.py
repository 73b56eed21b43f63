"""Teams as a secretary writes them (one a line, under the division each plays in) and the
rules of their squads: a player plays for one team, a squad holds at most the league's
limit."""

from ..errors import N_, SetupRefused
from .setup import LeagueSetup, checked_name


def read_team_lines(lines) -> tuple[tuple[str, ...], list[tuple[str, str]]]:
    """The divisions and teams of a list of lines: a team a line; a line ending in a colon
    (`A:`) starts a division, and every team below it plays in it. Without such lines the
    league has no divisions."""
    divisions: list[str] = []
    teams: list[tuple[str, str]] = []
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if line.endswith(":"):
            divisions.append(checked_name(line[:-1], N_("Every division needs a name.")))
            continue
        if divisions:
            teams.append((line, divisions[-1]))
        elif any(line.endswith(":") for line in lines if line.strip()):
            raise SetupRefused.worded(N_("%(team)s comes before the first division: write "
                                         "each division's name with a colon, then its "
                                         "teams."), "team_before_division",
                                      team=checked_name(line, N_("Every team needs a name.")))
        else:
            teams.append((line, ""))
    return tuple(divisions), teams


def checked_division(setup: LeagueSetup, division: str) -> str:
    """A division of the league; "" in a league without divisions."""
    division = " ".join(str(division or "").split())
    if division not in (setup.divisions or ("",)):
        raise SetupRefused.worded(N_("This league has no division %(division)s."),
                                  "no_such_division", division=division[:40])
    return division


def check_squad(setup: LeagueSetup, team: str, players: list[str]) -> None:
    """A squad holds at most the league's limit of players in a season."""
    if setup.squad is not None and len(players) > setup.squad:
        raise SetupRefused.worded(N_("%(team)s's squad is full: a team registers at most "
                                     "%(most)s players a season."), "squad_full", team=team,
                                  most=setup.squad)


def check_same_division(divisions: dict, home, away) -> None:
    """A fixture, play-offs too, is between two teams of one division."""
    if divisions[home] != divisions[away]:
        raise SetupRefused.worded(N_("A fixture is between two teams of the same "
                                     "division."), "other_division")
