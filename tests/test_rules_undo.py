"""Undo is a stack: popping the last event replays only the last hand, never the match."""

import random

import pytest
from simulation import RandomTable, random_table

from scorekeeper.rules import ALL_FIVES, FIVES_AND_THREES, Match, Table


def long_match(rules, seed: int) -> Match:
    rng = random.Random(seed)
    table = random_table(rng, rules)
    match = Match(Table.create(table.players, table.partnerships, 10_000, table.hand_size,
                               rules))
    sim = RandomTable(match, rng)
    while len(match.hands) < 12:
        sim.step()
    return match


@pytest.mark.parametrize("rules", [ALL_FIVES, FIVES_AND_THREES], ids=lambda rules: rules.name)
def test_undo_replays_at_most_the_last_two_hands_and_leaves_the_match_as_rebuilt(
        rules, monkeypatch):
    match = long_match(rules, seed=3)
    pushed = []
    original = Match.push
    monkeypatch.setattr(Match, "push", lambda self, event: pushed.append(event)
                        or original(self, event))
    while len(match.log) > 1:
        before = len(pushed)
        match.pop()
        last_two = sum(len(hand.moves) + 2 for hand in match.hands[-2:])
        assert len(pushed) - before <= last_two
        rebuilt = Match(match.table, match.log)
        assert (rebuilt.scores, rebuilt.winner, rebuilt.phase, rebuilt.turn) == (
            match.scores, match.winner, match.phase, match.turn)
        assert [hand.moves for hand in rebuilt.hands] == [hand.moves for hand in match.hands]
