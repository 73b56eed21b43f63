"""Fixtures: who hosts whom. A double round robin meets every pair twice, once at each pub."""

from datetime import date, timedelta

from ..errors import N_, SetupRefused


def check_fixture(home, away) -> None:
    if home == away:
        raise SetupRefused.worded(N_("A team cannot play itself: choose two different "
                                     "teams."), "same_team")


def round_robin(teams: list) -> list[list[tuple]]:
    """Rounds of (home, away): each team meets each other once; the circle method.

    With an odd number of teams one rests each round. Home and away alternate so no
    team is at home much more often than away.
    """
    circle = list(teams) + ([None] if len(teams) % 2 else [])
    count = len(circle)
    rounds = []
    for number in range(count - 1):
        pairs = []
        for index in range(count // 2):
            first, second = circle[index], circle[count - 1 - index]
            if first is None or second is None:
                continue
            home_first = (index == 0 and number % 2 == 0) or (index > 0 and index % 2 == 1)
            pairs.append((first, second) if home_first else (second, first))
        rounds.append(pairs)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def double_round_robin(teams: list) -> list[list[tuple]]:
    """The first half as round_robin, then the same rounds with home and away swapped."""
    first = round_robin(teams)
    return first + [[(away, home) for home, away in pairs] for pairs in first]


def dated(rounds: list[list[tuple]], first: date, days_between: int = 7) -> list[tuple]:
    """(home, away, date) for every fixture, a round every `days_between` days."""
    if days_between < 1:
        raise SetupRefused.worded(N_("Rounds must be at least a day apart."), "bad_interval")
    return [(home, away, first + timedelta(days=days_between * number))
            for number, pairs in enumerate(rounds) for home, away in pairs]
