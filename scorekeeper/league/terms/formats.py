"""Real leagues' formats, as their rule sheets write them: a start for a new league's form,
each part of which the secretary can still change.

Where a rule sheet is silent (a target, how many tiles) the format takes what pub leagues
of that game commonly play, and says so in the README."""

from dataclasses import dataclass

from ...rules import ALL_FIVES, FIVES_AND_THREES
from ...rules.setup.rulesets import LAST_TILE_POINT, WIN_ON_THE_DOWN
from ..errors import N_
from .points import PLAY_OFF, PRESETS, PointsScheme
from .setup import DRAWN, OPEN, GameFormat, LeagueSetup


@dataclass(frozen=True)
class LeagueFormat:
    """A league's whole format but its name, season and teams."""

    key: str
    shown: str
    rules: str
    games: str
    singles: GameFormat
    pairs: GameFormat
    points: str
    """A points preset's key."""
    tie_breaks: tuple[str, ...] = ("game_difference", "games_won", "head_to_head")
    house: tuple[tuple[str, bool], ...] = ()
    walkover: tuple[int, int] | None = None
    line_ups: str = OPEN
    squad: int | None = None
    divisions: tuple[str, ...] = ()

    def setup(self, name: str, season: str) -> LeagueSetup:
        """The league this format makes (checked as any other)."""
        preset = PRESETS[self.points]
        return LeagueSetup.create(
            name, season, self.games, PointsScheme.create(
                preset.per_game, preset.win, preset.draw, self.tie_breaks, preset.loss,
                preset.bonus, preset.bonus_margin),
            self.rules, self.singles.target, self.singles.hand, self.pairs.hand,
            pairs_target=self.pairs.target, singles_legs=self.singles.legs,
            pairs_legs=self.pairs.legs, house=dict(self.house), walkover=self.walkover,
            line_ups=self.line_ups, squad=self.squad, divisions=self.divisions)


NO_LAST_POINT = (LAST_TILE_POINT, False)
NO_DOWN = (WIN_ON_THE_DOWN, False)

FORMATS = {format_.key: format_ for format_ in (
    LeagueFormat("leek", N_("Leek: 6 singles to 61 and 3 pairs to 121; 2 for the match + 1 a "
                            "game; a walkover 5–4"),
                 FIVES_AND_THREES.name, "SSSSSSPPP", GameFormat(61, 9), GameFormat(121, 6),
                 "two_plus_games", house=(NO_LAST_POINT, NO_DOWN), walkover=(5, 4)),
    LeagueFormat("solihull", N_("Solihull & Warwickshire: 6 singles and 3 pairs to 121; 3 for "
                                "a win, 1 for losing 5–4"),
                 FIVES_AND_THREES.name, "SSSSSSPPP", GameFormat(121, 9), GameFormat(121, 6),
                 "three_close_loss"),
    LeagueFormat("hdddcl", N_("HDDDCL: 3 pairs tables, each a best of 3; 2 for a win"),
                 ALL_FIVES.name, "PPP", GameFormat(100, 7), GameFormat(100, 5, 3),
                 "two_for_a_win"),
    LeagueFormat("guisborough", N_("Guisborough: A and B leagues; 3 pairs drawn from each "
                                   "team's six; squads of 12"),
                 FIVES_AND_THREES.name, "PPP", GameFormat(61, 9), GameFormat(61, 6),
                 "two_plus_games", line_ups=DRAWN, squad=12, divisions=("A", "B")),
    LeagueFormat("teesdale", N_("Teesdale: A and B divisions; no win on the down; a tie on "
                                "points goes to a play-off"),
                 FIVES_AND_THREES.name, "SSSSSSPPP", GameFormat(61, 9), GameFormat(61, 6),
                 "two_plus_games", tie_breaks=(PLAY_OFF, "game_difference"), house=(NO_DOWN,),
                 divisions=("A", "B")),
)}
"""The formats the new-league form offers, by key."""
