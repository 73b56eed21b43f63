"""Checking the pips or tiles entered as left in hands at the end of a hand (RULES.md §9)."""

from .errors import N_, ImpossibleHand
from .hand import Hand
from .table import Table
from .tiles import NORMAL_OF, normal, parse_tile, pip_range, pips, tile_text


def check_remaining(table: Table, hand: Hand, given: dict, required: list[int],
                    optional: list[int]) -> dict[int, int]:
    """Pips of every seat entered, once each entry is shown possible; else ImpossibleHand."""
    names = table.players
    for seat in given:
        if seat not in required and seat not in optional:
            raise ImpossibleHand(f"seat {seat!r} is not at this table", kind="unknown_seat")
    missing = [names[seat] for seat in required if seat not in given]
    if missing:
        raise ImpossibleHand.worded(N_("the pips left in %(names)s's hand are needed"),
                                    "pips_needed", names=", ".join(missing))
    unplayed = sorted([a + b for a, b in hand.unplayed()])
    seen: dict = {}
    pips_by_seat = {}
    for seat, value in sorted(given.items()):
        count = hand.held[seat]
        if isinstance(value, (list, tuple)):
            pips_by_seat[seat] = _check_tiles(names, seat, value, count, hand, seen)
        else:
            pips_by_seat[seat] = _check_pips(names[seat], value, count, unplayed)
    return pips_by_seat


def _check_pips(name: str, value, count: int, unplayed: list[int]) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ImpossibleHand(f"{name}'s pips must be a whole number, not {value!r}",
                             kind="pips_not_number", player=name, value=str(value))
    low, high = pip_range(count, unplayed)
    if not low <= value <= high:
        if count == 0:
            template = N_("%(player)s cannot hold %(pips)s pips in 0 tiles: "
                          "%(player)s holds no tiles")
        elif count == 1:
            template = N_("%(player)s cannot hold %(pips)s pips in 1 tile: 1 tile not laid "
                          "in this hand holds %(low)s to %(high)s")
        else:
            template = N_("%(player)s cannot hold %(pips)s pips in %(tiles)s tiles: "
                          "%(tiles)s tiles not laid in this hand hold %(low)s to %(high)s")
        raise ImpossibleHand.worded(template, "impossible_pips", player=name, pips=value,
                                    tiles=count, low=low, high=high)
    return value


def _check_tiles(names, seat: int, tiles, count: int, hand: Hand, seen: dict) -> int:
    name = names[seat]
    if len(tiles) != count:
        template = (N_("%(player)s holds 1 tile, not %(given)s") if count == 1
                    else N_("%(player)s holds %(tiles)s tiles, not %(given)s"))
        raise ImpossibleHand.worded(template, "wrong_tile_count", player=name, tiles=count,
                                    given=len(tiles))
    total = 0
    for item in tiles:
        tile = NORMAL_OF.get(item) if item.__class__ is tuple else None
        if tile is None or item[0].__class__ is not int or item[1].__class__ is not int:
            tile = normal(parse_tile(item) if isinstance(item, str) else _pair(item, name))
        text = tile_text(tile)
        if tile in hand.laid:
            raise ImpossibleHand.worded(N_("%(player)s cannot hold %(tile)s: it was laid in "
                                           "this hand"), "tile_was_laid", player=name,
                                        tile=text)
        if seen.get(tile) == seat:
            raise ImpossibleHand.worded(N_("%(player)s's tiles name %(tile)s twice"),
                                        "tile_twice", player=name, other=name, tile=text)
        if tile in seen:
            raise ImpossibleHand.worded(N_("%(tile)s cannot be in two hands: %(other)s and "
                                           "%(player)s"), "tile_twice", player=name,
                                        other=names[seen[tile]], tile=text)
        seen[tile] = seat
        total += pips(tile)
    return total


def _pair(item, name: str):
    if (isinstance(item, (list, tuple)) and len(item) == 2
            and all(isinstance(pip, int) and not isinstance(pip, bool) and 0 <= pip <= 6
                    for pip in item)):
        return tuple(item)
    raise ImpossibleHand(f"{item!r} in {name}'s hand is not a tile", kind="not_a_tile",
                         player=name, text=str(item))
