"""One hand in play: the layout's open sides, the tiles laid and the tiles held."""

from typing import NamedTuple

from .events import Move
from .layout import Layout, Side, empty
from .tiles import ALL_TILES, Tile


class Played(NamedTuple):
    """A move as it happened: who made it, the open sides it left, their count and the points."""

    seat: int
    move: Move
    ends: tuple[Side, ...] | None
    count: int | None
    points: int


class Hand:
    """The derived state of one hand; the Match changes it only through valid events."""

    __slots__ = ("number", "starter", "announced", "turn", "layout", "laid",
                 "held", "boneyard", "passes", "moves", "result", "winner",
                 "remaining", "points", "end")

    def __init__(self, number: int, starter: int, players: int, hand_size: int,
                 sides: int, announced: bool, branching: str = "none"):
        self.number = number
        self.starter = starter
        self.announced = announced  # False while the winner of the last hand leads by right
        self.turn = starter
        self.layout: Layout = empty(branching)
        self.laid: set[Tile] = set()
        self.held = [hand_size] * players
        self.boneyard = 28 - players * hand_size
        self.passes = 0
        self.moves: list[Played] = []
        self.result: str | None = None  # domino, blocked, won; None while under way
        self.winner: int | None = None  # the seat that went out
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
    def ended(self) -> bool:
        """True once a player went out, every player passed, or the match was won."""
        return self.result is not None

    @property
    def ends(self) -> tuple[Side, ...] | None:
        """The open sides of the layout (L and R first on a line); None before the lead."""
        return self.layout.sides or None
