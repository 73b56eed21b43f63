"""The rules of All Fives (Muggins) and its relatives (RULES.md, RULESETS.md): pure Python.

Everything the app shows and every point it awards is computed here, from a
match's log of table events and the rule set the table picked.
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
from .hands.hand import Hand, Played
from .hands.scoring import Score, explain, round_to_five
from .match.match import Match
from .notation.events import Draw, Event, Lay, Pass, Remaining, Start, Undo, move_text, parse_move
from .notation.outcome import BLOCKED, DOMINO, UNFINISHED, WON, Outcome
from .notation.tiles import ALL_TILES, Tile, normal, parse_tile, pips, tile_text
from .placement.layout import Layout, Side
from .placement.moves import Placement
from .setup.rulesets import (
    ALL_FIVES,
    ALL_FIVES_SPINNER,
    DEFAULT_RULE_SET,
    FIVES_AND_THREES,
    OLA_5,
    RULE_SETS,
    RuleSet,
    find_rule_set,
)
from .setup.table import Table, default_hand_size, default_target

__all__ = [
    "ALL_FIVES", "ALL_FIVES_SPINNER", "DEFAULT_RULE_SET", "FIVES_AND_THREES", "OLA_5",
    "RULE_SETS", "RuleSet",
    "find_rule_set", "Outcome", "DOMINO", "BLOCKED", "WON", "UNFINISHED",
    "ALL_TILES", "BadTile", "Draw", "Event", "Hand", "Layout", "HandNotOver", "HandOver",
    "IllegalMove", "IllegalStart", "ImpossibleHand", "Lay", "Match", "MatchOver",
    "NothingToUndo", "Pass", "Placement", "Played", "Remaining", "RuleError", "Score", "Side",
    "SetupError", "Start", "Table", "Tile", "default_hand_size", "default_target", "explain",
    "move_text", "normal", "parse_move", "parse_tile", "pips", "round_to_five", "tile_text",
    "Undo",
]
