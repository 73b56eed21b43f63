"""Scores as facts, and the one-line explanation a referee reads out for each."""

from typing import NamedTuple

from .layout import Side, terms
from .table import Table
from .tiles import Tile, ends_points, round_to_five, tile_text


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
               ends: tuple[Side, ...] | None, count: int, lead: bool) -> Score:
    return Score(hand, move, side, ends_points(count), "ends",
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


def subtracted_score(hand: int, table: Table, out: int | None, pips_by_seat: dict) -> Score:
    """Nobody scores: each player's own pips, rounded to five, come off their side (the
    player who went out holds none). `facts["sides"]` holds what each side loses."""
    held = [(seat, pips_by_seat[seat], round_to_five(pips_by_seat[seat]))
            for seat in range(len(table.players)) if seat != out]
    losses = [0] * len(table.sides)
    for seat, _, rounded in held:
        losses[table.side_of(seat)] -= rounded
    return Score(hand, None, None, sum(losses), "subtracted",
                 {"seat": out, "held": held, "sides": losses})


def english(message: str, **values) -> str:
    """The default wording: the English message with its values filled in."""
    return message % values


def explain(score: Score, table: Table, award: bool = True, say=english) -> str:
    """One line a referee can read out: the arithmetic, then (with award) who gets what.

    `say(message, **values)` words each sentence; the app passes gettext, so the
    messages below are the catalogue's ids (extracted with the keyword `say`).
    """
    facts = score.facts
    side = table.side_name(score.side) if score.side is not None else ""
    if score.kind == "ends":
        if facts["lead"]:
            a, b = facts["tile"]
            sum_text = say("lead %(tile)s: %(a)s + %(b)s = %(count)s",
                           tile=tile_text(facts["tile"]), a=a, b=b, count=facts["count"])
        else:
            sum_text = " + ".join(_end_text(end) for end in terms(facts["ends"]))
            sum_text += f" = {facts['count']}"
        if not award:
            return sum_text
        if score.points:
            return say("%(sum)s → %(points)s to %(side)s", sum=sum_text, points=score.points,
                       side=side)
        return say("%(sum)s, not a multiple of five: no score", sum=sum_text)
    if score.kind == "subtracted":
        return _explain_subtracted(score, table, say)
    if score.kind == "domino":
        parts = ", ".join(f"{table.players[seat]} {pips} → {rounded}"
                          for seat, pips, rounded in facts["opponents"])
        return say("%(name)s went out. %(parts)s: %(points)s to %(side)s",
                   name=table.players[facts["seat"]], parts=parts, points=score.points,
                   side=side)
    parts = "; ".join(
        say("%(side)s %(pips)s → %(rounded)s fewest", side=table.side_name(each), pips=pips,
            rounded=rounded) if each == score.side
        else f"{table.side_name(each)} {pips} → {rounded}"
        for each, pips, rounded in facts["sides"])
    if score.side is None:
        names = say(" and ").join(table.side_name(each) for each in facts["tied"])
        return say("blocked: %(parts)s. %(names)s tie for fewest: nobody scores",
                   parts=parts, names=names)
    others = " + ".join(str(rounded) for each, _, rounded in facts["sides"]
                        if each != score.side)
    own = facts["sides"][score.side][2]
    return say("blocked: %(parts)s; %(others)s − %(own)s = %(points)s to %(side)s",
               parts=parts, others=others, own=own, points=score.points, side=side)


def _explain_subtracted(score: Score, table: Table, say) -> str:
    """`Ann went out. Bob holds 13 → 15: −15 to Bob`: each player's own pips come off."""
    facts = score.facts
    parts = "; ".join(
        say("%(player)s holds %(pips)s → %(rounded)s: −%(rounded)s to %(side)s",
            player=table.players[seat], pips=pips, rounded=rounded,
            side=table.side_name(table.side_of(seat))) if rounded else
        say("%(player)s holds %(pips)s → 0: nothing off %(side)s", player=table.players[seat],
            pips=pips, side=table.side_name(table.side_of(seat)))
        for seat, pips, rounded in facts["held"])
    if facts["seat"] is None:
        return say("blocked: %(parts)s", parts=parts)
    return say("%(name)s went out. %(parts)s", name=table.players[facts["seat"]], parts=parts)


def _end_text(side: Side) -> str:
    if side.double:
        return f"{side.value}-{side.value} ({side.points})"
    return str(side.value)
