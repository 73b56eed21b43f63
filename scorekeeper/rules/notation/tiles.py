"""The double-six set: tiles, their names and their pips."""

import re

from ..errors import N_, BadTile
from ..limits import HIGHEST_PIP, SET_SIZE

Tile = tuple[int, int]
"""A tile as two pip numbers; `(3, 5)` and `(5, 3)` are the same tile."""

PIPS = range(HIGHEST_PIP + 1)
ALL_TILES: tuple[Tile, ...] = tuple((a, b) for a in PIPS for b in range(a, HIGHEST_PIP + 1))
"""The 28 tiles of a double-six set, each as (low, high), 0-0 first."""
assert len(ALL_TILES) == SET_SIZE
TILE_SET = frozenset(ALL_TILES)

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
        raise BadTile.worded(N_("%(text)s is not a tile: write it as two pip numbers, like 3-5"),
                             "not_a_tile", text=shown)
    a, b = int(match.group(1)), int(match.group(2))
    if a > HIGHEST_PIP or b > HIGHEST_PIP:
        raise BadTile.worded(N_("%(text)s is not in a double-six set: pips go from 0 to "
                                "%(highest)s"), "not_in_set", text=f"{a}-{b}", highest=HIGHEST_PIP)
    return (a, b)


_TILE_OF_TEXT = {f"{a}-{b}": (a, b) for a in PIPS for b in PIPS}
"""The tiles as records usually write them, read without a regular expression."""

NORMAL_OF = {(a, b): (min(a, b), max(a, b)) for a in PIPS for b in PIPS}


def key_of(tile) -> Tile | None:
    """The (low, high) form of a tile given as a pair of pips 0-6; None for anything else."""
    if (tile.__class__ is tuple and len(tile) == 2 and tile[0].__class__ is int
            and tile[1].__class__ is int):
        return NORMAL_OF.get(tile)
    return None


def normal_of_checked(tile) -> Tile:
    """The (low, high) form of a tile given as a pair of pips 0-6; else BadTile."""
    return key_of(tile) or normal(checked_tile(tile))


def checked_tile(tile) -> Tile:
    """The tile as a pair of pips from 0 to 6, in the order given; else BadTile."""
    if (isinstance(tile, (tuple, list)) and len(tile) == 2
            and all(isinstance(pip, int) and not isinstance(pip, bool) and pip in PIPS
                    for pip in tile)):
        return tuple(tile)
    raise BadTile.worded(N_("%(text)s is not a tile of the double-six set: pips go from 0 to "
                            "%(highest)s"), "not_in_set", text=repr(tile), highest=HIGHEST_PIP)


def tile_text(tile: Tile) -> str:
    """The tile as players say it: `3-5`."""
    return f"{tile[0]}-{tile[1]}"


def pips(tile: Tile) -> int:
    return tile[0] + tile[1]


def pip_range(count: int, values: list[int]) -> tuple[int, int]:
    """Smallest and largest sum of `count` of the tiles whose pips are `values` (sorted)."""
    if count > len(values):
        return (1, 0)
    return (sum(values[:count]), sum(values[len(values) - count:]) if count else 0)
