"""A match: an ordered log of table events, and everything derived from it.

Actions validate completely before they change anything, so a refused action
leaves the match as it was. Undo pops the last event and replays only the last
hand (at most the one before it too), from a mark kept when each hand opened.
"""

from ..errors import N_, MatchOver, NothingToUndo
from ..hands import ending, play
from ..hands.hand import Hand
from ..hands.run import play_run
from ..hands.scoring import Score, ends_score
from ..notation.events import UNDO, Draw, Entry, Event, Lay, Pass, Remaining, Start
from ..notation.tiles import Tile
from ..placement import moves
from ..setup.rulesets import NO_SPINNER
from ..setup.table import Table
from ..words import npgettext


class Match:
    """One match at one table; `log` is the only state, the rest is derived from it."""

    def __init__(self, table: Table, log=()):
        self.table = table
        self.log: list[Event] = []
        self._reset()
        self.extend(log)

    @classmethod
    def create(cls, players, partnerships=False, target=None, hand_size=None,
               rules=None, house=None) -> "Match":
        if rules is None:
            return cls(Table.create(players, partnerships, target, hand_size, house=house))
        return cls(Table.create(players, partnerships, target, hand_size, rules, house))

    def _reset(self) -> None:
        self.hands: list[Hand] = []
        self.scores = [0] * len(self.table.sides)
        self.winner: int | None = None  # the side that reached the target
        self._marks: list[tuple] = []  # per hand: (log length, scores, starter, announced)

    # -- changing the match -------------------------------------------------

    def push(self, event: Event) -> Event:
        """Apply one table event; returns it as logged (a tile's end made explicit)."""
        apply = _APPLY.get(event.__class__)
        if apply is None:
            raise TypeError(f"not a table event: {event!r}")
        event = apply(self, event) or event
        self.log.append(event)
        return event

    def extend(self, events) -> None:
        """Apply table events in order, as `push` would one by one; runs of plain moves on a
        line go through `run.play_run` at speed."""
        events = events if isinstance(events, (list, tuple)) else list(events)
        runs = self.table.rules.spinners == NO_SPINNER  # a layout with spinners: no runs
        index = 0
        while index < len(events):
            if runs:
                index += play_run(self, events, index)
            if index < len(events):
                self.push(events[index])
                index += 1

    def pop(self) -> Event:
        """Undo the last event, whatever it was: the last hand is replayed from its mark."""
        if not self.log:
            raise NothingToUndo.worded(N_("nothing to undo: the match has no entries yet"),
                                       "nothing_to_undo")
        last, keep = self.log[-1], len(self.log) - 1
        marks = [mark for mark in self._marks if mark[0] <= keep]
        replay = self.log[marks[-1][0]:keep] if marks else self.log[:keep]
        self.log = self.log[:marks[-1][0]] if marks else []
        if marks:
            self.hands = self.hands[:len(marks) - 1]
            self._marks = marks[:-1]
            length, scores, starter, announced = marks[-1]
            self.scores, self.winner = list(scores), None
            self.open_hand(starter, announced, length)
        else:
            self._reset()
        self.extend(replay)
        return last

    def undo(self) -> tuple[Entry, ...]:
        """One step of Undo at the table, the step the buttons make: the last event taken
        back, but of a draw of several tiles (a record's `draw 3`) one tile, as the Draw
        button draws one. Returns what an append-only log writes for it: the undo (a pop),
        then the draw of the tiles kept."""
        last = self.pop()
        if isinstance(last, Draw) and last.count > 1:
            return UNDO, self.push(Draw(last.count - 1))
        return (UNDO,)

    def copy(self) -> "Match":
        """An independent match in the same state, without replaying the log.

        Only the last hand ever changes (pop replays it from its mark), so the
        earlier hands are shared and the last one is copied.
        """
        other = Match.__new__(Match)
        other.table, other.log = self.table, list(self.log)
        other.hands = self.hands[:-1] + [self.hands[-1].copy()] if self.hands else []
        other.scores, other.winner = list(self.scores), self.winner
        other._marks = list(self._marks)
        return other

    def peek(self) -> Event | None:
        """The last event of the log (what an undo would take back); None when empty."""
        return self.log[-1] if self.log else None

    def start(self, seat: int) -> Event:
        return self.push(Start(seat))

    def lay(self, tile: Tile, end: str | None = None) -> Event:
        return self.push(Lay(tile, end))

    def draw(self, count: int = 1) -> Event:
        return self.push(Draw(count))

    def pass_turn(self) -> Event:
        return self.push(Pass())

    def end_hand(self, held: dict) -> Event:
        """Enter what players still hold, as {seat: pips or tiles}."""
        return self.push(Remaining.of(held))

    def open_hand(self, starter: int, announced: bool, length: int | None = None) -> None:
        """Deal a new hand (for the engine's rules); its mark lets undo replay only it."""
        table = self.table
        self.hands.append(Hand(len(self.hands) + 1, starter, len(table.players),
                               table.hand_size, len(table.sides), announced,
                               table.rules.spinners))
        length = len(self.log) + 1 if length is None else length
        self._marks.append((length, tuple(self.scores), starter, announced))

    def award(self, hand: Hand, side: int, points: int) -> None:
        """Add points to a side; reaching the target wins (an exact target is never passed:
        a play that would pass it scores nothing, see `play.score_of_lay`)."""
        self.scores[side] += points
        hand.points[side] += points
        if self.scores[side] >= self.table.target:
            self.winner = side

    def over_error(self) -> MatchOver:
        side = self.winner
        return MatchOver.worded(npgettext("points", "the match is over: %(side)s reached "
                                          "%(score)s", "the match is over: %(side)s reached "
                                          "%(score)s"), "match_over", counted="score",
                                side=self.table.side_name(side), score=self.scores[side])

    # -- what the table sees ------------------------------------------------

    @property
    def phase(self) -> str:
        """start: the table names who leads; lead: the first tile; play: tiles, draws and
        passes; end: the pips left in hands are needed; over: a side reached the target."""
        if self.winner is not None:
            return "over"
        if not self.hands:
            return "start"
        hand = self.hands[-1]
        if hand.outcome is None:
            return "play" if hand.moves else "lead"
        return "start" if hand.settled else "end"

    @property
    def hand(self) -> Hand | None:
        """The hand under way or just ended; None before the first hand."""
        return self.hands[-1] if self.hands else None

    @property
    def turn(self) -> int | None:
        """The seat whose turn it is to lay, draw or pass; None when nobody may move."""
        return self.hands[-1].turn if self.phase in ("lead", "play") else None

    def is_over(self) -> bool:
        return self.winner is not None

    def placements(self) -> list[moves.Placement]:
        """Every tile that can be laid now, once per end where the ends would differ,
        with what laying it would score and whether it would bust (the same rule
        `play.lay` applies)."""
        if self.phase not in ("lead", "play"):
            return []
        hand = self.hands[-1]
        found = []
        for placement in moves.placements(hand.layout, hand.laid):
            scored = play.score_of_lay(self, hand, hand.turn, placement.count)
            found.append(placement._replace(points=scored.points, bust=scored.bust))
        return found

    @property
    def can_draw(self) -> bool:
        return (self.phase == "play" and self.table.rules.draws
                and self.hands[-1].boneyard > 0)

    @property
    def can_pass(self) -> bool:
        """A pass once the boneyard is empty; a knock at any time where nobody draws."""
        return self.phase == "play" and (self.hands[-1].boneyard == 0
                                         or not self.table.rules.draws)

    def needed_remaining(self) -> tuple[list[int], list[int]]:
        """Seats whose pips must be entered now, and seats whose pips may be."""
        return ending.needed_remaining(self)

    def preview_end(self, held: dict) -> Score:
        """The end-of-hand score the entered pips would give, without entering them."""
        return ending.end_score(self, Remaining.of(held))

    def score_list(self) -> list[Score]:
        """Every score of the match in order, with the facts that explain it."""
        found = []
        for hand in self.hands:
            for index, played in enumerate(hand.moves):
                if played.points or played.bust or played.down:
                    found.append(self._ends_score(hand, index, played))
            if hand.end is not None and hand.end.points:
                found.append(hand.end)
        return found

    def move_score(self, hand: Hand, index: int) -> Score | None:
        """The count of the ends after one tile move of a hand, as a Score (maybe 0 points)."""
        played = hand.moves[index]
        return self._ends_score(hand, index, played) if played.count is not None else None

    def _ends_score(self, hand: Hand, index: int, played) -> Score:
        return ends_score(hand.number, index, self.table.side_of(played.seat), played,
                          index == 0)


_APPLY = {Lay: play.lay, Draw: play.draw, Pass: play.pass_turn, Start: ending.start,
          Remaining: ending.remaining}
"""Each kind of table event and the rule that applies it; a rule returns the event as logged."""
