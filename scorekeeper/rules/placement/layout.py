"""The tiles laid in a hand as a tree of open sides, and the count of RULESETS.md §1.

One model for every rule set: the two-ended line of All Fives is a layout whose
doubles never branch, so it always has two open sides, named L and R. Where
doubles branch (spinners), a side is named by the laid tile it touches (`@5-3`).
"""

from typing import NamedTuple

from ..notation.tiles import ALL_TILES, Tile, tile_text
from ..setup.rulesets import BRANCHING, EVERY_DOUBLE, NO_SPINNER


class Side(NamedTuple):
    """An open side of the layout: the laid tile it belongs to and what it shows.

    `points` is what it adds to the count: its pips; both halves of a double whose
    far line side it is; nothing for a branch side no tile has started.
    """

    tile: Tile
    value: int
    points: int
    branch: bool = False
    spinner: bool = False

    @property
    def double(self) -> bool:
        return self.tile[0] == self.tile[1]


class Layout(NamedTuple):
    """The open sides of a hand's layout, in the order of its arms, and who branches.

    `spins` says whether the next double laid becomes a spinner.
    """

    sides: tuple[Side, ...]
    branching: str
    spins: bool

    @property
    def count(self) -> int:
        return count_of(self.sides)


def empty(branching: str) -> Layout:
    """The layout before the lead."""
    return _EMPTY[branching]


def count_of(sides: tuple[Side, ...]) -> int:
    """The sum over the open sides; a double with two open line sides (a lead) counts once."""
    total, last = 0, None
    for side in sides:
        if side.tile != last or side.tile[0] != side.tile[1]:
            total += side.points
        last = side.tile
    return total


def terms(sides: tuple[Side, ...]) -> tuple[Side, ...]:
    """The sides that make up the count, once each: what an explanation adds up."""
    found, last = [], None
    for side in sides:
        if not side.branch and (side.tile != last or not side.double):
            found.append(side)
        last = side.tile
    return tuple(found)


def lead(layout: Layout, tile: Tile) -> Layout:
    """The layout after the lead `a-b` (as written): `a` is the first side (L), `b` the second."""
    a, b = tile
    key = (a, b) if a <= b else (b, a)
    if a != b:  # a side's tile leaves its other half open: b's side shows a
        return _tuple(Layout, ((_SIDE[key, b, False], _SIDE[key, a, False]), layout.branching,
                               layout.spins))
    side = _SIDE[key, a, layout.spins]
    return _tuple(Layout, ((side, side), layout.branching, layout.branching == EVERY_DOUBLE))


def lay(layout: Layout, tile: Tile, index: int) -> Layout:
    """The layout after `tile` (low, high) is laid on open side `index`, which it fits."""
    sides = layout.sides
    touched = sides[index]
    spinner = tile[0] == tile[1] and layout.spins
    new = _SIDE[tile, touched.value, spinner]
    spins = layout.spins and (tile[0] != tile[1] or layout.branching == EVERY_DOUBLE)
    if touched.spinner and not touched.branch and not any(
            other.tile == touched.tile for other in sides[:index] + sides[index + 1:]):
        branch = Side(touched.tile, touched.value, 0, True, True)
        return Layout(sides[:index] + (new, branch, branch) + sides[index + 1:],
                      layout.branching, spins)
    return Layout(sides[:index] + (new,) + sides[index + 1:], layout.branching, spins)


_tuple = tuple.__new__  # builds a Layout without the NamedTuple constructor's overhead


def _new_side(tile: Tile, value: int, spinner: bool) -> Side:
    """The side a tile laid on an open `value` leaves: its other half, or a double's far side."""
    if tile[0] == tile[1]:
        return Side(tile, value, value * 2, False, spinner)
    other = tile[1] if tile[0] == value else tile[0]
    return Side(tile, other, other, False, False)


_SIDE = {(tile, value, spinner): _new_side(tile, value, spinner)
         for tile in ALL_TILES for value in range(7) for spinner in (False, True)}
"""Every side a tile can leave, made once: sides are values shared by every hand."""
_TEXT = {tile: tile_text(tile) for tile in ALL_TILES}
_EMPTY = {branching: Layout((), branching, branching != NO_SPINNER) for branching in BRANCHING}
LINE_STEPS = {tile: tuple((side, side.value, side.points) if side else None
                         for side in (_SIDE[tile, value, False] if value in tile else None
                                      for value in range(7)))
              for tile in ALL_TILES}
"""On a line with no spinners, by tile (low, high) and by the open value it is laid on:
the side it leaves, with that side's value and points; None where it does not fit. What
`run.play_run` reads."""


def fitting(layout: Layout, tile: Tile) -> list[int]:
    """The open sides `tile` fits, one per laid tile (its sides give the same result)."""
    found, touched = [], []
    for index, side in enumerate(layout.sides):
        if (side.value == tile[0] or side.value == tile[1]) and side.tile not in touched:
            found.append(index)
            touched.append(side.tile)
    return found


def result_key(layout: Layout) -> tuple:
    """What tells two placements apart: the open sides left, in any order."""
    return tuple(sorted((side.value, side.double, side.branch, side.spinner)
                        for side in layout.sides))


def end_name(layout: Layout, index: int) -> str:
    """How a record names open side `index`: L or R on a line, else the tile it touches."""
    if layout.branching == NO_SPINNER:
        return "L" if index == 0 else "R"
    return _TEXT[layout.sides[index].tile]


def arms(sides: tuple[Side, ...]) -> list[dict]:
    """The open sides as a person at the table sees them: each arm's open end and its tile."""
    return [{"tile": tile_text(side.tile), "value": side.value, "points": side.points,
             "double": side.double and not side.branch, "branch": side.branch,
             "spinner": side.spinner}
            for side in terms(sides) + tuple(side for side in sides if side.branch)]
