"""Each player's season, game by game, from the counted cards: games played and won, the
points their side made and let in, the average per game and the best game.

A player is their name in a team (a player who moved has a record with each team); a
walkover and a game given unplayed name nobody, so they count for no player, as in the
players' table.
"""

from dataclasses import dataclass, field

from ..cards.game import AWAY, HOME
from .standings import CardResult


@dataclass(frozen=True)
class PlayedGame:
    """One counted game of a player: the fixture (its date and teams), the game's number
    and kind, who played beside and against them, and the points each side made."""

    day: str
    home: str
    away: str
    number: int
    kind: str
    partners: tuple[str, ...]
    opponents: tuple[str, ...]
    points_for: int
    points_against: int
    won: bool


@dataclass
class PlayerRecord:
    name: str
    team: str
    games: list[PlayedGame] = field(default_factory=list)

    @property
    def played(self) -> int:
        return len(self.games)

    @property
    def won(self) -> int:
        return sum(game.won for game in self.games)

    @property
    def points_for(self) -> int:
        return sum(game.points_for for game in self.games)

    @property
    def points_against(self) -> int:
        return sum(game.points_against for game in self.games)

    @property
    def average(self) -> float:
        """Points made per game, to one decimal."""
        return round(self.points_for / self.played, 1) if self.played else 0.0

    @property
    def win_percent(self) -> int:
        return round(100 * self.won / self.played) if self.played else 0

    @property
    def best(self) -> PlayedGame | None:
        """The game with the most points made (of those, the widest margin, then the
        first)."""
        if not self.games:
            return None
        return max(reversed(self.games),
                   key=lambda game: (game.points_for, game.points_for - game.points_against))


def by_kind(record: PlayerRecord, kinds: tuple[str, ...]) -> list[tuple[str | None,
                                                                        PlayerRecord]]:
    """A record as its average and best game are read: whole (kind None), or one for each
    of `kinds` the player played (a league's averaged_apart)."""
    if not kinds:
        return [(None, record)]
    return [(kind, PlayerRecord(record.name, record.team,
                                [game for game in record.games if game.kind == kind]))
            for kind in kinds if any(game.kind == kind for game in record.games)]


def player_records(counted: list[tuple[str, CardResult]]) -> dict[tuple[str, str], PlayerRecord]:
    """Every player's record, by (team, name), from the counted cards with their dates."""
    records: dict[tuple[str, str], PlayerRecord] = {}
    for day, result in sorted(counted, key=lambda item: item[0]):
        for number, game in enumerate(result.games, 1):
            for side, team, mine, theirs, made, let_in in (
                    (HOME, result.home, game.home, game.away, game.home_points,
                     game.away_points),
                    (AWAY, result.away, game.away, game.home, game.away_points,
                     game.home_points)):
                for name in mine:
                    record = records.setdefault((team, name), PlayerRecord(name, team))
                    record.games.append(PlayedGame(
                        day, result.home, result.away, number, game.kind,
                        tuple(other for other in mine if other != name), tuple(theirs),
                        made, let_in, game.winner == side))
    return records


def ranked(records: dict) -> list[PlayerRecord]:
    """Most games won first, then the best rate, the best average, then by name."""
    return sorted(records.values(), key=lambda row: (-row.won, -row.win_percent, -row.average,
                                                     row.name.casefold(), row.team))
