"""The rules of a move during a hand: laying a tile, drawing, passing or knocking.

Each rule checks everything before it changes anything, so a refused move leaves
the match as it was. A replay goes through `play_run` (rules/hands/run.py) first, which
lays and draws the plain moves of a line at speed and leaves the rest to these.
"""

from typing import NamedTuple

from ..errors import N_, HandOver, IllegalMove, IllegalStart, Np_
from ..notation.events import Draw, Lay, Pass
from ..notation.outcome import BLOCKED, DOMINO, WON, Outcome
from ..notation.tiles import normal_of_checked, tile_text
from ..placement import moves
from ..placement.layout import Layout, end_name
from ..placement.moves import place
from ..setup.rulesets import PLUS_ONE
from ..words import npgettext
from .ending import end_hand
from .hand import Hand, Played

_tuple = tuple.__new__  # builds a Played without the NamedTuple constructor's overhead

_HAND_OVER = {
    "tile": N_("the hand is over: enter the pips left in hands before any tile"),
    "draw": N_("the hand is over: enter the pips left in hands before any draw"),
    "pass": N_("the hand is over: enter the pips left in hands before any pass"),
}
_STARTER_NEEDED = {
    "tile": N_("say who leads this hand before any tile"),
    "draw": N_("say who leads this hand before any draw"),
    "pass": N_("say who leads this hand before any pass"),
}


def playing_hand(match, what: str) -> Hand:
    """The hand under way; else the refusal that says why nobody may `what` now."""
    if match.winner is None and match.hands and match.hands[-1].outcome is None:
        return match.hands[-1]
    phase = match.phase
    if phase == "over":
        raise match.over_error()
    if phase == "end":
        raise HandOver.worded(_HAND_OVER[what], "hand_over", move=what)
    raise IllegalStart.worded(_STARTER_NEEDED[what], "starter_needed", move=what)


def lay(match, event: Lay) -> Lay:
    """Lay a tile where `moves.place` puts it; returns the event with its end explicit."""
    hands = match.hands
    hand = hands[-1] if hands else None
    if hand is None or hand.outcome is not None or match.winner is not None:
        hand = playing_hand(match, "tile")  # raises: nobody may lay a tile now
    key = event.key  # None: not a tile of the set, or a tile given as a list
    if key is None:
        key = normal_of_checked(event.tile)  # refuses what is not a tile of the set
        event = Lay((event.tile[0], event.tile[1]), event.end)
    seat = hand.turn
    if key in hand.laid:
        raise IllegalMove.worded(N_("%(tile)s was already laid in this hand"), "already_laid",
                                 player=match.table.players[seat], tile=tile_text(event.tile))
    if not hand.moves:
        return _lead(match, hand, seat, event, key)
    layout = hand.layout
    end = event.end
    index = moves.choose_side(layout, key, end, match.table.players[seat], event.tile,
                              hand.laid)
    end = end_name(layout, index)
    layout, count = place(layout, key, index)
    if event.end != end:
        event = Lay(key, end)
    return _laid(match, hand, seat, event, key, layout, count)


def _lead(match, hand: Hand, seat: int, event: Lay, key) -> Lay:
    """The first tile of a hand, laid as written (`a-b`: a on the left, b on the right)."""
    tile = (event.tile[0], event.tile[1])
    if event.end is not None:
        moves.check_notation(hand.layout, event.end, match.table.players[seat], tile)
    layout, count = place(hand.layout, tile, None)
    if event.end is not None or tile != event.tile or event.tile.__class__ is not tuple:
        event = Lay(tile, None)
    return _laid(match, hand, seat, event, key, layout, count)


def _laid(match, hand: Hand, seat: int, event: Lay, key, layout: Layout, count: int) -> Lay:
    """The tile is on the table: score its count and pass the turn on."""
    held = hand.held
    table = match.table
    rules = table.rules
    if held[seat] == 1 or rules.exact_target or not (hand.moves or table.house.win_on_the_down):
        return _lay_scored(match, hand, seat, event, key, layout, count)  # it may end the
        # hand, bust an exact target or be a lead that may not win
    points = rules.count_points[count]
    hand.layout = layout
    hand.laid.add(key)
    held[seat] -= 1
    hand.passes = 0
    hand.moves.append(_tuple(Played, (seat, event, layout[0], count, points, 0, False, False)))
    if points:
        match.award(hand, match.table.side_of(seat), points)
        if match.winner is not None:
            hand.outcome = Outcome(WON, match.winner, seat)
            return event
    turn = seat + 1 if seat + 1 < len(held) else 0
    hand.turn = turn if held[turn] else next_turn(hand, turn)
    return event


def _lay_scored(match, hand: Hand, seat: int, event: Lay, key, layout, count) -> Lay:
    """Lay a tile that may end the hand, pass an exact target or win on the down (see
    `score_of_lay`)."""
    table = match.table
    points, bonus, bust, down, out = score_of_lay(match, hand, seat, count)
    hand.layout = layout
    hand.laid.add(key)
    hand.held[seat] -= 1
    hand.passes = 0
    hand.moves.append(Played(seat, event, layout.sides, count, points, bonus, bust, down))
    if points:
        match.award(hand, table.side_of(seat), points)
        if match.winner is not None:
            hand.outcome = Outcome(WON, match.winner, seat)
            return event
    if out:
        end_hand(match, Outcome(DOMINO, table.side_of(seat), seat))
    else:
        hand.turn = next_turn(hand, (seat + 1) % len(hand.held))
    return event


class LayScore(NamedTuple):
    """What a tile laid now scores: its points (with any point for going out, `bonus`),
    whether it busts an exact target or is a lead stopped on the down, and whether it
    ends the hand."""

    points: int
    bonus: int
    bust: bool
    down: bool
    out: bool


def score_of_lay(match, hand: Hand, seat: int, count: int) -> LayScore:
    """What a tile laid now scores; the offer of buttons asks it too.

    A lead that would win the match scores nothing where the house forbids winning on
    the down (RULESETS.md §5); a lead that would pass an exact target is a bust first."""
    table = match.table
    rules = table.rules
    points = rules.count_points[count]
    out = hand.held[seat] == 1 and side_out_after(table, hand, seat)
    bonus = 1 if out and rules.going_out == PLUS_ONE and table.house.last_tile_point else 0
    reached = match.scores[table.side_of(seat)] + points + bonus
    if rules.exact_target and points + bonus and reached > table.target:
        return LayScore(0, bonus, True, False, out)
    if points + bonus and not hand.moves and not table.house.win_on_the_down and \
            reached >= table.target:
        return LayScore(0, bonus, False, True, out)
    return LayScore(points + bonus, bonus, False, False, out)


def side_out_after(table, hand: Hand, seat: int) -> bool:
    """Whether `seat` laying their last tile ends the hand: at once, or (when the rule set
    scores a side for going out) once every partner of the side is out too."""
    if table.rules.going_out != PLUS_ONE:
        return True
    side = table.side_of(seat)
    return all(hand.held[other] == 0 for other in table.sides[side] if other != seat)


def next_turn(hand: Hand, seat: int) -> int:
    """The first seat from `seat` on round the table that still holds tiles."""
    held = hand.held
    turn = seat
    while held[turn] == 0:
        turn = (turn + 1) % len(held)
    return turn


def draw(match, event: Draw) -> None:
    hands = match.hands
    hand = hands[-1] if hands else None
    count = event.count
    if (hand is not None and hand.outcome is None and hand.moves and match.winner is None
            and count.__class__ is int and 0 < count <= hand.boneyard
            and match.table.rules.draws):  # the common case, checked at once
        hand.boneyard -= count
        hand.held[hand.turn] += count
        hand.moves.append(_tuple(Played, (hand.turn, event, None, None, 0, 0, False, False)))
        return
    _refuse_draw(match, event)


def _refuse_draw(match, event: Draw) -> None:
    """Why nobody may draw these tiles now."""
    hand = playing_hand(match, "draw")
    name = match.table.players[hand.turn]
    if not hand.moves:
        raise IllegalMove.worded(N_("%(player)s leads: the lead must be a tile, not a draw"),
                                 "lead_not_tile", player=name, move="draw")
    if not match.table.rules.draws:
        raise IllegalMove.worded(
            N_("%(player)s cannot draw: the undealt tiles sleep and nobody draws them; a "
               "player who cannot play knocks"), "no_drawing", player=name)
    if hand.boneyard == 0:
        raise IllegalMove.worded(
            N_("%(player)s cannot draw: the boneyard is empty, so %(player)s passes"),
            "boneyard_empty", player=name)
    count = event.count
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise IllegalMove.worded(N_("%(player)s cannot draw %(count)s: draw one tile or more"),
                                 "draw_nothing", player=name, count=repr(count))
    raise IllegalMove.worded(
        npgettext("tiles", "%(player)s cannot draw %(count)s: only %(boneyard)s left in the "
                  "boneyard", "%(player)s cannot draw %(count)s: only %(boneyard)s left in "
                  "the boneyard"), "draw_too_many", counted="boneyard", player=name,
        count=count, boneyard=hand.boneyard)


def pass_turn(match, event: Pass) -> None:
    """A pass (the boneyard is empty) or a knock (a rule set without drawing: at any time)."""
    hand = playing_hand(match, "pass")
    seat = hand.turn
    name = match.table.players[seat]
    if not hand.moves:
        raise IllegalMove.worded(N_("%(player)s leads: the lead must be a tile, not a pass"),
                                 "lead_not_tile", player=name, move="pass")
    if hand.boneyard and match.table.rules.draws:
        raise IllegalMove.worded(
            Np_("%(player)s must draw first: %(boneyard)s tile is left in the boneyard",
                "%(player)s must draw first: %(boneyard)s tiles are left in the boneyard"),
            "must_draw", counted="boneyard", player=name, boneyard=hand.boneyard)
    hand.passes += 1
    hand.moves.append(Played(seat, event, None, None, 0))
    if hand.passes == len(hand.held) - hand.held.count(0):  # every player holding tiles
        end_hand(match, Outcome(BLOCKED, None, None))
    else:
        hand.turn = next_turn(hand, (seat + 1) % len(hand.held))

