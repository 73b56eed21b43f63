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


# -- Undo is exact: popping k events gives the match built from the first n - k -------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from scorekeeper.rules import RULE_SETS  # noqa: E402
from scorekeeper.rules.match.record import write_record  # noqa: E402

GREED = {"all-fives-spinner": 0.8, "ola-5": 0.8}
"""Players who lay their best scoring tile: a spinner game then reaches its target."""


def state(match: Match):
    """Everything a screen, a record or a later undo reads off a match."""
    hands = [(hand.number, hand.starter, hand.announced, hand.turn, hand.layout,
              sorted(hand.laid), hand.held, hand.boneyard, hand.passes, hand.moves,
              hand.outcome, hand.settled, hand.remaining, hand.points, hand.end)
             for hand in match.hands]
    return (match.log, match.scores, match.winner, match.phase, match.turn, hands,
            match.placements(), match.can_draw, match.can_pass, match.needed_remaining(),
            match._marks, write_record(match))


@st.composite
def played(draw) -> tuple[Table, list]:
    """A random match of any rule set (partnerships, house targets and hand sizes, house
    rules, knocks, busts, blocked hands, spinners) played from real tiles, and its log."""
    rules = draw(st.sampled_from(RULE_SETS), label="rules")
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    rng = random.Random(seed)
    table = random_table(rng, rules, house=draw(st.booleans(), label="house"))
    match = Match(table)
    sim = RandomTable(match, rng, GREED.get(rules.name, 0.3))
    for _ in range(draw(st.integers(1, 400), label="events")):
        if match.is_over():
            break
        sim.step()
    return table, list(match.log)


@settings(max_examples=120, deadline=None)
@given(played())
def test_popping_k_events_gives_the_match_built_from_the_first_n_minus_k(game):
    """For every k, in every rule set, on a match built as the app builds it (a log
    replayed at speed) and on a copy of it (as the cache hands them out)."""
    table, log = game
    built = Match(table, log)
    kept = built.copy()
    for k in range(1, len(log) + 1):
        built.pop()
        assert state(built) == state(Match(table, log[:-k])), k
    assert state(kept) == state(Match(table, log))  # the copy was never touched


@settings(max_examples=60, deadline=None)
@given(played(), st.integers(1, 40))
def test_undo_then_the_same_taps_gives_back_the_same_record(game, k):
    """Undo k events and enter them again, one by one as taps are: byte for byte the same."""
    table, log = game
    match = Match(table, log)
    k = min(k, len(log))
    taken = [match.pop() for _ in range(k)][::-1]
    for event in taken:
        match.push(event)
    assert write_record(match) == write_record(Match(table, log))
    assert state(match) == state(Match(table, log))


REPORTED = ('{"format": "allfives-match/1", "rules": "fives-and-threes", "players": '
            '["Alan Birch", "Uma Vale"], "target": 61, "hand_size": 9, "hands": [{"starter": '
            '"Alan Birch", "moves": ["1-2", "2-4@R", "4-5@R", "0-5@R", "1-6@L", "6-6@L", '
            '"4-6@L", "0-2@R", "1-4@L", "1-3@L", "2-2@R", "0-3@L", "0-0@L", "0-4@L", "pass", '
            '"4-4@L", "pass", "3-4@L"]}, {"moves": ["4-5", "3-4@L", "0-3@L", "5-6@R", '
            '"0-4@L", "2-6@R", "2-5@R", "3-5@R", "3-3@R", "1-3@R", "2-4@L", "2-2@L", "pass", '
            '"1-6@R", "4-6@R", "pass", "pass"]}, {"moves": ["2-5", "2-4@L", "5-6@R"]}]}')
"""The record of issue 24's report."""


def test_the_blocked_fives_and_threes_hand_of_the_undo_report_undoes_exactly():
    """The record of the report (issue 24): one Undo after a hand the engine opened by
    itself showed 16-25 and 'Alan Birch led 2-4' where the rebuilt match says 14-28."""
    from scorekeeper.services.records import replay

    match = replay(REPORTED).match
    log = list(match.log)
    match.pop()
    assert match.scores == Match(match.table, log[:-1]).scores == [14, 28]
    lead, second = match.hands[-1].moves
    assert (lead.seat, lead.move.tile, second.seat) == (0, (2, 5), 1)  # Uma Vale laid 2-4
    while match.log:
        match.pop()
        assert state(match) == state(Match(match.table, match.log))


# -- One Undo is one step of the buttons: a record's `draw 3` is taken back a tile at a time --

from scorekeeper.rules import Draw  # noqa: E402
from scorekeeper.rules.notation.events import UNDO  # noqa: E402
from scorekeeper.storage import apply_entries  # noqa: E402


def tapped(match: Match):
    """What a table sees and the buttons change, whatever the log's grouping of draws."""
    hands = [(hand.number, hand.starter, hand.turn, hand.layout, sorted(hand.laid), hand.held,
              hand.boneyard, hand.passes, hand.outcome, hand.settled, hand.remaining,
              hand.points, hand.end) for hand in match.hands]
    return (match.scores, match.winner, match.phase, match.turn, hands, match.placements(),
            match.can_draw, match.can_pass, match.needed_remaining())


def tile_by_tile(log: list) -> list:
    """The log as the buttons make it: one Draw tap a tile."""
    return [Draw(1) if isinstance(event, Draw) else event for event in log
            for _tile in range(event.count if isinstance(event, Draw) else 1)]


def drawn_together(log: list) -> list:
    """The log as a record may write it: a player's draws in a row as one `draw N`."""
    merged = []
    for event in log:
        if isinstance(event, Draw) and merged and isinstance(merged[-1], Draw):
            merged[-1] = Draw(merged[-1].count + event.count)
        else:
            merged.append(event)
    return merged


def test_one_undo_of_a_draw_of_three_takes_one_tile_back_and_says_so_in_two_entries():
    match = Match(Table.create(["Ann", "Bob"], hand_size=3))
    match.start(0)
    match.lay((2, 3))
    match.draw(3)
    assert match.undo() == (UNDO, Draw(2))
    assert match.hand.held == [2, 5] and match.log[-1] == Draw(2)
    assert match.undo() == (UNDO, Draw(1))
    assert match.undo() == (UNDO,)
    assert match.hand.held == [2, 3] and match.log[-1].tile == (2, 3)


@settings(max_examples=80, deadline=None)
@given(played())
def test_undo_taps_take_back_exactly_the_draw_buttons_taps_whatever_the_records_grouping(game):
    """A match whose draws a record grouped (`draw 3`) is undone tap by tap through the very
    states the Draw button went through one tile at a time; and the entries each undo
    writes, replayed as the store replays them, give the same match."""
    table, log = game
    taps = tile_by_tile(log)
    grouped = Match(table, drawn_together(log))
    for undone in range(1, len(taps) + 1):
        before = grouped.copy()
        written = grouped.undo()
        assert tapped(grouped) == tapped(Match(table, taps[:-undone])), undone
        assert grouped.log == drawn_together(taps[:-undone])
        apply_entries(before, list(written))
        assert tapped(before) == tapped(grouped) and before.log == grouped.log
