"""The rules of All Fives (Muggins) as RULES.md states them: pure Python, no I/O.

Everything the app shows and every point it awards is computed here, from a
match's log of table events.
"""

from .errors import (
    BadTile,
    HandNotOver,
    HandOver,
    IllegalMove,
    IllegalStart,
    ImpossibleHand,
    MatchOver,
    NothingToUndo,
    RuleError,
    SetupError,
)
from .events import Draw, Event, Lay, Pass, Remaining, Start, move_text, parse_move
from .hand import Hand, Played
from .layout import Layout, Side
from .match import Match
from .moves import Placement
from .rulesets import (
    ALL_FIVES,
    ALL_FIVES_SPINNER,
    FIVES_AND_THREES,
    OLA_5,
    RULE_SETS,
    RuleSet,
    find_rule_set,
)
from .scoring import Score, explain
from .table import Table, default_hand_size, default_target
from .tiles import ALL_TILES, Tile, normal, parse_tile, pips, round_to_five, tile_text

__all__ = [
    "ALL_FIVES", "ALL_FIVES_SPINNER", "FIVES_AND_THREES", "OLA_5", "RULE_SETS", "RuleSet",
    "find_rule_set",
    "ALL_TILES", "BadTile", "Draw", "Event", "Hand", "Layout", "HandNotOver", "HandOver",
    "IllegalMove", "IllegalStart", "ImpossibleHand", "Lay", "Match", "MatchOver",
    "NothingToUndo", "Pass", "Placement", "Played", "Remaining", "RuleError", "Score", "Side",
    "SetupError", "Start", "Table", "Tile", "default_hand_size", "default_target", "explain",
    "move_text", "normal", "parse_move", "parse_tile", "pips", "round_to_five", "tile_text",
]
