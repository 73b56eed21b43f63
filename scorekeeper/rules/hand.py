"""One hand in play: the line's two open ends, the tiles laid and the tiles held."""

from typing import NamedTuple

from .events import Move
from .outcome import Outcome
from .tiles import ALL_TILES, SET_SIZE, Tile


class End(NamedTuple):
    """An open end of the line: its pip number, and whether a double lies crosswise there."""

    value: int
    double: bool

    def count(self) -> int:
        return self.value * 2 if self.double else self.value


class Played(NamedTuple):
    """A move as it happened: who made it, the ends it left, their count and the points.

    `bonus` is the point for going out included in `points` (Fives and Threes);
    `bust` marks a play that scored nothing because it would have passed an exact target.
    """

    seat: int
    move: Move
    ends: tuple[End, End] | None
    count: int | None
    points: int
    bonus: int = 0
    bust: bool = False


class Hand:
    """The derived state of one hand; the Match changes it only through valid events."""

    __slots__ = ("number", "starter", "announced", "turn", "left", "right", "laid",
                 "held", "boneyard", "passes", "moves", "outcome", "settled", "remaining",
                 "points", "end")

    def __init__(self, number: int, starter: int, players: int, hand_size: int,
                 sides: int, announced: bool):
        self.number = number
        self.starter = starter
        self.announced = announced  # False while the starter leads by the rule set's right
        self.turn = starter
        self.left: End | None = None
        self.right: End | None = None
        self.laid: set[Tile] = set()
        self.held = [hand_size] * players
        self.boneyard = SET_SIZE - players * hand_size  # the undealt tiles, drawn or sleeping
        self.passes = 0
        self.moves: list[Played] = []
        self.outcome: Outcome | None = None  # None while the hand is under way
        self.settled = False  # True once scored to its end (pips entered, or none needed)
        self.remaining: dict | None = None
        self.points = [0] * sides
        self.end = None  # the Score of the end of the hand, once pips are in

    def copy(self) -> "Hand":
        other = Hand.__new__(Hand)
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        other.laid, other.held = set(self.laid), list(self.held)
        other.moves, other.points = list(self.moves), list(self.points)
        return other

    def unplayed(self) -> list[Tile]:
        """The tiles of the set not laid in this hand, 0-0 first: what hands can still hold."""
        return [tile for tile in ALL_TILES if tile not in self.laid]

    @property
    def result(self) -> str | None:
        """The end word of the hand (domino, blocked, won); None while it is under way."""
        return None if self.outcome is None else self.outcome.how

    @property
    def winner(self) -> int | None:
        """The side the hand ended for (went out, or reached the target), as Match.winner."""
        return None if self.outcome is None else self.outcome.side

    @property
    def ends(self) -> tuple[End, End] | None:
        return None if self.left is None else (self.left, self.right)
