"""Every screen in Greek, Czech and Hungarian, with no English sentence of the catalogue left.

A new screen (or a new state of one) is added with `@screen("its name")`: a function
that brings the app there through the test client and returns the response.
"""

import io
import json
import re

import pytest
from conftest import Phone
from english import english_left
from test_web_broken_log import MOVES, break_the_log
from test_web_league import (
    LEAGUE,
    ROSTERS,
    League,
    _team_id,
    line_up,
    signed_card_with_a_table,
)

LANGUAGES = ("el", "cs", "hu")
SCREENS = {}


def screen(name: str):
    """Registers a function (client, imported) -> response that shows one screen."""
    def register(show):
        SCREENS[name] = show
        return show
    return register


def record(players=("Ann", "Bob", "Cat"), **setup) -> dict:
    return {"format": "allfives-match/1", "players": list(players), **setup}


def three_player_domino(imported) -> Phone:
    """Ann goes out with her last tile; Bob and Cat each hold two tiles."""
    table = imported(("Ann", "Bob", "Cat"), hand_size=2, hands=[
        {"starter": "Ann", "moves": ["0-1", "draw", "1-2@R", "draw", "0-4@L"]}])
    table.lay("2-2@R")
    return table


def scored_twice(imported) -> Phone:
    """A domino scored (25 to Ann), then Ann leads 5-5 for 10: scores of both kinds."""
    table = three_player_domino(imported)
    table.end({"pips_1": "12", "pips_2": "13"})
    table.lay("5-5")
    return table


@screen("home")
def _home(client, imported):
    scored_twice(imported)
    return client.get("/")


@screen("new match")
def _new_match(client, imported):
    return client.get("/new?players=4")


@screen("new match, refused")
def _new_match_refused(client, imported):
    return client.post("/new", data={"count": "2", "player1": "Ann", "player2": "",
                                     "target": "3", "hand_size": "7"})


@screen("table, who leads")
def _who_leads(client, imported):
    return imported(("Ann", "Bob")).page()


@screen("table, the lead")
def _lead(client, imported):
    return imported(("Ann", "Bob"), hands=[{"starter": "Ann", "moves": []}]).page()


@screen("table, playing")
def _playing(client, imported):
    table = imported(("Ann", "Bob"), hands=[{"starter": "Ann", "moves": ["3-6"]}])
    return table.lay("6-6")


@screen("table, a tile refused")
def _tile_refused(client, imported):
    table = imported(("Ann", "Bob"), hands=[{"starter": "Ann", "moves": ["3-6"]}])
    return table.lay("1-2", htmx=False)


@screen("table, the boneyard empty")
def _pass(client, imported):
    table = imported(("Ann", "Bob"), hand_size=14,
                     hands=[{"starter": "Ann", "moves": ["6-6"]}])
    return table.page()


@screen("table, a spinner's arms")
def _spinner(client, imported):
    table = imported(("Ann", "Bob"), rules="all-fives-spinner",
                     hands=[{"starter": "Ann", "moves": ["5-5", "5-2", "5-3"]}])
    return table.lay("3-2@2-5")


@screen("table, two branching doubles")
def _ola_5(client, imported):
    table = imported(("Ann", "Bob"), rules="ola-5", hands=[
        {"starter": "Ann", "moves": ["3-3", "1-3", "3-5", "3-6", "2-3", "5-5", "4-5"]}])
    return table.lay("0-5@5-5")


@screen("score sheet, own pips taken off")
def _subtracted(client, imported):
    table = imported(("Ann", "Bob"), rules="all-fives-spinner", hand_size=2, hands=[
        {"starter": "Ann", "moves": ["2-1", "draw 2", "1-1", "2-6"], "remaining": {"Bob": 13}}])
    return client.get(table.url + "/sheet")


@screen("end of hand, domino")
def _domino(client, imported):
    return three_player_domino(imported).page()


@screen("end of hand, blocked")
def _blocked(client, imported):
    table = imported(("Ann", "Bob"), hand_size=14,
                     hands=[{"starter": "Ann", "moves": ["6-6", "pass"]}])
    return table.pass_turn()


@screen("end of hand, pips refused")
def _pips_refused(client, imported):
    return three_player_domino(imported).end({"pips_1": "40", "pips_2": "13"}, htmx=False)


@screen("end of hand, checked")
def _pips_checked(client, imported):
    return three_player_domino(imported).end({"pips_1": "12", "pips_2": "13", "check": "1"})


@screen("table, the other phone was first")
def _conflict(client, imported):
    table = imported(("Ann", "Bob"), hands=[{"starter": "Ann", "moves": ["3-6"]}])
    seen = table.pos()
    table.lay("6-6")
    return table.lay("3-3", pos=seen)


@screen("table, match won")
def _won(client, imported):
    table = imported(("Ann", "Bob"), target=10, hands=[{"starter": "Ann", "moves": []}])
    table.lay("5-5")
    return table.lay("5-0")


@screen("score sheet")
def _sheet(client, imported):
    return client.get(scored_twice(imported).url + "/sheet")


@screen("scoreboard")
def _scoreboard(client, imported):
    table = scored_twice(imported)
    board = re.search(r'href="(/board/[^"]+)"', client.get("/").text).group(1)
    assert table.match_id in board
    return client.get(board)


@screen("rules")
def _rules(client, imported):
    return client.get("/rules")


def board_of(client, table) -> str:
    return re.search(r'href="http://localhost(/board/[^"/]+/[^"/]+)"',
                     client.get(table.url).text).group(1)


@screen("replay, a move that scored nothing")
def _replay_move(client, imported):
    table = imported(("Ann", "Bob"), rules="all-fives-spinner",
                     hands=[{"starter": "Ann", "moves": ["5-5", "5-2", "5-3", "5-0@5-5"]}])
    return client.get(board_of(client, table) + "/hand/1/move/2")


@screen("replay, the end of a hand")
def _replay_end(client, imported):
    table = scored_twice(imported)
    return client.get(board_of(client, table) + "/hand/1/end")


@screen("replay, a knock in Fives and Threes")
def _replay_knock(client, imported):
    table = imported(("Ann", "Bob"), rules="fives-and-threes", hand_size=2,
                     hands=[{"starter": "Ann", "moves": ["3-6", "pass"]}])
    return client.get(board_of(client, table) + "/replay")


@screen("score sheet, read-only")
def _board_sheet(client, imported):
    return client.get(board_of(client, scored_twice(imported)) + "/sheet")


@screen("referee, the question")
def _referee(client, imported):
    return client.get("/referee")


@screen("referee, four games side by side")
def _referee_ruling(client, imported):
    return client.get("/referee", query_string={
        "rules": "all", "ends": "6-6 3", "scores": "59 40", "tile": "3-3", "last": "y"})


@screen("referee, a position refused")
def _referee_refused(client, imported):
    return client.get("/referee", query_string={
        "rules": "all", "ends": "2 3 (5-5) (5-5)", "scores": "0 0", "tile": "6-6"})


@screen("referee, a field refused")
def _referee_field(client, imported):
    return client.get("/referee", query_string={"rules": "ola-5", "ends": "3 5",
                                                "scores": "ten", "tile": "3-9"})


@screen("import error")
def _import_error(client, imported):
    return client.post("/import", data={})


@screen("not found")
def _not_found(client, imported):
    return client.get("/match/nothing/here")


@screen("delete a match")
def _delete(client, imported):
    table = scored_twice(imported)
    return client.get(f"/mine/{table.match_id}/delete")


@screen("offline")
def _offline(client, imported):
    return client.get("/offline")


@screen("the app's manifest")
def _manifest(client, imported):
    return client.get("/manifest.webmanifest")


@screen("table, a stored move the rules refuse")
def _broken_log(client, imported):
    table = imported(("Ann", "Bob"), hands=[{"starter": "Ann", "moves": MOVES}])
    break_the_log(client.application, table, {"lay": "3-5", "end": "L"})
    return client.get(table.url)


def league_set_up(client) -> League:
    """A league with its teams, rosters and fixtures, made in English by another browser."""
    english = client.application.test_client()
    made = english.post("/league/new", data=LEAGUE)
    league = League(english, made.headers["Location"])
    for team, players in ROSTERS.items():
        for name in players:
            league.post(league.captains[team], f"teams/{_team_id(league, team)}/players",
                        {"name": name})
    league.post(league.secretary, "fixtures/make", {"first": "2026-11-30", "every": "7"})
    return league


@screen("table, its league card confirmed")
def _held_table(client, imported):
    _fixture, table = signed_card_with_a_table(league_set_up(client))
    return client.get(table)


@screen("league, a captain asked to reopen the card")
def _reopen_asked(client, imported):
    league = league_set_up(client)
    fixture, _table = signed_card_with_a_table(league)
    league.card_post(league.captains["Bell"], fixture, "reopen")
    return client.get(f"{league.captains['Anchor']}/card/{fixture}")


def league_night(client) -> tuple:
    """A league set up in English by another browser; returns it and one fixture's number."""
    league = league_set_up(client)
    fixture = league.fixture("Anchor", "Bell")
    line_up(league, fixture, league.captains["Anchor"])
    league.card_post(league.captains["Anchor"], fixture, "game/1/start")
    league.card_post(league.captains["Bell"], fixture, "game/2/enter", {"home": "3", "away": "5"})
    return league, fixture


@screen("league, new")
def _league_new(client, imported):
    return client.get("/league/new")


@screen("league, refused")
def _league_refused(client, imported):
    return client.post("/league/new", data={**LEAGUE, "teams": "Anchor", "games": "SXP"})


@screen("league, the secretary's page")
def _league_secretary(client, imported):
    league, _fixture = league_night(client)
    return client.get(league.secretary)


@screen("league, the public page")
def _league_public(client, imported):
    league, _fixture = league_night(client)
    return client.get(league.public)


@screen("league, a match card")
def _league_card(client, imported):
    league, fixture = league_night(client)
    return client.get(f"{league.captains['Anchor']}/card/{fixture}")


@pytest.fixture
def speaking(client):
    """The test client with the language chosen, as the language menu leaves it."""
    def choose(lang: str):
        client.set_cookie("lang", lang)
        return client
    return choose


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", sorted(SCREENS))
def test_every_screen_speaks_the_language_chosen(name, lang, speaking, imported):
    client = speaking(lang)
    response = SCREENS[name](client, imported)
    assert response.status_code in (200, 404, 409, 422), response.status_code
    assert f'<html lang="{lang}">' in response.text or "<html" not in response.text
    assert english_left(response.text) == [], f"English left on {name} in {lang}"


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_the_same_screen_in_english_is_all_catalogue_text(name, speaking, imported):
    """The check above can fail: in English it finds the catalogue's sentences."""
    response = SCREENS[name](speaking("en"), imported)
    assert english_left(response.text), name


def test_a_match_record_names_its_players_the_same_in_every_language(speaking, imported):
    """The language changes the words, never the facts: the record exported is the same."""
    table = scored_twice(imported)
    exported = {lang: speaking(lang).get(table.url + "/export").text
                for lang in ("en", *LANGUAGES)}
    assert len(set(exported.values())) == 1
    assert json.loads(exported["el"])["players"] == ["Ann", "Bob", "Cat"]


def test_an_imported_record_is_read_whatever_the_language(speaking, imported):
    client = speaking("hu")
    body = json.dumps(record(("Ann", "Bob"), hands=[])).encode()
    response = client.post("/import", data={"record": (io.BytesIO(body), "a.json")})
    assert response.status_code == 303
