"""Random leagues with random results (losing bonuses, best-of-3 pairs, walkovers, games
given unplayed): the standings never depend on the order results arrive, their sums agree
with each other, and an archive restores the same standings."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.league import (
    AWAY,
    HOME,
    PRESETS,
    Card,
    LeagueSetup,
    PointsScheme,
    Season,
    SeasonFixture,
    double_round_robin,
    read_archive,
    standings,
    write_archive,
)

TARGET = 25
NAMES = ["Anchor", "Bell", "Crown", "Dolphin", "Eagle"]


def _line_up(kind: str, number: int, roster: list[str]) -> list[str]:
    """Singles game n takes the n-th player; pairs game n the n-th pair: never twice."""
    return [roster[number]] if kind == "singles" else roster[2 * number:2 * number + 2]


@st.composite
def seasons(draw) -> Season:
    teams = NAMES[:draw(st.integers(2, 5))]
    games = draw(st.text("SP", min_size=1, max_size=4))
    bonus = draw(st.integers(0, 1))
    points = draw(st.sampled_from([*PRESETS.values(), PointsScheme.create(
        draw(st.integers(0, 3)), draw(st.integers(2, 4)), draw(st.integers(0, 1)),
        draw(st.permutations(["game_difference", "games_won", "head_to_head"])),
        bonus=bonus, bonus_margin=draw(st.integers(1, 2)) if bonus else 0)]))
    walkover = draw(st.sampled_from([None, *[(won, len(games) - won)
                                             for won in range(len(games) // 2 + 1,
                                                              len(games) + 1)]]))
    setup = LeagueSetup.create("League", "2026", games, points, target=TARGET,
                               pairs_legs=draw(st.sampled_from([1, 3])), walkover=walkover)
    rosters = {team: [f"{team} {n}" for n in range(8)] for team in teams}
    fixtures = []
    for home, away in (pair for round_ in double_round_robin(teams) for pair in round_):
        fixtures.append(draw(_fixture(setup, home, away, rosters)))
    return Season(setup, rosters, fixtures)


@st.composite
def _fixture(draw, setup: LeagueSetup, home: str, away: str, rosters: dict) -> SeasonFixture:
    card = Card.blank(setup.games)
    if draw(st.integers(0, 9)) == 0:
        return SeasonFixture(home, away, "2026-12-01",
                             card.with_walkover(draw(st.sampled_from([HOME, AWAY]))))
    sides = {HOME: rosters[home], AWAY: rosters[away]}
    played = draw(st.booleans())
    counters = {"singles": 0, "pairs": 0}
    for game in card.games:
        index = counters[game.kind]
        counters[game.kind] += 1
        if played and draw(st.integers(0, 5)) == 0:
            card = card.with_awarded(game.number, draw(st.sampled_from([HOME, AWAY])))
            continue
        card = card.with_players(game.number, _line_up(game.kind, index, sides[HOME]),
                                 _line_up(game.kind, index, sides[AWAY]), sides)
        if played:
            card = card.with_entered(game.number, draw(_legs(setup.format_of(game.kind))),
                                     setup.format_of(game.kind))
    fixture = SeasonFixture(home, away, "2026-12-01", card)
    if played:
        for side in draw(st.sampled_from([(), (HOME,), (HOME, AWAY)])):
            fixture.card = fixture.card.with_confirmation(side, fixture.outcomes(setup))
    return fixture


@st.composite
def _legs(draw, played) -> list[tuple[int, int]]:
    """A finished game's paper legs: each a finished game, until a side has won most."""
    legs, won = [], [0, 0]
    while max(won) < played.legs_to_win:
        loser = draw(st.integers(0, TARGET - 1))
        winner = draw(st.integers(TARGET, TARGET + 30))
        home_won = draw(st.booleans())
        legs.append((winner, loser) if home_won else (loser, winner))
        won[not home_won] += 1
    return legs


def counted(season: Season) -> list:
    return [fixture.result for fixture in season.results() if fixture.result]


def rows(found) -> list[dict]:
    return [row.as_dict() for row in found]


@settings(max_examples=30, deadline=None)
@given(seasons(), st.randoms(use_true_random=False))
def test_the_standings_never_depend_on_the_order_results_arrive(season, shuffler):
    results = counted(season)
    shuffled = list(results)
    shuffler.shuffle(shuffled)
    teams = list(season.teams)
    random.Random(0).shuffle(teams)
    assert rows(standings(teams, shuffled, season.setup.points)) == rows(season.standings())


@settings(max_examples=30, deadline=None)
@given(seasons())
def test_the_sums_of_the_standings_agree(season):
    table = season.standings()
    results = counted(season)
    assert sum(row.played for row in table) == 2 * len(results)
    assert sum(row.won for row in table) == sum(row.lost for row in table)
    assert sum(row.drawn for row in table) % 2 == 0
    assert sum(row.games_for for row in table) == sum(row.games_against for row in table) \
        == sum(r.home_games + r.away_games for r in results)
    for row in table:
        assert row.played == row.won + row.drawn + row.lost
    scheme = season.setup.points
    assert sum(row.points for row in table) == sum(sum(r.points(scheme)) for r in results)
    for r in results:  # a walkover: nothing for the side that did not turn up
        if r.walkover:
            assert r.points(scheme)[r.walkover == HOME] == 0
    assert [row.position for row in table] == list(range(1, len(season.teams) + 1))


@settings(max_examples=25, deadline=None)
@given(seasons())
def test_an_exported_and_restored_season_has_the_same_standings(season):
    doc = json.loads(json.dumps(write_archive(season)))
    restored = read_archive(doc)
    assert rows(restored.standings()) == rows(season.standings()) == doc["standings"]
