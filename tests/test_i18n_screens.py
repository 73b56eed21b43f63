"""Every screen in Greek, Czech and Hungarian, with no English sentence of the catalogue left.

A new screen (or a new state of one) is added with `@screen("its name")`: a function
that brings the app there through the test client and returns the response.
"""

import io
import json
import re
from pathlib import Path

import pytest
from conftest import Phone
from english import english_left, readable_text
from test_i18n_catalogues import LANGUAGES
from test_web_broken_log import MOVES, break_the_log
from test_web_league import (
    LEAGUE,
    ROSTERS,
    League,
    _team_id,
    line_up,
    signed_card_with_a_table,
)

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


@screen("table, a tile that would bust")
def _bust(client, imported):
    from test_web_newcomer import NEAR_61

    return imported(("Ann", "Bob"), **NEAR_61).page()


@screen("table, one tile of a draw undone")
def _one_tile_undone(client, imported):
    table = imported(("Ann", "Bob"), hand_size=3,
                     hands=[{"starter": "Ann", "moves": ["2-3", "draw 3"]}])
    return table.undo()


@screen("home, a match waiting for its next starter")
def _home_waiting(client, imported):
    from test_web_newcomer import OLA_5_WAITING

    imported(("Ann", "Bob"), **OLA_5_WAITING)
    imported(("Ann", "Bob"), rules="fives-and-threes")
    return client.get("/")


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


def other_league(client, **fields) -> League:
    """A league of other formats (house rules, legs, divisions, play-offs, blind line-ups),
    made in English by another browser, two players a team."""
    english = client.application.test_client()
    made = english.post("/league/new", data={**LEAGUE, **fields})
    assert made.status_code == 303, made.text
    league = League(english, made.headers["Location"])
    for team in league.captains:
        for number in (1, 2):
            league.post(league.captains[team], f"teams/{_team_id(league, team)}/players",
                        {"name": f"{team[0]}{number}"})
    league.post(league.secretary, "fixtures/make", {"first": "2026-11-30", "every": "7"})
    return league


TEESDALE_LIKE = {"teams": "A:\nAnchor\nBell\nB:\nCrown\nDolphin", "games": "S",
                 "tie_break1": "play_off", "tie_break2": "", "tie_break3": "",
                 "scheme": "custom", "win": "3", "loss": "0", "bonus": "1",
                 "bonus_margin": "1", "walkover_for": "1", "no_win_on_the_down": "y"}


@screen("new match, Fives and Threes with its house rules")
def _new_fives_and_threes(client, imported):
    return client.get("/new?rules=fives-and-threes")


@screen("table, house rules and a lead not on the down")
def _not_on_the_down(client, imported):
    table = imported(("Ann", "Bob"), target=10, house={"win_on_the_down": False},
                     hands=[{"starter": "Ann", "moves": ["5-5"]}])
    return client.get(table.url)


@screen("league, new from a real league's format")
def _league_format(client, imported):
    return client.get("/league/new?format=teesdale")


@screen("league, divisions, a walkover and a play-off due")
def _league_divisions(client, imported):
    league = other_league(client, **TEESDALE_LIKE)
    for home, away, players in (("Anchor", "Bell", ("A1", "B1")),
                                ("Bell", "Anchor", ("B1", "A1"))):
        fixture = league.fixture(home, away)
        league.card_post(league.captains[home], fixture, "game/1/players",
                         {"home1": players[0], "away1": players[1]})
        league.card_post(league.captains[home], fixture, "game/1/enter",
                         {"home": "5", "away": "0"})
        for team in (home, away):
            league.card_post(league.captains[team], fixture, "confirm")
    league.card_post(league.secretary, league.fixture("Crown", "Dolphin"), "walkover",
                     {"side": "home"})
    return client.get(league.public)


def leg_won_at_a_table(client) -> tuple:
    """A league of pairs games, each a best of 3 legs to 5, whose first game's first leg was
    won at its table; the league, the fixture, the home captain's link and the table."""
    league = other_league(client, games="PP", pairs_legs="3", pairs_target="5")
    fixture = league.fixture("Anchor", "Bell")
    link = league.captains["Anchor"]
    league.card_post(link, fixture, "game/1/players", {"home1": "A1", "home2": "A2",
                                                       "away1": "B1", "away2": "B2"})
    card = league.card_post(link, fixture, "game/1/start").text
    table = re.search(r'href="(/match/[\w-]+/[\w-]+)">Score game 1', card).group(1)
    won_at_once(league.client, table)
    return league, fixture, link, table


@screen("league, a card of best-of-3 legs and a game given unplayed")
def _league_legs(client, imported):
    league, fixture, link, _table = leg_won_at_a_table(client)
    league.card_post(link, fixture, "game/2/award", {"side": "away"})
    return client.get(f"{link}/card/{fixture}")


@screen("table, a leg won, the next to start")
def _leg_won(client, imported):
    return client.get(leg_won_at_a_table(client)[3])


@screen("league, a blind line-up handed in")
def _league_blind(client, imported):
    league = other_league(client, games="SP", line_ups="blind")
    fixture = league.fixture("Anchor", "Bell")
    league.card_post(league.captains["Anchor"], fixture, "line-up",
                     {"g1-1": "A1", "g2-1": "A1", "g2-2": "A2"})
    return client.get(f"{league.captains['Bell']}/card/{fixture}")


def won_at_once(client, table: str) -> None:
    """A leg to 5 won by its first tile: the first seat leads 2-3."""
    pos = lambda html: re.search(r'name="pos" value="(\d+)"', html).group(1)  # noqa: E731
    page = client.post(f"{table}/start", data={"seat": 0, "pos": pos(client.get(table).text)},
                       headers={"HX-Request": "true"}).text
    client.post(f"{table}/lay", data={"move": "2-3", "pos": pos(page)},
                headers={"HX-Request": "true"})


@screen("new match, a number out of range")
def _new_match_huge(client, imported):
    return client.post("/new", data={"count": "2", "player1": "Ann", "player2": "Bob",
                                     "target": "9" * 400, "hand_size": "1e3"})


@screen("league, too many teams")
def _league_too_many_teams(client, imported):
    teams = "\n".join(f"Anchor {n}" for n in range(31))
    return client.post("/league/new", data={**LEAGUE, "teams": teams})


@screen("league, fixtures from a date out of range")
def _league_fixtures_out_of_range(client, imported):
    league = league_set_up(client)
    return client.post(f"{league.secretary}/fixtures/make",
                       data={"first": "9999-12-31", "every": "7"})


@screen("a page whose scores cannot be read")
def _cannot_be_read(client, imported):
    import sqlite3

    from scorekeeper import storage

    table = scored_twice(imported)
    real = storage.MatchRepository.find

    def unreadable(*_args, **_kwargs):
        error = sqlite3.OperationalError("disk I/O error")
        error.sqlite_errorname = "SQLITE_IOERR"
        raise error

    storage.MatchRepository.find = unreadable
    try:
        return client.get(table.url)
    finally:
        storage.MatchRepository.find = real


def season_corrected(client) -> tuple:
    """A league night, then the secretary's corrections: a team renamed, a player moved
    away with their games kept, another fixture postponed; the league and the card."""
    league, fixture = league_night(client)
    crown = _team_id(league, "Crown")
    league.post(league.secretary, f"teams/{crown}/name", {"name": "Crown Inn"})
    league.post(league.secretary, f"teams/{crown}/players/move", {"player": "Cy", "to": ""})
    league.post(league.secretary, f"fixtures/{league.fixture('Bell', 'Anchor')}/postpone")
    return league, fixture


@screen("league, the season's changes on the secretary's page")
def _league_changes(client, imported):
    return client.get(season_corrected(client)[0].secretary)


@screen("league, a team's page, one of its players gone")
def _league_team(client, imported):
    league, _fixture = season_corrected(client)
    return client.get(f"{league.secretary}/teams/{_team_id(league, 'Crown Inn')}")


@screen("league, a player's page")
def _league_player(client, imported):
    league = league_set_up(client)
    signed_card_with_a_table(league)
    return client.get(f"{league.public}/player/{_team_id(league, 'Anchor')}/Ann")


@screen("league, a deletion asks first")
def _league_ask_first(client, imported):
    league, fixture = league_night(client)
    return client.post(f"{league.secretary}/fixtures/{fixture}/delete")


@screen("league, a confirmed result is not deleted")
def _league_delete_refused(client, imported):
    league = league_set_up(client)
    signed_card_with_a_table(league)
    return client.post(f"{league.secretary}/teams/{_team_id(league, 'Bell')}/delete")


@screen("league, a game saved by the other captain first, then the card postponed")
def _league_postponed_stale(client, imported):
    league, fixture = league_night(client)
    rev = league.rev(league.captains["Anchor"], fixture)
    league.card_post(league.captains["Anchor"], fixture, "game/3/players",
                     {"home1": "Amy", "home2": "Ann", "away1": "Ben", "away2": "Bob"})
    league.post(league.secretary, f"fixtures/{fixture}/postpone")
    return client.post(f"{league.captains['Bell']}/card/{fixture}/game/3/players",
                       data={"rev": rev, "home1": "Ann", "home2": "Amy", "away1": "Bob",
                             "away2": "Ben"}, headers={"HX-Request": "true"})


@screen("league, a paper score refused, naming the team")
def _league_paper_refused(client, imported):
    league, fixture = league_night(client)
    return client.post(f"{league.captains['Anchor']}/card/{fixture}/game/3/enter",
                       data={"rev": league.rev(league.captains["Anchor"], fixture),
                             "home": "3.5", "away": "5"}, headers={"HX-Request": "true"})


@screen("league, the match card to print")
def _league_print_card(client, imported):
    league, fixture = league_night(client)
    return client.get(f"{league.captains['Anchor']}/card/{fixture}/print?size=a5")


@screen("league, the fixtures and standings to print")
def _league_print_list(client, imported):
    league, _fixture = season_corrected(client)
    return client.get(f"{league.public}/print")


@screen("league, a withdrawn link")
def _league_withdrawn(client, imported):
    league = league_set_up(client)
    league.post(league.secretary, "links/public")
    return client.get(league.public)


@screen("league, restore a season")
def _league_restore(client, imported):
    return client.get("/league/restore")


@screen("league, a season's archive previewed")
def _league_restore_preview(client, imported):
    league, _fixture = season_corrected(client)
    archive = league.client.get(f"{league.secretary}/season.json").data
    return client.post("/league/restore", data={"archive": (io.BytesIO(archive), "s.json")},
                       content_type="multipart/form-data")


@screen("league, an archive refused")
def _league_restore_refused(client, imported):
    return client.post("/league/restore", data={"archive": (io.BytesIO(b"[]"), "s.json")},
                       content_type="multipart/form-data")



DECIMAL_POINT = re.compile(r"\b\d+\.\d+\b")
"""A decimal point (2.5): Greek, Czech and Hungarian write a comma."""
LITERAL_V = re.compile(r"(\}\}|\))\s+v\s+(\{\{|%\()")
"""" v " written into a template between two names, where only English reads it."""


def test_no_template_joins_names_with_a_literal_v():
    """Between team or player names the catalogue's `_(" v ")` is used (" – " elsewhere;
    in Czech "v" means "in")."""
    templates = Path(__file__).resolve().parents[1] / "templates"
    found = [f"{path.relative_to(templates)}: {match.group(0)}"
             for path in sorted(templates.rglob("*.html"))
             for match in LITERAL_V.finditer(path.read_text(encoding="utf-8"))]
    assert found == []


DECIMAL_WRITTEN_BY_HAND = re.compile(r"%[-+ 0#]*\d*\.\d*f|\|\s*(?:round|float)\b")
"""A template writing a decimal itself ("%.1f"|format, |round), not by the `tenths` filter."""


def test_no_template_writes_a_decimal_itself():
    """A decimal a person reads goes through Babel (`tenths`): 2,5 in Greek, Czech and
    Hungarian."""
    templates = Path(__file__).resolve().parents[1] / "templates"
    found = [f"{path.relative_to(templates)}: {match.group(0)}"
             for path in sorted(templates.rglob("*.html"))
             for match in DECIMAL_WRITTEN_BY_HAND.finditer(path.read_text(encoding="utf-8"))]
    assert found == []


def column_heads(page: str) -> str:
    return readable_text(re.search(r"<thead>.*?</thead>", page, re.S).group(0))


def test_the_printed_card_counts_a_games_points_not_the_leagues(speaking, imported):
    """"Points" has two meanings: a game's points (πόντοι) on the card's columns, the
    league's (βαθμοί) in the standings (the review's G13)."""
    heads = column_heads(_league_print_card(speaking("el"), imported).text)
    assert "Πόντοι" in heads
    assert "Βαθμοί" not in heads


@pytest.mark.parametrize("show", [_league_print_card, _league_player])
def test_a_hungarian_league_page_calls_a_game_jatszma(show, speaking, imported):
    """"Game" has two meanings: a league's game (játszma) and the game a referee is asked
    about (játék, the kind of game played) (the review's H21)."""
    page = show(speaking("hu"), imported).text
    assert "Játszma" in column_heads(page)
    assert not re.search(r"\bJáték\b", readable_text(page))


def test_the_decimal_check_finds_a_decimal_point(speaking, imported):
    """The check below can fail: a player's page in English writes the average with a point."""
    page = _league_player(speaking("en"), imported)
    assert DECIMAL_POINT.search(readable_text(page.text))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", sorted(SCREENS))
def test_every_screen_speaks_the_language_chosen(name, lang, speaking, imported):
    client = speaking(lang)
    response = SCREENS[name](client, imported)
    assert response.status_code in (200, 404, 409, 410, 422, 503), response.status_code
    assert f'<html lang="{lang}">' in response.text or "<html" not in response.text
    assert english_left(response.text) == [], f"English left on {name} in {lang}"
    assert DECIMAL_POINT.findall(readable_text(response.text)) == [], f"on {name} in {lang}"


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
