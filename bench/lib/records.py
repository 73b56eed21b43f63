"""Random full matches as record texts: what the engine and replay benchmarks read back."""

import json
import random

from .common import default_table

GREED = {"all-fives-spinner": 0.8, "ola-5": 0.8}
"""Players who lay their best scoring tile most of the time: random play in a game that
takes each player's own pips away hardly ever reaches the target."""


def generate(count: int, seed: int, rules) -> list[tuple[object, str]]:
    """(table, record JSON text) for `count` random full matches with the rule set's default
    setups, deterministic by seed; each record is checked to read back to the same score."""
    from simulation import play_match

    from scorekeeper.rules.match.record import load_record, read_record, write_record

    rng = random.Random(seed)
    records = []
    for _ in range(count):
        table = default_table(rng, rules)
        match = play_match(rng, table, greed=GREED.get(rules.name, 0.0))
        text = json.dumps(write_record(match))
        again = read_record(load_record(text))  # a record that does not read back is a bug
        if again.scores != match.scores or again.winner != match.winner:
            raise SystemExit("a generated record does not replay to the same score")
        records.append((table, text))
    return records
