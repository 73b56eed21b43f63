"""How a hand ended, as a value: the one set of end words the engine, records and app use."""

from typing import NamedTuple

DOMINO = "domino"
"""A player went out (Fives and Threes partnerships: both partners of a side)."""
BLOCKED = "blocked"
"""Every player still holding tiles passed in turn."""
WON = "won"
"""The match ended in the hand: a side reached the target before the hand finished."""
UNFINISHED = "unfinished"
"""The hand is still under way (or waits for its pips): a word for records, never an Outcome."""


class Outcome(NamedTuple):
    """How a hand ended, which side it ended for, and whose tile ended it."""

    how: str  # DOMINO, BLOCKED or WON
    side: int | None  # the side that went out or reached the target; None when blocked
    seat: int | None  # the player whose tile ended the hand; None when blocked
