"""One game of a match card: who plays it, how it is scored (a match at a table for each leg,
a paper score, or given to a side unplayed), and how it stands.

How a game scored at tables ended is read off its matches each time, never copied here.
"""

from dataclasses import dataclass

from ...rules.setup.table import MAX_TARGET
from ..errors import N_, CardError
from ..terms.setup import SINGLES, GameFormat

HOME, AWAY = "home", "away"
SIDES = (HOME, AWAY)
WAITING, PLAYING, SCORED, ENTERED, AWARDED = "waiting", "playing", "scored", "entered", \
    "awarded"
"""A game is waiting for its players or its start, playing at a table, scored to its end at
tables, entered from a paper score sheet, or awarded to a side without being played (the
other could not field its players, or conceded it)."""


@dataclass(frozen=True)
class Game:
    """One game as written on the card: `matches` score its legs at tables, in order;
    `entered` holds its legs' paper scores; `awarded` the side it was given unplayed."""

    number: int
    kind: str
    home: tuple[str, ...] = ()
    away: tuple[str, ...] = ()
    matches: tuple[str, ...] = ()
    entered: tuple[tuple[int, int], ...] = ()
    awarded: str | None = None

    @property
    def seats(self) -> int:
        return 1 if self.kind == SINGLES else 2

    @property
    def match_id(self) -> str | None:
        """The match of its first leg (of the game, when it is one leg)."""
        return self.matches[0] if self.matches else None

    @property
    def begun(self) -> bool:
        return bool(self.matches or self.entered or self.awarded)

    @property
    def players(self) -> list[str]:
        """Seat order at the table: home and away alternate, so partners sit opposite."""
        return [name for pair in zip(self.home, self.away, strict=True) for name in pair]

    def as_dict(self) -> dict:
        """As a card stores it: a one-leg game as before legs existed (`match_id`, `entered`
        as one score); later legs' matches in `legs`, several paper legs as a list."""
        kept = {"kind": self.kind, "home": list(self.home), "away": list(self.away),
                "match_id": self.match_id,
                "entered": (list(self.entered[0]) if len(self.entered) == 1
                            else [list(leg) for leg in self.entered] or None)}
        if len(self.matches) > 1:
            kept["legs"] = list(self.matches[1:])
        if self.awarded:
            kept["awarded"] = self.awarded
        return kept

    @classmethod
    def from_dict(cls, number: int, data: dict) -> "Game":
        entered = data.get("entered") or ()
        if entered and not isinstance(entered[0], list):
            entered = (entered,)
        matches = ((data["match_id"],) if data.get("match_id") else ()) + \
            tuple(data.get("legs", ()))
        return cls(number, data["kind"], tuple(data["home"]), tuple(data["away"]), matches,
                   tuple(tuple(leg) for leg in entered), data.get("awarded"))


@dataclass(frozen=True)
class Outcome:
    """How a game stands now: its state, both sides' points (summed over its legs), the
    legs each side won (a best-of game), the side it was awarded to, and whether its next
    leg is due (a leg is over and nobody has won the game yet)."""

    state: str
    home_points: int = 0
    away_points: int = 0
    legs: tuple[int, int] | None = None
    awarded: str | None = None
    next_leg: bool = False

    @property
    def over(self) -> bool:
        return self.state in (SCORED, ENTERED, AWARDED)

    @property
    def winner(self) -> str | None:
        if not self.over:
            return None
        if self.awarded:
            return self.awarded
        home, away = self.legs or (self.home_points, self.away_points)
        return HOME if home > away else AWAY


def outcome(game: Game, legs=(), played: GameFormat | None = None) -> Outcome:
    """How a game stands: awarded, from its paper scores, or from its legs' matches, each
    given as (scores, winner) in order (side 0 of a table is the home team: home players
    sit in seats 1 and 3). `played` says how many legs decide it (one, unless given)."""
    if game.awarded:
        return Outcome(AWARDED, awarded=game.awarded)
    best_of = played.legs if played else 1
    if game.entered:
        return _from_legs(ENTERED, game.entered, [HOME if home > away else AWAY
                                                  for home, away in game.entered], best_of)
    if not legs:
        return Outcome(WAITING)
    scores = [tuple(score) if score else (0, 0) for score, _ in legs]
    winners = [None if winner is None else (HOME if winner == 0 else AWAY)
               for _, winner in legs]
    if best_of == 1:
        return Outcome(PLAYING if winners[0] is None else SCORED, *scores[0])
    return _from_legs(SCORED, scores, winners, best_of)


def _from_legs(state: str, scores, winners, best_of: int) -> Outcome:
    """A best-of game's standing: decided once a side has won the majority of its legs."""
    won = (winners.count(HOME), winners.count(AWAY))
    points = (sum(home for home, _ in scores), sum(away for _, away in scores))
    if best_of == 1:
        return Outcome(state, *points)
    if max(won) > best_of // 2:
        return Outcome(state, *points, legs=won)
    return Outcome(PLAYING, *points, legs=won, next_leg=winners[-1] is not None)


def paper_ceiling(target: int) -> int:
    """The most points a side can end a game to `target` with: the winner's last hand may
    take it well past the target, never by more than this."""
    return max(2 * target, target + 100)


def check_paper_score(home_points, away_points, target: int, exact: bool = False) -> None:
    """A finished game: the winner reached the target (exactly, in a rule set that busts
    a play passing it), the loser did not."""
    for value in (home_points, away_points):
        if isinstance(value, bool) or not isinstance(value, int) or not \
                0 <= value <= min(paper_ceiling(target), MAX_TARGET * 2):
            raise CardError.worded(N_("A score is a whole number of points, not %(value)s."),
                                   "score_not_number", value=str(value)[:20])
    if exact and max(home_points, away_points) != target:
        raise CardError.worded(N_("A game of this rule set ends on exactly %(target)s: "
                                  "%(home)s–%(away)s is not a finished game."),
                               "score_not_exact", target=target, home=home_points,
                               away=away_points)
    if max(home_points, away_points) < target or min(home_points, away_points) >= target:
        raise CardError.worded(N_("A finished game has one side at %(target)s or more and "
                                  "the other below it: %(home)s–%(away)s is not one."),
                               "score_not_final", target=target, home=home_points,
                               away=away_points)


def check_paper_legs(legs, played: GameFormat, exact: bool = False) -> None:
    """A best-of game's legs from paper: each a finished game, played until one side had
    won the majority and no further."""
    for home, away in legs:
        check_paper_score(home, away, played.target, exact)
    won = [0, 0]
    for number, (home, away) in enumerate(legs, 1):
        if max(won) == played.legs_to_win:
            raise CardError.worded(N_("The game was decided before leg %(leg)s: a leg after "
                                      "that is not played."), "leg_after_decided",
                                   leg=number)
        won[home < away] += 1
    if max(won) < played.legs_to_win:
        raise CardError.worded(N_("Nobody has won %(needed)s of the %(legs)s legs yet: enter "
                                  "the legs until one side has."), "legs_undecided",
                               needed=played.legs_to_win, legs=played.legs)
