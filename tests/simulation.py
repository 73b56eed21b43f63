"""A table of random players with real tiles, for tests and benchmarks.

It deals real hands from a shuffled set, lets each player lay a random tile
they really hold (drawing or passing when they cannot), and enters the tiles
really left at the end of a hand. Every event goes through a Match, so every
game it plays is legal by construction of the rules engine, not of this file.
"""

import random

from scorekeeper.rules import (
    ALL_FIVES,
    ALL_TILES,
    Draw,
    Lay,
    Match,
    Pass,
    Remaining,
    RuleSet,
    Start,
    Table,
    normal,
    pips,
)


class RandomTable:
    """The hidden side of a match: who holds which tile, and the boneyard."""

    def __init__(self, match: Match, rng: random.Random, greed: float = 0.0):
        self.match = match
        self.rng = rng
        self.greed = greed  # how often a player holding a scoring tile lays the best one
        self.hands: list[list] = []
        self.boneyard: list = []
        self._history: list = []

    def deal(self) -> None:
        tiles = list(ALL_TILES)
        self.rng.shuffle(tiles)
        size = self.match.table.hand_size
        players = len(self.match.table.players)
        self.hands = [tiles[seat * size:(seat + 1) * size] for seat in range(players)]
        self.boneyard = tiles[players * size:]

    def step(self) -> object:
        """Make the next event a real table would make, push it, and return it."""
        self._history.append(([list(hand) for hand in self.hands], list(self.boneyard)))
        try:
            event = self._next_event()
            return self.match.push(event)
        except Exception:
            self.undo_hidden()
            raise

    def undo(self) -> None:
        """Undo the last event on the match and on the hidden tiles alike."""
        self.match.pop()
        self.undo_hidden()

    def undo_tap(self) -> None:
        """Undo as the table's Undo button does (`Match.undo`): of a draw of several tiles,
        only the last tile drawn goes back to the boneyard."""
        last = self.match.peek()
        self.undo()
        if isinstance(last, Draw) and last.count > 1:
            self._history.append(([list(hand) for hand in self.hands], list(self.boneyard)))
            kept = last.count - 1
            self.hands[self.match.turn].extend(self.boneyard[:kept])
            del self.boneyard[:kept]
            self.match.push(Draw(kept))

    def undo_hidden(self) -> None:
        self.hands, self.boneyard = self._history.pop()

    def _next_event(self):
        phase = self.match.phase
        if phase == "start":
            self.deal()
            return Start(self._highest_double_holder())
        if phase == "lead" and not self.match.hand.moves and self._needs_deal():
            self.deal()
        if phase in ("lead", "play"):
            return self._move()
        if phase == "end":
            return self._remaining()
        raise ValueError("the match is over")

    def _needs_deal(self) -> bool:
        """After a domino the next hand starts without a Start event: deal it on its lead."""
        held = sum(len(hand) for hand in self.hands)
        return held + len(self.boneyard) + len(self.match.hand.laid) != 28 or not self.hands

    def _highest_double_holder(self) -> int:
        for value in range(6, -1, -1):
            for seat, hand in enumerate(self.hands):
                if (value, value) in hand:
                    return seat
        return self.rng.randrange(len(self.hands))

    def _move(self):
        seat = self.match.turn
        hand = self.hands[seat]
        options = [p for p in self.match.placements() if p.tile in hand]
        knocks = self.match.table.rules.knocks
        knock_anyway = knocks and self.match.hand.moves and self.rng.random() < 0.1
        if options and not knock_anyway:  # where nobody draws, a player may knock at any time
            scoring = [option for option in options if option.points > 0] if self.greed else []
            if scoring and self.rng.random() < self.greed:
                options = [max(scoring, key=lambda option: option.points)]
            choice = self.rng.choice(options)
            hand.remove(choice.tile)
            tile = choice.tile
            if choice.end is None and self.rng.random() < 0.5:
                tile = (tile[1], tile[0])
            return Lay(tile, choice.end)
        if self.boneyard and not knocks:
            count = 1
            while count < len(self.boneyard) and self.rng.random() < 0.3:
                count += 1
            hand.extend(self.boneyard[:count])
            del self.boneyard[:count]
            return Draw(count)
        return Pass()

    def _remaining(self):
        required, optional = self.match.needed_remaining()
        held = {}
        for seat in required + [s for s in optional if self.rng.random() < 0.3]:
            tiles = self.hands[seat]
            if self.rng.random() < 0.5:
                held[seat] = tuple(normal(tile) for tile in tiles)
            else:
                held[seat] = sum(pips(tile) for tile in tiles)
        return Remaining.of(held)


def random_table(rng: random.Random, rules: RuleSet = ALL_FIVES, house: bool = False) -> Table:
    """A random setup: 2-4 players, sometimes partnerships, house targets and hand sizes;
    with `house`, each house rule of the rule set switched off half the time, and targets
    low enough that a lead often could win the match."""
    players = rng.choice([2, 3, 4])
    partnerships = players == 4 and rng.random() < 0.5
    target = rng.choice([None, 5, 10, 20] if house else [None, None, 61, 100, 150])
    hand_size = None if rng.random() < 0.7 else rng.randint(1, 28 // players)
    names = ["Ann", "Bob", "Cat", "Dan"][:players]
    switched = {name: False for name in rules.house_options if house and rng.random() < 0.5}
    return Table.create(names, partnerships, target, hand_size, rules, switched)


def play_match(rng: random.Random, table: Table | None = None, max_events: int = 20_000,
               greed: float = 0.0):
    """Play one whole random match to its end; returns the Match."""
    match = Match(table or random_table(rng))
    sim = RandomTable(match, rng, greed)
    for _ in range(max_events):
        if match.is_over():
            return match
        sim.step()
    raise RuntimeError("a random match did not end")
