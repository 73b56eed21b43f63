"""The rules between hands: who leads, the pips entered when a hand ends, and their score."""

from ..errors import N_, HandNotOver, IllegalStart
from ..notation.events import Remaining, Start
from ..notation.outcome import BLOCKED, DOMINO, Outcome
from ..setup.rulesets import (
    ALL_BUT_OUT,
    FEWEST_ROUNDED,
    FEWEST_UNROUNDED,
    NAMED_EVERY_HAND,
    NEXT_SEAT,
    NO_PIPS,
    OPPONENTS_ROUNDED,
    OPPONENTS_UNROUNDED,
    OWN_SUBTRACTED,
)
from .hand import Hand
from .remaining import check_remaining
from .scoring import Score, blocked_score, domino_score, subtracted_score

_LEADS_BY_RIGHT = {
    DOMINO: N_("%(starter)s went out last hand and leads this one, not %(player)s"),
    NEXT_SEAT: N_("%(starter)s leads this hand (the lead moves to the next seat each hand), "
                  "not %(player)s"),
}


def start(match, event: Start) -> None:
    """The table names who leads: a new hand, or the starter the rule set already gave."""
    players = match.table.players
    seat = event.seat
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(players):
        raise IllegalStart.worded(N_("seat %(seat)s is not at this table"), "unknown_seat",
                                  seat=repr(seat))
    phase = match.phase
    if phase == "over":
        raise match.over_error()
    hand = match.hand
    if phase == "lead" and not hand.announced:
        if seat != hand.starter:
            rule = NEXT_SEAT if match.table.rules.starter == NEXT_SEAT else DOMINO
            raise IllegalStart.worded(_LEADS_BY_RIGHT[rule], "winner_leads",
                                      player=players[seat], starter=players[hand.starter])
        hand.announced = True
        return
    if phase != "start":
        raise IllegalStart.worded(
            N_("%(player)s cannot start a hand: hand %(hand)s is not over"),
            "hand_under_way", player=players[seat], hand=hand.number)
    match.open_hand(seat, announced=True)


def next_starter(match, hand: Hand) -> int | None:
    """Who leads the hand after `hand` by the rule set's right; None: the table names one."""
    rule = match.table.rules.starter
    if rule == NEXT_SEAT:
        return (hand.starter + 1) % len(match.table.players)
    if rule == NAMED_EVERY_HAND or hand.outcome.how != DOMINO:
        return None
    return hand.outcome.seat


def end_hand(match, outcome: Outcome) -> None:
    """The hand under way ends; with no pips to enter, the next hand opens at once."""
    hand = match.hands[-1]
    hand.outcome = outcome
    if match.table.rules.pips_entered == NO_PIPS:
        settle(match, hand)


def settle(match, hand: Hand) -> None:
    """The hand is scored to its end: open the next one if the rule set names its starter."""
    hand.settled = True
    starter = next_starter(match, hand)
    if starter is not None and match.winner is None:
        match.open_hand(starter, announced=False)


def needed_remaining(match) -> tuple[list[int], list[int]]:
    """Seats whose pips must be entered now, and seats whose pips may be."""
    if match.phase != "end":
        return [], []
    return _needed(match.table, match.hands[-1].outcome)


def _needed(table, outcome: Outcome) -> tuple[list[int], list[int]]:
    seats = range(len(table.players))
    if outcome.how == BLOCKED:
        return list(seats), []
    if table.rules.pips_entered == ALL_BUT_OUT:  # own pips count, partners' too
        return [seat for seat in seats if seat != outcome.seat], [outcome.seat]
    winners = table.sides[outcome.side]
    return [seat for seat in seats if seat not in winners], list(winners)


def end_score(match, event: Remaining) -> Score:
    """The end-of-hand score the entered pips give, once each entry is shown possible."""
    phase = match.phase
    if phase != "end":
        if phase == "over":
            raise match.over_error()
        raise HandNotOver.worded(N_("the hand is not over: pips are entered when a player "
                                    "goes out or every player has passed"), "hand_not_over")
    hand = match.hands[-1]
    table = match.table
    required, optional = _needed(table, hand.outcome)
    pips = check_remaining(table, hand, dict(event.held), required, optional)
    rules = table.rules
    out = hand.outcome.seat if hand.outcome.how == DOMINO else None
    if (rules.going_out if out is not None else rules.blocked) == OWN_SUBTRACTED:
        return subtracted_score(hand.number, table, out, pips)
    if hand.outcome.how == DOMINO:
        rounded = {OPPONENTS_ROUNDED: True, OPPONENTS_UNROUNDED: False}[rules.going_out]
        return domino_score(hand.number, table, hand.outcome.seat, pips, rounded)
    rounded = {FEWEST_ROUNDED: True, FEWEST_UNROUNDED: False}[rules.blocked]
    return blocked_score(hand.number, table, pips, rounded)


def remaining(match, event: Remaining) -> None:
    """Enter the pips left in hands: the hand's end is scored and the next hand may open."""
    score = end_score(match, event)
    hand = match.hands[-1]
    hand.remaining = dict(event.held)
    hand.end = score
    if score.kind == "subtracted":
        for side, points in enumerate(score.facts["sides"]):
            if points:
                match.award(hand, side, points)
    elif score.points:
        match.award(hand, score.side, score.points)
    settle(match, hand)
