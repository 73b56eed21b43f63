"""Scores as facts, and the one-line explanation a referee reads out for each."""

from typing import NamedTuple

from ..notation.tiles import tile_text
from ..placement.layout import Side, terms
from ..setup.rulesets import FEWEST_UNROUNDED, FIVES_PLUS_THREES, OPPONENTS_UNROUNDED
from ..setup.table import Table
from ..words import english, npgettext
from .hand import Played


class Score(NamedTuple):
    """Points awarded (possibly none) with the facts that justify them.

    kind is `ends` (a tile's count of the open ends scored), `domino` (a player
    went out) or `blocked`; facts holds the numbers of that kind.
    """

    hand: int
    move: int | None
    side: int | None
    points: int
    kind: str
    facts: dict


def round_to_five(pip_count: int) -> int:
    """Nearest multiple of five; remainders 0-2 round down, 3-4 up (12 → 10, 13 → 15)."""
    return (pip_count + 2) // 5 * 5


def _as_they_are(pip_count: int) -> int:
    return pip_count


def ends_score(hand: int, move: int, side: int, played: Played, lead: bool) -> Score:
    """The score of one tile: its count, and any point for going out, bust or lead stopped
    on the down."""
    return Score(hand, move, side, played.points, "ends",
                 {"seat": played.seat, "tile": played.move.tile, "ends": played.ends,
                  "count": played.count, "lead": lead, "bonus": played.bonus,
                  "bust": played.bust, "down": played.down})


def domino_score(hand: int, table: Table, winner: int, pips_by_seat: dict,
                 rounded: bool = True) -> Score:
    """The winner's side takes each opponent's pips (each rounded to five separately)."""
    side = table.side_of(winner)
    rounding = round_to_five if rounded else _as_they_are
    opponents = [(seat, pips_by_seat[seat], rounding(pips_by_seat[seat]))
                 for seat in range(len(table.players)) if table.side_of(seat) != side]
    points = sum(each for _, _, each in opponents)
    return Score(hand, None, side, points, "domino", {"seat": winner, "opponents": opponents})


def blocked_score(hand: int, table: Table, pips_by_seat: dict, rounded: bool = True) -> Score:
    """Strictly fewest pips wins the others' (rounded) pips minus its own; a tie scores nothing."""
    rounding = round_to_five if rounded else _as_they_are
    sides = [(side, sum(pips_by_seat[seat] for seat in seats))
             for side, seats in enumerate(table.sides)]
    sides = [(side, pips, rounding(pips)) for side, pips in sides]
    fewest = min(pips for _, pips, _ in sides)
    leaders = [side for side, pips, _ in sides if pips == fewest]
    if len(leaders) > 1:
        return Score(hand, None, None, 0, "blocked", {"sides": sides, "tied": leaders})
    winner = leaders[0]
    own = sides[winner][2]
    points = sum(each for side, _, each in sides if side != winner) - own
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


def explain(score: Score, table: Table, award: bool = True, say=english) -> str:
    """One line a referee can read out: the arithmetic, then (with award) who gets what.

    `say(message, counted=None, **values)` words each sentence (words.py): the app passes
    its gettext, so the messages below are the catalogue's ids (extracted with the keyword
    `say`; `npgettext` marks a pair whose words follow the number `counted` names: the
    English shows the bare number, in both forms, and the other languages name it, "15
    πόντοι", "1 bod / 2 body / 5 bodů").
    """
    if score.kind == "ends":
        return _explain_count(score, table, award, say)
    if score.kind == "domino":
        return _explain_domino(score, table, say)
    if score.kind == "subtracted":
        return _explain_subtracted(score, table, say)
    return _explain_blocked(score, table, say)


def _count_sum(facts: dict, say) -> str:
    if facts["lead"]:
        a, b = facts["tile"]
        return say("lead %(tile)s: %(a)s + %(b)s = %(count)s", tile=tile_text(facts["tile"]),
                   a=a, b=b, count=facts["count"])
    return " + ".join(_end_text(end) for end in terms(facts["ends"])) + f" = {facts['count']}"


def _explain_count(score: Score, table: Table, award: bool, say) -> str:
    facts = score.facts
    sum_text = _count_sum(facts, say)
    if facts["down"]:
        return _explain_down(score, table, sum_text, say)
    if table.rules.scoring == FIVES_PLUS_THREES:
        return _explain_fives_and_threes(score, table, sum_text, award, say)
    if not award:
        return sum_text
    side = table.side_name(score.side)
    if score.points:
        return say(npgettext("points", "%(sum)s → %(points)s to %(side)s",
                             "%(sum)s → %(points)s to %(side)s"), counted="points",
                   sum=sum_text, points=score.points, side=side)
    return say("%(sum)s, not a multiple of five: no score", sum=sum_text)


def _explain_fives_and_threes(score: Score, table: Table, sum_text: str, award: bool,
                              say) -> str:
    """`6-6 (12) + 3 = 15 → 5 + 3 = 8 to Ann`: the thirds and fifths each, then the +1.

    Without `award`, the arithmetic alone (a bust still says it is one)."""
    facts = score.facts
    count, bonus = facts["count"], facts["bonus"]
    side = table.side_name(score.side)
    parts = [count // divisor for divisor in (3, 5) if count and count % divisor == 0]
    arithmetic = " + ".join(map(str, parts)) + (f" = {sum(parts)}" if len(parts) > 1 else "")
    if facts["bust"]:
        return say("%(sum)s → %(would)s: bust, %(side)s would pass %(target)s: no score",
                   sum=sum_text, would=_with_bonus(parts, bonus), side=side,
                   target=table.target)
    if not parts and not bonus:
        return say("%(sum)s: no score", sum=sum_text) if award else sum_text
    if bonus and parts:
        worked = say("%(sum)s → %(parts)s, + 1 for going out = %(points)s", sum=sum_text,
                     parts=arithmetic, points=score.points)
    elif bonus:
        worked = say("%(sum)s, + 1 for going out = 1", sum=sum_text)
    else:
        worked = f"{sum_text} → {arithmetic}"
    return say("%(worked)s to %(side)s", worked=worked, side=side) if award else worked


def _explain_down(score: Score, table: Table, sum_text: str, say) -> str:
    """`lead 6-6: 6 + 6 = 12 → 4: not on the down, Ann would win the match: no score`."""
    facts = score.facts
    count = facts["count"]
    if table.rules.scoring == FIVES_PLUS_THREES:
        would = _with_bonus([count // divisor for divisor in (3, 5)
                             if count and count % divisor == 0], facts["bonus"])
    else:
        would = str(count)
    return say("%(sum)s → %(would)s: not on the down, %(side)s would win the match: no score",
               sum=sum_text, would=would, side=table.side_name(score.side))


def _with_bonus(parts: list[int], bonus: int) -> str:
    terms = parts + [1] * bonus
    return " + ".join(map(str, terms)) + (f" = {sum(terms)}" if len(terms) > 1 else "")


def _explain_domino(score: Score, table: Table, say) -> str:
    facts = score.facts
    unrounded = table.rules.going_out == OPPONENTS_UNROUNDED  # Όλα 5: `Bob 11, Cat 9`
    parts = ", ".join(f"{table.players[seat]} {pips}" if unrounded
                      else f"{table.players[seat]} {pips} → {rounded}"
                      for seat, pips, rounded in facts["opponents"])
    return say(npgettext("points", "%(name)s went out. %(parts)s: %(points)s to %(side)s",
                         "%(name)s went out. %(parts)s: %(points)s to %(side)s"),
               counted="points", name=table.players[facts["seat"]], parts=parts,
               points=score.points, side=table.side_name(score.side))


def _explain_subtracted(score: Score, table: Table, say) -> str:
    """`Ann went out. Bob holds 13 → 15: −15 to Bob`: each player's own pips come off."""
    facts = score.facts
    parts = "; ".join(
        say(npgettext("points",
                      "%(player)s holds %(pips)s → %(rounded)s: −%(rounded)s to %(side)s",
                      "%(player)s holds %(pips)s → %(rounded)s: −%(rounded)s to %(side)s"),
            counted="rounded", player=table.players[seat], pips=pips, rounded=rounded,
            side=table.side_name(table.side_of(seat))) if rounded else
        say("%(player)s holds %(pips)s → 0: nothing off %(side)s", player=table.players[seat],
            pips=pips, side=table.side_name(table.side_of(seat)))
        for seat, pips, rounded in facts["held"])
    if facts["seat"] is None:
        return say("Blocked: %(parts)s", parts=parts)
    return say("%(name)s went out. %(parts)s", name=table.players[facts["seat"]], parts=parts)


def _explain_blocked(score: Score, table: Table, say) -> str:
    facts = score.facts
    if table.rules.blocked == FEWEST_UNROUNDED:  # Όλα 5: the pips as they are
        parts = "; ".join(
            say("%(side)s %(pips)s fewest", side=table.side_name(each), pips=pips)
            if each == score.side else f"{table.side_name(each)} {pips}"
            for each, pips, _ in facts["sides"])
    else:
        parts = "; ".join(
            say("%(side)s %(pips)s → %(rounded)s fewest", side=table.side_name(each),
                pips=pips, rounded=rounded) if each == score.side
            else f"{table.side_name(each)} {pips} → {rounded}"
            for each, pips, rounded in facts["sides"])
    if score.side is None:
        names = say(" and ").join(table.side_name(each) for each in facts["tied"])
        return say("Blocked: %(parts)s. %(names)s tie for fewest: nobody scores",
                   parts=parts, names=names)
    others = " + ".join(str(rounded) for each, _, rounded in facts["sides"]
                        if each != score.side)
    own = facts["sides"][score.side][2]
    return say(npgettext("points",
                         "Blocked: %(parts)s; %(others)s − %(own)s = %(points)s to %(side)s",
                         "Blocked: %(parts)s; %(others)s − %(own)s = %(points)s to %(side)s"),
               counted="points", parts=parts, others=others, own=own, points=score.points,
               side=table.side_name(score.side))


def _end_text(side: Side) -> str:
    if side.double:
        return f"{side.value}-{side.value} ({side.points})"
    return str(side.value)
