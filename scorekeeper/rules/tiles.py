"""The double-six set: tiles, their names, pips and the rounding to five."""

import re

from .errors import BadTile

Tile = tuple[int, int]
"""A tile as two pip numbers; `(3, 5)` and `(5, 3)` are the same tile."""

ALL_TILES: tuple[Tile, ...] = tuple((a, b) for a in range(7) for b in range(a, 7))
"""The 28 tiles of a double-six set, each as (low, high), 0-0 first."""

_TILE_TEXT = re.compile(r"^\s*([0-9]+)\s*-\s*([0-9]+)\s*$")


def normal(tile: Tile) -> Tile:
    """The tile as (low, high), so that 5-3 and 3-5 compare equal."""
    a, b = tile
    return (a, b) if a <= b else (b, a)


def parse_tile(text: str) -> Tile:
    """Read `a-b` as written (the order matters for the lead's left and right)."""
    tile = _TILE_OF_TEXT.get(text) if text.__class__ is str else None
    if tile is not None:
        return tile
    match = _TILE_TEXT.match(text) if isinstance(text, str) and len(text) <= 16 else None
    if not match:
        shown = repr(text) if len(repr(text)) <= 40 else repr(text)[:37] + "..."
        raise BadTile(f"{shown} is not a tile: write it as two pip numbers, like 3-5",
                      kind="not_a_tile", text=shown)
    a, b = int(match.group(1)), int(match.group(2))
    if a > 6 or b > 6:
        raise BadTile(f"{a}-{b} is not in a double-six set: pips go from 0 to 6",
                      kind="not_in_set", text=f"{a}-{b}")
    return (a, b)


_TILE_OF_TEXT = {f"{a}-{b}": (a, b) for a in range(7) for b in range(7)}
"""The tiles as records usually write them, read without a regular expression."""

NORMAL_OF = {(a, b): (min(a, b), max(a, b)) for a in range(7) for b in range(7)}


def normal_of_checked(tile) -> Tile:
    """The (low, high) form of a tile given as a pair of pips 0-6; else BadTile. Hot path."""
    key = NORMAL_OF.get(tile) if tile.__class__ is tuple else None
    if key is not None and tile[0].__class__ is int and tile[1].__class__ is int:
        return key
    return normal(checked_tile(tile))


def checked_tile(tile) -> Tile:
    """The tile as a pair of pips from 0 to 6, in the order given; else BadTile."""
    if (isinstance(tile, (tuple, list)) and len(tile) == 2
            and all(isinstance(pip, int) and not isinstance(pip, bool) and 0 <= pip <= 6
                    for pip in tile)):
        return tuple(tile)
    raise BadTile(f"{tile!r} is not a tile of the double-six set: pips go from 0 to 6",
                  kind="not_in_set", text=str(tile))


def tile_text(tile: Tile) -> str:
    """The tile as players say it: `3-5`."""
    return f"{tile[0]}-{tile[1]}"


def pips(tile: Tile) -> int:
    return tile[0] + tile[1]


def ends_points(count: int) -> int:
    """What a count of the open ends scores: itself when a multiple of five above 0 (§6)."""
    return count if count % 5 == 0 and count > 0 else 0


def round_to_five(pip_count: int) -> int:
    """Nearest multiple of five; remainders 0-2 round down, 3-4 up (12 → 10, 13 → 15)."""
    return (pip_count + 2) // 5 * 5


def pip_range(count: int, values: list[int]) -> tuple[int, int]:
    """Smallest and largest sum of `count` of the tiles whose pips are `values` (sorted)."""
    if count > len(values):
        return (1, 0)
    return (sum(values[:count]), sum(values[len(values) - count:]) if count else 0)
