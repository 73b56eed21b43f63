"""Where each laid tile is drawn: the layout placed on a table of bounded width.

Tiles are placed in the order they were laid, each against the tile it touches, as a
person lays them: straight on while there is room, turning at the edge of the table (a
line snakes down one way and up the other) or round a tile already there. A tile never
moves once placed, so stepping through a hand only adds or takes away the last ones.
Units are half a tile: a tile is 2 × 1, a double lies crosswise, 1 along and 2 across.
"""

import functools
from typing import NamedTuple

from ...rules.placement.laid import ACROSS, FAR, FIRST, NOTHING_LAID, SECOND, Laid, with_move
from ...rules.placement.layout import Side

EAST, SOUTH, WEST, NORTH = (1, 0), (0, 1), (-1, 0), (0, -1)
HALF_WIDTH = 7
"""How far from the lead a tile may lie, sideways or up and down: seven tiles to a row,
readable on a 320 px phone (a half tile is then about 19 px)."""
FARTHEST_JUMP = 40
"""How far along its way a boxed-in tile is moved to find room (a line is drawn back)."""
MARK, MARK_WIDE = 0.45, 0.65
"""Half the width of an open end's mark: a number's, a double's (`4-4`)."""


class Rect(NamedTuple):
    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: "Rect") -> bool:
        return (self.x0 < other.x1 - 1e-6 and other.x0 < self.x1 - 1e-6
                and self.y0 < other.y1 - 1e-6 and other.y0 < self.y1 - 1e-6)


class Piece(NamedTuple):
    """A tile as drawn: the centre and pips of each half, its outline, its direction of
    travel, and whether it is a double, a spinner, the lead; `gap` is a line drawn from the
    tile it touches when no place beside that tile was free."""

    halves: tuple[tuple[float, float, int], ...]
    rect: Rect
    double: bool
    spinner: bool
    lead: bool
    move: int
    gap: tuple[float, float, float, float] | None = None


class Mark(NamedTuple):
    """An open end's mark: where it is drawn, and the rules' open side it stands for."""

    x: float
    y: float
    end: Side


class Picture(NamedTuple):
    """A hand's tiles as they lie (`rules.laid`), each as drawn, the open ends' marks, and
    the box they all fit in."""

    laid: Laid
    pieces: tuple[Piece, ...]
    marks: tuple[Mark, ...]
    box: Rect


class _End(NamedTuple):
    """An open side while the layout is placed: the centre of what it is on (a half, or a
    double), the way out of it and how far its edge is, and the arm's heading and bend."""

    x: float
    y: float
    out: tuple[int, int]
    reach: float
    half: bool
    heading: tuple[int, int]
    bend: tuple[int, int]
    snaking: bool = True


def _turned(direction, clockwise: bool = True) -> tuple[int, int]:
    x, y = direction
    return (-y, x) if clockwise else (y, -x)


def _back(direction) -> tuple[int, int]:
    return (-direction[0], -direction[1])


def placed(moves: tuple) -> Picture:
    """The layout of a hand's moves (`Hand.moves`, as a tuple) as it is drawn; its tiles
    are placed once and kept (`_grown`), the open ends marked each time."""
    laid, pieces, ends, _kept = _grown(moves)
    marks = _marks(laid.open, ends, [piece.rect for piece in pieces])
    return Picture(laid, pieces, marks, _box(pieces, marks))


@functools.lru_cache(maxsize=4096)
def _grown(moves: tuple) -> tuple[Laid, tuple[Piece, ...], dict, dict]:
    """The tiles of a hand's moves as they lie, their pieces, the open sides they leave and
    the room kept free across each spinner for its first tiles there: those of its moves but
    the last (kept from the tap before), and the last tile placed."""
    if not moves:
        return NOTHING_LAID, (), {}, {}
    laid, pieces, ends, kept = _grown(moves[:-1])
    if moves[-1].ends is None:  # a draw, a pass or a knock lays nothing
        return laid, pieces, ends, kept
    laid = with_move(laid, moves[-1], len(moves) - 1)
    tile = laid.tiles[-1]
    ends, kept = dict(ends), dict(kept)  # the ones kept from before are never changed
    if tile.touches is None:
        piece, new = _lead(tile)
    else:
        key = (tile.touches, tile.side)
        kept.pop(key, None)
        piece, new = _laid(tile, ends.pop(key), [piece.rect for piece in pieces]
                           + list(kept.values()))
    number = len(pieces)
    ends.update({(number, side): end for side, end in new.items()})
    rects = [each.rect for each in pieces] + [piece.rect]
    for side in ACROSS if tile.spinner else ():  # a line must not cross a spinner's sides
        room = _shape(_start(new[side], new[side].out), new[side].out, 0, 0, None).rect
        if not any(room.overlaps(other) for other in rects + list(kept.values())):
            kept[(number, side)] = room
    return laid, pieces + (piece,), ends, kept


def _lead(tile) -> tuple[Piece, dict]:
    """The lead, across the middle of the table: as written, its first half westward."""
    first, second = tile.tile
    if tile.double:  # crosswise: its far sides are its long ones
        piece = Piece(((0, -0.5, first), (0, 0.5, second)), Rect(-0.5, -1, 0.5, 1), True,
                      tile.spinner, True, tile.move)
    else:
        piece = Piece(((-0.5, 0, first), (0.5, 0, second)), Rect(-1, -0.5, 1, 0.5), False,
                      False, True, tile.move)
    west = 0 if tile.double else -0.5  # where each arm starts from: the double, or a half
    new = {FIRST: _End(west, 0, WEST, 0.5, not tile.double, WEST, NORTH),
           SECOND: _End(-west, 0, EAST, 0.5, not tile.double, EAST, SOUTH)}
    if tile.spinner:
        new.update(_across(0, 0, EAST))
    return piece, new


def _across(x: float, y: float, along) -> dict:
    """A spinner's two sides across its line, each the start of an arm bending onwards."""
    return {side: _End(x, y, out, 1, False, out, along)
            for side, out in zip(ACROSS, (_turned(along, False), _turned(along)), strict=True)}


def _laid(tile, end: _End, rects: list[Rect]) -> tuple[Piece, dict]:
    """A tile against an open side: straight on, else bent, else wherever it fits (`rects`
    are taken)."""
    inner, outer = tile.tile
    for bounded in (True, False):
        for way, snaking in _ways(end, rects if bounded else None):
            start = _start(end, way)
            piece = _shape(start, way, inner, outer, tile)
            if _free(piece.rect, rects, _limit(end, way) if bounded else None):
                return piece, _next(piece, end, way, snaking, tile)
    for jump in range(1, FARTHEST_JUMP):  # boxed in: along its way, with a line back
        x, y = _start(end, end.out)
        start = (x + end.out[0] * jump, y + end.out[1] * jump)
        piece = _shape(start, end.out, inner, outer, tile)._replace(gap=(x, y, *start))
        if _free(piece.rect, rects, None):
            break
    return piece, _next(piece, end, end.out, end.snaking, tile)


def _limit(end: _End, way) -> float:
    """How far sideways a tile may lie: within the table going straight on; a bend may stand
    out a little, and lets an arm pushed past the edge turn back rather than run on."""
    if way == end.out:
        return HALF_WIDTH
    return max(HALF_WIDTH + 1, abs(end.x) + end.reach + 1.5, abs(end.y) + end.reach + 1.5)


def _ways(end: _End, rects) -> list[tuple[tuple[int, int], bool]]:
    """The directions to try, each with whether a bend there snakes back (the arm met the
    edge of the table) or goes round (it met a tile)."""
    if end.out == end.heading:
        straight = _start(end, end.out)
        meets_edge = rects is not None and not _inside(
            _shape(straight, end.out, 0, 0, None).rect)
        return [(end.out, end.snaking), (end.bend, meets_edge), (_back(end.bend), meets_edge)]
    onward = _back(end.heading) if end.snaking else end.heading
    return [(onward, end.snaking), (end.out, end.snaking), (_back(onward), end.snaking)]


def _start(end: _End, way) -> tuple[float, float]:
    """Where a tile laid `way` from the open side touches it: straight on, past its edge;
    bent, beside the open half, or past a double's far side keeping to the row's pitch."""
    if way == end.out:
        return end.x + way[0] * end.reach, end.y + way[1] * end.reach
    if end.half:
        return end.x + way[0] * 0.5, end.y + way[1] * 0.5
    out, aside = end.reach + 0.5, 1 - end.reach  # a double's far side is 2 wide, its long
    return (end.x + end.out[0] * out + way[0] * aside,  # side (a spinner's across) 1
            end.y + end.out[1] * out + way[1] * aside)


def _shape(start, way, inner: int, outer: int, tile) -> Piece:
    """The tile laid from `start` going `way`: a double crosswise, any other lengthwise."""
    x, y = start
    dx, dy = way
    double = tile is not None and tile.double
    if double:
        cx, cy = x + dx * 0.5, y + dy * 0.5
        px, py = _turned(way)
        halves = ((cx - px * 0.5, cy - py * 0.5, inner), (cx + px * 0.5, cy + py * 0.5, inner))
        rect = _around(cx, cy, 0.5 if dx else 1, 1 if dx else 0.5)
    else:
        halves = ((x + dx * 0.5, y + dy * 0.5, inner), (x + dx * 1.5, y + dy * 1.5, outer))
        rect = _around(x + dx, y + dy, 1 if dx else 0.5, 0.5 if dx else 1)
    return Piece(halves, rect, double, tile is not None and tile.spinner, False,
                 tile.move if tile is not None else -1)


def _around(x: float, y: float, half_width: float, half_height: float) -> Rect:
    return Rect(x - half_width, y - half_height, x + half_width, y + half_height)


def _inside(rect: Rect, half_width: float = HALF_WIDTH) -> bool:
    """On the table: within `half_width` of the lead sideways, and as far up or down."""
    return (-half_width <= rect.x0 and rect.x1 <= half_width
            and -half_width <= rect.y0 and rect.y1 <= half_width)


def _free(rect: Rect, rects: list[Rect], half_width: float | None) -> bool:
    """Nothing lies there, and (with `half_width`) it is on the table."""
    return ((half_width is None or _inside(rect, half_width))
            and not any(rect.overlaps(other) for other in rects))


def _next(piece: Piece, end: _End, way, snaking: bool, tile) -> dict:
    """The open sides of a placed tile: its far side, and a spinner's sides across."""
    heading = way if way[0] * end.heading[0] + way[1] * end.heading[1] else end.heading
    x, y = piece.halves[-1][:2] if not piece.double else (
        (piece.rect.x0 + piece.rect.x1) / 2, (piece.rect.y0 + piece.rect.y1) / 2)
    new = {FAR: _End(x, y, way, 0.5, not piece.double, heading, end.bend, snaking)}
    if tile.spinner:
        new.update(_across(x, y, way))
    return new


def _marks(open_sides, ends: dict, rects: list[Rect]) -> tuple[Mark, ...]:
    """Each open end's mark just past it, or a little aside where a tile lies there, else on
    the open half itself. A double's mark (`4-4`) is wider than a number's."""
    marks, taken = [], list(rects)
    for side in open_sides:
        end = ends[(side.tile, side.side)]
        wide = side.end.double and not side.end.branch
        half_width = MARK_WIDE if wide else MARK
        reach = half_width if end.out[0] else MARK  # how far the mark stands out
        x, y = _start(end, end.out)
        x, y = x + end.out[0] * (reach + 0.05), y + end.out[1] * (reach + 0.05)
        spots = [(x, y)] + [(x + way[0], y + way[1]) for way in (end.bend, _back(end.bend))]
        spot = next((spot for spot in spots if not any(
            _around(*spot, half_width, MARK).overlaps(other) for other in taken)),
            (end.x, end.y))
        taken.append(_around(*spot, half_width, MARK))
        marks.append(Mark(*spot, side.end))
    return tuple(marks)


def _box(pieces: list[Piece], marks) -> Rect:
    rects = [piece.rect for piece in pieces] + [_around(mark.x, mark.y, MARK_WIDE, MARK)
                                                 for mark in marks]
    if not rects:
        return Rect(0, 0, 0, 0)
    return Rect(min(r.x0 for r in rects), min(r.y0 for r in rects),
                max(r.x1 for r in rects), max(r.y1 for r in rects))
