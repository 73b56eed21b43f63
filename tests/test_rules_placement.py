"""The offer of buttons and the laying of a tile use one placement rule: pinned together."""

import random

import pytest

from scorekeeper.rules import ALL_FIVES, ALL_TILES, FIVES_AND_THREES, Lay, Match, RuleError
from scorekeeper.simulation import RandomTable, random_table


def states(rules, count: int, seed: int):
    """Matches in random states where a tile may be laid now."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        match = Match(random_table(rng, rules))
        sim = RandomTable(match, rng)
        while not match.is_over() and found < count:
            if match.phase in ("lead", "play"):
                found += 1
                yield match
            sim.step()


@pytest.mark.parametrize("rules", [ALL_FIVES, FIVES_AND_THREES], ids=lambda rules: rules.name)
def test_every_tile_offered_lays_as_offered_and_every_other_is_refused(rules):
    for match in states(rules, 300, seed=7):
        offered = {(placement.tile, placement.end): placement
                   for placement in match.placements()}
        for tile in ALL_TILES:
            for end in ((None,) if not match.hand.moves else ("L", "R")):
                laid = match.copy()
                try:
                    event = laid.push(Lay(tile, end))
                except RuleError:
                    assert (tile, end) not in offered
                    continue
                played = laid.hands[match.hand.number - 1].moves[-1]
                assert event.end == end
                if (tile, end) in offered:
                    placement = offered[tile, end]
                    assert (played.ends, played.count, played.points) == (
                        placement.ends, placement.count, placement.points)
                else:  # fits both ends alike: offered once, on the left
                    placement = offered[tile, "L"]
                    assert (sorted(played.ends), played.count, played.points) == (
                        sorted(placement.ends), placement.count, placement.points)
