"""A plain reference implementation of `scorekeeper replay --json`: the engine's yardstick.

Written from /work/shared's RULES.md, RULESETS.md and RECORD_FORMAT.md alone, the
way a competent programmer would write a one-off referee: read the JSON, check
every move against the open ends, count the ends, score, round the pips at the end
of a hand, stop at the target. No caches, no tables made in advance, no cleverness.
It knows the two-ended rule sets (all-fives and fives-and-threes); a record of a
rule set with spinners is refused. It is not product code: `bench/replay.py` times
the engine against it on the same records, after checking that both give the same
answer.
"""

import json

FORMAT = "allfives-match/1"
RULES = {
    # hand sizes for 2/3/4 players, default targets (2 players or pairs / 3-4 players)
    "all-fives": {"hand": (7, 5, 5), "target": (250, 200), "fives_and_threes": False},
    "fives-and-threes": {"hand": (7, 5, 5), "target": (61, 61), "fives_and_threes": True},
}


class BadRecord(Exception):
    """The record is unreadable or breaks a rule."""


def replay(text) -> dict:
    """The `replay --json` object for a record's text; BadRecord if it is not legal."""
    try:
        doc = json.loads(text)
    except ValueError as error:
        raise BadRecord(f"not JSON: {error}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BadRecord("not an allfives-match/1 record")
    game = Game(doc)
    hands = doc.get("hands")
    if not isinstance(hands, list):
        raise BadRecord('"hands" must be a list')
    for number, hand in enumerate(hands, 1):
        if game.winner is not None:
            raise BadRecord(f"hand {number}: the match is already over")
        game.play_hand(number, hand, last=number == len(hands))
    return game.summary()


def round_to_five(pips: int) -> int:
    return (pips + 2) // 5 * 5


class Game:
    """The setup of a match and its running score."""

    def __init__(self, doc: dict):
        players = doc.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 4:
            raise BadRecord("a match needs 2 to 4 players")
        names = []
        for name in players:
            if not isinstance(name, str) or not 1 <= len(name.strip()) <= 40:
                raise BadRecord(f"bad player name {name!r}")
            if name.strip() in names:
                raise BadRecord(f"two players are called {name.strip()}")
            names.append(name.strip())
        self.players = names
        rules = doc.get("rules", "all-fives")
        if rules not in RULES:
            raise BadRecord(f"unknown rule set {rules!r}")
        self.rules = RULES[rules]
        self.fives_and_threes = self.rules["fives_and_threes"]
        self.partnerships = doc.get("partnerships", False)
        if self.partnerships not in (True, False) or (self.partnerships and len(names) != 4):
            raise BadRecord("partnerships need 4 players")
        if self.partnerships:
            self.sides = [[0, 2], [1, 3]]
        else:
            self.sides = [[seat] for seat in range(len(names))]
        pairs = len(names) == 2 or self.partnerships
        self.target = doc.get("target", self.rules["target"][0 if pairs else 1])
        if type(self.target) is not int or not 5 <= self.target <= 10000:
            raise BadRecord("the target must be a whole number from 5 to 10000")
        self.hand_size = doc.get("hand_size", self.rules["hand"][len(names) - 2])
        if type(self.hand_size) is not int or not 1 <= self.hand_size * len(names) <= 28 \
                or self.hand_size < 1:
            raise BadRecord("bad hand size")
        self.scores = [0] * len(self.sides)
        self.winner = None
        self.hands = []
        self.next_starter = None  # who leads the next hand by right, if anyone
        self.previous_starter = None

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    def award(self, side: int, points: int, hand_points: list) -> None:
        self.scores[side] += points
        hand_points[side] += points
        if self.scores[side] >= self.target:
            self.winner = side

    def starter_of(self, number: int, hand: dict) -> int:
        starter = hand.get("starter")
        if self.fives_and_threes and self.previous_starter is not None:
            by_right = (self.previous_starter + 1) % len(self.players)
        else:
            by_right = self.next_starter
        if starter is None:
            if by_right is None:
                raise BadRecord(f"hand {number}: say who leads")
            return by_right
        if starter not in self.players:
            raise BadRecord(f"hand {number}: {starter!r} is not a player")
        seat = self.players.index(starter)
        if by_right is not None and seat != by_right:
            raise BadRecord(f"hand {number}: {self.players[by_right]} leads, not {starter}")
        return seat

    def play_hand(self, number: int, record: dict, last: bool) -> None:
        if not isinstance(record, dict) or not isinstance(record.get("moves"), list):
            raise BadRecord(f'hand {number} needs "moves"')
        starter = self.starter_of(number, record)
        self.previous_starter = starter
        hand = Hand(self, number, starter)
        for index, text in enumerate(record["moves"], 1):
            if hand.result is not None:
                raise BadRecord(f"hand {number}, move {index}: the hand is over")
            try:
                hand.move(text)
            except BadRecord as error:
                raise BadRecord(f"hand {number}, move {index} ({text!r}): {error}") from None
        remaining = record.get("remaining")
        if hand.result in ("domino", "blocked") and not self.fives_and_threes:
            if remaining is None:
                raise BadRecord(f"hand {number}: the pips left in hands are needed")
            hand.score_end(remaining)
        elif remaining is not None:
            raise BadRecord(f"hand {number}: no pips are entered for this hand")
        if hand.result is None and not last:
            raise BadRecord(f"hand {number} has not ended")
        self.next_starter = hand.out if hand.result == "domino" else None
        self.hands.append(hand)

    def summary(self) -> dict:
        sides = [{"players": [self.players[seat] for seat in seats], "score": self.scores[side]}
                 for side, seats in enumerate(self.sides)]
        hands = [{"number": hand.number, "starter": self.players[hand.starter],
                  "result": hand.result or "unfinished", "points": hand.points,
                  "moves": hand.moves} for hand in self.hands]
        return {"sides": sides, "target": self.target, "winner": self.winner, "hands": hands}


class Hand:
    """One hand being played: the two open ends, the tiles laid and how many each holds."""

    def __init__(self, game: Game, number: int, starter: int):
        self.game = game
        self.number = number
        self.starter = starter
        self.turn = starter
        self.held = [game.hand_size] * len(game.players)
        self.boneyard = 28 - game.hand_size * len(game.players)
        self.laid = set()
        self.left = self.right = None  # (pips showing, whether the end tile is a double)
        self.passes = 0
        self.result = None
        self.out = None  # the seat that went out
        self.points = [0] * len(game.sides)
        self.moves = []

    def move(self, text) -> None:
        if not isinstance(text, str):
            raise BadRecord("a move is text")
        player = self.game.players[self.turn]
        if text == "pass":
            self.pass_turn()
            self.moves.append({"player": player, "move": text, "points": 0})
        elif text == "draw" or text.startswith("draw ") and text[5:].isdigit():
            self.draw(int(text[5:]) if text != "draw" else 1)
            self.moves.append({"player": player, "move": text, "points": 0})
        else:
            tile, _, end = text.partition("@")
            ends, points = self.lay(parse_tile(tile), end)
            self.moves.append({"player": player, "move": text, "ends": ends, "points": points})

    def draw(self, count: int) -> None:
        if self.game.fives_and_threes:
            raise BadRecord("nobody draws in Fives and Threes")
        if self.left is None:
            raise BadRecord("the lead must be a tile")
        if not 1 <= count <= self.boneyard:
            raise BadRecord(f"cannot draw {count}: {self.boneyard} in the boneyard")
        self.boneyard -= count
        self.held[self.turn] += count

    def pass_turn(self) -> None:
        if self.left is None:
            raise BadRecord("the lead must be a tile")
        if self.boneyard and not self.game.fives_and_threes:
            raise BadRecord("the boneyard is not empty: draw")
        self.passes += 1
        if self.passes == sum(1 for held in self.held if held > 0):
            self.result = "blocked"
        else:
            self.next_turn()

    def next_turn(self) -> None:
        self.turn = (self.turn + 1) % len(self.held)
        while self.held[self.turn] == 0:
            self.turn = (self.turn + 1) % len(self.held)

    def lay(self, tile: tuple, end: str) -> tuple[int, int]:
        """Lay the tile; returns the count of the ends and the points it scored."""
        low, high = min(tile), max(tile)
        if (low, high) in self.laid:
            raise BadRecord(f"{low}-{high} was already laid")
        if self.left is None:  # the lead: a on the left, b on the right
            a, b = tile
            self.left, self.right = (a, a == b), (b, a == b)
            count = a + b
        else:
            self.place(tile, end)
            count = sum(value * 2 if double else value
                        for value, double in (self.left, self.right))
        self.laid.add((low, high))
        self.passes = 0
        self.held[self.turn] -= 1
        seat, side = self.turn, self.game.side_of(self.turn)
        points = self.count_points(count)
        if self.held[seat] == 0 and self.side_is_out(side):
            self.result = "domino"
            self.out = seat
            if self.game.fives_and_threes:
                points += 1
        if self.game.fives_and_threes and self.game.scores[side] + points > self.game.target:
            points = 0  # bust: a play past the exact target scores nothing
        if points:
            self.game.award(side, points, self.points)
        if self.game.winner is not None:
            self.result = "won"
        elif self.result is None:
            self.next_turn()
        return count, points

    def side_is_out(self, side: int) -> bool:
        """Going out ends the hand; in Fives and Threes pairs, once both partners are out."""
        if not self.game.fives_and_threes:
            return True
        return all(self.held[seat] == 0 for seat in self.game.sides[side])

    def place(self, tile: tuple, end: str) -> None:
        """Lay a tile on the end named (L or R), or the one it fits."""
        fits_left = self.left[0] in tile
        fits_right = self.right[0] in tile
        if end == "L" and not fits_left or end == "R" and not fits_right:
            raise BadRecord("the tile does not fit that end")
        if end not in ("", "L", "R"):
            raise BadRecord(f"{end!r} is not an end")
        if not end:
            if not fits_left and not fits_right:
                raise BadRecord(f"matches neither open end ({self.left[0]} and "
                                f"{self.right[0]})")
            if fits_left and fits_right and sorted([self.after(tile, self.left), self.right]) \
                    != sorted([self.left, self.after(tile, self.right)]):
                raise BadRecord("fits both ends with different results: say which")
            end = "L" if fits_left else "R"
        if end == "L":
            self.left = self.after(tile, self.left)
        else:
            self.right = self.after(tile, self.right)

    @staticmethod
    def after(tile: tuple, end: tuple) -> tuple:
        """The open end a tile leaves when laid on `end`: its other half."""
        a, b = tile
        return (b if a == end[0] else a, a == b)

    def count_points(self, count: int) -> int:
        if self.game.fives_and_threes:
            points = 0
            if count % 5 == 0:
                points += count // 5
            if count % 3 == 0:
                points += count // 3
            return points
        return count if count % 5 == 0 else 0

    def score_end(self, remaining) -> None:
        """Check the pips or tiles left in hands, then score the end of the hand."""
        if not isinstance(remaining, dict):
            raise BadRecord(f"hand {self.number}: remaining must be an object")
        game = self.game
        winner_side = game.side_of(self.out) if self.result == "domino" else None
        pips = {}
        seen = set()
        unplayed = sorted(a + b for a in range(7) for b in range(a, 7) if (a, b) not in self.laid)
        for name, value in remaining.items():
            if name not in game.players:
                raise BadRecord(f"hand {self.number}: {name!r} is not a player")
            seat = game.players.index(name)
            pips[seat] = self.check_held(name, value, self.held[seat], unplayed, seen)
        for seat in range(len(game.players)):
            if seat not in pips and (winner_side is None or game.side_of(seat) != winner_side):
                raise BadRecord(f"hand {self.number}: the pips of {game.players[seat]} are "
                                "needed")
        if self.result == "domino":
            points = sum(round_to_five(pips[seat]) for seat in range(len(game.players))
                         if game.side_of(seat) != winner_side)
            if points:
                game.award(winner_side, points, self.points)
            return
        totals = [sum(pips[seat] for seat in seats) for seats in game.sides]
        fewest = min(totals)
        if totals.count(fewest) > 1:
            return
        winner = totals.index(fewest)
        points = sum(round_to_five(total) for side, total in enumerate(totals)
                     if side != winner) - round_to_five(fewest)
        if points:
            game.award(winner, points, self.points)

    def check_held(self, name: str, value, count: int, unplayed: list, seen: set) -> int:
        """The pips a player holds, once shown possible (RULES.md §9)."""
        if isinstance(value, list):
            if len(value) != count:
                raise BadRecord(f"{name} holds {count} tiles, not {len(value)}")
            total = 0
            for text in value:
                tile = parse_tile(text)
                low, high = min(tile), max(tile)
                if (low, high) in self.laid or (low, high) in seen:
                    raise BadRecord(f"{name} cannot hold {low}-{high}")
                seen.add((low, high))
                total += low + high
            return total
        if type(value) is not int:
            raise BadRecord(f"{name}'s pips must be a whole number")
        if count > len(unplayed) or not sum(unplayed[:count]) <= value \
                <= sum(unplayed[len(unplayed) - count:]):
            raise BadRecord(f"{name} cannot hold {value} pips in {count} tiles")
        return value


def parse_tile(text: str) -> tuple[int, int]:
    a, _, b = text.partition("-")
    if not a.isdigit() or not b.isdigit() or int(a) > 6 or int(b) > 6:
        raise BadRecord(f"{text!r} is not a tile")
    return int(a), int(b)
