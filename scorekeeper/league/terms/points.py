"""League points as rule sheets write them: for a match won, drawn or lost, for each game
won, and a losing bonus for a close defeat ("1 point for losing 5–4"); then tie-breaks."""

from dataclasses import dataclass

from ..errors import N_, Np_, SetupRefused

MAX_POINTS = 100
"""No league gives more than this for one game or one card; more is a typing slip."""
TIE_BREAKS = ("game_difference", "games_won", "head_to_head", "play_off")
"""The tie-breaks a league may order; after them, teams tied on everything stand by name.
A play-off is a fixture between the tied teams, scored like any other."""
PLAY_OFF = "play_off"
MAX_MARGIN = 20
"""A losing bonus is for a defeat by at most this many games: a card has at most 21."""
DEFAULT_TIE_BREAKS = TIE_BREAKS[:3]


@dataclass(frozen=True)
class PointsScheme:
    """League points for each game won, for winning, drawing or losing a match (a card),
    a losing bonus when the defeat is by at most `bonus_margin` games, and the tie-breaks."""

    per_game: int
    win: int
    draw: int
    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS
    loss: int = 0
    bonus: int = 0
    bonus_margin: int = 0

    @classmethod
    def create(cls, per_game, win, draw, tie_breaks=DEFAULT_TIE_BREAKS, loss=0, bonus=0,
               bonus_margin=0) -> "PointsScheme":
        for what, value in (("per_game", per_game), ("win", win), ("draw", draw),
                            ("loss", loss), ("bonus", bonus)):
            _check_points(what, value)
        if isinstance(bonus_margin, bool) or not isinstance(bonus_margin, int) or \
                not 0 <= bonus_margin <= MAX_MARGIN:
            raise SetupRefused.worded(N_("A losing bonus is for losing by 1 to %(most)s games, "
                                         "not %(value)s."), "bad_bonus_margin",
                                      field="bonus_margin", value=str(bonus_margin)[:20],
                                      most=MAX_MARGIN)
        if win == 0 and per_game == 0:
            raise SetupRefused.worded(N_("Nobody could ever score: give points for a won "
                                         "card or for each game won."), "no_points")
        if draw > win:
            raise SetupRefused.worded(N_("A drawn card (%(draw)s) cannot be worth more than a "
                                         "won one (%(win)s)."), "draw_above_win",
                                      draw=draw, win=win)
        if 0 < loss + bonus >= win:
            raise SetupRefused.worded(N_("A lost card (%(loss)s) cannot be worth as much as a "
                                         "won one (%(win)s)."), "loss_above_win",
                                      loss=loss + bonus, win=win)
        if bool(bonus) != bool(bonus_margin):
            raise SetupRefused.worded(N_("A losing bonus needs both its points and the most "
                                         "games a card may be lost by to earn it."),
                                      "bonus_half_given", field="bonus")
        return cls(per_game, win, draw, _checked_tie_breaks(tie_breaks), loss, bonus,
                   bonus_margin)

    def card_points(self, games_won: int, games_lost: int) -> int:
        """What a team earns from one counted card."""
        if games_won > games_lost:
            result = self.win
        elif games_won == games_lost:
            result = self.draw
        else:
            result = self.loss + (self.bonus if games_lost - games_won <= self.bonus_margin
                                  else 0)
        return result + self.per_game * games_won

    def terms(self, games: int) -> list[tuple[str, int, dict]]:
        """The scheme as a rule sheet says it, term by term, for a card of `games` games:
        (what, points, facts) with what one of win, draw, loss, bonus or per_game; the app
        words each ("3 points for a win; 1 point for losing 5–4"). A card of an odd number
        of games is never drawn, so its draw is not said."""
        found = [(what, getattr(self, what), {}) for what in ("win", "draw", "loss")
                 if getattr(self, what) and (what != "draw" or games % 2 == 0)]
        if self.bonus:
            found.append(("bonus", self.bonus, {"scores": close_defeats(games,
                                                                        self.bonus_margin),
                                                "margin": self.bonus_margin}))
        if self.per_game:
            found.append(("per_game", self.per_game, {}))
        return found

    def as_dict(self) -> dict:
        """As stored and archived: the three first terms always, the others when given."""
        kept = {"per_game": self.per_game, "win": self.win, "draw": self.draw,
                "tie_breaks": list(self.tie_breaks)}
        kept.update({what: getattr(self, what) for what in ("loss", "bonus", "bonus_margin")
                     if getattr(self, what)})
        return kept

    @classmethod
    def from_dict(cls, data: dict) -> "PointsScheme":
        return cls.create(data["per_game"], data["win"], data["draw"], data["tie_breaks"],
                          data.get("loss", 0), data.get("bonus", 0),
                          data.get("bonus_margin", 0))


def close_defeats(games: int, margin: int) -> list[tuple[int, int]]:
    """The lost scores of a card of `games` games within `margin`, closest first: 4–5 for a
    9-game card and a margin of 1 (a loser's games first)."""
    return [(lost, games - lost) for lost in range(games // 2, -1, -1)
            if 0 < games - 2 * lost <= margin]


def _checked_tie_breaks(tie_breaks) -> tuple[str, ...]:
    tie_breaks = tuple(tie_breaks)
    for name in tie_breaks:
        if name not in TIE_BREAKS:
            raise SetupRefused.worded(N_("%(name)s is not a tie-break this app knows."),
                                      "unknown_tie_break", name=str(name)[:40])
    if len(set(tie_breaks)) != len(tie_breaks):
        raise SetupRefused.worded(N_("Each tie-break can be used only once."),
                                  "repeated_tie_break")
    return tie_breaks


def _check_points(what: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SetupRefused.worded(N_("Points must be whole numbers, not %(value)s."),
                                  "points_not_number", field=what, value=str(value)[:20])
    if value < 0:
        raise SetupRefused.worded(N_("Points cannot be negative (%(value)s)."),
                                  "negative_points", field=what, value=value)
    if value > MAX_POINTS:
        raise SetupRefused.worded(Np_("At most %(most)s point, not %(value)s.",
                                      "At most %(most)s points, not %(value)s."),
                                  "too_many_points", counted="most", field=what, value=value,
                                  most=MAX_POINTS)


PRESETS = {
    "two_plus_games": PointsScheme(per_game=1, win=2, draw=1),
    "three_one": PointsScheme(per_game=0, win=3, draw=1),
    "three_close_loss": PointsScheme(per_game=0, win=3, draw=1, bonus=1, bonus_margin=1),
    "two_for_a_win": PointsScheme(per_game=0, win=2, draw=1),
}
PRESET_NAMES = {
    "two_plus_games": N_("2 for the win + 1 per game won"),
    "three_one": N_("3 for a win, 1 for a draw"),
    "three_close_loss": N_("3 for a win, 1 for losing by one game"),
    "two_for_a_win": N_("2 for a win, 1 for a draw"),
}
