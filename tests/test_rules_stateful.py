"""Random legal matches with real dealt tiles, checked after every event, undo mixed in.

The simulator (scorekeeper.simulation.RandomTable) holds the hidden side of the table:
who holds which tile and what is left in the boneyard. Every event it makes goes
through the Match, so these tests check the engine against real tiles, not against a
second copy of the rules.
"""

import json
import random

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)
from simulation import RandomTable, play_match, random_table

from scorekeeper.commands.told import summary
from scorekeeper.rules import (
    ALL_FIVES,
    ALL_FIVES_SPINNER,
    ALL_TILES,
    FIVES_AND_THREES,
    OLA_5,
    Draw,
    Lay,
    Match,
    Pass,
    Remaining,
    RuleError,
    Start,
    Table,
    tile_text,
)
from scorekeeper.rules.match.record import read_record, write_record
from scorekeeper.rules.placement.layout import count_of


@st.composite
def tables(draw) -> Table:
    players = draw(st.sampled_from([2, 3, 4]))
    partnerships = players == 4 and draw(st.booleans())
    target = draw(st.sampled_from([61, 100, 150, None]))
    hand_size = draw(st.none() | st.integers(1, 28 // players))
    rules = draw(st.sampled_from([ALL_FIVES, FIVES_AND_THREES]))
    return Table.create(["Ann", "Bob", "Cat", "Dan"][:players], partnerships, target, hand_size,
                        rules)


def snapshot(match: Match):
    """Everything derived from the log that an undo or a refusal must leave as it was."""
    return (list(match.log), list(match.scores), match.winner, match.phase, match.turn,
            match.placements(), match.can_draw, match.can_pass, match.needed_remaining(),
            json.dumps(write_record(match)))


def illegal_events(match: Match) -> list:
    """Events the rules must refuse now, worked out from the table as a referee sees it."""
    players = len(match.table.players)
    every_kind = [Lay((6, 6)), Lay((0, 1), "L"), Draw(1), Pass(), Start(0), Remaining(())]
    found = [Start(players), Start(-1), Lay((7, 0)), Draw(0),
             Remaining(((players, 0),))]
    phase, hand = match.phase, match.hand
    if phase in ("over", "end"):
        found += every_kind + [Remaining(tuple((seat, 1000) for seat in range(players)))]
    elif phase == "start":
        found += [Lay((6, 6)), Draw(1), Pass(), Remaining(((0, 0),))]
    elif phase == "lead":
        found += [Draw(1), Pass(), Remaining(((0, 0),))]
        found += [Start(seat) for seat in range(players)
                  if hand.announced or seat != hand.starter]
    else:
        left, right = hand.ends
        found += [Start(seat) for seat in range(players)] + [Remaining(((0, 0),))]
        if match.table.rules.draws:
            found += [Draw(hand.boneyard + 1), Pass() if hand.boneyard else Draw(1)]
        else:
            found += [Draw(1), Draw(hand.boneyard)]  # the sleeping tiles are never drawn
        for tile in ALL_TILES:
            fits = {"L": left.value in tile, "R": right.value in tile}
            if tile in hand.laid:
                found += [Lay(tile), Lay(tile[::-1], "R")]
            elif not any(fits.values()):
                found.append(Lay(tile))
            elif fits["L"] != fits["R"]:
                found.append(Lay(tile, "R" if fits["L"] else "L"))
        both = (left.value, right.value)
        if left.value != right.value and tuple(sorted(both)) not in hand.laid:
            found.append(Lay(both))  # fits both ends, leaving different ends: say which
    return found


class RandomMatches(RuleBasedStateMachine):
    """A table of random players; rules play, undo and try what the rules forbid."""

    @initialize(table=tables(), seed=st.integers(0, 2**32 - 1))
    def sit_down(self, table, seed):
        self.match = Match(table)
        self.sim = RandomTable(self.match, random.Random(seed))
        self.before: list = []  # the snapshot before each event of the log
        self.events = 0  # events played or undone so far
        self.round_tripped = -1  # the value of self.events at the last record round trip

    @precondition(lambda self: not self.match.is_over())
    @rule(events=st.integers(1, 12))
    def play(self, events):
        for _ in range(events):
            if self.match.is_over():
                break
            self.before.append(snapshot(self.match))
            self.sim.step()
            self.events += 1
            assert len(self.match.log) == len(self.before)
            self.check_every_tile_is_somewhere()
            self.check_the_match_stops_at_the_target()

    @precondition(lambda self: self.match.log)
    @rule(events=st.integers(1, 4))
    def undo(self, events):
        for _ in range(min(events, len(self.match.log))):
            self.sim.undo()
            self.events += 1
            assert snapshot(self.match) == self.before.pop()

    @rule(data=st.data())
    def refuse_an_illegal_event(self, data):
        event = data.draw(st.sampled_from(illegal_events(self.match)), label="event")
        before = snapshot(self.match)
        with pytest.raises(RuleError):
            self.match.push(event)
        assert snapshot(self.match) == before

    @rule()
    def record_round_trip(self):
        if self.round_tripped == self.events:
            return  # this state has been through the round trip already
        self.round_tripped = self.events
        doc = json.loads(json.dumps(write_record(self.match)))
        if self.match.phase == "end":
            # A record holds what was left in hands once a hand ends: until the pips are
            # entered, the record is not complete and reading it says what is missing.
            with pytest.raises(RuleError, match="the pips left with .* are needed"):
                read_record(doc)
            return
        again = read_record(doc)
        assert again.log == self.match.log
        assert (again.scores, again.winner) == (self.match.scores, self.match.winner)
        assert summary(again, doc["hands"])["sides"] == summary(self.match)["sides"]

    def teardown(self):
        event(f"{self.match.table.rules.name}: ended in phase {self.match.phase}")
        for hand in self.match.hands:
            if any(played.bust for played in hand.moves):
                event(f"{self.match.table.rules.name}: a bust")
            if hand.outcome is not None and min(hand.held) == 0 and hand.result == "blocked":
                event(f"{self.match.table.rules.name}: blocked with a player out")

    @invariant()
    def check_every_tile_is_somewhere(self):
        hand, sim = self.match.hand, self.sim
        if hand is None:
            return
        assert len(hand.laid) + sum(hand.held) + hand.boneyard == 28
        assert min(hand.held) >= 0 and hand.boneyard >= 0
        if hand.moves or hand.announced:  # the simulator has dealt this hand
            assert [len(tiles) for tiles in sim.hands] == hand.held
            assert len(sim.boneyard) == hand.boneyard
            hidden = [tile for tiles in sim.hands for tile in tiles] + sim.boneyard
            assert sorted(hidden + sorted(hand.laid)) == sorted(ALL_TILES)

    @invariant()
    def check_every_score_is_a_positive_multiple_of_five(self):
        if self.match.table.rules is not ALL_FIVES:
            return
        totals = [0] * len(self.match.table.sides)
        for score in self.match.score_list():
            assert score.points > 0 and score.points % 5 == 0, score
            totals[score.side] += score.points
        assert totals == self.match.scores
        assert [sum(hand.points[side] for hand in self.match.hands)
                for side in range(len(totals))] == totals

    @invariant()
    def check_every_count_scores_its_fifths_and_thirds_and_the_point_for_going_out(self):
        match = self.match
        if match.table.rules is not FIVES_AND_THREES:
            return
        totals = [0] * len(match.table.sides)
        for hand in match.hands:
            assert hand.end is None and hand.remaining is None
            for played in hand.moves:
                if played.count is None:
                    assert played.points == 0
                    continue
                count = played.count
                earned = ((count // 5 if count % 5 == 0 else 0)
                          + (count // 3 if count % 3 == 0 else 0) + played.bonus)
                assert played.points == (0 if played.bust else earned), played
                assert not played.bust or earned > 0
                totals[match.table.side_of(played.seat)] += played.points
        assert totals == match.scores

    @invariant()
    def check_no_score_passes_an_exact_target(self):
        match = self.match
        if match.table.rules.exact_target:
            assert max(match.scores) <= match.table.target
            assert (match.winner is not None) == (max(match.scores) == match.table.target)

    @invariant()
    def check_the_match_stops_at_the_target(self):
        match = self.match
        reached = [side for side, score in enumerate(match.scores)
                   if score >= match.table.target]
        assert reached == ([] if match.winner is None else [match.winner])
        if match.winner is not None:
            assert match.is_over() and match.phase == "over" and match.turn is None
            assert match.placements() == []
            assert not match.can_draw and not match.can_pass
            scores_before_last_event = self.before[-1][1]
            assert max(scores_before_last_event) < match.table.target


RandomMatches.TestCase.settings = settings(max_examples=50, stateful_step_count=200,
                                           deadline=None)
TestRandomMatches = RandomMatches.TestCase


@pytest.mark.parametrize("rules", [ALL_FIVES, FIVES_AND_THREES], ids=lambda rules: rules.name)
def test_two_hundred_random_matches_replay_to_the_scores_they_were_played_with(rules):
    rng = random.Random(20_250)
    finished_by = {"won": 0, "domino": 0, "blocked": 0}
    for _ in range(200):
        match = play_match(rng, random_table(rng, rules) if rules is not ALL_FIVES else None)
        doc = json.loads(json.dumps(write_record(match)))
        again = read_record(doc)
        assert (again.log, again.scores, again.winner) == (match.log, match.scores,
                                                           match.winner)
        result = summary(again, doc["hands"])
        assert [side["score"] for side in result["sides"]] == match.scores
        assert [sum(hand["points"][side] for hand in result["hands"])
                for side in range(len(match.scores))] == match.scores
        assert match.winner is not None and result["winner"] == match.winner
        assert match.scores[match.winner] >= match.table.target
        assert [len(hand["moves"]) for hand in result["hands"]] == [
            len(hand["moves"]) for hand in doc["hands"]]
        # A Fives and Threes match always ends in a hand (the target is hit exactly then):
        # its other hands show that hands end by going out and blocked too.
        for hand in result["hands"] if rules.exact_target else result["hands"][-1:]:
            finished_by[hand["result"]] += 1
    assert all(finished_by.values()), finished_by


# -- the rule sets with spinners --------------------------------------------------------------

@st.composite
def spinner_tables(draw) -> Table:
    rules = draw(st.sampled_from([ALL_FIVES_SPINNER, OLA_5]))
    players = draw(st.sampled_from([2, 3, 4]))
    partnerships = players == 4 and draw(st.booleans())
    target = draw(st.sampled_from([100, 150, None]))
    hand_size = draw(st.none() | st.integers(1, 28 // players))
    return Table.create(["Ann", "Bob", "Cat", "Dan"][:players], partnerships, target, hand_size,
                        rules)


def illegal_spinner_lays(match: Match) -> list:
    """Tiles the layout must refuse now: laid, fitting nowhere, an end of the wrong kind or on a
    tile with no open side, and an unnamed tile that fits sides of two laid tiles."""
    hand = match.hand
    if match.phase != "play":
        return []
    sides = hand.ends
    found = [Lay(next(iter(hand.laid))), Lay((6, 6), "L"), Lay((0, 0), "R")]
    for tile in ALL_TILES:
        if tile in hand.laid:
            continue
        touched = {side.tile for side in sides if side.value in tile}
        if not touched:
            found += [Lay(tile), Lay(tile, tile_text(sides[0].tile))]
        elif len(touched) > 1:
            found.append(Lay(tile))
        closed = [laid for laid in hand.laid if all(side.tile != laid for side in sides)]
        found += [Lay(tile, tile_text(laid)) for laid in closed[:1]]
    return found


class RandomSpinnerMatches(RandomMatches):
    """All Fives with a spinner and Όλα 5: the same table, play, undo and refusals."""

    @initialize(table=spinner_tables(), seed=st.integers(0, 2**32 - 1))
    def sit_down(self, table, seed):
        self.match = Match(table)
        self.sim = RandomTable(self.match, random.Random(seed), greed=0.8)
        self.before, self.events, self.round_tripped = [], 0, -1

    @rule(data=st.data())
    def refuse_an_illegal_event(self, data):
        lays = illegal_spinner_lays(self.match)
        event = data.draw(st.sampled_from(lays or illegal_events(self.match)), label="event")
        before = snapshot(self.match)
        with pytest.raises(RuleError):
            self.match.push(event)
        assert snapshot(self.match) == before

    @invariant()
    def check_spinner_scores_add_up(self):
        """Counts score multiples of five; a hand's end adds, or (with a spinner) subtracts."""
        match = self.match
        totals = [0] * len(match.table.sides)
        for score in match.score_list():
            if score.kind == "subtracted":
                assert all(loss <= 0 and loss % 5 == 0 for loss in score.facts["sides"])
                totals = [total + loss for total, loss in zip(totals, score.facts["sides"],
                                                              strict=True)]
                continue
            assert score.points > 0, score
            assert score.kind != "ends" or score.points % 5 == 0, score
            totals[score.side] += score.points
        assert totals == match.scores

    @invariant()
    def check_the_layout_counts_its_open_sides(self):
        hand = self.match.hand
        if hand is None or not hand.moves:
            return
        last = next(played for played in reversed(hand.moves) if played.count is not None)
        assert last.ends == hand.ends and last.count == count_of(hand.ends)
        spinners = {side.tile for side in hand.ends if side.spinner}
        for side in hand.ends:
            if side.branch:  # a spinner's branch sides open only once its line sides are full
                assert not any(other.tile == side.tile and not other.branch
                               for other in hand.ends)
        if self.match.table.rules is ALL_FIVES_SPINNER:
            assert len(spinners) <= 1


RandomSpinnerMatches.TestCase.settings = settings(max_examples=25, stateful_step_count=150,
                                                  deadline=None)
TestRandomSpinnerMatches = RandomSpinnerMatches.TestCase


def test_random_spinner_matches_use_four_arms_several_spinners_and_go_below_zero():
    rng = random.Random(16)
    seen = {"four arms": 0, "two spinners branching": 0, "below zero": 0}
    for number in range(30):
        rules = (ALL_FIVES_SPINNER, OLA_5)[number % 2]
        players = rng.choice([2, 3, 4])
        table = Table.create(["Ann", "Bob", "Cat", "Dan"][:players],
                             players == 4 and rng.random() < 0.5, rules=rules)
        match = play_match(rng, table, greed=0.8)
        doc = json.loads(json.dumps(write_record(match)))
        again = read_record(doc)
        assert (again.log, again.scores, again.winner) == (match.log, match.scores,
                                                           match.winner)
        assert [side["score"] for side in summary(again, doc["hands"])["sides"]] == match.scores
        running = [0] * len(match.scores)
        for hand in match.hands:
            seen["four arms"] += rules is ALL_FIVES_SPINNER and arms_of_the_spinner(hand) == 4
            branching = {side.tile for played in hand.moves for side in played.ends or ()
                         if side.branch}
            seen["two spinners branching"] += len(branching) >= 2
            running = [total + points for total, points in zip(running, hand.points,
                                                               strict=True)]
            seen["below zero"] += min(running) < 0
    assert all(seen.values()), seen


def arms_of_the_spinner(hand) -> int:
    """How many of the spinner's four sides hold a tile at the end of the hand."""
    spinner = next((side.tile for played in hand.moves for side in played.ends or ()
                    if side.spinner), None)
    if spinner is None:
        return 0
    against = sum(1 for played in hand.moves[1:]
                  if played.count is not None and played.move.end == tile_text(spinner))
    led = hand.moves[0].move.tile in (spinner, spinner[::-1])
    return against + (0 if led else 1)
