"""The tiles of a hand as they lie on the table: which laid tile touches which.

The layout the rules keep (`layout.Layout`) holds the open sides only. A picture of the
table, and the layout told in text, need every tile and the one it was laid against:
that is derived here from the hand's moves, through the open sides the rules kept
after each of them. On a line a move names its end (L or R); where doubles branch, the
laid tile it touches (`5-3`). A side of a laid tile is never called left or right:
the lead's two halves are its FIRST (as written) and SECOND sides, any other tile's
open side is its FAR side, and a spinner's branch sides are ACROSS it.
"""

from typing import NamedTuple

from ..notation.tiles import Tile, normal, tile_text
from .layout import Side

FIRST, SECOND, FAR = "first", "second", "far"
ACROSS = ("across", "across-2")
"""A spinner's two branch sides, in the order the rules open them."""


class LaidTile(NamedTuple):
    """A tile on the table: its halves as they lie (the half touching the tile it was laid
    against first; the lead as written), its move in the hand, the laid tile it touches
    (None for the lead) and on which side of that tile."""

    tile: Tile
    move: int
    touches: int | None
    side: str | None
    double: bool
    spinner: bool


class OpenSide(NamedTuple):
    """An open side of the layout: the laid tile it is on (by its place in `Laid.tiles`),
    which side of that tile, and the rules' own `Side` (its number, what it counts)."""

    tile: int
    side: str
    end: Side


class Laid(NamedTuple):
    """Every tile laid in a hand, in the order laid, and the open sides in the rules' order."""

    tiles: tuple[LaidTile, ...]
    open: tuple[OpenSide, ...]


def covered_index(sides: tuple[Side, ...], end: str | None, tile: Tile) -> int | None:
    """Which open side a move's end names: L or R on a line; where doubles branch, the first
    side of the named laid tile that the tile fits (the rules choose it so). None for the
    lead."""
    if end is None or not sides:
        return None
    if end in ("L", "R"):
        return 0 if end == "L" else 1
    return next((index for index, side in enumerate(sides)
                 if tile_text(side.tile) == end and side.value in tile), None)


def covered_by(hand, index: int) -> Side | None:
    """The open side the tile of move `index` of `hand` was laid on (None for the lead)."""
    played = hand.moves[index]
    for before in reversed(hand.moves[:index]):
        if before.ends is not None:
            at = covered_index(before.ends, played.move.end, normal(played.move.tile))
            return None if at is None else before.ends[at]
    return None


def end_text(end: Side) -> str:
    """An open end as a person sees it on the table: the number it shows, `3-3` for a
    double."""
    return tile_text((end.value, end.value)) if end.double else str(end.value)


def laid_tiles(moves) -> Laid:
    """The tiles of a hand's moves (`Hand.moves`, or the first moves of it) as they lie."""
    laid = NOTHING_LAID
    for index, played in enumerate(moves):
        laid = with_move(laid, played, index)
    return laid


def with_move(laid: Laid, played, index: int) -> Laid:
    """The tiles as they lie after one more move, move `index` of the hand (`Played`)."""
    if played.ends is None:  # a draw, a pass or a knock lays nothing
        return laid
    if not laid.tiles:
        first, second = played.move.tile
        lead = LaidTile((first, second), index, None, None, first == second,
                        played.ends[0].spinner)
        return Laid((lead,), (OpenSide(0, FIRST, played.ends[0]),
                              OpenSide(0, SECOND, played.ends[1])))
    tile = normal(played.move.tile)
    before = tuple(side.end for side in laid.open)
    at = covered_index(before, played.move.end, tile)
    touches, side = laid.open[at].tile, laid.open[at].side
    inner = before[at].value
    outer = tile[1] if tile[0] == inner else tile[0]
    new = len(laid.tiles)
    slots = [(new, FAR)]
    if len(played.ends) == len(before) + 2:  # both line sides of a spinner now hold a tile
        slots += [(touches, ACROSS[0]), (touches, ACROSS[1])]
    ends = played.ends[at:at + len(slots)]
    return Laid(laid.tiles + (LaidTile((inner, outer), index, touches, side, inner == outer,
                                       played.ends[at].spinner),),
                laid.open[:at] + tuple(OpenSide(*slot, end) for slot, end
                                       in zip(slots, ends, strict=True)) + laid.open[at + 1:])


NOTHING_LAID = Laid((), ())


def arms(laid: Laid) -> list[tuple[int, str, list[int]]]:
    """The layout as arms, as a person reads it off the table: from the lead's two sides and
    from each spinner's sides across, the tiles along it outwards to its end (a spinner on
    it starts arms of its own). Each arm is (the laid tile it leaves, which side, its tiles
    in order); the lead's FIRST and SECOND arms come first."""
    children: dict[tuple[int, str], int] = {
        (laid_tile.touches, laid_tile.side): number
        for number, laid_tile in enumerate(laid.tiles) if laid_tile.touches is not None}
    found = []
    starts = [(0, FIRST), (0, SECOND)] + [
        (number, side) for number, laid_tile in enumerate(laid.tiles) if laid_tile.spinner
        for side in ACROSS]
    for start in starts:
        along, at = [], children.get(start)
        while at is not None:
            along.append(at)
            at = children.get((at, FAR))
        if along:
            found.append((*start, along))
    return found


def chains(laid: Laid) -> tuple[str, list[tuple[str, list[str]]]]:
    """The layout in text, tiles as they lie: the line through the lead from one end to the
    other (`3-5 5-5* [5-2] 2-6`, the lead in brackets, a spinner starred), and for each
    spinner whose sides across hold tiles, the spinner and its arms across, outwards."""
    tiles = laid.tiles
    if not tiles:
        return "", []
    starts = {(number, side): along for number, side, along in arms(laid)}
    first = [_shown(tiles[at], flip=True) for at in reversed(starts.get((0, FIRST), []))]
    second = [_shown(tiles[at]) for at in starts.get((0, SECOND), [])]
    line = " ".join([*first, f"[{_shown(tiles[0])}]", *second])
    across = [(_shown(tiles[number]), [" ".join(_shown(tiles[at]) for at in along)
                                       for side in ACROSS
                                       for along in [starts.get((number, side))] if along])
              for number, tile in enumerate(tiles) if tile.spinner
              and any((number, side) in starts for side in ACROSS)]
    return line, across


def _shown(laid_tile: LaidTile, flip: bool = False) -> str:
    first, second = laid_tile.tile
    text = tile_text((second, first) if flip else (first, second))
    return text + ("*" if laid_tile.spinner else "")
