"""Where a tile may go on the layout: the one placement rule that offers and lays alike.

`place` lays a tile on the layout (RULESETS.md §1); both the offer of buttons
(`placements`) and the laying of a tile (`rules.hands.play.lay`) use it. With no spinners
the two open sides are named L and R; with spinners a side is named by the laid tile
it touches (RECORD_FORMAT.md). Refusals name the tile and the ends.
"""

from typing import NamedTuple

from ..errors import N_, IllegalMove
from ..notation.tiles import ALL_TILES, Tile, normal, parse_tile, tile_text
from ..setup.rulesets import NO_SPINNER
from .layout import Layout, Side, count_of, end_name, fitting, lay, lead, result_key

SIDE_WORD = {"L": "left", "R": "right"}
TILE_OF_END = {f"{a}-{b}": (min(a, b), max(a, b)) for a in range(7) for b in range(7)}
"""The laid tile an end names (`5-3` or `3-5`), read without parsing."""


class Placement(NamedTuple):
    """One way to lay a tile now: the end (None for the lead), the sides after, their count.

    `points` is what laying it scores now, as the match works it out (`Match.placements`);
    `bust` says that its count would pass an exact target, so it scores nothing.
    """

    tile: Tile
    end: str | None
    ends: tuple[Side, ...]
    count: int
    points: int = 0
    bust: bool = False


def place(layout: Layout, tile: Tile, index: int | None) -> tuple[Layout, int]:
    """The one placement rule: the layout after laying `tile` on open side `index` (None:
    the lead, as written), and its count. A double with an open far line side counts both
    halves once; an unstarted branch side counts nothing; the lead counts all its pips."""
    if index is None:
        return lead(layout, tile), tile[0] + tile[1]
    after = lay(layout, tile, index)
    return after, count_of(after.sides)


def choose_side(layout: Layout, tile: Tile, asked: str | None, player: str,
                written: Tile, laid) -> int:
    """The open side a tile (low, high) goes on: the one asked for, else the one it fits."""
    if layout.branching == NO_SPINNER:
        return _line_side(layout, tile, asked, player, written)
    return _tree_side(layout, tile, asked, player, written, laid)


def check_notation(layout: Layout, asked: str, player: str, written: Tile) -> None:
    """`@L`/`@R` on a line, `@c-d` where doubles branch: the wrong kind is refused (§3)."""
    name = tile_text(written)
    if layout.branching == NO_SPINNER and asked not in SIDE_WORD and asked not in TILE_OF_END:
        raise IllegalMove.worded(N_("%(end)s is not an end: the ends are L and R"),
                                 "not_an_end", player=player, tile=name, end=repr(asked))
    if layout.branching == NO_SPINNER and asked not in SIDE_WORD:
        raise IllegalMove.worded(
            N_("%(tile)s@%(end)s names a laid tile, but this game has no spinners: "
               "the ends are L and R"), "not_an_end", player=player, tile=name, end=asked)
    if layout.branching != NO_SPINNER and asked in SIDE_WORD:
        raise IllegalMove.worded(
            N_("%(tile)s@%(end)s names a left or right end, but this game has spinners: "
               "name the laid tile, like %(tile)s@%(example)s"), "not_an_end",
            player=player, tile=name, end=asked, example=_example(layout, written))


def _line_side(layout: Layout, tile: Tile, asked, player: str, written: Tile) -> int:
    """L or R on a line with two open ends: the left when the tile fits both alike."""
    left, right = layout.sides
    fits_left = left.value == tile[0] or left.value == tile[1]
    fits_right = right.value == tile[0] or right.value == tile[1]
    if asked == "L" and fits_left:
        return 0
    if asked == "R" and fits_right:
        return 1
    name = tile_text(written)
    if asked is not None:
        check_notation(layout, asked, player, written)
    if not fits_left and not fits_right:
        raise IllegalMove.worded(N_("%(tile)s matches neither open end (%(left)s and %(right)s)"),
                                 "no_fit", player=player, tile=name, left=left.value,
                                 right=right.value)
    if asked is None:
        if fits_left and fits_right and (result_key(lay(layout, tile, 0))
                                         != result_key(lay(layout, tile, 1))):
            raise IllegalMove.worded(
                N_("%(tile)s fits both ends with different results: say which end"),
                "which_end", player=player, tile=name)
        return 0 if fits_left else 1
    template = (N_("%(tile)s does not fit the left end (%(value)s)") if asked == "L"
                else N_("%(tile)s does not fit the right end (%(value)s)"))
    raise IllegalMove.worded(template, "wrong_end", player=player, tile=name,
                             end=SIDE_WORD[asked], value=(left if asked == "L" else right).value)


def _tree_side(layout: Layout, tile: Tile, asked, player: str, written: Tile, laid) -> int:
    """The side of the named laid tile that the tile fits; unnamed only when one tile fits."""
    target = TILE_OF_END.get(asked) if asked.__class__ is str else None
    if target is not None:  # the common case, first: a record or a button names the tile
        for index, side in enumerate(layout.sides):
            if side.tile == target and (side.value == tile[0] or side.value == tile[1]):
                return index
    elif asked is None:
        fits = fitting(layout, tile)
        if len(fits) == 1:
            return fits[0]
    return _refuse_side(layout, tile, asked, player, written, laid)


def _refuse_side(layout: Layout, tile: Tile, asked, player: str, written: Tile, laid):
    """Why a tile cannot go where the move says (or says nothing) on a layout with spinners;
    an end written in an unusual way (`5 - 3`) is read here and may still fit."""
    name = tile_text(written)
    if asked is not None:
        check_notation(layout, asked, player, written)
    fits = fitting(layout, tile)
    if asked is None and not fits:
        raise IllegalMove.worded(N_("%(tile)s matches no open end (%(ends)s)"), "no_fit",
                                 player=player, tile=name, ends=open_ends_text(layout))
    if asked is None:
        raise IllegalMove.worded(
            N_("%(tile)s fits more than one laid tile (%(where)s): say which, like "
               "%(tile)s@%(example)s"), "which_end", player=player, tile=name,
            example=_example(layout, tile),
            where=", ".join(tile_text(layout.sides[index].tile) for index in fits))
    target = normal(parse_tile(asked))
    touching = [index for index, side in enumerate(layout.sides) if side.tile == target]
    end = tile_text(target)
    if not touching:
        template = (N_("%(end)s has no open side: every side of it holds a tile")
                    if target in laid else N_("%(end)s is not on the table: name a laid tile"))
        raise IllegalMove.worded(template, "wrong_end", player=player, tile=name, end=end)
    for index in touching:
        if index in fits:
            return index
    raise IllegalMove.worded(N_("%(tile)s does not fit %(end)s (its open side shows %(value)s)"),
                             "wrong_end", player=player, tile=name, end=end,
                             value=layout.sides[touching[0]].value)


def open_ends_text(layout: Layout) -> str:
    """The open ends, each with the laid tile it is on, in any language: `3 (3-5), 5 (5-5)`."""
    return ", ".join(f"{side.value} ({tile_text(side.tile)})" for side in layout.sides)


def _example(layout: Layout, tile: Tile) -> str:
    """A laid tile to name in a refusal: one the tile fits, else the first with an open side."""
    fits = fitting(layout, tile) if layout.sides else []
    if not layout.sides:
        return tile_text(normal(tile))
    return tile_text(layout.sides[fits[0] if fits else 0].tile)


def placements(layout: Layout, laid) -> list[Placement]:
    """Each tile not laid, once per open side where the result would differ on a line, and
    once per arm where doubles branch (the table sees which arm it went on, even when the
    count is the same); any tile leads."""
    found = []
    for tile in ALL_TILES:
        if tile in laid:
            continue
        if not layout.sides:
            after, count = place(layout, tile, None)
            found.append(Placement(tile, None, after.sides, count))
            continue
        seen = set()
        for index in fitting(layout, tile):
            after, count = place(layout, tile, index)
            key = result_key(after) if layout.branching == NO_SPINNER else index
            if key not in seen:
                seen.add(key)
                found.append(Placement(tile, end_name(layout, index), after.sides, count))
    return found
