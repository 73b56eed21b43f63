"""The new writes to a card through the web, each by the links that may make it and refused
with the reason for the others: walkovers, games given unplayed, blind line-ups, paper
legs; and the exports of a league of divisions."""

import csv
import io
import re
from html import unescape

from league_pages import (
    add_players,
    card_write,
    fixture_of,
    make_fixtures,
    new_league,
    pick,
    season_with_legs,
    table_link,
    win_with_the_lead,
)
from test_web_league import LEAGUE, _team_id


def league_of(client, **fields):
    league = new_league(client, {**LEAGUE, **fields})
    for team in league.captains:
        add_players(league, team, [f"{team} 1", f"{team} 2", f"{team} 3"])
    make_fixtures(league)
    return league


def refused(league, link, fixture, action, data=None):
    """A write from `link`, made on the card as it is now (its revision as the secretary's
    page shows it: a link that may not write is shown no form)."""
    response = league.card_post(link, fixture, action, data,
                                rev=league.rev(league.secretary, fixture))
    return response.status_code, unescape(response.text)


def test_only_the_secretary_records_a_walkover_and_takes_it_back(client):
    league = league_of(client)
    number, home, away = fixture_of(league, "Anchor", "Bell")
    status, text = refused(league, league.captains[home], number, "walkover", {"side": "home"})
    assert status == 403 and "Only the league secretary's link can do this." in text
    card = unescape(card_write(league, league.secretary, number, "walkover",
                               {"side": "home"}).text)
    assert f"Walkover to {home}: the other team did not turn up. It counts as 3–0" in card
    status, text = refused(league, league.captains[home], number, "game/1/players",
                           {"home1": f"{home} 1", "away1": f"{away} 1"})
    assert status == 422 and "recorded as a walkover" in text
    card = unescape(card_write(league, league.secretary, number, "walkover/take-back").text)
    assert "Walkover taken back: the fixture is to be played" in card
    assert "the other team did not turn up" not in card and "not started" in card
    pick(league, league.captains[home], number, 1, [f"{home} 1"], [f"{away} 1"])


def test_a_walkover_is_refused_once_a_game_has_begun(client):
    league = league_of(client)
    number, home, away = fixture_of(league, "Anchor", "Bell")
    pick(league, league.captains[home], number, 1, [f"{home} 1"], [f"{away} 1"])
    card_write(league, league.captains[home], number, "game/1/enter",
               {"home": "5", "away": "2"})
    status, text = refused(league, league.secretary, number, "walkover", {"side": "away"})
    assert status == 422 and "a fixture that is being played is no walkover" in text


def test_a_captain_gives_a_game_of_their_own_fixture_only(client):
    league = league_of(client)
    number, home, away = fixture_of(league, "Anchor", "Bell")
    status, _ = refused(league, league.captains["Crown"], number, "game/3/award",
                        {"side": "home"})
    assert status == 403
    status, text = refused(league, league.captains[away], number, "game/3/award",
                           {"side": "sideways"})
    assert status == 422 and "Choose the home or the away team." in text
    card = unescape(card_write(league, league.captains[away], number, "game/3/award",
                               {"side": "home"}).text)
    assert f"given to {home} unplayed" in card


def test_blind_line_ups_refuse_picking_game_by_game_and_hide_the_first_one_in(client):
    league = league_of(client, line_ups="blind")
    number, home, away = fixture_of(league, "Anchor", "Bell")
    status, text = refused(league, league.captains[home], number, "game/1/players",
                           {"home1": f"{home} 1", "away1": f"{away} 1"})
    assert status == 422 and "line-ups are handed in blind" in text
    line_up = {"g1-1": f"{home} 1", "g2-1": f"{home} 2", "g3-1": f"{home} 1",
               "g3-2": f"{home} 3"}
    card_write(league, league.captains[home], number, "line-up", line_up)
    again = {**line_up, "g1-1": f"{home} 3", "g3-2": f"{home} 2"}  # handed in again
    card_write(league, league.captains[home], number, "line-up", again)
    status, text = refused(league, league.captains[away], number, "line-up",
                           {"g1-1": f"{away} 1", "g2-1": f"{away} 1", "g3-1": f"{away} 2",
                            "g3-2": f"{away} 3"})
    assert status == 422 and f"{away} 1 already plays singles game 1" in text
    secretary_view = unescape(league.card(league.secretary, number).text)
    assert f"{home}'s line-up is in." in secretary_view and f"{home} 3 v" not in \
        secretary_view
    card = unescape(card_write(league, league.captains[away], number, "line-up", {
        "g1-1": f"{away} 1", "g2-1": f"{away} 2", "g3-1": f"{away} 1",
        "g3-2": f"{away} 3"}).text)
    assert f"{home} 3 v {away} 1" in card and f"{home} 1 &amp; {home} 2" not in card
    assert f"{home} 1 & {home} 2 v {away} 1 & {away} 3" in card


def test_paper_legs_that_decide_nothing_are_refused_with_the_reason(client):
    league = league_of(client, games="P", pairs_legs="3")
    number, home, away = fixture_of(league, "Anchor", "Bell")
    link = league.captains[home]
    pick(league, link, number, 1, [f"{home} 1", f"{home} 2"], [f"{away} 1", f"{away} 2"])
    status, text = refused(league, link, number, "game/1/enter", {"home": "5", "away": "0"})
    assert status == 422 and "Nobody has won 2 of the 3 legs yet" in text
    status, text = refused(league, link, number, "game/1/enter",
                           {"home": "5", "away": "0", "home2": "9000000"})
    assert status == 422 and re.search(r"\w points, leg 2: a whole number from 0 to \d+", text)


def test_a_captain_starts_the_next_leg_only_when_it_is_due(client):
    league = league_of(client, games="P", pairs_legs="3", pairs_target="5")
    number, home, away = fixture_of(league, "Anchor", "Bell")
    link = league.captains[home]
    pick(league, link, number, 1, [f"{home} 1", f"{home} 2"], [f"{away} 1", f"{away} 2"])
    card = card_write(league, link, number, "game/1/start").text
    status, text = refused(league, link, number, "game/1/next-leg")
    assert status == 422 and "Game 1 has no leg to start now" in text
    win_with_the_lead(client, table_link(card, 1), 1)
    public = unescape(client.get(f"{league.public}/card/{number}").text)
    assert "leg 2 to start" in public and "/match/" not in public  # no scoring link
    status, _ = refused(league, league.public, number, "game/1/next-leg")
    assert status == 403


def test_the_standings_of_a_league_of_divisions_export_with_their_division(client):
    league = league_of(client, teams="North:\nAnchor\nBell\nSouth:\nCrown\nDolphin")
    standings = client.get(f"{league.secretary}/standings.csv").data.decode("utf-8-sig")
    lines = standings.splitlines()
    assert lines[0] == "Division,Position,Team,P,W,D,L,Games for,Games against,Difference," \
                       "Points"
    assert [line.split(",")[:3] for line in lines[1:]] == [
        ["North", "1", "Anchor"], ["North", "2", "Bell"], ["South", "1", "Crown"],
        ["South", "2", "Dolphin"]]


def test_shown_line_ups_stay_as_handed_in_but_the_secretary_can_override(client):
    """Issue 39: once both blind line-ups are in, a captain changes their own team's players
    only, to players of their line-up; the secretary's override is in the season's
    changes. A team short of players leaves a game empty and concedes it."""
    league = league_of(client, line_ups="blind")
    number, home, away = fixture_of(league, "Anchor", "Bell")
    card_write(league, league.captains[home], number, "line-up",
               {"g1-1": f"{home} 1", "g2-1": f"{home} 2", "g3-1": f"{home} 1",
                "g3-2": f"{home} 2"})
    card = unescape(card_write(league, league.captains[away], number, "line-up", {
        "g1-1": f"{away} 1", "g3-1": f"{away} 1", "g3-2": f"{away} 2"}).text)
    assert f"given to {home} unplayed" in card  # game 2: away could not field it
    players = league.card_post(league.captains[home], number, "game/1/players",
                               {"home1": f"{home} 1", "away1": f"{away} 3"})
    assert players.status_code == 422 and "the other team's players are theirs to change" \
        in unescape(players.text)
    players = league.card_post(league.captains[home], number, "game/1/players",
                               {"home1": f"{home} 3", "away1": f"{away} 1"})
    assert players.status_code == 422 and f"{home} 3 is not in the line-up your team " \
        "handed in" in unescape(players.text)
    mine = league.card(league.captains[home], number).text
    assert f'name="away1" value="{away} 1"' in mine and f"<option>{home} 3</option>" not in mine
    card = unescape(card_write(league, league.captains[home], number, "game/1/players",
                               {"home1": f"{home} 2", "away1": f"{away} 1"}).text)
    assert f"{home} 2 v {away} 1" in card
    card_write(league, league.secretary, number, "game/1/players",
               {"home1": f"{home} 3", "away1": f"{away} 3"})
    changes = unescape(client.get(league.secretary).text)
    assert f"game 1: the secretary changed the players handed in to {home} 3 v {away} 3 " \
           f"(were {home} 2 v {away} 1)" in changes


def _seen(league, link, fixture, number) -> dict:
    """What a captain's page shows of a game: the card's revision and the game's print."""
    page = league.card(link, fixture).text
    seen = dict(re.findall(r'id="edit-(\d+)".*?name="seen" value="(\w+)"', page, re.S))
    return {"rev": league.rev(link, fixture), "seen": seen[str(number)]}


def test_a_captain_corrects_a_paper_score_until_both_have_confirmed(client):
    """Issue 39: a typo fixed before confirming; the other captain's confirmation is
    withdrawn by it; once both have confirmed only reopening changes it."""
    league = league_of(client, games="S")
    number, home, away = fixture_of(league, "Anchor", "Bell")
    pick(league, league.captains[home], number, 1, [f"{home} 1"], [f"{away} 1"])
    card_write(league, league.captains[home], number, "game/1/enter", {"home": "5", "away": "2"})
    card_write(league, league.captains[away], number, "confirm")
    waiting = "Confirmed by the away captain; waiting for the other."
    assert waiting in unescape(league.card(league.captains[home], number).text)
    card = unescape(card_write(league, league.captains[home], number, "game/1/enter",
                               {"home": "5", "away": "3"}).text)
    assert "5–3" in card and waiting not in unescape(league.card(league.secretary, number).text)
    cleared = unescape(card_write(league, league.captains[away], number, "game/1/clear").text)
    assert "not started" in cleared
    card_write(league, league.captains[away], number, "game/1/enter", {"home": "5", "away": "4"})
    for team in (home, away):
        card_write(league, league.captains[team], number, "confirm")
    status, text = refused(league, league.captains[home], number, "game/1/enter",
                           {"home": "5", "away": "1"})
    assert status == 422 and "The card has been confirmed" in text


def test_two_captains_entering_one_paper_score_at_once_are_told_both_scores(client):
    """The same score from both phones is entered once; a different second one is refused
    with both, and kept in the form to enter again, never dropped."""
    league = league_of(client, games="S")
    number, home, away = fixture_of(league, "Anchor", "Bell")
    pick(league, league.captains[home], number, 1, [f"{home} 1"], [f"{away} 1"])
    pages = {team: _seen(league, league.captains[team], number, 1) for team in (home, away)}
    first = league.card_post(league.captains[home], number, "game/1/enter",
                             {"home": "5", "away": "2", "seen": pages[home]["seen"]},
                             rev=pages[home]["rev"])
    same = league.card_post(league.captains[away], number, "game/1/enter",
                            {"home": "5", "away": "2", "seen": pages[away]["seen"]},
                            rev=pages[away]["rev"])
    assert first.status_code == 200 and same.status_code == 200
    differs = league.card_post(league.captains[away], number, "game/1/enter",
                               {"home": "5", "away": "4", "seen": pages[away]["seen"]},
                               rev=pages[away]["rev"])
    text = unescape(differs.text)
    assert differs.status_code == 409
    assert f"Someone else entered game 1's paper score first: {home} 5–2 {away}. Yours: " \
           f"{home} 5–4 {away}." in text
    assert 'name="away" type="number" inputmode="numeric" min="0" step="1" value="4"' in text


def test_two_dave_smiths_play_for_two_teams_and_are_told_apart_by_their_team(client):
    """Issue 39: a name is unique within a team only; the players' table, the CSV and the
    archive name each Dave Smith with his team."""
    league = league_of(client, games="SS")
    number, home, away = fixture_of(league, "Anchor", "Bell")
    for team in (home, away):
        add_players(league, team, ["Dave Smith"])
    twice = league.post(league.captains[home], f"teams/{_team_id(league, home)}/players",
                        {"name": "dave smith"})
    assert twice.status_code == 422 and f"dave smith already plays for {home}" in twice.text
    status, text = refused(league, league.captains[home], number, "game/1/players",
                           {"home1": "Dave Smith", "away1": "Dave Smith"})
    assert status == 422 and "Two players called Dave Smith cannot meet in one game" in text
    pick(league, league.captains[home], number, 1, ["Dave Smith"], [f"{away} 1"])
    pick(league, league.captains[home], number, 2, [f"{home} 1"], ["Dave Smith"])
    card_write(league, league.captains[home], number, "game/1/enter", {"home": "5", "away": "2"})
    card_write(league, league.captains[home], number, "game/2/enter", {"home": "1", "away": "5"})
    for team in (home, away):
        card_write(league, league.captains[team], number, "confirm")
    page = unescape(client.get(league.public).text)
    for team in (home, away):
        assert re.search(rf'<th scope="row" class="name">Dave Smith</th><td class="name">'
                         rf"{team}</td><td>1</td><td>1</td>", page)
    players = client.get(f"{league.secretary}/players.csv").data.decode("utf-8-sig")
    assert {line.split(",")[1] for line in players.splitlines()
            if line.startswith("Dave Smith,")} == {home, away}
    archive = client.get(f"{league.secretary}/season.json").data
    preview = client.post("/league/restore", data={"archive": (io.BytesIO(archive),
                                                               "season.json")},
                          content_type="multipart/form-data")
    assert preview.status_code == 200, unescape(preview.text)


def test_a_league_name_has_up_to_100_characters(client):
    name = "Solihull & Warwickshire Fives and Threes League " + "x" * 52
    league = new_league(client, {**LEAGUE, "name": name})
    assert f"<h1>{name}" in unescape(client.get(league.public).text).replace("&amp;", "&")
    refused = client.post("/league/new", data={**LEAGUE, "name": name + "y"})
    assert refused.status_code == 422


def test_games_csv_gives_each_legs_score_and_a_walkovers_winner(client):
    """Issue 39: a best-of game's legs one by one (not only summed), and the team a
    walkover went to in every game's "Won by"."""
    league, _played = season_with_legs(client, {
        **LEAGUE, "teams": "A:\nAnchor\nBell\nB:\nCrown\nDolphin", "games": "SP",
        "pairs_legs": "3", "pairs_target": "5", "walkover_for": "2"})
    games = list(csv.reader(io.StringIO(
        client.get(f"{league.secretary}/games.csv").data.decode("utf-8-sig"))))
    assert games[0][9:13] == ["Legs", "Legs' scores", "How", "Won by"]
    best_of = next(row for row in games if row[4] == "pairs" and row[9] == "2–0")
    assert best_of[7:13] == ["10", "0", "2–0", "5–0, 5–0", "scored at a table", best_of[1]]
    walkover = [row for row in games if row[1:3] == ["Crown", "Dolphin"]]
    assert [row[11:14] for row in walkover] == [["walkover", "Crown", "walkover"]] * 2
