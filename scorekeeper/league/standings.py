"""The league table and the players' table, computed from confirmed cards only.

Every figure is a sum over cards, and ties are ordered by values that do not depend on
the order the cards came in: the same results always give the same table.
"""

from dataclasses import dataclass

from .card import AWAY, HOME, Card, Outcome
from .setup import PointsScheme


@dataclass(frozen=True)
class GameResult:
    """A finished game: who played for each side and the points each side made."""

    kind: str
    home: tuple[str, ...]
    away: tuple[str, ...]
    home_points: int
    away_points: int

    @property
    def winner(self) -> str:
        return HOME if self.home_points > self.away_points else AWAY


@dataclass(frozen=True)
class CardResult:
    """A confirmed card: the two teams and every game's result."""

    home: str
    away: str
    games: tuple[GameResult, ...]

    @property
    def home_games(self) -> int:
        return sum(game.winner == HOME for game in self.games)

    @property
    def away_games(self) -> int:
        return len(self.games) - self.home_games


def card_result(home: str, away: str, card: Card, outcomes: list[Outcome]) -> CardResult:
    """The result of a card whose games are all over, in the standings' terms."""
    return CardResult(home, away, tuple(
        GameResult(game.kind, game.home, game.away, outcome.home_points, outcome.away_points)
        for game, outcome in zip(card.games, outcomes, strict=True)))


@dataclass
class Row:
    """One team's line of the table."""

    team: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    games_for: int = 0
    games_against: int = 0
    points: int = 0
    position: int = 0

    @property
    def difference(self) -> int:
        return self.games_for - self.games_against

    def add(self, games_for: int, games_against: int, points: int) -> None:
        self.played += 1
        self.won += games_for > games_against
        self.drawn += games_for == games_against
        self.lost += games_for < games_against
        self.games_for += games_for
        self.games_against += games_against
        self.points += points

    def as_dict(self) -> dict:
        return {"position": self.position, "team": self.team, "played": self.played,
                "won": self.won, "drawn": self.drawn, "lost": self.lost,
                "games_for": self.games_for, "games_against": self.games_against,
                "difference": self.difference, "points": self.points}


def standings(teams: list[str], results: list[CardResult], scheme: PointsScheme) -> list[Row]:
    """A row per team, by points and then the league's tie-breaks in order; then by name."""
    rows = {team: Row(team) for team in teams}
    for result in results:
        home, away = result.home_games, result.away_games
        rows[result.home].add(home, away, scheme.card_points(home, away))
        rows[result.away].add(away, home, scheme.card_points(away, home))
    by_points = _groups(list(rows.values()), lambda row: row.points)
    ordered = [row for group in by_points
               for row in _broken(group, list(scheme.tie_breaks), results, scheme)]
    for position, row in enumerate(ordered, 1):
        row.position = position
    return ordered


def _groups(rows: list[Row], key) -> list[list[Row]]:
    """Rows grouped by equal key, the highest key first."""
    values = sorted({key(row) for row in rows}, reverse=True)
    return [[row for row in rows if key(row) == value] for value in values]


def _broken(group: list[Row], breaks: list[str], results, scheme) -> list[Row]:
    """Tied rows ordered by the first tie-break that separates them, the rest recursively."""
    if len(group) == 1 or not breaks:
        return sorted(group, key=lambda row: (row.team.casefold(), row.team))
    first, rest = breaks[0], breaks[1:]
    if first == "head_to_head":
        among = _head_to_head({row.team for row in group}, results, scheme)
        key = among.__getitem__
        groups = _groups(group, lambda row: key(row.team))
    elif first == "games_won":
        groups = _groups(group, lambda row: row.games_for)
    else:
        groups = _groups(group, lambda row: row.difference)
    return [row for part in groups for row in _broken(part, rest, results, scheme)]


def _head_to_head(teams: set[str], results, scheme) -> dict[str, int]:
    """League points each team earned in the cards between the tied teams only."""
    earned = dict.fromkeys(teams, 0)
    for result in results:
        if result.home in teams and result.away in teams:
            home, away = result.home_games, result.away_games
            earned[result.home] += scheme.card_points(home, away)
            earned[result.away] += scheme.card_points(away, home)
    return earned


@dataclass
class PlayerRow:
    """One player's line: games played and won, and the points their side made per game."""

    name: str
    team: str
    played: int = 0
    won: int = 0
    scored: int = 0

    @property
    def win_percent(self) -> int:
        return round(100 * self.won / self.played) if self.played else 0

    @property
    def per_game(self) -> float:
        return round(self.scored / self.played, 1) if self.played else 0.0

    def as_dict(self) -> dict:
        return {"name": self.name, "team": self.team, "played": self.played, "won": self.won,
                "win_percent": self.win_percent, "points_per_game": self.per_game}


def players_table(results: list[CardResult]) -> list[PlayerRow]:
    """Every player who played a counted game: most won first, then best rate, then name."""
    rows: dict[tuple, PlayerRow] = {}
    for result in results:
        for game in result.games:
            for side, team, names, points in (
                    (HOME, result.home, game.home, game.home_points),
                    (AWAY, result.away, game.away, game.away_points)):
                for name in names:
                    row = rows.setdefault((team, name), PlayerRow(name, team))
                    row.played += 1
                    row.won += game.winner == side
                    row.scored += points
    return sorted(rows.values(), key=lambda row: (-row.won, -row.win_percent, -row.per_game,
                                                  row.name.casefold(), row.team))
