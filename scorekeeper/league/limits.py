"""How large a league's lists may grow: teams, a team's roster and its former players,
fixtures (a card's games are limited by setup.MAX_GAMES).

Far above any pub league (a secretary's 12 teams of 8 players), and small enough that
every page, export and the double round robin of the most teams are made within a second:
without them, one request making the fixtures of 700 teams held a worker past a minute.
"""

from .errors import N_, SetupRefused

MAX_TEAMS = 30
"""Teams in one league: their double round robin is 870 fixtures."""
ROSTER_SIZE = 30
"""Players on one team's roster."""
MAX_FORMER = 100
"""Former players one team keeps (players who played for it and left): a whole roster
replaced three times over. A team of a million of them once made its page 94 MB."""
MAX_FIXTURES = 1000
"""Fixtures in one league: the most teams' double round robin, and cup nights besides."""


def check_teams(count: int) -> None:
    if count > MAX_TEAMS:
        raise SetupRefused.worded(N_("A league has at most %(most)s teams."), "too_many_teams",
                                  most=MAX_TEAMS)


def check_roster(count: int) -> None:
    if count > ROSTER_SIZE:
        raise SetupRefused.worded(N_("A team has at most %(most)s players."),
                                  "too_many_players", most=ROSTER_SIZE)


def check_former(count: int) -> None:
    if count > MAX_FORMER:
        raise SetupRefused.worded(N_("A team keeps at most %(most)s former players."),
                                  "too_many_former", most=MAX_FORMER)


def check_fixtures(count: int) -> None:
    if count > MAX_FIXTURES:
        raise SetupRefused.worded(N_("A league has at most %(most)s fixtures."),
                                  "too_many_fixtures", most=MAX_FIXTURES)
