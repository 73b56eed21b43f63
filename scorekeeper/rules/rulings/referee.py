"""Ask the referee: a position posed by hand (the open ends, each side's score) and a tile.

The ruling comes from the engine itself: the position is made a match (one hand in play
whose layout has those open sides), and the tile is laid on a copy of it at each end it
fits, so a ruling says exactly what the table would have scored, bust, +1 for chipping
out and all. Open ends are written as the table sees them: `3` (a tile's open half),
`6-6` (a double at an end, both halves count), `5-5*` (a spinner whose end along the
line is open) and `(5-5)` (a spinner's side across that no tile has started: it counts
nothing). No end at all means the tile is the lead.
"""

import re
from typing import NamedTuple

from ..errors import N_, RuleError
from ..hands.hand import Played
from ..hands.play import side_out_after
from ..hands.scoring import Score, ends_score
from ..match.match import Match
from ..notation.events import Lay
from ..notation.outcome import DOMINO
from ..notation.tiles import Tile, normal
from ..placement.laid import covered_index
from ..placement.layout import Layout, Side, count_of
from ..placement.moves import placements
from ..setup.rulesets import EVERY_DOUBLE, FIRST_DOUBLE, NO_SPINNER, RuleSet
from ..setup.table import Table
from .story import Step, applied

_END = re.compile(r"^(?:(?P<value>[0-6])|(?P<double>[0-6])-(?P=double)(?P<spinner>\*)?|"
                  r"\((?P<branch>[0-6])-(?P=branch)\))$")
_SEPARATORS = re.compile(r"[\s,;]+")
MAX_ENDS = 12
"""More open sides than any layout of a double-six set can show."""


class BadPosition(RuleError):
    """Open ends that no layout of the game can show."""

    kind = "bad_position"


class Option(NamedTuple):
    """One place the tile can go: the open side it covers (None: it is the lead), its score
    as the engine works it out (count, points, +1, bust), whether it ends the hand or the
    match, the rules that applied (topics) and every side's score after it."""

    end: Side | None
    score: Score
    out: bool
    won: bool
    topics: tuple[str, ...]
    scores: tuple[int, ...]


class Ruling(NamedTuple):
    """Where a tile can go in a position, and what each place scores; `laid` when the tile
    is already on the table, no `options` when it fits no open end."""

    table: Table
    tile: Tile
    sides: tuple[Side, ...]
    options: tuple[Option, ...]
    laid: bool


def read_ends(text: str, rules: RuleSet) -> tuple[Side, ...]:
    """The open sides of the ends as written (see the module); BadPosition says why not."""
    tokens = [token for token in _SEPARATORS.split(text or "") if token][:MAX_ENDS + 1]
    if len(tokens) > MAX_ENDS:
        raise BadPosition.worded(N_("a layout has at most %(most)s open ends"), "too_many_ends",
                                 most=MAX_ENDS)
    sides = [_side(token, rules) for token in tokens]
    if len(sides) == 1 and sides[0].double and not sides[0].branch:  # a double led alone
        sides = sides * 2
    _check(tokens, sides, rules)
    return tuple(sides)


def _side(token: str, rules: RuleSet) -> Side:
    found = _END.match(token)
    if found is None:
        raise BadPosition.worded(
            N_("%(end)s is not an open end: write a number like 3, a double like 6-6, a "
               "spinner like 5-5* or the side of a spinner no tile has started, like "
               "(5-5)"), "bad_open_end", end=token[:20])
    if found["value"] is not None:
        return Side((-1, int(found["value"])), int(found["value"]), int(found["value"]))
    value = int(found["double"] or found["branch"])
    spinner = bool(found["spinner"] or found["branch"]) or rules.spinners == EVERY_DOUBLE
    if spinner and not rules.branches:
        raise BadPosition.worded(N_("%(end)s is a spinner, but no double branches in this "
                                    "game"), "no_spinners", end=token, rules=rules.name)
    if found["branch"] is not None:
        return Side((value, value), value, 0, True, True)
    return Side((value, value), value, value * 2, False, spinner)


def _check(tokens: list[str], sides: list[Side], rules: RuleSet) -> None:
    """A line has two ends; a laid tile shows each of its sides once."""
    if sides and not rules.branches and len(sides) != 2:
        raise BadPosition.worded(N_("a line has two open ends, not %(count)s: write both, "
                                    "like 6-6 3"), "two_ends", count=len(sides))
    doubles = [side for side in sides if side.double]
    for side in doubles:
        line = sum(1 for other in doubles if other.tile == side.tile and not other.branch)
        across = sum(1 for other in doubles if other.tile == side.tile and other.branch)
        if line > (2 if len(doubles) == len(sides) == 2 else 1) or across > 2:
            raise BadPosition.worded(N_("%(end)s is written too many times: a tile is laid "
                                        "once"), "end_twice", end=_text(side))
        if line and across:
            raise BadPosition.worded(
                N_("%(end)s cannot be open along the line and across at once: its sides "
                   "across open once both its ends along the line hold a tile"),
                "spinner_sides", end=_text(side))


def _text(side: Side) -> str:
    return f"{side.value}-{side.value}"


def rule(rules: RuleSet, names: tuple[str, ...], target: int | None, sides: tuple[Side, ...],
         scores: tuple[int, ...], last: bool, tile: Tile, house=None) -> Ruling:
    """The ruling on `tile` (as written) laid by the first side, in the position: the open
    `sides` (`read_ends`), each side's score (`scores`, the side laying first) and whether
    the tile is the player's last, under the `house` rules (a record's `house` object).
    SetupError for a target, names or house rules the rules refuse, and BadPosition for a
    side already on the target."""
    table = Table.create(list(names), False, target, None, rules, house)
    reached = next((score for score in scores if score >= table.target), None)
    if reached is not None:
        raise BadPosition.worded(N_("a side on %(score)s has already reached the target of "
                                    "%(target)s: the match is over"), "target_reached",
                                 score=reached, target=table.target)
    key = normal(tile)
    sides = _placed(sides, key)
    at = _position(table, sides, scores, last)
    if key in at.hand.laid:
        return Ruling(table, tile, sides, (), True)
    options = tuple(_option(at, tile, placement.end)
                    for placement in placements(at.hand.layout, at.hand.laid)
                    if placement.tile == key)
    return Ruling(table, tile, sides, options, False)


def _placed(sides: tuple[Side, ...], key: Tile) -> tuple[Side, ...]:
    """The sides with a real tile for each plain end: one showing its number that is not a
    double, not the tile asked about, and not used twice (its other half is never seen)."""
    used, placed = {key} | {side.tile for side in sides}, []
    for side in sides:
        if side.tile[0] < 0:
            other = next(pip for pip in range(7) if pip != side.value
                         and normal((side.value, pip)) not in used)
            tile = normal((side.value, other))
            used.add(tile)
            side = side._replace(tile=tile)
        placed.append(side)
    return tuple(placed)


def _position(table: Table, sides: tuple[Side, ...], scores: tuple[int, ...], last: bool
              ) -> Match:
    """A match with one hand in play whose layout has `sides` open, the first side to lay.

    A position posed by hand has no history: one stand-in move carries its open sides."""
    match = Match(table)
    match.open_hand(0, announced=True)
    match.scores = list(scores)
    hand = match.hand
    rules = table.rules
    spins = rules.spinners == EVERY_DOUBLE or (
        rules.spinners == FIRST_DOUBLE and not any(side.double for side in sides))
    hand.layout = Layout(sides, rules.spinners, spins and rules.spinners != NO_SPINNER)
    hand.laid = {side.tile for side in sides}
    hand.held[0] = 1 if last else 2
    hand.boneyard = 0
    if sides:
        hand.moves.append(Played(1, Lay(sides[0].tile), sides, count_of(sides), 0))
    return match


def _option(at: Match, tile: Tile, end: str | None) -> Option:
    """Lay the tile at `end` on a copy of the position: what the engine made of it."""
    after = at.copy()
    hand = after.hand
    sides = at.hand.layout.sides
    index = covered_index(sides, end, normal(tile))
    covered = None if index is None else sides[index]
    after.push(Lay(tile if end is None else normal(tile), end))
    index = len(hand.moves) - 1
    played = hand.moves[index]
    score = ends_score(1, index, 0, played, index == 0)
    step = Step(len(after.log), "move", 1, index + 1)
    return Option(covered, score, hand.result == DOMINO or (hand.held[0] == 0),
                  after.winner is not None, applied(after, step), tuple(after.scores))


def posed(match: Match) -> tuple[str, tuple[int, ...], bool] | None:
    """The position of a match in play as the referee's form writes it: the open ends, each
    side's score (the side whose turn it is first) and whether the player's tile would be
    their last (the side goes out with it); None when nobody may lay a tile."""
    if match.phase not in ("lead", "play"):
        return None
    hand, table = match.hand, match.table
    seat = hand.turn
    side = table.side_of(seat)
    scores = tuple(match.scores[(side + shift) % len(table.sides)]
                   for shift in range(len(table.sides)))
    last = hand.held[seat] == 1 and side_out_after(table, hand, seat)
    return " ".join(token(end) for end in hand.layout.sides), scores, last


def token(side: Side) -> str:
    """An open side as the referee's form writes it: `3`, `6-6`, `5-5*` or `(5-5)`."""
    if side.branch:
        return f"({_text(side)})"
    if side.double:
        return _text(side) + ("*" if side.spinner else "")
    return str(side.value)
