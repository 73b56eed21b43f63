"""The layout drawn: an SVG of the tiles as they lie (`geometry.placed`), each open end
marked with its number, and a sentence for screen readers.

Colours come from the stylesheet (classes, never inline styles), so the drawing follows
light and dark mode. It is a pure function of the hand's moves, its size and the words of
its sentence, and is kept: the table, the scoreboard and the replay draw the same
position again and again.
"""

import functools

from markupsafe import Markup, escape

from ...rules.placement.laid import end_text
from .geometry import Picture, Piece

UNIT = {"compact": 18, "large": 26}
"""Pixels of a half tile as drawn at full size: the table screen's drawing is small, the
replay's large. A narrow phone scales the drawing down to its width."""
MARGIN = 0.25
PIP_SPOTS = {
    0: (), 1: ((0.5, 0.5),), 2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.5, 0.25), (0.73, 0.25), (0.27, 0.75), (0.5, 0.75), (0.73, 0.75)),
}
"""Where the pips of each number lie in a half, as fractions of its side: (along the tile's
long side, across it)."""


def drawn(picture: Picture, size: str, label: str, latest: int | None = None) -> Markup:
    """The SVG of a hand's layout as placed (`geometry.placed`), `size` compact or large,
    with `label` its text for screen readers; the tile of move `latest` is outlined."""
    unit = UNIT[size]
    box = picture.box
    x0, y0 = box.x0 - MARGIN, box.y0 - MARGIN
    width, height = box.x1 - box.x0 + 2 * MARGIN, box.y1 - box.y0 + 2 * MARGIN
    parts = [f'<svg class="drawn {size}" xmlns="http://www.w3.org/2000/svg" role="img" '
             f'viewBox="{_n(x0)} {_n(y0)} {_n(width)} {_n(height)}" '
             f'width="{_n(width * unit)}" height="{_n(height * unit)}" '
             f'aria-label="{escape(label)}"><g aria-hidden="true">']
    parts += [_piece(piece, piece.move == latest) for piece in picture.pieces]
    parts += [_mark(mark) for mark in picture.marks]
    parts.append("</g></svg>")
    return Markup("".join(parts))


@functools.lru_cache(maxsize=8192)
def _piece(piece: Piece, latest: bool) -> str:
    """A tile's markup, kept: a hand's drawing is the one before it and one tile more."""
    rect = piece.rect
    classes = "tile" + " spinner" * piece.spinner + " lead" * piece.lead + " latest" * latest
    parts = [f'<g class="{classes}">']
    if piece.gap:
        parts.append('<line class="gap" x1="{}" y1="{}" x2="{}" y2="{}"/>'.format(
            *map(_n, piece.gap)))
    parts.append(f'<rect class="face" x="{_n(rect.x0 + 0.04)}" y="{_n(rect.y0 + 0.04)}" '
                 f'width="{_n(rect.x1 - rect.x0 - 0.08)}" '
                 f'height="{_n(rect.y1 - rect.y0 - 0.08)}" rx="0.14"/>')
    (ax, ay, _), (bx, by, _) = piece.halves
    mx, my = (ax + bx) / 2, (ay + by) / 2
    if ax == bx:  # halves one above the other: the dividing line lies across
        parts.append(f'<line class="divide" x1="{_n(ax - 0.36)}" y1="{_n(my)}" '
                     f'x2="{_n(ax + 0.36)}" y2="{_n(my)}"/>')
    else:
        parts.append(f'<line class="divide" x1="{_n(mx)}" y1="{_n(ay - 0.36)}" '
                     f'x2="{_n(mx)}" y2="{_n(ay + 0.36)}"/>')
    lengthwise = ay == by  # the halves side by side: the tile's long side runs along x
    for x, y, pips in piece.halves:
        for along, across in PIP_SPOTS[pips]:
            dx, dy = (along, across) if lengthwise else (across, along)
            parts.append(f'<circle class="pip" cx="{_n(x - 0.5 + dx)}" '
                         f'cy="{_n(y - 0.5 + dy)}" r="0.095"/>')
    parts.append("</g>")
    return "".join(parts)


@functools.lru_cache(maxsize=4096)
def _mark(mark) -> str:
    """An open end's number in a ring (a double's as `4-4`); a spinner's side across that no
    tile has started shows its number dashed: it counts nothing yet."""
    end = mark.end
    text = str(end.value) if end.branch else end_text(end)
    shape = (f'<rect x="{_n(mark.x - 0.62)}" y="{_n(mark.y - 0.4)}" width="1.24" '
             f'height="0.8" rx="0.4"/>' if len(text) > 1 else
             f'<circle cx="{_n(mark.x)}" cy="{_n(mark.y)}" r="0.42"/>')
    return (f'<g class="mark{" unstarted" if end.branch else ""}">{shape}'
            f'<text x="{_n(mark.x)}" y="{_n(mark.y)}">{text}</text></g>')


def _n(value: float) -> str:
    """A coordinate, short: 3, 2.5, 0.27 (six significant digits hide the float's own)."""
    return f"{value:g}"
