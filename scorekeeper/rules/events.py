"""The table events a match is made of, and their text as written in a match record."""

import re
from dataclasses import dataclass

from .errors import IllegalMove
from .tiles import Tile, normal, parse_tile, tile_text


@dataclass(frozen=True, slots=True)
class Start:
    """The table names who leads the hand (the highest double, or the table's pick)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Lay:
    """The player whose turn it is lays a tile: as the lead, on the left or right end (L, R),
    or, where doubles branch, against the laid tile named by `end` (`5-3`, low half first)."""

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
MAX_MOVE_TEXT = 16
"""No move is longer (`draw 14`, ` 6-6 @ R `); longer text is refused before it is read."""
_DRAW_TEXT = re.compile(r"^\s*draw(?:\s+([0-9]+))?\s*$", re.IGNORECASE)
PARSED_MOVES: dict[str, Move] = {}
"""Moves already read, by their text: a record repeats the same few hundred texts."""


def parse_move(text: str) -> Move:
    """Read a move of a record (`3-5`, `3-5@L`, `3-1@5-3`, `draw`, `draw 2`, `pass`); cached."""
    move = PARSED_MOVES.get(text) if isinstance(text, str) else None
    if move is None:
        move = _parse_move(text)
        if len(PARSED_MOVES) < 4096:
            PARSED_MOVES[text] = move
    return move


def _parse_move(text) -> Move:
    if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
        shown = repr(text) if len(repr(text)) <= 40 else repr(text)[:37] + "..."
        raise IllegalMove(f"{shown} is not a move: write a tile like 3-5, draw or pass",
                          kind="not_a_move", text=shown)
    if text.strip().lower() == "pass":
        return PASS
    drawn = _DRAW_TEXT.match(text)
    if drawn:
        count = int(drawn.group(1) or 1)
        if count < 1:
            raise IllegalMove("draw 0 draws nothing: write draw, or draw and a number",
                              kind="draw_nothing", text=text)
        return Draw(count)
    tile, at, end = text.rpartition("@")
    if at:
        if end.strip().upper() in ("L", "R"):
            return Lay(parse_tile(tile), end.strip().upper())
        if "-" not in end:
            raise IllegalMove(f"{text!r} names no end: write @L or @R after the tile, or "
                              "the laid tile it touches, like 3-1@5-3", kind="not_an_end",
                              text=text)
        return Lay(parse_tile(tile), tile_text(normal(parse_tile(end))))
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
