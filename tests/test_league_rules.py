"""The league's own rules, each refusal named: points schemes, card formats, fixtures,
line-ups, paper scores, confirmations, and season archives that are not one or that
disagree with themselves."""

import copy
import json

import pytest
from league_helpers import THREE_ONE, TWO_PLUS_GAMES, setup, won_at_once

from scorekeeper.league import (
    AWAY,
    HOME,
    ArchiveError,
    Card,
    CardError,
    GameFormat,
    LeagueSetup,
    PointsScheme,
    Season,
    SeasonFixture,
    SetupRefused,
    check_fixture,
    double_round_robin,
    outcome,
    read_archive,
    write_archive,
)
from scorekeeper.league.season.archive import ARCHIVED

TO_250 = GameFormat(250, 7)
ROSTERS = {HOME: ["Ann", "Amy", "Abe"], AWAY: ["Bob", "Ben", "Bea"]}


@pytest.mark.parametrize("per_game, win, draw, kind", [
    (-1, 2, 1, "negative_points"),
    (1, -2, 0, "negative_points"),
    (1, 2, -1, "negative_points"),
    (0, 0, 0, "no_points"),
    (1, 1, 2, "draw_above_win"),
    (1, 101, 0, "too_many_points"),
    ("1", 2, 1, "points_not_number"),
    (1.5, 2, 1, "points_not_number"),
])
def test_a_points_scheme_that_makes_no_sense_is_refused(per_game, win, draw, kind):
    with pytest.raises(SetupRefused) as refused:
        PointsScheme.create(per_game, win, draw)
    assert refused.value.kind == kind
    assert refused.value.template  # worded through the catalogue


@pytest.mark.parametrize("tie_breaks, kind", [
    (["coin_toss"], "unknown_tie_break"),
    (["games_won", "games_won"], "repeated_tie_break"),
])
def test_tie_breaks_must_be_known_and_each_used_once(tie_breaks, kind):
    with pytest.raises(SetupRefused) as refused:
        PointsScheme.create(1, 2, 1, tie_breaks)
    assert refused.value.kind == kind


def test_the_presets_are_the_two_real_schemes():
    assert (TWO_PLUS_GAMES.card_points(4, 2), TWO_PLUS_GAMES.card_points(2, 4)) == (6, 2)
    assert TWO_PLUS_GAMES.card_points(3, 3) == 1 + 3
    assert (THREE_ONE.card_points(4, 2), THREE_ONE.card_points(3, 3),
            THREE_ONE.card_points(2, 4)) == (3, 1, 0)


@pytest.mark.parametrize("games, kind", [
    ("", "bad_game_count"), ("S" * 22, "bad_game_count"), ("SSX", "bad_game_letter")])
def test_a_card_format_is_singles_and_pairs_games_in_order(games, kind):
    with pytest.raises(SetupRefused) as refused:
        setup(games)
    assert refused.value.kind == kind


def test_a_card_format_is_read_in_its_order():
    assert setup("s s p").games == ("singles", "singles", "pairs")


@pytest.mark.parametrize("changes, kind", [
    ({"target": 3}, "bad_game_setup"),
    ({"pairs_hand": 8}, "bad_game_setup"),
    ({"name": " "}, "empty_name"),
    ({"season": ""}, "empty_name"),
])
def test_a_league_whose_games_cannot_be_played_is_refused(changes, kind):
    fields = {"name": "Fives League", "season": "2026", "games": "SP", "points": THREE_ONE,
              **changes}
    with pytest.raises(SetupRefused) as refused:
        LeagueSetup.create(**fields)
    assert refused.value.kind == kind


def test_a_team_cannot_be_drawn_against_itself():
    with pytest.raises(SetupRefused, match="cannot play itself"):
        check_fixture(3, 3)


@pytest.mark.parametrize("teams", [2, 3, 4, 5, 6])
def test_a_double_round_robin_meets_every_pair_once_at_each_pub(teams):
    fixtures = [pair for round_ in double_round_robin(list(range(teams))) for pair in round_]
    assert sorted(fixtures) == sorted((home, away) for home in range(teams)
                                      for away in range(teams) if home != away)
    homes = [sum(home == team for home, _ in fixtures) for team in range(teams)]
    assert homes == [teams - 1] * teams


def blank() -> Card:
    return Card.blank(("singles", "singles", "pairs"))


@pytest.mark.parametrize("number, home, away, kind", [
    (1, ["Ann"], ["Ann"], "not_on_roster"),
    (3, ["Ann", "Ann"], ["Bob", "Ben"], "twice_in_game"),
    (1, ["Ann"], [], "players_missing"),
    (3, ["Ann"], ["Bob"], "players_missing"),
    (1, ["Zed"], ["Bob"], "not_on_roster"),
    (4, ["Ann"], ["Bob"], "no_such_game"),
])
def test_a_line_up_the_league_does_not_allow_is_refused(number, home, away, kind):
    with pytest.raises(CardError) as refused:
        blank().with_players(number, home, away, ROSTERS)
    assert refused.value.kind == kind


def test_two_players_of_one_name_play_for_two_teams_but_never_meet_in_one_game():
    """Two Pats, one a team: each plays, but a table could not tell them apart."""
    rosters = {HOME: ["Ann", "Pat"], AWAY: ["Bob", "Pat"]}
    card = blank().with_players(1, ["Pat"], ["Bob"], rosters).with_players(2, ["Ann"], ["Pat"],
                                                                           rosters)
    assert (card.games[0].home, card.games[1].away) == (("Pat",), ("Pat",))
    with pytest.raises(CardError, match="Two players called Pat cannot meet in one game"):
        blank().with_players(1, ["Pat"], ["Pat"], rosters)


def test_a_player_plays_at_most_one_singles_and_one_pairs_game():
    card = blank().with_players(1, ["Ann"], ["Bob"], ROSTERS)
    card = card.with_players(3, ["Ann", "Amy"], ["Bob", "Ben"], ROSTERS)  # singles + pairs
    with pytest.raises(CardError, match="Ann already plays singles game 1"):
        card.with_players(2, ["Ann"], ["Bea"], ROSTERS)


def test_a_game_cannot_start_twice_nor_take_a_paper_score_while_scored():
    card = blank().with_players(1, ["Ann"], ["Bob"], ROSTERS).started(1, "m1")
    with pytest.raises(CardError, match="already being scored") as twice:
        card.started(1, "m2")
    assert twice.value.kind == "game_being_scored"
    with pytest.raises(CardError, match="already being scored"):
        card.with_entered(1, [(250, 100)], TO_250)
    with pytest.raises(CardError, match="has begun"):
        card.with_players(1, ["Amy"], ["Bob"], ROSTERS)


def test_a_game_needs_its_players_before_it_starts():
    with pytest.raises(CardError, match="Pick the players of game 2 first"):
        blank().started(2, "m1")


@pytest.mark.parametrize("home, away", [(250, 250), (200, 100), (300, 260), (-5, 250),
                                        (True, 100)])
def test_a_paper_score_must_be_a_finished_game(home, away):
    card = blank().with_players(1, ["Ann"], ["Bob"], ROSTERS)
    with pytest.raises(CardError):
        card.with_entered(1, [(home, away)], TO_250)


def finished_card() -> Card:
    card = blank()
    for number, home, away in ((1, ["Ann"], ["Bob"]), (2, ["Amy"], ["Ben"]),
                               (3, ["Ann", "Amy"], ["Bob", "Ben"])):
        card = card.with_players(number, home, away, ROSTERS)
        card = card.with_entered(number, [(250, 120)], TO_250)
    return card


def test_a_card_is_confirmed_only_when_every_game_is_over_and_then_locked():
    card = blank().with_players(1, ["Ann"], ["Bob"], ROSTERS).started(1, "m1")
    with pytest.raises(CardError, match="Game 1 is not over yet"):
        card.with_confirmation(HOME, [outcome(game) for game in card.games])
    card = finished_card()
    outcomes = [outcome(game) for game in card.games]
    card = card.with_confirmation(HOME, outcomes)
    assert not card.signed
    with pytest.raises(CardError, match="the secretary, or both captains, can reopen"):
        card.cleared(1)
    assert card.with_confirmation(AWAY, outcomes).counts(outcomes)
    assert card.reopened().cleared(1).games[0].entered == ()


def test_only_home_or_away_confirm():
    card = finished_card()
    with pytest.raises(CardError, match="Only the two captains"):
        card.with_confirmation("secretary", [outcome(game) for game in card.games])


def season() -> Season:
    league = setup("SP", target=5)
    teams = {"Anchor": ["Ann", "Amy"], "Bell": ["Bob", "Ben"], "Crown": ["Cat", "Cy"]}
    card = Card.blank(league.games)
    rosters = {HOME: teams["Anchor"], AWAY: teams["Bell"]}
    card = card.with_players(1, ["Ann"], ["Bob"], rosters).with_entered(1, [(2, 5)],
                                                                   league.singles)
    card = card.with_players(2, ["Ann", "Amy"], ["Bob", "Ben"], rosters).started(2, ARCHIVED)
    game = card.game(2)
    fixture = SeasonFixture("Anchor", "Bell", "2026-11-30", card,
                            {2: (won_at_once(league.table(game.kind, game.players)),)},
                            [{"at": "2026-11-30T21:00:00Z", "kind": "reopened", "facts": {}}])
    fixture.card = card.with_confirmation(HOME, fixture.outcomes(league)).with_confirmation(
        AWAY, fixture.outcomes(league))
    later = SeasonFixture("Crown", "Anchor", "2026-12-07", Card.blank(league.games))
    return Season(league, teams, [fixture, later])


def test_an_archive_read_back_gives_the_same_season_and_standings():
    doc = write_archive(season())
    again = read_archive(json.loads(json.dumps(doc)))
    assert write_archive(again) == doc
    assert [row.as_dict() for row in again.standings()] == doc["standings"]
    assert [(row["team"], row["drawn"], row["points"]) for row in doc["standings"]] == [
        ("Anchor", 1, 2), ("Bell", 1, 2), ("Crown", 0, 0)]  # one game each: a drawn card
    assert doc["fixtures"][0]["card"]["games"][1]["record"]["format"] == "allfives-match/1"


def tampered(change) -> dict:
    doc = copy.deepcopy(write_archive(season()))
    change(doc)
    return doc


def _set(path, value):
    def change(doc):
        target = doc
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value
    return change


@pytest.mark.parametrize("doc, says", [
    (["not", "an", "object"], "not a league season archive"),
    ({"format": "allfives-match/1"}, "not a league season archive"),
    (tampered(lambda doc: doc.pop("teams")), "damaged"),
    (tampered(_set(["fixtures", 0, "date"], "tomorrow")), "damaged"),
    (tampered(_set(["standings", 0, "points"], 99)), "standings do not follow"),
    (tampered(_set(["fixtures", 0, "away"], "Anchor")), "cannot play itself"),
    (tampered(_set(["fixtures", 0, "home"], "Dolphin")), "names a team the archive"),
    (tampered(_set(["fixtures", 0, "card", "games", 0, "home"], ["Cat"])), "not on the team"),
    (tampered(_set(["fixtures", 0, "card", "games", 0, "score"], [5, 5])), "finished game"),
    (tampered(_set(["fixtures", 0, "card", "games", 1, "record", "players"],
                   ["Amy", "Bob", "Ann", "Ben"])), "another table"),
    (tampered(_set(["fixtures", 0, "card", "games", 1, "record", "hands"],
                   [{"starter": "Ann", "moves": ["6-6", "6-6"]}])), "game 2"),
    (tampered(_set(["teams", 1, "players"], ["Bob", "bob"])), "bob is twice in Bell"),
    (tampered(_set(["league", "points", "win"], -3)), "negative"),
    (tampered(_set(["fixtures", 1, "card", "games"], [])), "another format"),
])
def test_an_archive_that_is_not_one_or_disagrees_with_itself_is_refused(doc, says):
    with pytest.raises(ArchiveError, match=says):
        read_archive(doc)


@pytest.mark.parametrize("rules, kind", [("chess", "unknown_rules"), (None, "unknown_rules")])
def test_a_league_plays_only_a_rule_set_the_app_referees(rules, kind):
    with pytest.raises(SetupRefused) as refused:
        LeagueSetup.create("Fives League", "2026", "SP", THREE_ONE, rules=rules)
    assert refused.value.kind == kind


def test_a_league_takes_its_rule_sets_target_and_hand_sizes_unless_told():
    league = LeagueSetup.create("Threes League", "2026", "SP", THREE_ONE,
                                rules="fives-and-threes")
    assert (league.target, league.singles.hand, league.pairs.hand) == (61, 7, 5)
    table = league.table("pairs", ["Ann", "Bob", "Amy", "Ben"])
    assert table.rules.name == "fives-and-threes" and table.partnerships
    assert LeagueSetup.create("Fives League", "2026", "SP", THREE_ONE, target=150).target == 150


def test_a_paper_score_of_a_game_to_exactly_the_target_must_end_on_it():
    league = LeagueSetup.create("Threes League", "2026", "S", THREE_ONE,
                                rules="fives-and-threes")
    card = Card.blank(league.games).with_players(1, ["Ann"], ["Bob"], ROSTERS)
    exact = league.rule_set.exact_target
    assert card.with_entered(1, [(40, 61)], league.singles, exact).games[0].entered == (
        (40, 61),)
    with pytest.raises(CardError, match="ends on exactly 61"):
        card.with_entered(1, [(40, 62)], league.singles, exact)
