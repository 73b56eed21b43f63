"""The offer of buttons and the laying of a tile use one placement rule: pinned together."""

import random

import pytest
from simulation import RandomTable, random_table

from scorekeeper.rules import (
    ALL_FIVES,
    ALL_FIVES_SPINNER,
    ALL_TILES,
    FIVES_AND_THREES,
    OLA_5,
    Lay,
    Match,
    RuleError,
    tile_text,
)


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


def as_seen(ends) -> list:
    """Open ends as the table sees them, in any order: what tells two placements apart."""
    return sorted((end.value, end.double, end.branch, end.spinner) for end in ends)


def ends_to_try(match: Match) -> tuple:
    """Every end a move could name now: none for the lead; L and R, or each laid tile."""
    if not match.hand.moves:
        return (None,)
    if match.table.rules.spinners == "none":
        return ("L", "R")
    return tuple(sorted({tile_text(side.tile) for side in match.hand.ends}))


@pytest.mark.parametrize("rules", [ALL_FIVES, FIVES_AND_THREES, ALL_FIVES_SPINNER, OLA_5],
                         ids=lambda rules: rules.name)
def test_every_tile_offered_lays_as_offered_and_every_other_is_refused(rules):
    for match in states(rules, 300, seed=7):
        offered = {(placement.tile, placement.end): placement
                   for placement in match.placements()}
        for tile in ALL_TILES:
            for end in ends_to_try(match):
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
                else:  # fits two ends alike: offered once, on the first
                    assert (as_seen(played.ends), played.count, played.points) in [
                        (as_seen(placement.ends), placement.count, placement.points)
                        for (other, _), placement in offered.items() if other == tile]
