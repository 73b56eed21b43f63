"""A season as values: its teams in their divisions, its fixtures with their cards and the
matches that scored them, and the tables of each division that follow from them.

The league's pages and its archive compute their tables here, the same way."""

from dataclasses import dataclass, field
from typing import NamedTuple

from ...rules import Match
from ..cards.card import Card
from ..cards.game import Outcome, outcome
from ..terms.setup import LeagueSetup
from .adjustments import Adjustment, adjusted_points, adjustments
from .standings import CardResult, PlayerRow, Row, card_result, players_table, standings


class Fixture(NamedTuple):
    """A fixture as the tables see it: its teams, whether it is a play-off, and its result
    once it counts (None before)."""

    home: str
    away: str
    play_off: bool
    result: CardResult | None


@dataclass(frozen=True)
class DivisionTable:
    """One division's standings and players' table ("" names the only division of a league
    without divisions); `complete` once every fixture but the play-offs counts."""

    name: str
    rows: list[Row]
    players: list[PlayerRow]
    complete: bool
    adjustments: list[Adjustment] = field(default_factory=list)


def outcomes(setup: LeagueSetup, card: Card, legs: dict) -> list[Outcome]:
    """How each game of a card stands; `legs` holds, by match id, each scored leg's
    (scores, winner)."""
    return [outcome(game, [legs[match_id] for match_id in game.matches if match_id in legs],
                    setup.format_of(game.kind))
            for game in card.games]


def counted(setup: LeagueSetup, home: str, away: str, card: Card, found: list[Outcome],
            play_off: bool = False) -> CardResult | None:
    """The card's result in the standings' terms, once it counts."""
    if not card.counts(found):
        return None
    return card_result(home, away, card, found, setup.walkover_games, play_off)


def division_tables(setup: LeagueSetup, divisions: dict[str, str], fixtures: list[Fixture],
                    changes: list[dict] = ()) -> list[DivisionTable]:
    """The tables of each division in the league's order (`divisions`: each team's, in the
    order the teams were made); a fixture belongs to its home team's division, and the
    points adjustments among the league's `changes` to their team's."""
    found = adjustments(list(changes))
    adjusted = adjusted_points(found)
    tables = []
    for name in setup.divisions or ("",):
        teams = [team for team, division in divisions.items() if division == name]
        mine = [fixture for fixture in fixtures if divisions.get(fixture.home) == name]
        results = [fixture.result for fixture in mine if fixture.result]
        complete = bool(mine) and all(fixture.result for fixture in mine
                                      if not fixture.play_off)
        tables.append(DivisionTable(name, standings(teams, results, setup.points, complete,
                                                    name, adjusted),
                                    players_table(results), complete,
                                    [item for item in found if item.team in teams]))
    return tables


@dataclass
class SeasonFixture:
    """A fixture with its card, the matches of each game's legs by game number, and its
    corrections; `play_off` marks one that settles a tie."""

    home: str
    away: str
    date: str
    card: Card
    matches: dict[int, tuple[Match, ...]] = field(default_factory=dict)
    corrections: list[dict] = field(default_factory=list)
    play_off: bool = False
    postponed: bool = False

    def outcomes(self, setup: LeagueSetup) -> list[Outcome]:
        return [outcome(game, [(match.scores, match.winner)
                               for match in self.matches.get(game.number, ())],
                        setup.format_of(game.kind))
                for game in self.card.games]


@dataclass
class Season:
    """A whole season: what an archive holds and what the standings come from. `divisions`
    gives each team's division, by the league's order of teams; `former` each team's
    former players (moved or gone: their games stay with it); `changes` the league's
    record of what its secretary renamed, moved and deleted."""

    setup: LeagueSetup
    teams: dict[str, list[str]]
    fixtures: list[SeasonFixture]
    divisions: dict[str, str] = field(default_factory=dict)
    former: dict[str, list[str]] = field(default_factory=dict)
    changes: list[dict] = field(default_factory=list)

    def division_of(self, team: str) -> str:
        return self.divisions.get(team, "")

    def results(self) -> list[Fixture]:
        return [Fixture(fixture.home, fixture.away, fixture.play_off,
                        counted(self.setup, fixture.home, fixture.away, fixture.card,
                                fixture.outcomes(self.setup), fixture.play_off))
                for fixture in self.fixtures]

    def tables(self) -> list[DivisionTable]:
        divisions = {team: self.division_of(team) for team in self.teams}
        return division_tables(self.setup, divisions, self.results(), self.changes)

    def standings(self) -> list[Row]:
        """Every division's rows, division after division."""
        return [row for table in self.tables() for row in table.rows]
