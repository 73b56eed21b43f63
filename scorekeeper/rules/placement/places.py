"""Where a tile goes, in table words: the open end it covers ("on the 3"), or where doubles
branch the laid tile it touches ("on 5-3", "on the spinner 5-5").

An end only ever shows a number from 0 to 6 or a double, and a laid tile is one of the 28,
so each place has a catalogue message of its own instead of a number filled into one:
Hungarian gives each number its own ending ("a 3-asra", "az 5-ösre", "a 6-6-os duplára"),
Czech and Greek their own prepositions. The web (`web/view.py`) and the replay
(`commands/told.py`) both word a place through here, with their own `say`.
"""

from ..notation.tiles import Tile, normal
from ..words import N_, english
from .layout import Side

ON_NUMBER = (
    N_("on the 0"),
    N_("on the 1"),
    N_("on the 2"),
    N_("on the 3"),
    N_("on the 4"),
    N_("on the 5"),
    N_("on the 6"),
)
"""A line's open end by the number it shows."""
ON_DOUBLE = (
    N_("on the 0-0"),
    N_("on the 1-1"),
    N_("on the 2-2"),
    N_("on the 3-3"),
    N_("on the 4-4"),
    N_("on the 5-5"),
    N_("on the 6-6"),
)
"""A line's open end that is a double, crosswise (it counts both halves)."""
ON_TILE = {
    (0, 0): N_("on 0-0"),
    (0, 1): N_("on 0-1"),
    (0, 2): N_("on 0-2"),
    (0, 3): N_("on 0-3"),
    (0, 4): N_("on 0-4"),
    (0, 5): N_("on 0-5"),
    (0, 6): N_("on 0-6"),
    (1, 1): N_("on 1-1"),
    (1, 2): N_("on 1-2"),
    (1, 3): N_("on 1-3"),
    (1, 4): N_("on 1-4"),
    (1, 5): N_("on 1-5"),
    (1, 6): N_("on 1-6"),
    (2, 2): N_("on 2-2"),
    (2, 3): N_("on 2-3"),
    (2, 4): N_("on 2-4"),
    (2, 5): N_("on 2-5"),
    (2, 6): N_("on 2-6"),
    (3, 3): N_("on 3-3"),
    (3, 4): N_("on 3-4"),
    (3, 5): N_("on 3-5"),
    (3, 6): N_("on 3-6"),
    (4, 4): N_("on 4-4"),
    (4, 5): N_("on 4-5"),
    (4, 6): N_("on 4-6"),
    (5, 5): N_("on 5-5"),
    (5, 6): N_("on 5-6"),
    (6, 6): N_("on 6-6"),
}
"""Where doubles branch: the laid tile whose open side a tile goes on."""
ON_SPINNER = (
    N_("on the spinner 0-0"),
    N_("on the spinner 1-1"),
    N_("on the spinner 2-2"),
    N_("on the spinner 3-3"),
    N_("on the spinner 4-4"),
    N_("on the spinner 5-5"),
    N_("on the spinner 6-6"),
)
"""A spinner's line side, by the spinner's number."""
ON_SPINNER_SIDE = (
    N_("on the side of spinner 0-0"),
    N_("on the side of spinner 1-1"),
    N_("on the side of spinner 2-2"),
    N_("on the side of spinner 3-3"),
    N_("on the side of spinner 4-4"),
    N_("on the side of spinner 5-5"),
    N_("on the side of spinner 6-6"),
)
"""A spinner's branch side, once its line sides hold tiles."""


def on_end(end: Side, tree: bool = False, say=english) -> str:
    """Where a tile goes, never a side of the screen: on a line by the number it covers;
    where doubles branch (`tree`) by the laid tile it touches, a spinner named as one."""
    if not tree:
        return say(ON_DOUBLE[end.value] if end.double else ON_NUMBER[end.value])
    if end.branch:
        return say(ON_SPINNER_SIDE[end.value])
    if end.spinner:
        return say(ON_SPINNER[end.value])
    return on_tile(end.tile, say)


def on_tile(tile: Tile, say=english) -> str:
    """On the laid tile `tile` (the replay's `@5-3`), as `on_end` says it."""
    return say(ON_TILE[normal(tile)])
