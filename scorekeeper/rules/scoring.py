"""Scores as facts, and the one-line explanation a referee reads out for each."""

from typing import NamedTuple

from .hand import End
from .table import Table
from .tiles import Tile, round_to_five, tile_text


class Score(NamedTuple):
    """Points awarded (possibly none) with the facts that justify them.

    kind is `ends` (a tile made the ends count a multiple of five), `domino`
    (a player went out) or `blocked`; facts holds the numbers of that kind.
    """

    hand: int
    move: int | None
    side: int | None
    points: int
    kind: str
    facts: dict


def ends_score(hand: int, move: int, side: int, seat: int, tile: Tile,
               ends: tuple[End, End] | None, count: int, lead: bool) -> Score:
    points = count if count % 5 == 0 and count > 0 else 0
    return Score(hand, move, side, points, "ends",
                 {"seat": seat, "tile": tile, "ends": ends, "count": count, "lead": lead})


def domino_score(hand: int, table: Table, winner: int, pips_by_seat: dict) -> Score:
    """The winner's side takes each opponent's pips, each rounded to five separately."""
    side = table.side_of(winner)
    opponents = [(seat, pips_by_seat[seat], round_to_five(pips_by_seat[seat]))
                 for seat in range(len(table.players)) if table.side_of(seat) != side]
    points = sum(rounded for _, _, rounded in opponents)
    return Score(hand, None, side, points, "domino", {"seat": winner, "opponents": opponents})


def blocked_score(hand: int, table: Table, pips_by_seat: dict) -> Score:
    """Strictly fewest pips wins the others' rounded pips minus its own; a tie scores nothing."""
    sides = [(side, sum(pips_by_seat[seat] for seat in seats))
             for side, seats in enumerate(table.sides)]
    sides = [(side, pips, round_to_five(pips)) for side, pips in sides]
    fewest = min(pips for _, pips, _ in sides)
    leaders = [side for side, pips, _ in sides if pips == fewest]
    if len(leaders) > 1:
        return Score(hand, None, None, 0, "blocked", {"sides": sides, "tied": leaders})
    winner = leaders[0]
    own = sides[winner][2]
    points = sum(rounded for side, _, rounded in sides if side != winner) - own
    return Score(hand, None, winner, points, "blocked", {"sides": sides, "tied": []})


def explain(score: Score, table: Table, award: bool = True) -> str:
    """One line a referee can read out: the arithmetic, then (with award) who gets what."""
    facts = score.facts
    to = f"{score.points} to {table.side_name(score.side)}" if score.side is not None else ""
    if score.kind == "ends":
        tile = tile_text(facts["tile"])
        if facts["lead"]:
            sum_text = f"lead {tile}: {facts['tile'][0]} + {facts['tile'][1]} = {facts['count']}"
        else:
            sum_text = " + ".join(_end_text(end) for end in facts["ends"])
            sum_text += f" = {facts['count']}"
        if not award:
            return sum_text
        if score.points:
            return f"{sum_text} → {to}"
        return f"{sum_text}, not a multiple of five: no score"
    if score.kind == "domino":
        parts = ", ".join(f"{table.players[seat]} {pips} → {rounded}"
                          for seat, pips, rounded in facts["opponents"])
        return f"{table.players[facts['seat']]} went out. {parts}: {to}"
    parts = "; ".join(f"{table.side_name(side)} {pips} → {rounded}"
                      + (" fewest" if side == score.side else "")
                      for side, pips, rounded in facts["sides"])
    if score.side is None:
        names = " and ".join(table.side_name(side) for side in facts["tied"])
        return f"blocked: {parts}. {names} tie for fewest: nobody scores"
    others = " + ".join(str(rounded) for side, _, rounded in facts["sides"]
                        if side != score.side)
    own = facts["sides"][score.side][2]
    return f"blocked: {parts}; {others} − {own} = {to}"


def _end_text(end: End) -> str:
    if end.double:
        return f"{end.value}-{end.value} ({end.count()})"
    return str(end.value)
