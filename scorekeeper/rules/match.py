"""A match of All Fives: an ordered log of table events, and everything derived from it.

Actions validate completely before they change anything, so a refused action
leaves the match as it was. Undo pops the last event and rebuilds from the log.
"""

from . import moves
from .errors import (
    N_,
    HandNotOver,
    HandOver,
    IllegalMove,
    IllegalStart,
    MatchOver,
    NothingToUndo,
)
from .events import Draw, Event, Lay, Pass, Remaining, Start
from .hand import Hand, Played
from .layout import count_of, end_name, lay, lead, line_lay
from .remaining import check_remaining
from .scoring import Score, blocked_score, domino_score, ends_score
from .table import Table
from .tiles import NORMAL_OF as _NORMAL_OF
from .tiles import Tile, ends_points, normal_of_checked, tile_text

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

PHASES = ("start", "lead", "play", "end", "over")
"""start: the table names who leads; lead: the first tile; play: tiles, draws and passes;
end: the pips left in hands are needed; over: a side reached the target."""


class Match:
    """One match at one table; `log` is the only state, the rest is derived from it."""

    def __init__(self, table: Table, log=()):
        self.table = table
        self.log: list[Event] = []
        self._reset()
        for event in log:
            self.push(event)

    @classmethod
    def create(cls, players, partnerships=False, target=None, hand_size=None) -> "Match":
        return cls(Table.create(players, partnerships, target, hand_size))

    def _reset(self) -> None:
        self.hands: list[Hand] = []
        self.scores = [0] * len(self.table.sides)
        self.winner: int | None = None

    # -- changing the match -------------------------------------------------

    def push(self, event: Event) -> Event:
        """Apply one table event; returns it as logged (a tile's end made explicit)."""
        apply = _APPLY.get(event.__class__)
        if apply is None:
            raise TypeError(f"not a table event: {event!r}")
        event = apply(self, event) or event
        self.log.append(event)
        return event

    def pop(self) -> Event:
        """Undo the last event, whatever it was; the match is rebuilt from the rest of the log."""
        if not self.log:
            raise NothingToUndo("nothing to undo: the match has no entries yet",
                                kind="nothing_to_undo")
        *rest, last = self.log
        self.log = []
        self._reset()
        for event in rest:
            self.push(event)
        return last

    def copy(self) -> "Match":
        """An independent match in the same state, without replaying the log.

        Only the last hand ever changes (pop rebuilds from the log), so the earlier
        hands are shared and the last one is copied.
        """
        other = Match.__new__(Match)
        other.table, other.log = self.table, list(self.log)
        other.hands = self.hands[:-1] + [self.hands[-1].copy()] if self.hands else []
        other.scores, other.winner = list(self.scores), self.winner
        return other

    def peek(self) -> Event | None:
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
        return self.push(Remaining(tuple(sorted(held.items()))))

    # -- what the table sees ------------------------------------------------

    @property
    def phase(self) -> str:
        if self.winner is not None:
            return "over"
        if not self.hands:
            return "start"
        hand = self.hands[-1]
        if hand.result is None:
            return "play" if hand.moves else "lead"
        return "end" if hand.remaining is None else "start"

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
        """Every tile that can be laid now, once per end where the ends would differ."""
        if self.phase not in ("lead", "play"):
            return []
        hand = self.hands[-1]
        return moves.placements(hand.layout, hand.laid, ends_points)

    @property
    def can_draw(self) -> bool:
        return self.phase == "play" and self.hands[-1].boneyard > 0

    @property
    def can_pass(self) -> bool:
        return self.phase == "play" and self.hands[-1].boneyard == 0

    def needed_remaining(self) -> tuple[list[int], list[int]]:
        """Seats whose pips must be entered now, and seats whose pips may be."""
        if self.phase != "end":
            return [], []
        hand = self.hands[-1]
        if hand.result == "blocked":
            return list(range(len(self.table.players))), []
        side = self.table.side_of(hand.winner)
        seats = range(len(self.table.players))
        return ([seat for seat in seats if self.table.side_of(seat) != side],
                [seat for seat in seats if self.table.side_of(seat) == side])

    def score_list(self) -> list[Score]:
        """Every score of the match in order, with the facts that explain it."""
        found = []
        for hand in self.hands:
            for index, played in enumerate(hand.moves):
                if played.points:
                    found.append(self._ends_score(hand, index, played))
            if hand.end is not None and hand.end.points:
                found.append(hand.end)
        return found

    def move_score(self, hand: Hand, index: int) -> Score | None:
        """The count of the ends after one tile move of a hand, as a Score (maybe 0 points)."""
        played = hand.moves[index]
        return self._ends_score(hand, index, played) if played.count is not None else None

    def _ends_score(self, hand: Hand, index: int, played) -> Score:
        return ends_score(hand.number, index, self.table.side_of(played.seat), played.seat,
                          played.move.tile, played.ends, played.count, index == 0)

    # -- the rules of each event --------------------------------------------

    def _playing_hand(self, what: str) -> Hand:
        if self.winner is None and self.hands and self.hands[-1].result is None:
            return self.hands[-1]
        phase = self.phase
        if phase == "over":
            raise self._over_error()
        if phase == "end":
            raise HandOver.worded(_HAND_OVER[what], "hand_over", move=what)
        raise IllegalStart.worded(_STARTER_NEEDED[what], "starter_needed", move=what)

    def _over_error(self) -> MatchOver:
        side = self.winner
        return MatchOver.worded(N_("the match is over: %(side)s reached %(score)s"),
                                "match_over", side=self.table.side_name(side),
                                score=self.scores[side])

    def _lay(self, event: Lay) -> Lay:
        # The hot path of every replay: kept flat, with its lookups done through tables.
        hands = self.hands
        hand = hands[-1] if hands else None
        if hand is None or hand.result is not None or self.winner is not None:
            hand = self._playing_hand("tile")  # raises: nobody may lay a tile now
        seat = hand.turn
        tile = event.tile
        key = _NORMAL_OF.get(tile) if tile.__class__ is tuple else None
        if key is None or tile[0].__class__ is not int or tile[1].__class__ is not int:
            key = normal_of_checked(tile)  # refuses what is not a tile of the set
        if key in hand.laid:
            raise IllegalMove.worded(N_("%(tile)s was already laid in this hand"),
                                     "already_laid", player=self.table.players[seat],
                                     tile=tile_text(tile))
        layout = hand.layout
        if not hand.moves:
            if tile.__class__ is not tuple:  # a list or a tuple subclass: log a plain tuple
                tile = (tile[0], tile[1])
            layout = lead(layout, tile)
            count = tile[0] + tile[1]
            if event.end is not None or tile is not event.tile:
                event = Lay(tile, None)
        else:
            end = event.end
            layout, count = (line_lay(layout, key, end) if layout.branching == "none"
                             and (end == "L" or end == "R") else (None, None))
            if layout is None:  # a tree, or an end to choose or refuse: the general rule
                layout = hand.layout
                index = moves.choose_side(layout, key, end, self.table.players[seat], tile,
                                          hand.laid)
                end = end_name(layout, index)
                layout = lay(layout, key, index)
                count = count_of(layout.sides)
            if event.end != end:
                event = Lay(key, end)
            elif tile.__class__ is not tuple:
                event = Lay((tile[0], tile[1]), end)
        hand.layout = layout
        hand.laid.add(key)
        hand.held[seat] -= 1
        hand.passes = 0
        points = count if count % 5 == 0 else 0  # ends_points(count), inlined: the hot path
        hand.moves.append(_tuple(Played, (seat, event, layout.sides, count, points)))
        if points:
            self._award(hand, self.table.side_of(seat), points)
            if self.winner is not None:
                hand.result = "won"
                return event
        if hand.held[seat] == 0:
            hand.result, hand.winner = "domino", seat
        else:
            hand.turn = (seat + 1) % len(self.table.players)
        return event

    def _draw(self, event: Draw) -> None:
        hand = self._playing_hand("draw")
        name = self.table.players[hand.turn]
        if not hand.moves:
            raise IllegalMove.worded(N_("%(player)s leads: the lead must be a tile, not a draw"),
                                     "lead_not_tile", player=name, move="draw")
        if hand.boneyard == 0:
            raise IllegalMove.worded(
                N_("%(player)s cannot draw: the boneyard is empty, so %(player)s passes"),
                "boneyard_empty", player=name)
        if isinstance(event.count, bool) or not isinstance(event.count, int) or event.count < 1:
            raise IllegalMove(f"{name} cannot draw {event.count!r} tiles: draw one tile or more",
                              kind="draw_nothing", player=name, count=str(event.count))
        if event.count > hand.boneyard:
            raise IllegalMove.worded(
                N_("%(player)s cannot draw %(count)s: only %(boneyard)s left in the boneyard"),
                "draw_too_many", player=name, count=event.count, boneyard=hand.boneyard)
        hand.boneyard -= event.count
        hand.held[hand.turn] += event.count
        hand.moves.append(Played(hand.turn, event, None, None, 0))

    def _pass(self, event: Pass) -> None:
        hand = self._playing_hand("pass")
        seat = hand.turn
        name = self.table.players[seat]
        if not hand.moves:
            raise IllegalMove.worded(N_("%(player)s leads: the lead must be a tile, not a pass"),
                                     "lead_not_tile", player=name, move="pass")
        if hand.boneyard:
            template = (N_("%(player)s must draw first: 1 tile is left in the boneyard")
                        if hand.boneyard == 1 else
                        N_("%(player)s must draw first: %(boneyard)s tiles are left in the "
                           "boneyard"))
            raise IllegalMove.worded(template, "must_draw", player=name,
                                     boneyard=hand.boneyard)
        hand.passes += 1
        hand.moves.append(Played(seat, event, None, None, 0))
        if hand.passes == len(self.table.players):
            hand.result = "blocked"
        else:
            hand.turn = (seat + 1) % len(self.table.players)

    def _start(self, event: Start) -> None:
        players = self.table.players
        seat = event.seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(players):
            raise IllegalStart(f"seat {seat!r} is not at this table", kind="unknown_seat")
        phase = self.phase
        if phase == "over":
            raise self._over_error()
        hand = self.hands[-1] if self.hands else None
        if phase == "lead" and not hand.announced:
            if seat != hand.starter:
                raise IllegalStart.worded(
                    N_("%(starter)s went out last hand and leads this one, not %(player)s"),
                    "winner_leads", player=players[seat], starter=players[hand.starter])
            hand.announced = True
            return
        if phase != "start":
            raise IllegalStart.worded(
                N_("%(player)s cannot start a hand: hand %(hand)s is not over"),
                "hand_under_way", player=players[seat], hand=hand.number)
        self._new_hand(seat, announced=True)

    def _new_hand(self, starter: int, announced: bool) -> None:
        table = self.table
        self.hands.append(Hand(len(self.hands) + 1, starter, len(table.players),
                               table.hand_size, len(table.sides), announced,
                               table.rules.spinners))

    def preview_end(self, held: dict) -> Score:
        """The end-of-hand score the entered pips would give, without entering them."""
        return self._end_score(Remaining(tuple(sorted(held.items()))))

    def _end_score(self, event: Remaining) -> Score:
        if self.phase != "end":
            if self.phase == "over":
                raise self._over_error()
            raise HandNotOver("the hand is not over: pips are entered when a player goes "
                              "out or every player has passed", kind="hand_not_over")
        hand = self.hands[-1]
        required, optional = self.needed_remaining()
        pips = check_remaining(self.table, hand, dict(event.held), required, optional)
        if hand.result == "domino":
            return domino_score(hand.number, self.table, hand.winner, pips)
        return blocked_score(hand.number, self.table, pips)

    def _remaining(self, event: Remaining) -> None:
        score = self._end_score(event)
        hand = self.hands[-1]
        hand.remaining = dict(event.held)
        hand.end = score
        if score.points:
            self._award(hand, score.side, score.points)
        if self.winner is None and hand.result == "domino":
            self._new_hand(hand.winner, announced=False)

    def _award(self, hand: Hand, side: int, points: int) -> None:
        self.scores[side] += points
        hand.points[side] += points
        if self.scores[side] >= self.table.target:
            self.winner = side


_APPLY = {Lay: Match._lay, Draw: Match._draw, Pass: Match._pass, Start: Match._start,
          Remaining: Match._remaining}
"""Each kind of table event and the rule that applies it; a rule returns the event as logged."""
