"""The table events a match is made of, and their one codec.

An event goes to and from data (what the store keeps as JSON), record text
(`3-5@L`, `draw`, `pass`) and a button value (the tile buttons of the table
screen). A Lay's end travels as text, so an end may later be named by a tile.
"""

import functools
import re
from dataclasses import dataclass, field

from ..errors import N_, IllegalMove
from .tiles import Tile, key_of, normal, parse_tile, tile_text


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
    key: Tile | None = field(default=None, init=False, repr=False, compare=False)
    """The tile as (low, high) when it is a tile of the set, worked out once; else None."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", key_of(self.tile))


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

    @classmethod
    def of(cls, held: dict) -> "Remaining":
        """The event for {seat: pips or tiles}, in seat order whatever order they came in."""
        return cls(tuple(sorted(held.items())))


@dataclass(frozen=True, slots=True)
class Undo:
    """The table takes back its last event, whatever it was (never part of a match's log)."""


Event = Start | Lay | Draw | Pass | Remaining
Move = Lay | Draw | Pass
Entry = Event | Undo
"""What a scorer enters: a table event, or an undo of the last one."""

PASS = Pass()
UNDO = Undo()
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
        raise IllegalMove.worded(N_("%(text)s is not a move: write a tile like 3-5, draw or "
                                    "pass"), "not_a_move", text=shown)
    if text.strip().lower() == "pass":
        return PASS
    drawn = _DRAW_TEXT.match(text)
    if drawn:
        count = int(drawn.group(1) or 1)
        if count < 1:
            raise IllegalMove.worded(N_("draw 0 draws nothing: write draw, or draw and a "
                                        "number"), "draw_nothing", text=text)
        return Draw(count)
    tile, at, end = text.rpartition("@")
    if at:
        if end.strip().upper() in ("L", "R"):
            return Lay(parse_tile(tile), end.strip().upper())
        if "-" not in end:
            raise IllegalMove.worded(N_("%(text)s names no end: write @L or @R after the tile, "
                                        "or the laid tile it touches, like 3-1@5-3"),
                                     "not_an_end", text=repr(text))
        return Lay(parse_tile(tile), tile_text(normal(parse_tile(end))))
    if "-" not in text:
        raise IllegalMove.worded(N_("%(text)s is not a move: write a tile like 3-5, draw or "
                                    "pass"), "not_a_move", text=repr(text))
    return Lay(parse_tile(text), None)


def move_text(move: Move) -> str:
    """The move as a record writes it; the inverse of `parse_move`."""
    if isinstance(move, Lay):
        return tile_text(move.tile) + (f"@{move.end}" if move.end else "")
    if isinstance(move, Draw):
        return "draw" if move.count == 1 else f"draw {move.count}"
    return "pass"


def lay_from_button(value: str) -> Lay:
    """The Lay a tile button sends (`6-3`, or `6-3@L` where a tile fits either end)."""
    move = parse_move(value)
    if not isinstance(move, Lay):
        raise IllegalMove.worded(N_("%(text)s is not a tile"), "not_a_tile", text=value)
    return move


def button_value(tile: Tile, end: str | None) -> str:
    """The value of the button that lays `tile` on `end`; `lay_from_button` reads it back."""
    return move_text(Lay(tile, end))


def event_data(event: Event) -> dict:
    """The event as JSON-ready data, as the store keeps it; `event_from_data` reads it back."""
    if isinstance(event, Lay):
        return {"lay": tile_text(event.tile), "end": event.end}
    if isinstance(event, Draw):
        return {"draw": event.count}
    if isinstance(event, Pass):
        return {"pass": True}
    if isinstance(event, Start):
        return {"start": event.seat}
    return {"remaining": [[seat, [tile_text(t) for t in value] if isinstance(value, tuple)
                           else value] for seat, value in event.held]}


def event_from_data(data: dict) -> Event:
    """The event `event_data` made."""
    if "lay" in data:
        text, end = data["lay"], data["end"]
        if isinstance(text, str) and (end is None or isinstance(end, str)):
            return _lay(text, end)
        return Lay(parse_tile(text), end)
    if "draw" in data:
        return Draw(data["draw"])
    if "pass" in data:
        return PASS
    if "start" in data:
        return Start(data["start"])
    return Remaining(tuple(
        (seat, tuple(parse_tile(t) for t in value) if isinstance(value, list) else value)
        for seat, value in data["remaining"]))


@functools.lru_cache(maxsize=512)
def _lay(text: str, end: str | None) -> Lay:
    """Events are immutable values: a match rebuild reuses one Lay per tile and end."""
    return Lay(parse_tile(text), end)
