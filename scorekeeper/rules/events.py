"""The table events a match is made of, and their text as written in a match record."""

import re
from dataclasses import dataclass

from .errors import IllegalMove
from .tiles import Tile, parse_tile, tile_text


@dataclass(frozen=True, slots=True)
class Start:
    """The table names who leads the hand (the highest double, or the table's pick)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Lay:
    """The player whose turn it is lays a tile: on the left or right end, or as the lead."""

    tile: Tile
    end: str | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    """The player whose turn it is draws tiles from the boneyard and keeps the turn."""

    count: int = 1


@dataclass(frozen=True, slots=True)
class Pass:
    """The player whose turn it is cannot play and the boneyard is empty."""


@dataclass(frozen=True, slots=True)
class Remaining:
    """What players still held when the hand ended: (seat, pips or tiles) pairs."""

    held: tuple[tuple[int, int | tuple[Tile, ...]], ...]


Event = Start | Lay | Draw | Pass | Remaining
Move = Lay | Draw | Pass

PASS = Pass()
DRAW = Draw(1)
_DRAW_TEXT = re.compile(r"^\s*draw(?:\s+([0-9]+))?\s*$", re.IGNORECASE)
_END_TEXT = re.compile(r"^(.*?)\s*@\s*([LRlr])\s*$")
PARSED_MOVES: dict[str, Move] = {}
"""Moves already read, by their text: a record repeats the same few hundred texts."""


def parse_move(text: str) -> Move:
    """Read a move of a record (`3-5`, `3-5@L`, `draw`, `draw 2`, `pass`); cached by text."""
    move = PARSED_MOVES.get(text) if isinstance(text, str) else None
    if move is None:
        move = _parse_move(text)
        if len(PARSED_MOVES) < 4096:
            PARSED_MOVES[text] = move
    return move


def _parse_move(text) -> Move:
    if not isinstance(text, str):
        raise IllegalMove(f"{text!r} is not a move: write a tile like 3-5, draw or pass",
                          kind="not_a_move", text=str(text))
    if text.strip().lower() == "pass":
        return PASS
    drawn = _DRAW_TEXT.match(text)
    if drawn:
        count = int(drawn.group(1) or 1)
        if count < 1:
            raise IllegalMove("draw 0 draws nothing: write draw, or draw and a number",
                              kind="draw_nothing", text=text)
        return Draw(count)
    with_end = _END_TEXT.match(text)
    if with_end:
        return Lay(parse_tile(with_end.group(1)), with_end.group(2).upper())
    if "-" not in text:
        raise IllegalMove(f"{text!r} is not a move: write a tile like 3-5, draw or pass",
                          kind="not_a_move", text=text)
    return Lay(parse_tile(text), None)


def move_text(move: Move) -> str:
    """The move as a record writes it; the inverse of `parse_move`."""
    if isinstance(move, Lay):
        return tile_text(move.tile) + (f"@{move.end}" if move.end else "")
    if isinstance(move, Draw):
        return "draw" if move.count == 1 else f"draw {move.count}"
    return "pass"
