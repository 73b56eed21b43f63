"""The moves of a hand on a line, applied at speed: what every replay spends its time on.

A match is rebuilt from its log on every request and a record is read move by
move, and almost every move is a plain one on a two-ended line: the lead, a tile
laid on a named end (L or R), a draw, a pass, or the last tile that ends the hand.
`play_run` applies a run of such moves with the hand's state held in local
variables, exactly as `Match.push` would one by one; it stops at the first move
that is anything else (a move to refuse, a tile with no end named, a bust of an
exact target, a point for going out, a lead that may not win the match on the down, a
layout with spinners) and leaves it to
`Match.push` and the full rules of `play`. It lays through the layout's own table
of sides (`LINE_STEPS`) and leads through `moves.place`, the one placement rule;
tests pin the two together.
"""

from ..limits import MAX_PLAYERS, MIN_PLAYERS
from ..notation.events import Draw, Lay, Pass
from ..notation.outcome import BLOCKED, DOMINO, WON, Outcome
from ..placement.layout import LINE_STEPS, Layout
from ..placement.moves import place
from ..setup.rulesets import NO_SPINNER, PLUS_ONE
from .ending import end_hand
from .hand import Played
from .play import next_turn

_tuple = tuple.__new__  # builds a Played or a Layout without the NamedTuple constructor
FOLLOWING = {players: tuple((seat + 1) % players for seat in range(players))
             for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
"""The seat after each seat round the table, by the number of players."""


def play_run(match, events, start: int = 0) -> int:
    """Apply the plain moves of `events[start:]` in order, exactly as `Match.push` would;
    returns how many it applied (0 when the next one needs the full rules)."""
    hand = match.hands[-1] if match.hands else None
    if (hand is None or hand.outcome is not None or match.winner is not None
            or hand.layout.branching != NO_SPINNER):
        return 0
    table = match.table
    rules = table.rules
    count_points, draws, busts = rules.count_points, rules.draws, rules.exact_target
    wins_on_the_down = table.house.win_on_the_down
    last_tile_scores = rules.going_out != PLUS_ONE  # else the full rules add the point
    laid, held, moves, log = hand.laid, hand.held, hand.moves, match.log
    seat, boneyard, passes = hand.turn, hand.boneyard, hand.passes
    left, right = _steps(hand.layout.sides) if moves else (None, None)
    following = FOLLOWING[len(held)]
    index, stop, outcome = start, len(events), None
    while index < stop:
        event = events[index]
        kind = event.__class__
        if kind is Lay:
            key, end = event.key, event.end
            if key is None or key in laid or not last_tile_scores and held[seat] == 1:
                break  # not a tile, laid already, or a last tile worth a point: full rules
            if left is None:  # the lead, as written
                if end is not None:
                    break
                layout, count = place(hand.layout, event.tile, None)
                new_left, new_right = _steps(layout.sides)
            elif end == "L":
                new_left, new_right = LINE_STEPS[key][left[1]], right
                if new_left is None:
                    break  # it does not fit the left end
                count = new_left[2] + right[2]
            elif end == "R":
                new_left, new_right = left, LINE_STEPS[key][right[1]]
                if new_right is None:
                    break
                count = left[2] + new_right[2]
            else:
                break  # no end named: the full rules choose it, or refuse
            points = count_points[count]
            if points and (busts or not wins_on_the_down):
                reached = match.scores[table.side_of(seat)] + points
                if busts and reached > table.target:
                    break  # a bust: the full rules score it
                if left is None and not wins_on_the_down and reached >= table.target:
                    break  # a lead that may not win the match: the full rules stop it
            left, right = new_left, new_right
            laid.add(key)
            held[seat] -= 1
            passes = 0
            moves.append(_tuple(Played, (seat, event, (left[0], right[0]), count, points, 0,
                                         False, False)))
            index += 1
            if points:
                match.award(hand, table.side_of(seat), points)
                if match.winner is not None:
                    outcome = Outcome(WON, match.winner, seat)
                    break
            if not held[seat]:
                outcome = Outcome(DOMINO, table.side_of(seat), seat)
                break
            log.append(event)
            seat = following[seat]
            if not held[seat]:
                seat = next_turn(hand, seat)
        elif kind is Draw:
            count = event.count
            if (not draws or left is None or count.__class__ is not int
                    or not 0 < count <= boneyard):
                break
            boneyard -= count
            held[seat] += count
            moves.append(_tuple(Played, (seat, event, None, None, 0, 0, False, False)))
            log.append(event)
            index += 1
        elif kind is Pass:
            if left is None or boneyard and draws:
                break  # the full rules refuse it: the lead is a tile, or draw first
            passes += 1
            moves.append(_tuple(Played, (seat, event, None, None, 0, 0, False, False)))
            index += 1
            if passes == len(held) - held.count(0):  # every player holding tiles passed
                outcome = Outcome(BLOCKED, None, None)
                break
            log.append(event)
            seat = next_turn(hand, following[seat])
        else:
            break
    if left is not None:
        hand.layout = _tuple(Layout, ((left[0], right[0]), NO_SPINNER, False))
    hand.turn, hand.boneyard, hand.passes = seat, boneyard, passes
    if outcome is not None:
        if outcome.how == WON:
            hand.outcome = outcome  # the match is over: nothing more is played or scored
        else:
            end_hand(match, outcome)  # may open the next hand, marked after this event
        log.append(events[index - 1])  # logged last, as Match.push logs an event it applied
    return index - start


def _steps(sides) -> tuple:
    """Each open end of a line as (side, value it shows, points it counts)."""
    return tuple((side, side.value, side.points) for side in sides)
