"""A replay lays runs of plain moves at speed (`rules/hands/run.py`): exactly as the full rules
do."""

import json
import random

import pytest
from simulation import RandomTable, random_table

from scorekeeper.commands.told import summary, summary_json
from scorekeeper.rules import RULE_SETS, Match, Table
from scorekeeper.rules.match.record import read_record, write_record


def played(rng: random.Random, table: Table, most: int = 2000) -> Match:
    """A random match, every event pushed one by one through the full rules."""
    match = Match(table)
    sim = RandomTable(match, rng, greed=0.8)
    for _ in range(most):
        if match.is_over():
            break
        sim.step()
    return match


def state(match: Match) -> tuple:
    """Everything a match derives from its log, hand by hand."""
    return (match.log, match.scores, match.winner, [
        (hand.moves, hand.layout, hand.laid, hand.held, hand.turn, hand.boneyard, hand.passes,
         hand.outcome, hand.settled, hand.points, hand.end) for hand in match.hands])


@pytest.mark.parametrize("house", [False, True], ids=["as-written", "house-rules"])
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.name)
def test_a_match_rebuilt_from_its_log_is_the_match_the_table_played(rules, house):
    rng = random.Random(3)
    for _ in range(25):
        match = played(rng, random_table(rng, rules, house))
        assert state(Match(match.table, match.log)) == state(match)


@pytest.mark.parametrize("house", [False, True], ids=["as-written", "house-rules"])
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.name)
def test_a_record_reads_back_into_the_match_the_table_played(rules, house):
    rng = random.Random(4)
    for _ in range(25):
        match = played(rng, random_table(rng, rules, house))
        again = read_record(json.loads(json.dumps(write_record(match))), pending_pips=True)
        assert state(again) == state(match)


@pytest.mark.parametrize("names", [["Ann", "Bob"], ["Zoé", "Σοφία", "Ági", "Jiří"],
                                   ['Al "Ace"', "C\\D", "🎲 Dan"]])
def test_the_replay_json_line_is_the_summary_as_json_dumps_writes_it(names):
    rng = random.Random(len(names))
    for rules in RULE_SETS:
        table = Table.create(names, len(names) == 4 and rng.random() < 0.5, rules=rules)
        match = played(rng, table)
        doc = write_record(match)
        again = read_record(doc, pending_pips=True)
        assert summary_json(again, doc["hands"]) == json.dumps(summary(again, doc["hands"]),
                                                               ensure_ascii=False)
        assert summary_json(again) == json.dumps(summary(again), ensure_ascii=False)
