"""The league table and the players' table of each division, from the counted cards only.

Every figure is a sum over cards, and ties are ordered by values that do not depend on
the order the cards came in: the same results always give the same table. A play-off's
card breaks a tie and nothing else; a walkover and a game given unplayed count for the
teams and never for a player.
"""

from dataclasses import dataclass, field

from ..cards.card import Card
from ..cards.game import AWAY, HOME, Outcome
from ..terms.points import PLAY_OFF, PointsScheme


@dataclass(frozen=True)
class GameResult:
    """A finished game: who played for each side (nobody, for a game given unplayed), the
    points each side made, and the side that won it (by legs, or given it)."""

    kind: str
    home: tuple[str, ...]
    away: tuple[str, ...]
    home_points: int
    away_points: int
    won: str | None = None

    @property
    def winner(self) -> str:
        if self.won:
            return self.won
        return HOME if self.home_points > self.away_points else AWAY


@dataclass(frozen=True)
class CardResult:
    """A counted card: the two teams and every game's result; or a walkover to one side,
    worth `walkover_games`; `play_off` marks a fixture that settles a tie."""

    home: str
    away: str
    games: tuple[GameResult, ...]
    walkover: str | None = None
    walkover_games: tuple[int, int] = (0, 0)
    play_off: bool = False

    @property
    def home_games(self) -> int:
        if self.walkover:
            return self.walkover_games[self.walkover != HOME]
        return sum(game.winner == HOME for game in self.games)

    @property
    def away_games(self) -> int:
        if self.walkover:
            return self.walkover_games[self.walkover != AWAY]
        return len(self.games) - self.home_games

    def points(self, scheme: PointsScheme) -> tuple[int, int]:
        """The league points each team earns: by the scheme, but a walkover gives the team
        that did not turn up nothing."""
        home, away = self.home_games, self.away_games
        earned = (scheme.card_points(home, away), scheme.card_points(away, home))
        if self.walkover == HOME:
            return earned[0], 0
        if self.walkover == AWAY:
            return 0, earned[1]
        return earned


def card_result(home: str, away: str, card: Card, outcomes: list[Outcome],
                walkover_games: tuple[int, int] = (0, 0), play_off: bool = False) -> CardResult:
    """The result of a counted card, in the standings' terms."""
    if card.walkover:
        return CardResult(home, away, (), card.walkover, walkover_games, play_off)
    return CardResult(home, away, tuple(
        GameResult(game.kind, game.home, game.away, outcome.home_points, outcome.away_points,
                   outcome.winner)
        for game, outcome in zip(card.games, outcomes, strict=True)), play_off=play_off)


@dataclass
class Row:
    """One team's line of the table; `play_off` says a tie on points is to be, or was,
    settled by a play-off (`due`, `played`)."""

    team: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    games_for: int = 0
    games_against: int = 0
    points: int = 0
    position: int = 0
    division: str = ""
    play_off: str = ""
    adjusted: int = 0
    """Points the secretary deducted (negative) or awarded, counted in `points`."""

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
        kept = {"position": self.position, "team": self.team, "played": self.played,
                "won": self.won, "drawn": self.drawn, "lost": self.lost,
                "games_for": self.games_for, "games_against": self.games_against,
                "difference": self.difference, "points": self.points}
        kept.update({key: value for key, value in (("division", self.division),
                                                   ("play_off", self.play_off),
                                                   ("adjusted", self.adjusted)) if value})
        return kept


def standings(teams: list[str], results: list[CardResult], scheme: PointsScheme,
              complete: bool = False, division: str = "",
              adjusted: dict[str, int] | None = None) -> list[Row]:
    """A row per team, by points (the secretary's adjustments, `adjusted`, counted) and
    then the league's tie-breaks in order; then by name. Play-offs count only to break
    ties; `complete` (every other fixture counted) marks a tie that a play-off is to
    settle."""
    rows = {team: Row(team, division=division, adjusted=(adjusted or {}).get(team, 0),
                      points=(adjusted or {}).get(team, 0)) for team in teams}
    regular = [result for result in results if not result.play_off]
    for result in regular:
        home, away = result.points(scheme)
        rows[result.home].add(result.home_games, result.away_games, home)
        rows[result.away].add(result.away_games, result.home_games, away)
    ties = _Ties(regular, [result for result in results if result.play_off], scheme, complete)
    ordered = [row for group in _groups(list(rows.values()), lambda row: row.points)
               for row in ties.broken(group, list(scheme.tie_breaks))]
    for position, row in enumerate(ordered, 1):
        row.position = position
    return ordered


def _groups(rows: list[Row], key) -> list[list[Row]]:
    """Rows grouped by equal key, the highest key first."""
    values = sorted({key(row) for row in rows}, reverse=True)
    return [[row for row in rows if key(row) == value] for value in values]


@dataclass
class _Ties:
    """What breaks a tie: the regular results, the play-offs, the scheme."""

    regular: list[CardResult]
    play_offs: list[CardResult]
    scheme: PointsScheme
    complete: bool

    def broken(self, group: list[Row], breaks: list[str]) -> list[Row]:
        """Tied rows ordered by the first tie-break that separates them, the rest in turn."""
        if len(group) == 1 or not breaks:
            return sorted(group, key=lambda row: (row.team.casefold(), row.team))
        first, rest = breaks[0], breaks[1:]
        if first == PLAY_OFF:
            return self._play_off(group, rest)
        if first == "head_to_head":
            earned = _earned({row.team for row in group}, self.regular, self.scheme)
            groups = _groups(group, lambda row: earned[row.team])
        elif first == "games_won":
            groups = _groups(group, lambda row: row.games_for)
        else:
            groups = _groups(group, lambda row: row.difference)
        return [row for part in groups for row in self.broken(part, rest)]

    def _play_off(self, group: list[Row], rest: list[str]) -> list[Row]:
        """Tied teams that met in a play-off stand by it; tied teams at the end of the
        season are marked as due one, and stand by the next tie-breaks meanwhile."""
        teams = {row.team for row in group}
        met = [result for result in self.play_offs if {result.home, result.away} <= teams]
        mark = "played" if met else "due" if self.complete else ""
        for row in group:
            row.play_off = mark
        if not met:
            return self.broken(group, rest)
        earned = _earned(teams, met, self.scheme)
        return [row for part in _groups(group, lambda row: earned[row.team])
                for row in self.broken(part, rest)]


def _earned(teams: set[str], results: list[CardResult], scheme: PointsScheme) -> dict:
    """League points each team earned in the cards between the given teams only."""
    earned = dict.fromkeys(teams, 0)
    for result in results:
        if result.home in teams and result.away in teams:
            home, away = result.points(scheme)
            earned[result.home] += home
            earned[result.away] += away
    return earned


@dataclass
class PlayerRow:
    """One player's line: games played and won, and the points their side made per game."""

    name: str
    team: str
    played: int = 0
    won: int = 0
    scored: int = 0
    kinds: dict = field(default_factory=dict)
    """By kind of game: [played, scored], for averages kept apart (averaged_apart)."""

    @property
    def win_percent(self) -> int:
        return round(100 * self.won / self.played) if self.played else 0

    @property
    def per_game(self) -> float:
        return round(self.scored / self.played, 1) if self.played else 0.0

    def per_game_of(self, kind: str) -> float | None:
        """Points per game of one kind; None: the player played none."""
        played, scored = self.kinds.get(kind, (0, 0))
        return round(scored / played, 1) if played else None

    def as_dict(self) -> dict:
        return {"name": self.name, "team": self.team, "played": self.played, "won": self.won,
                "win_percent": self.win_percent, "points_per_game": self.per_game}


def players_table(results: list[CardResult]) -> list[PlayerRow]:
    """Every player who played a counted game: most won first, then best rate, then name.
    A walkover and a game given unplayed name nobody, so they count for no player."""
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
                    kind = row.kinds.setdefault(game.kind, [0, 0])
                    kind[0] += 1
                    kind[1] += points
    return sorted(rows.values(), key=lambda row: (-row.won, -row.win_percent, -row.per_game,
                                                  row.name.casefold(), row.team))
