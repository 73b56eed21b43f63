"""Checking the pips or tiles entered as left in hands at the end of a hand (RULES.md §9)."""

from ..errors import N_, ImpossibleHand, Np_
from ..limits import HIGHEST_PIP
from ..notation.tiles import NORMAL_OF, normal, parse_tile, pip_range, tile_text
from ..setup.table import Table
from .hand import Hand


def check_remaining(table: Table, hand: Hand, given: dict, required: list[int],
                    optional: list[int]) -> dict[int, int]:
    """Pips of every seat entered, once each entry is shown possible; else ImpossibleHand."""
    names = table.players
    for seat in given:
        if seat not in required and seat not in optional:
            raise ImpossibleHand.worded(N_("seat %(seat)s is not at this table"),
                                        "unknown_seat", seat=repr(seat))
    missing = [names[seat] for seat in required if seat not in given]
    if missing:
        raise ImpossibleHand.worded(N_("the pips left in %(names)s's hand are needed"),
                                    "pips_needed", names=", ".join(missing))
    unplayed = None  # the pips of the tiles not laid, sorted: worked out for a pip count
    seen: dict = {}
    pips_by_seat = {}
    for seat, value in sorted(given.items()):
        count = hand.held[seat]
        if isinstance(value, (list, tuple)):
            pips_by_seat[seat] = _check_tiles(names, seat, value, count, hand, seen)
        else:
            unplayed = hand.unplayed_pips() if unplayed is None else unplayed
            pips_by_seat[seat] = _check_pips(names[seat], value, count, unplayed)
    return pips_by_seat


def determined_pips(hand: Hand, seats: list[int]) -> dict[int, int]:
    """The pips of each seat that only one value fits (it holds every tile not laid, or
    none): the table need not count them."""
    unplayed = hand.unplayed_pips()
    found = {}
    for seat in seats:
        low, high = pip_range(hand.held[seat], unplayed)
        if low == high:
            found[seat] = low
    return found


def _check_pips(name: str, value, count: int, unplayed: list[int]) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ImpossibleHand.worded(N_("%(player)s's pips must be a whole number, not "
                                       "%(value)s"), "pips_not_number", player=name,
                                    value=repr(value))
    low, high = pip_range(count, unplayed)
    if not low <= value <= high:
        if count == 0:
            raise ImpossibleHand.worded(
                N_("%(player)s holds no tiles: 0 pips, not %(pips)s"), "impossible_pips",
                player=name, pips=value, tiles=count, low=low, high=high)
        if low == high:
            raise ImpossibleHand.worded(
                N_("%(player)s must hold exactly %(low)s, not %(pips)s"), "impossible_pips",
                player=name, pips=value, tiles=count, low=low, high=high)
        raise ImpossibleHand.worded(
            Np_("%(player)s cannot hold %(pips)s in %(tiles)s tile: a tile not laid in this "
                "hand holds %(low)s to %(high)s pips",
                "%(player)s cannot hold %(pips)s in %(tiles)s tiles: %(tiles)s tiles not laid "
                "in this hand hold %(low)s to %(high)s pips"),
            "impossible_pips", counted="tiles", player=name, pips=value, tiles=count, low=low,
            high=high)
    return value


def _check_tiles(names, seat: int, tiles, count: int, hand: Hand, seen: dict) -> int:
    name = names[seat]
    if len(tiles) != count:
        raise ImpossibleHand.worded(
            Np_("%(player)s holds %(tiles)s tile, not %(given)s",
                "%(player)s holds %(tiles)s tiles, not %(given)s"), "wrong_tile_count",
            counted="tiles", player=name, tiles=count, given=len(tiles))
    total = 0
    for item in tiles:
        tile = NORMAL_OF.get(item) if item.__class__ is tuple else None
        if tile is None or item[0].__class__ is not int or item[1].__class__ is not int:
            tile = normal(parse_tile(item) if isinstance(item, str) else _pair(item, name))
        if tile in hand.laid or tile in seen:
            _refuse_tile(names, seat, tile, hand, seen)
        seen[tile] = seat
        total += tile[0] + tile[1]
    return total


def _refuse_tile(names, seat: int, tile, hand: Hand, seen: dict):
    """Why a tile cannot be in this player's hand: laid already, or named twice."""
    name, text = names[seat], tile_text(tile)
    if tile in hand.laid:
        raise ImpossibleHand.worded(N_("%(player)s cannot hold %(tile)s: it was laid in "
                                       "this hand"), "tile_was_laid", player=name, tile=text)
    if seen[tile] == seat:
        raise ImpossibleHand.worded(N_("%(player)s's tiles name %(tile)s twice"),
                                    "tile_twice", player=name, other=name, tile=text)
    raise ImpossibleHand.worded(N_("%(tile)s cannot be in two hands: %(other)s and "
                                   "%(player)s"), "tile_twice", player=name,
                                other=names[seen[tile]], tile=text)


def _pair(item, name: str):
    if (isinstance(item, (list, tuple)) and len(item) == 2
            and all(isinstance(pip, int) and not isinstance(pip, bool) and 0 <= pip <= HIGHEST_PIP
                    for pip in item)):
        return tuple(item)
    raise ImpossibleHand.worded(N_("%(text)s in %(player)s's hand is not a tile"),
                                "not_a_tile", player=name, text=repr(item))
