"""A match's story, step by step: each event of its log named by its place, as the score
sheet numbers it (hand 3, move 7), the match at that step, and the rules that applied.

A match is its log, so the position after step N is the match its first N events make
(`Match(table, log[:N])`), which is also what undoing the events after it gives.
"""

from typing import NamedTuple

from ..match.match import Match
from ..notation.events import Draw, Pass, Remaining, Start
from ..notation.outcome import BLOCKED as BLOCKED_HAND
from ..notation.outcome import DOMINO
from ..placement.layout import terms
from ..setup.topics import (
    BLOCKED,
    BRANCH,
    COUNT,
    DOUBLE,
    DRAW,
    ENDS,
    FITS,
    LEAD,
    LEADS,
    OUT,
    PASS,
    PIPS,
    SPINNERS,
    TARGET,
    UNDEALT,
    WON,
)

START, MOVE, END = "start", "move", "end"


class Step(NamedTuple):
    """One event of the log by its place: `number` events make the position after it (1 is
    the first event); `kind` is START (the table names who leads), MOVE (a tile, a draw,
    a pass or a knock: move `move` of the hand) or END (the pips left in hands)."""

    number: int
    kind: str
    hand: int
    move: int | None = None


def steps(match: Match) -> list[Step]:
    """Every event of the match's log with its place, in order."""
    found, hands = [], match.hands
    hand, moved = 0, 0  # the hand (by index) the next moves belong to, and its moves so far
    for number, event in enumerate(match.log, 1):
        kind = event.__class__
        if kind is Start:
            if hands[hand].moves and moved == len(hands[hand].moves):
                hand, moved = hand + 1, 0
            found.append(Step(number, START, hand + 1))
        elif kind is Remaining:
            found.append(Step(number, END, hand + 1))
        else:
            while moved == len(hands[hand].moves):
                hand, moved = hand + 1, 0
            moved += 1
            found.append(Step(number, MOVE, hand + 1, moved))
    return found


def position(match: Match, number: int) -> Match:
    """The match as it stood after its first `number` events."""
    return Match(match.table, match.log[:number])


def find(story: list[Step], hand: int, move: int | None = None, kind: str = MOVE
         ) -> Step | None:
    """The step of move `move` of hand `hand` (or its START or END); None if there is none."""
    return next((step for step in story if step.hand == hand and step.kind == kind
                 and (kind != MOVE or step.move == move)), None)


def opening(match: Match, story: list[Step], hand: int) -> Step | None:
    """The step at which hand `hand` of `match` (its `story`) is about to be led: the table
    naming its starter, else (a hand the rules opened by themselves) the event that ended
    the hand before it; None for a hand the match has not opened."""
    if not 1 <= hand <= len(match.hands):
        return None
    named = find(story, hand, kind=START)
    if named is not None:
        return named
    lead = find(story, hand, 1)
    if lead is None:  # opened by the rules, not led yet: the match's last step
        return story[-1] if story else None
    return story[lead.number - 2] if lead.number > 1 else None


def applied(at: Match, step: Step) -> tuple[str, ...]:
    """The rules that applied at `step`, by topic (`rules/setup/topics.py`), read off the match
    as it stood after it (`position`)."""
    rules = at.table.rules
    hand = at.hands[step.hand - 1]
    if step.kind == START:
        return (LEADS,)
    if step.kind == END:
        return ((OUT if hand.result == DOMINO else BLOCKED), PIPS)
    played = hand.moves[step.move - 1]
    move = played.move
    if isinstance(move, Draw):
        return (UNDEALT, DRAW)
    if isinstance(move, Pass):
        ended = hand.result == BLOCKED_HAND and step.move == len(hand.moves)
        return (UNDEALT,) + ((PASS,) if rules.draws else ()) + ((BLOCKED,) if ended else ())
    return _laid(at, hand, step.move - 1, played)


def _laid(at: Match, hand, index: int, played) -> tuple[str, ...]:
    """The rules of a tile: where it fits, how the open ends count, what the count scores,
    and a bust, going out or the match won by it."""
    rules = at.table.rules
    found = [LEAD] if index == 0 else [FITS, ENDS]
    if rules.branches:
        found.append(SPINNERS)
    sides = played.ends or ()
    if index and any(side.double for side in terms(sides)):
        found.append(DOUBLE)
    if any(side.branch for side in sides):
        found.append(BRANCH)
    found.append(COUNT)
    last = index == len(hand.moves) - 1 and hand.outcome is not None
    if played.bust:
        found.append(TARGET)
    if played.bonus or (last and hand.result == DOMINO):
        found.append(OUT)
    if last and at.winner is not None:
        found.append(WON)
    return tuple(found)

