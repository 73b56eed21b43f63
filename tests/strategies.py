"""Hypothesis strategies the property tests share: random matches of every rule set, played
from real tiles (partnerships, house targets and hand sizes, knocks, busts, spinners)."""

import random

from hypothesis import strategies as st
from simulation import RandomTable, random_table

from scorekeeper.rules import RULE_SETS, Match

GREED = {"all-fives-spinner": 0.8, "ola-5": 0.8}
"""Players who lay their best scoring tile: a spinner game then reaches its target."""


@st.composite
def matches(draw, most: int = 300) -> Match:
    """A random match of any rule set, stopped after up to `most` events."""
    rules = draw(st.sampled_from(RULE_SETS), label="rules")
    rng = random.Random(draw(st.integers(0, 2**32 - 1), label="seed"))
    match = Match(random_table(rng, rules))
    sim = RandomTable(match, rng, GREED.get(rules.name, 0.3))
    for _ in range(draw(st.integers(1, most), label="events")):
        if match.is_over():
            break
        sim.step()
    return match
