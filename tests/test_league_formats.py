"""The league's rules for the formats real leagues play (issue 26), pure: points as rule sheets
write them, best-of legs, games given unplayed, walkovers, blind and drawn line-ups, squads,
divisions and play-offs, each hand-computed; and an archive that carries all of it."""

import json
import random
from dataclasses import replace

import pytest
from league_helpers import won_at_once

from scorekeeper.league import (
    AWAY,
    HOME,
    Card,
    CardError,
    CardResult,
    GameFormat,
    GameResult,
    LeagueSetup,
    PointsScheme,
    Season,
    SeasonFixture,
    SetupRefused,
    outcome,
    read_archive,
    standings,
    with_line_up,
    write_archive,
)
from scorekeeper.league.cards.card_edits import renamed, swapped
from scorekeeper.league.cards.lineups import check_kept_line_up
from scorekeeper.league.terms.formats import FORMATS
from scorekeeper.league.terms.points import PRESETS, close_defeats
from scorekeeper.league.terms.teams import check_squad, read_team_lines

SOLIHULL = PRESETS["three_close_loss"]
LEEK = PRESETS["two_plus_games"]
BEST_OF_3 = GameFormat(61, 6, 3)
ROSTERS = {HOME: ["Ann", "Amy", "Abe", "Al"], AWAY: ["Bob", "Ben", "Bea", "Bo"]}


def result(home: str, away: str, home_games: int, away_games: int, **extra) -> CardResult:
    games = [GameResult("singles", ("h",), ("a",), 61, 0)] * home_games + \
        [GameResult("singles", ("h",), ("a",), 0, 61)] * away_games
    return CardResult(home, away, tuple(games), **extra)


# -- points ------------------------------------------------------------------------

def test_solihull_three_for_a_win_and_one_for_losing_5_4_only():
    assert SOLIHULL.card_points(5, 4) == 3
    assert SOLIHULL.card_points(4, 5) == 1  # the losing bonus
    assert SOLIHULL.card_points(3, 6) == 0  # "all other losses will not score any points"
    assert SOLIHULL.terms(9) == [("win", 3, {}), ("bonus", 1, {"scores": [(4, 5)],
                                                                 "margin": 1})]


def test_a_draw_is_said_only_where_a_card_can_be_drawn():
    assert [what for what, _, _ in LEEK.terms(9)] == ["win", "per_game"]
    assert [what for what, _, _ in LEEK.terms(10)] == ["win", "draw", "per_game"]


def test_the_close_defeats_of_a_card_closest_first():
    assert close_defeats(9, 1) == [(4, 5)]
    assert close_defeats(9, 3) == [(4, 5), (3, 6)]
    assert close_defeats(10, 2) == [(4, 6)]  # 5–5 is a draw, not a defeat


def test_a_loss_may_earn_points_of_its_own_but_never_as_many_as_a_win():
    scheme = PointsScheme.create(0, 3, 2, loss=1)
    assert (scheme.card_points(2, 7), scheme.card_points(7, 2)) == (1, 3)
    with pytest.raises(SetupRefused) as refused:
        PointsScheme.create(0, 2, 1, loss=1, bonus=1, bonus_margin=1)
    assert refused.value.kind == "loss_above_win"


@pytest.mark.parametrize("changes, kind", [
    ({"bonus": 1}, "bonus_half_given"),
    ({"bonus_margin": 1}, "bonus_half_given"),
    ({"bonus": 1, "bonus_margin": 30}, "bad_bonus_margin"),
    ({"loss": -1}, "negative_points"),
])
def test_a_losing_bonus_needs_its_points_and_its_margin(changes, kind):
    with pytest.raises(SetupRefused) as refused:
        PointsScheme.create(0, 3, 1, **changes)
    assert refused.value.kind == kind


def test_a_scheme_is_stored_as_before_unless_it_uses_the_new_terms():
    assert LEEK.as_dict() == {"per_game": 1, "win": 2, "draw": 1, "tie_breaks": [
        "game_difference", "games_won", "head_to_head"]}
    assert PointsScheme.from_dict(SOLIHULL.as_dict()) == SOLIHULL


# -- setup -------------------------------------------------------------------------

def test_each_game_type_has_its_own_target_hand_size_and_legs():
    setup = FORMATS["leek"].setup("Leek", "2025–26")
    assert (setup.singles.target, setup.singles.hand, setup.pairs.target, setup.pairs.hand) \
        == (61, 9, 121, 6)
    table = setup.table("pairs", ["Ann", "Bob", "Amy", "Ben"])
    assert (table.target, table.hand_size, table.house.last_tile_point,
            table.house.win_on_the_down) == (121, 6, False, False)
    assert LeagueSetup.from_dict(setup.as_dict()) == setup


def test_a_league_set_up_before_these_options_reads_and_writes_as_it_was():
    old = {"name": "Fives League", "season": "2026", "games": "SP", "points": LEEK.as_dict(),
           "rules": "all-fives", "target": 250, "singles_hand": 7, "pairs_hand": 5}
    setup = LeagueSetup.from_dict(old)
    assert setup.as_dict() == old and setup.pairs.target == 250 and setup.walkover is None


@pytest.mark.parametrize("changes, kind", [
    ({"pairs_legs": 2}, "bad_legs"),
    ({"singles_legs": 9}, "bad_legs"),
    ({"walkover": (4, 5)}, "bad_walkover"),
    ({"walkover": (9, 4)}, "bad_walkover"),
    ({"line_ups": "secret"}, "bad_line_ups"),
    ({"squad": 5}, "bad_squad"),  # a card of 6 singles needs 6 players
    ({"divisions": ("A",)}, "one_division"),
    ({"divisions": ("A", "a")}, "duplicate_division"),
    ({"house": {"last_tile_point": False}}, "bad_house_rules"),  # All Fives has no such point
    ({"pairs_target": 3}, "bad_game_setup"),
])
def test_a_season_rule_that_makes_no_sense_is_refused(changes, kind):
    with pytest.raises(SetupRefused) as refused:
        LeagueSetup.create("League", "2026", "SSSSSSPPP", LEEK, **changes)
    assert refused.value.kind == kind


def test_teams_are_written_under_their_divisions():
    assert read_team_lines(["A:", "Anchor", "Bell", "", "B:", "Crown"]) == (
        ("A", "B"), [("Anchor", "A"), ("Bell", "A"), ("Crown", "B")])
    assert read_team_lines(["Anchor", "Bell"]) == ((), [("Anchor", ""), ("Bell", "")])
    with pytest.raises(SetupRefused, match="Anchor comes before the first division"):
        read_team_lines(["Anchor", "A:", "Bell"])


def test_a_squad_holds_at_most_the_leagues_limit():
    setup = FORMATS["guisborough"].setup("Guisborough", "2025–26")
    check_squad(setup, "Anchor", [f"P{n}" for n in range(12)])
    with pytest.raises(SetupRefused, match="Anchor's squad is full: a team registers at most "
                                           "12 players a season"):
        check_squad(setup, "Anchor", [f"P{n}" for n in range(13)])


# -- best-of legs ------------------------------------------------------------------

def pairs_card(number: int = 1) -> Card:
    return Card.blank(("pairs",) * 3).with_players(number, ["Ann", "Amy"], ["Bob", "Ben"],
                                                   ROSTERS)


def test_a_best_of_3_goes_to_the_side_that_wins_two_legs():
    game = pairs_card().started(1, "leg1").game(1)
    home_won, away_won = ((61, 20), 0), ((30, 61), 1)
    assert outcome(game, [home_won], BEST_OF_3).next_leg
    between = outcome(game, [home_won, away_won], BEST_OF_3)
    assert (between.state, between.legs, between.next_leg) == ("playing", (1, 1), True)
    done = outcome(game, [home_won, away_won, home_won], BEST_OF_3)
    assert (done.state, done.legs, done.winner) == ("scored", (2, 1), HOME)
    assert (done.home_points, done.away_points) == (61 + 30 + 61, 20 + 61 + 20)
    playing = outcome(game, [home_won, ((10, 4), None)], BEST_OF_3)
    assert (playing.state, playing.next_leg) == ("playing", False)


def test_a_leg_starts_only_once_the_last_is_over_and_the_game_undecided():
    card = pairs_card().started(1, "leg1")
    with pytest.raises(CardError, match="no leg to start now"):
        card.with_next_leg(1, "leg2", outcome(card.game(1), [((3, 4), None)], BEST_OF_3))
    decided = outcome(card.game(1), [((61, 0), 0), ((61, 0), 0)], BEST_OF_3)
    with pytest.raises(CardError, match="no leg to start now"):
        card.with_next_leg(1, "leg3", decided)
    nxt = card.with_next_leg(1, "leg2", outcome(card.game(1), [((61, 0), 0)], BEST_OF_3))
    assert nxt.game(1).matches == ("leg1", "leg2")
    assert Card.from_dict(json.loads(json.dumps(nxt.as_dict()))) == nxt


@pytest.mark.parametrize("legs, says", [
    ([(61, 0)], "Nobody has won 2 of the 3 legs yet"),
    ([(61, 0), (61, 5), (0, 61)], "decided before leg 3"),
    ([(61, 0), (62, 5)], "ends on exactly 61"),
])
def test_paper_legs_must_make_a_finished_best_of(legs, says):
    with pytest.raises(CardError, match=says):
        pairs_card().with_entered(1, legs, BEST_OF_3, exact=True)


def test_paper_legs_give_the_legs_won():
    card = pairs_card().with_entered(1, [(61, 10), (40, 61), (61, 59)], BEST_OF_3, exact=True)
    found = outcome(card.game(1), (), BEST_OF_3)
    assert (found.state, found.legs, found.winner) == ("entered", (2, 1), HOME)


# -- games given unplayed and walkovers --------------------------------------------

def test_a_game_given_unplayed_names_nobody_and_goes_to_its_side():
    card = pairs_card().with_awarded(1, HOME)
    game = card.game(1)
    assert (game.home, game.away, game.awarded) == ((), (), HOME)
    found = outcome(game)
    assert (found.state, found.over, found.winner) == ("awarded", True, HOME)
    with pytest.raises(CardError, match="given to a side unplayed"):
        card.started(1, "m1")
    assert Card.from_dict(card.as_dict()) == card


def test_a_walkover_is_refused_once_a_game_has_begun_and_counts_without_signatures():
    with pytest.raises(CardError, match="Game 1 has begun"):
        pairs_card().started(1, "m1").with_walkover(AWAY)
    card = pairs_card().with_walkover(AWAY)
    assert card.counts([]) and card.game(1).home == ()
    with pytest.raises(CardError, match="walkover"):
        card.with_players(2, ["Ann", "Amy"], ["Bob", "Ben"], ROSTERS)
    assert card.without_walkover() == Card.blank(("pairs",) * 3)


def test_leek_a_no_show_is_a_5_4_walkover_worth_7_to_the_team_that_came():
    """Leek: "the opposition claims the match, 2 points for the win and the match 5-4 (total
    points 7)"; the team that did not turn up earns nothing."""
    walkover = CardResult("Anchor", "Bell", (), HOME, (5, 4))
    rows = {row.team: row for row in standings(["Anchor", "Bell"], [walkover], LEEK)}
    assert (rows["Anchor"].points, rows["Anchor"].games_for, rows["Anchor"].won) == (7, 5, 1)
    assert (rows["Bell"].points, rows["Bell"].games_for, rows["Bell"].lost) == (0, 4, 1)


def test_a_walkover_to_the_away_side_and_the_losing_bonus_it_does_not_earn():
    walkover = CardResult("Anchor", "Bell", (), AWAY, (5, 4))
    assert (walkover.home_games, walkover.away_games) == (4, 5)
    assert walkover.points(SOLIHULL) == (0, 3)  # no bonus for a 4–5 no-show


# -- line-ups handed in blind ------------------------------------------------------

def blind(line_ups: str, games: str = "SSP") -> LeagueSetup:
    return LeagueSetup.create("League", "2026", games, LEEK, line_ups=line_ups)


def test_a_blind_line_up_stays_hidden_until_both_are_in():
    setup = blind("blind")
    card = Card.blank(setup.games)
    home = [["Ann"], ["Amy"], ["Ann", "Abe"]]
    card = with_line_up(card, setup, HOME, home, ROSTERS, random.Random(1))
    assert [game.home for game in card.games] == [(), (), ()]
    assert dict(card.line_ups)[HOME] == (("Ann",), ("Amy",), ("Ann", "Abe"))
    card = with_line_up(card, setup, AWAY, [["Bob"], ["Ben"], ["Bea", "Bo"]], ROSTERS,
                        random.Random(1))
    assert card.line_ups == ()
    assert [(game.home, game.away) for game in card.games] == [
        (("Ann",), ("Bob",)), (("Amy",), ("Ben",)), (("Ann", "Abe"), ("Bea", "Bo"))]


def test_a_game_given_unplayed_before_the_line_ups_leaves_them_blind():
    setup = blind("blind")
    card = Card.blank(setup.games).with_awarded(2, AWAY)
    card = with_line_up(card, setup, HOME, [["Ann"], [], ["Amy", "Abe"]], ROSTERS,
                        random.Random(1))
    card = with_line_up(card, setup, AWAY, [["Bob"], [], ["Ben", "Bea"]], ROSTERS,
                        random.Random(1))
    assert [(game.home, game.away, game.awarded) for game in card.games] == [
        (("Ann",), ("Bob",), None), ((), (), AWAY), (("Amy", "Abe"), ("Ben", "Bea"), None)]


@pytest.mark.parametrize("line_up, says", [
    ([["Ann"], ["Ann"], ["Amy", "Abe"]], "Ann already plays singles game 1"),
    ([["Ann"], ["Amy"], ["Abe", "Abe"]], "Abe cannot play twice in one game"),
    ([["Ann"], ["Zed"], ["Amy", "Abe"]], "Zed is not on the team's roster"),
    ([["Ann"], ["Amy"]], "every game of the card"),
])
def test_a_blind_line_up_follows_the_cards_rules(line_up, says):
    setup = blind("blind")
    with pytest.raises(CardError, match=says):
        with_line_up(Card.blank(setup.games), setup, HOME, line_up, ROSTERS, random.Random(1))


def test_drawn_line_ups_deal_each_teams_night_into_the_games_by_lot():
    """Guisborough: three pairs drawn from the six players each team selected."""
    setup = blind("drawn", "PPP")
    rosters = {HOME: [f"A{n}" for n in range(8)], AWAY: [f"B{n}" for n in range(8)]}
    card = with_line_up(Card.blank(setup.games), setup, HOME, rosters[HOME][:6], rosters,
                        random.Random(7))
    card = with_line_up(card, setup, AWAY, rosters[AWAY][2:], rosters, random.Random(7))
    homes = [name for game in card.games for name in game.home]
    aways = [name for game in card.games for name in game.away]
    assert sorted(homes) == rosters[HOME][:6] and sorted(aways) == rosters[AWAY][2:]
    with pytest.raises(CardError, match="Name from 1 to 6 different players"):
        with_line_up(Card.blank(setup.games), setup, HOME, rosters[HOME][:7], rosters,
                     random.Random(7))


def test_a_short_handed_team_names_fewer_and_concedes_the_games_it_cannot_fill():
    """Five of Guisborough's six: two pairs dealt, the last pairs game to the other team;
    the fifth player stays in the line-up, to come in later."""
    setup = blind("drawn", "PPP")
    rosters = {HOME: [f"A{n}" for n in range(8)], AWAY: [f"B{n}" for n in range(8)]}
    card = with_line_up(Card.blank(setup.games), setup, HOME, rosters[HOME][:5] + [""],
                        rosters, random.Random(7))
    card = with_line_up(card, setup, AWAY, rosters[AWAY][:6], rosters, random.Random(7))
    assert [game.awarded for game in card.games] == [None, None, AWAY]
    assert dict(card.selections)[HOME] == tuple(rosters[HOME][:5])
    blind_card = Card.blank(blind("blind").games)
    blind_card = with_line_up(blind_card, blind("blind"), HOME, [["Ann"], [""], ["Amy", "Abe"]],
                              ROSTERS, random.Random(1))
    blind_card = with_line_up(blind_card, blind("blind"), AWAY, [["Bob"], [""], ["Ben", "Bea"]],
                              ROSTERS, random.Random(1))
    assert [game.awarded for game in blind_card.games] == [None, None, None]
    assert blind_card.games[1].home == () and dict(blind_card.selections)[HOME] == (
        "Abe", "Amy", "Ann")  # neither could field game 2: the captains decide
    with pytest.raises(CardError, match="one game at least"):
        with_line_up(Card.blank(setup.games), blind("blind"), HOME, [[""], [""], ["", ""]],
                     ROSTERS, random.Random(1))


def shown(line_ups: str = "blind") -> Card:
    setup = blind(line_ups)
    card = with_line_up(Card.blank(setup.games), setup, HOME,
                        [["Ann"], ["Amy"], ["Ann", "Abe"]], ROSTERS, random.Random(1))
    return with_line_up(card, setup, AWAY, [["Bob"], ["Ben"], ["Bob", "Bea"]], ROSTERS,
                        random.Random(1))


@pytest.mark.parametrize("side, home, away, says", [
    (HOME, ["Ann"], ["Ben"], "the other team's players are theirs to change"),
    (HOME, ["Al"], ["Bob"], "Al is not in the line-up your team handed in"),
    (AWAY, ["Ann"], ["Bo"], "Bo is not in the line-up your team handed in"),
])
def test_after_the_reveal_a_captain_changes_only_their_own_players_from_their_line_up(
        side, home, away, says):
    with pytest.raises(CardError, match=says):
        check_kept_line_up(blind("blind"), shown(), 1, side, home, away)


def test_after_the_reveal_a_captain_swaps_in_their_own_and_the_secretary_overrides():
    card = shown()
    check_kept_line_up(blind("blind"), card, 1, HOME, ["Abe"], ["Bob"])
    check_kept_line_up(blind("blind"), card, 1, None, ["Al"], ["Bo"])  # the secretary
    assert dict(swapped(card).selections)[AWAY] == ("Abe", "Amy", "Ann")
    assert dict(renamed(card, HOME, "Abe", "Abel").selections)[HOME] == ("Abel", "Amy", "Ann")
    assert Card.from_dict(json.loads(json.dumps(card.as_dict()))) == card


# -- play-offs and divisions -------------------------------------------------------

TEESDALE = PointsScheme.create(1, 2, 1, ("play_off", "game_difference"))


def test_a_tie_on_points_at_the_end_of_the_season_is_due_a_play_off():
    season = [result("Anchor", "Bell", 5, 4), result("Bell", "Anchor", 5, 4)]
    rows = standings(["Anchor", "Bell"], season, TEESDALE, complete=True)
    assert [(row.team, row.points, row.play_off) for row in rows] == [
        ("Anchor", 11, "due"), ("Bell", 11, "due")]
    mid_season = standings(["Anchor", "Bell"], season, TEESDALE, complete=False)
    assert [row.play_off for row in mid_season] == ["", ""]


def test_the_play_off_places_the_tied_teams_and_counts_for_nothing_else():
    season = [result("Anchor", "Bell", 5, 4), result("Bell", "Anchor", 5, 4),
              result("Anchor", "Bell", 4, 5, play_off=True)]
    rows = standings(["Anchor", "Bell"], season, TEESDALE, complete=True)
    assert [(row.team, row.points, row.played, row.play_off) for row in rows] == [
        ("Bell", 11, 2, "played"), ("Anchor", 11, 2, "played")]
    assert rows[0].as_dict()["play_off"] == "played"


# -- the archive carries all of it ---------------------------------------------------

def full_season() -> Season:
    setup = LeagueSetup.create("League", "2026", "SPP", SOLIHULL, target=5, pairs_legs=3,
                               walkover=(2, 1), divisions=("A", "B"),
                               house={"win_on_the_down": True})
    teams = {"Anchor": ["Ann", "Amy", "Abe", "Al"], "Bell": ["Bob", "Ben", "Bea", "Bo"],
             "Crown": ["Cat"], "Dolphin": ["Dan"]}
    rosters = {HOME: teams["Anchor"], AWAY: teams["Bell"]}
    card = Card.blank(setup.games).with_players(1, ["Ann"], ["Bob"], rosters)
    card = card.with_players(2, ["Ann", "Amy"], ["Bob", "Ben"], rosters).started(2, "x")
    legs = (won_at_once(setup.table("pairs", card.game(2).players)),) * 2
    card = card.relinked(2, ("x", "y"))
    card = card.with_entered(1, [(5, 2)], setup.singles).with_awarded(3, AWAY)
    card = replace(card, selections=((AWAY, ("Ben", "Bob")), (HOME, ("Amy", "Ann"))))
    fixture = SeasonFixture("Anchor", "Bell", "2026-11-30", card, {2: legs})
    fixture.card = card.with_confirmation(HOME, fixture.outcomes(setup)).with_confirmation(
        AWAY, fixture.outcomes(setup))
    walkover = SeasonFixture("Crown", "Dolphin", "2026-12-07",
                             Card.blank(setup.games).with_walkover(HOME))
    play_off = SeasonFixture("Bell", "Anchor", "2027-04-01", Card.blank(setup.games),
                             play_off=True)
    return Season(setup, teams, [fixture, walkover, play_off],
                  {"Anchor": "A", "Bell": "A", "Crown": "B", "Dolphin": "B"})


def test_an_archive_carries_legs_awards_walkovers_divisions_and_play_offs_exactly():
    season = full_season()
    doc = write_archive(season)
    again = read_archive(json.loads(json.dumps(doc)))
    assert write_archive(again) == doc
    games = doc["fixtures"][0]["card"]["games"]
    assert [leg.keys() for leg in games[1]["legs"]] == [{"record"}, {"record"}]
    assert games[2]["awarded"] == AWAY and doc["fixtures"][1]["card"]["walkover"] == HOME
    assert doc["fixtures"][2]["play_off"] is True
    assert doc["fixtures"][0]["card"]["selections"] == {AWAY: ["Ben", "Bob"],
                                                        HOME: ["Amy", "Ann"]}
    assert [(row["division"], row["team"], row["points"]) for row in doc["standings"]] == [
        ("A", "Anchor", 3), ("A", "Bell", 1), ("B", "Crown", 3), ("B", "Dolphin", 0)]


@pytest.mark.parametrize("change, says", [
    (lambda doc: doc["teams"][2].update(division="C"), "a division the league does not"),
    (lambda doc: doc["fixtures"][1].update(away="Bell"), "two divisions"),
    (lambda doc: doc["fixtures"][0]["card"]["games"][1]["legs"].append(
        doc["fixtures"][0]["card"]["games"][1]["legs"][0]), "no leg to start"),
    (lambda doc: doc["fixtures"][1]["card"].update(walkover=None), "do not follow"),
    (lambda doc: doc["fixtures"][0]["card"]["selections"][HOME].append("Cat"),
     "a line-up of players not on the team's roster"),
])
def test_an_archive_whose_new_parts_disagree_is_refused(change, says):
    doc = json.loads(json.dumps(write_archive(full_season())))
    change(doc)
    from scorekeeper.league import ArchiveError

    with pytest.raises(ArchiveError, match=says):
        read_archive(doc)
