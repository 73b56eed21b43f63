"""One hand in play: the layout's open sides, the tiles laid and the tiles held."""

from typing import NamedTuple

from ..notation.events import Move
from ..notation.outcome import Outcome
from ..notation.tiles import ALL_TILES, SET_SIZE, TILE_SET, Tile
from ..placement.layout import Layout, Side, empty
from ..setup.rulesets import NO_SPINNER


class Played(NamedTuple):
    """A move as it happened: who made it, the open sides it left, their count and the points.

    `bonus` is the point for going out included in `points` (Fives and Threes);
    `bust` marks a play that scored nothing because it would have passed an exact target;
    `down` a lead that scored nothing because it would have won on the down (a house rule).
    """

    seat: int
    move: Move
    ends: tuple[Side, ...] | None
    count: int | None
    points: int
    bonus: int = 0
    bust: bool = False
    down: bool = False


class Hand:
    """The derived state of one hand; the Match changes it only through valid events."""

    __slots__ = ("number", "starter", "announced", "turn", "layout", "laid",
                 "held", "boneyard", "passes", "moves", "outcome", "settled", "remaining",
                 "points", "end")

    def __init__(self, number: int, starter: int, players: int, hand_size: int,
                 sides: int, announced: bool, branching: str = NO_SPINNER):
        self.number = number
        self.starter = starter
        self.announced = announced  # False while the starter leads by the rule set's right
        self.turn = starter
        self.layout: Layout = empty(branching)
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

    def unplayed_pips(self) -> list[int]:
        """The pips of each tile not laid in this hand, smallest first (for pip ranges)."""
        return sorted([a + b for a, b in TILE_SET - self.laid])

    @property
    def result(self) -> str | None:
        """The end word of the hand (domino, blocked, won); None while it is under way."""
        return None if self.outcome is None else self.outcome.how

    @property
    def winner(self) -> int | None:
        """The side the hand ended for (went out, or reached the target), as Match.winner."""
        return None if self.outcome is None else self.outcome.side

    def spinners(self) -> list[Tile]:
        """The spinners laid in this hand, in the order they were laid."""
        found = []
        for played in self.moves:
            for side in played.ends or ():
                if side.spinner and side.tile not in found:
                    found.append(side.tile)
        return found

    @property
    def ends(self) -> tuple[Side, ...] | None:
        """The open sides of the layout (L and R first on a line); None before the lead."""
        return self.layout.sides or None
