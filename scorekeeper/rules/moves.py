"""Where a tile may go on the line: the one placement rule that offers and lays alike.

`place` is the geometry of the line (two open ends, no spinner); both the offer
of buttons (`placements`) and the laying of a tile (`rules.play.lay`) use it.
"""

from typing import NamedTuple

from .errors import N_, IllegalMove
from .hand import End, Hand
from .tiles import ALL_TILES, Tile, tile_text

SIDE_WORD = {"L": "left", "R": "right"}


class Placement(NamedTuple):
    """One way to lay a tile now: the end (None for the lead), the ends after, their count.

    `points` is what laying it scores now, as the match works it out (`Match.placements`).
    """

    tile: Tile
    end: str | None
    ends: tuple[End, End]
    count: int
    points: int = 0


def _fits(end: End, tile: Tile) -> bool:
    return end.value == tile[0] or end.value == tile[1]


LAID_ON = {(tile, value): End(tile[1] if tile[0] == value else tile[0], tile[0] == tile[1])
            for tile in ALL_TILES for value in tile}
"""The new open end when a tile is laid on an end of that value: its other half, crosswise
if a double. Ends are values, so one End per tile and value serves every match."""


LEAD_ENDS = {(a, b): (End(a, a == b), End(b, a == b)) for a in range(7) for b in range(7)}
"""The ends the lead `a-b` leaves, as written: `a` on the left, `b` on the right."""


def place(hand: Hand, tile: Tile, end: str | None) -> tuple[End, End, int]:
    """The one placement rule: the open ends after laying `tile` on `end` (L or R; None for
    the lead, as written) and their count. A crosswise double at an end counts both halves;
    the lead counts all its pips."""
    if end is None:
        left, right = LEAD_ENDS[tile]
        return left, right, tile[0] + tile[1]
    if end == "L":
        left, right = LAID_ON[tile, hand.left.value], hand.right
    else:
        left, right = hand.left, LAID_ON[tile, hand.right.value]
    return left, right, (((left.value << 1) if left.double else left.value)
                         + ((right.value << 1) if right.double else right.value))


def ends_after(hand: Hand, tile: Tile, end: str | None) -> tuple[End, End]:
    """The open ends after laying `tile` on `end`, as `place` lays it."""
    left, right, _ = place(hand, tile, end)
    return left, right


def _same_either_way(hand: Hand, tile: Tile) -> bool:
    """Whether laying on the left or the right leaves the same two open ends."""
    on_left, on_right = ends_after(hand, tile, "L"), ends_after(hand, tile, "R")
    return sorted(on_left) == sorted(on_right)


def choose_end(hand: Hand, tile: Tile, asked: str | None, player: str, written: Tile) -> str:
    """The end a tile goes on: the one asked for, else the one it fits (left first)."""
    left, right = hand.left.value, hand.right.value
    fits_left = left == tile[0] or left == tile[1]
    fits_right = right == tile[0] or right == tile[1]
    if asked == "L" and fits_left or asked == "R" and fits_right:
        return asked  # the common case, first: a record or a button names its end
    name = tile_text(written)
    if not fits_left and not fits_right:
        raise IllegalMove.worded(N_("%(tile)s matches neither open end (%(left)s and %(right)s)"),
                                 "no_fit", player=player, tile=name, left=hand.left.value,
                                 right=hand.right.value)
    if asked is None:
        if fits_left and fits_right and not _same_either_way(hand, tile):
            raise IllegalMove.worded(
                N_("%(tile)s fits both ends with different results: say which end"),
                "which_end", player=player, tile=name)
        return "L" if fits_left else "R"
    if asked not in SIDE_WORD:
        raise IllegalMove.worded(N_("%(end)s is not an end: the ends are L and R"),
                                 "not_an_end", player=player, tile=name, end=repr(asked))
    end = hand.left if asked == "L" else hand.right  # asked for an end the tile does not fit
    template = (N_("%(tile)s does not fit the left end (%(value)s)") if asked == "L"
                else N_("%(tile)s does not fit the right end (%(value)s)"))
    raise IllegalMove.worded(template, "wrong_end", player=player, tile=name,
                             end=SIDE_WORD[asked], value=end.value)


def placements(hand: Hand) -> list[Placement]:
    """Every placement open to the player whose turn it is; the lead may be any tile."""
    found = []
    lead = not hand.moves
    for tile in ALL_TILES:
        if tile in hand.laid:
            continue
        if lead:
            left, right, count = place(hand, tile, None)
            found.append(Placement(tile, None, (left, right), count))
            continue
        fits_left, fits_right = _fits(hand.left, tile), _fits(hand.right, tile)
        if fits_left and fits_right and _same_either_way(hand, tile):
            fits_right = False
        for end, fits in (("L", fits_left), ("R", fits_right)):
            if fits:
                left, right, count = place(hand, tile, end)
                found.append(Placement(tile, end, (left, right), count))
    return found
