"""Issue 26: five real leagues set up in the app as their rule sheets say (Leek, Solihull &
Warwickshire, HDDDCL, Guisborough, Teesdale), each playing a fixture through its card, with
standings checked against a hand computation."""

import io
import json
import re
from datetime import date
from html import unescape

import pytest
from league_pages import (
    add_players,
    card_write,
    confirm,
    fixture_of,
    fixtures,
    make_fixtures,
    new_league,
    paper,
    pick,
    players,
    standings,
    table_link,
    win_with_the_lead,
)
from test_web_league import _team_id

TIE_BREAKS = {"tie_break1": "game_difference", "tie_break2": "games_won",
              "tie_break3": "head_to_head"}
FIVES_AND_THREES = {"rules": "fives-and-threes", "target": "61", "singles_hand": "9",
                    "pairs_target": "61", "pairs_hand": "6"}
SINGLES_PAIRS = "SSSSSSPPP"


def squad(team: str, size: int = 6) -> list[str]:
    return [f"{team} {n}" for n in range(1, size + 1)]


def full_card(league, link: str, fixture: int, home: str, away: str,
              home_wins: set[int], singles: int = 61, pairs: int = 61, skip=()) -> None:
    """Every game of a 6 singles + 3 pairs card picked and entered from paper: the home team
    wins the games numbered in `home_wins` (exactly to the target), the away team the rest."""
    for number in range(1, 10):
        if number in skip:
            continue
        target = singles if number <= 6 else pairs
        if number <= 6:
            pick(league, link, fixture, number, [f"{home} {number}"], [f"{away} {number}"])
        else:
            seat = 2 * (number - 7) + 1
            pick(league, link, fixture, number, [f"{home} {seat}", f"{home} {seat + 1}"],
                 [f"{away} {seat}", f"{away} {seat + 1}"])
        score = (target, target - 21) if number in home_wins else (target - 13, target)
        paper(league, link, fixture, number, score)


def public(league) -> str:
    return unescape(league.client.get(league.public).text)


# -- Leek -----------------------------------------------------------------------------

LEEK = {"name": "Leek Domino League", "season": "2025–26", **FIVES_AND_THREES,
        "teams": "Anchor\nBell\nCrown", "games": SINGLES_PAIRS, "pairs_target": "121",
        "singles_legs": "1", "pairs_legs": "1", "no_last_point": "y",
        "no_win_on_the_down": "y", "scheme": "two_plus_games", **TIE_BREAKS,
        "walkover_for": "5", "walkover_against": "4", "line_ups": "open"}


def test_leeks_format_fills_the_form_as_its_rule_sheet_says(client):
    page = client.get("/league/new?format=leek").text
    for name in ("target", "singles_hand", "pairs_target", "pairs_hand", "walkover_for",
                 "walkover_against"):
        assert re.search(rf'name="{name}"[^>]*value="{LEEK[name]}"', page), name
    assert re.search(r'checked[^>]*name="no_last_point"|name="no_last_point"[^>]*checked', page)
    assert re.search(r'name="rules"[^>]*value="fives-and-threes"', page)


def test_leek_pairs_twice_round_no_last_tile_point_no_going_out_on_the_down_and_a_5_4_walkover(
        client):
    """Leek: singles to 61 with 9 tiles, pairs to 121 with 6; "no score for last domino";
    "no player to go out on down"; 2 points for the match and 1 a game; a team that does not
    fulfil its fixture gives the other 2 points and the match 5–4 (7 points)."""
    league = new_league(client, LEEK)
    for team in ("Anchor", "Bell", "Crown"):
        add_players(league, team, squad(team))
    make_fixtures(league)
    number, home, away = fixture_of(league, "Anchor", "Bell")
    link = league.captains[home]
    anchor = {1, 2, 3, 4, 7, 8} if home == "Anchor" else {5, 6, 9}
    full_card(league, link, number, home, away, anchor, pairs=121)
    confirm(league, number, home, away)

    walkover, home_team, _ = fixture_of(league, "Anchor", "Crown")
    side = "home" if home_team == "Anchor" else "away"
    card_write(league, league.secretary, walkover, "walkover", {"side": side})

    page = public(league)
    assert standings(page) == {"": [
        # team     P  W  D  L   F  A  +/−  Pts  (Anchor: 2 + 6, then the walkover's 2 + 5)
        ("Anchor", 2, 2, 0, 0, 11, 7, "+4", 15, ""),
        ("Bell", 1, 0, 0, 1, 3, 6, "-3", 3, ""),
        ("Crown", 1, 0, 0, 1, 4, 5, "-1", 0, ""),  # the no-show earns nothing
    ]}
    assert "Points: 2 points for a win; 1 point for each game won" in page
    assert "A walkover counts as a 5–4 win" in page
    assert "House rules: no point for the last tile; no win on the down" in page
    assert {team for _, team, _, _ in players(page)} == {"Anchor", "Bell"}  # a walkover
    printed = unescape(client.get(f"{league.secretary}/card/{number}/print").text)
    archive = client.get(f"{league.secretary}/season.json").data
    preview = unescape(client.post("/league/restore", data={
        "archive": (io.BytesIO(archive), "season.json")},
        content_type="multipart/form-data").text)
    for shown in (printed, preview):  # the printed card and a restore's preview say them too
        assert "A walkover counts as a 5–4 win" in shown
        assert "House rules: no point for the last tile; no win on the down" in shown
    # a 61-point singles and a 121-point pairs game average apart, each with its best game
    assert re.search(r'Anchor 1</th><td class="name">Anchor</td><td>2</td><td>(\d+)</td>'
                     r"<td>\d+</td><td>61\.0</td><td>121\.0</td>", page)
    anchor = _team_id(league, "Anchor")
    player = unescape(client.get(f"{league.public}/player/{anchor}/Anchor 1").text)
    assert re.search(r"Average per game · singles</dt><dd>61\.0<.*Best game · singles</dt>"
                     r"<dd>61–40.*Average per game · pairs</dt><dd>121\.0", player, re.S)
    csv_lines = client.get(f"{league.public}/players.csv").data.decode("utf-8-sig")
    assert [line.split(",")[:3] for line in csv_lines.splitlines()
            if line.startswith("Anchor 1,")] == [["Anchor 1", "Anchor", "singles"],
                                                 ["Anchor 1", "Anchor", "pairs"]]
    assert len(players(page)) == 12  # names no player: only Anchor v Bell's twelve

    bell, crown_home, _ = fixture_of(league, "Bell", "Crown")
    table = leek_table(league, bell, crown_home)
    assert "first to exactly 121 · House rules: no point for the last tile; no win on the " \
           "down" in table["page"]
    assert (table["record"]["target"], table["record"]["hand_size"]) == (121, 6)
    assert table["record"]["house"] == {"last_tile_point": False, "win_on_the_down": False}


def leek_table(league, fixture: int, home: str) -> dict:
    """A pairs game of a Leek card started at a table: its screen and its record."""
    link = league.captains[home]
    away = "Crown" if home == "Bell" else "Bell"
    pick(league, link, fixture, 7, [f"{home} 1", f"{home} 2"], [f"{away} 1", f"{away} 2"])
    card = card_write(league, link, fixture, "game/7/start").text
    table = table_link(card, 7)
    return {"page": unescape(league.client.get(table).text),
            "record": json.loads(league.client.get(f"{table}/export").data)}


# -- Solihull & Warwickshire ----------------------------------------------------------

SOLIHULL = {"name": "Solihull & Warwickshire League", "season": "2024–25",
            **FIVES_AND_THREES, "target": "121", "pairs_target": "121",
            "teams": "Anchor\nBell\nCrown\nDolphin", "games": SINGLES_PAIRS,
            "scheme": "three_close_loss", **TIE_BREAKS}


def test_solihull_three_for_a_win_one_for_losing_5_4_and_a_game_claimed_unstaffed(client):
    """Solihull & Warwickshire: 9 games (6 singles, 3 doubles); three points to the winner,
    one to the loser only if it lost 5–4; a game a team cannot staff is claimed by the other."""
    league = new_league(client, SOLIHULL)
    for team in ("Anchor", "Bell", "Crown", "Dolphin"):
        add_players(league, team, squad(team))
    make_fixtures(league)
    number, home, away = fixture_of(league, "Anchor", "Bell")
    link = league.captains[home]
    anchor_games = {1, 2, 3, 4} if home == "Anchor" else {5, 6, 7, 8}
    full_card(league, link, number, home, away, anchor_games, 121, 121, skip={9})
    anchor_side = "home" if home == "Anchor" else "away"
    card = card_write(league, link, number, "game/9/award", {"side": anchor_side}).text
    assert "given to Anchor unplayed" in unescape(card)
    confirm(league, number, home, away)

    other, crown_home, _ = fixture_of(league, "Crown", "Dolphin")
    crown = {1, 2, 3, 4, 5, 7, 8} if crown_home == "Crown" else {6, 9}
    full_card(league, league.captains[crown_home], other, crown_home,
              "Dolphin" if crown_home == "Crown" else "Crown", crown, 121, 121)
    confirm(league, other, "Crown", "Dolphin")

    page = public(league)
    assert standings(page) == {"": [
        ("Crown", 1, 1, 0, 0, 7, 2, "+5", 3, ""),   # level with Anchor: game difference
        ("Anchor", 1, 1, 0, 0, 5, 4, "+1", 3, ""),  # 4 won at the tables + game 9 claimed
        ("Bell", 1, 0, 0, 1, 4, 5, "-1", 1, ""),    # lost 5–4: the losing point
        ("Dolphin", 1, 0, 0, 1, 2, 7, "-5", 0, ""),
    ]}
    assert "Points: 3 points for a win; 1 point for losing 5–4" in page
    played = [row[2] for row in players(page) if row[1] in ("Anchor", "Bell")]
    assert sum(played) == 2 * 6 + 2 * 4  # 6 singles and 2 pairs: game 9 names nobody


# -- HDDDCL ---------------------------------------------------------------------------

HDDDCL = {"name": "HDDDCL Monday League", "season": "2025–26", "rules": "all-fives",
          "teams": "Anchor\nBell\nCrown", "games": "PPP", "target": "100",
          "singles_hand": "7", "pairs_target": "5", "pairs_hand": "5", "pairs_legs": "3",
          "scheme": "two_for_a_win", **TIE_BREAKS}


def test_hdddcl_each_pairs_table_is_a_best_of_3_and_the_table_is_what_counts(client):
    """HDDDCL: 3 pairs a team; each pair plays the best of 3 games at its table, the third
    only if needed; each table won is a leg for the team; 2 points to the winner (2–1 or
    3–0). (The sheet's own game is not one the app referees: the legs here are All Fives
    to 5, its "5 up", so a test leg is one tile.)"""
    league = new_league(client, HDDDCL)
    for team in ("Anchor", "Bell", "Crown"):
        add_players(league, team, squad(team))
    make_fixtures(league)
    number, home, away = fixture_of(league, "Anchor", "Bell")
    link, client = league.captains[home], league.client
    for game in (1, 2, 3):
        pick(league, link, number, game, [f"{home} {2 * game - 1}", f"{home} {2 * game}"],
             [f"{away} {2 * game - 1}", f"{away} {2 * game}"])
    card = card_write(league, link, number, "game/1/start").text
    first = table_link(card, 1)
    over = win_with_the_lead(client, first, 0)  # seat 1 is home's: leg 1 to the home pair
    assert "Leg 1 of game 1 of" in over and "a best of 3 legs" in over
    assert "Start leg 2 at this table" in over
    second = client.post(f"{first}/next-leg")
    assert second.status_code == 303
    over = win_with_the_lead(client, second.headers["Location"], 1)  # leg 2 to the away pair
    assert "Start leg 3 at this table" in over
    card = unescape(league.card(link, number).text)
    assert "legs 1–1" in card and "leg 3 to start" in card
    card = card_write(league, link, number, "game/1/next-leg").text
    third = table_link(card, 1)
    over = win_with_the_lead(client, third, 0)
    assert "Start leg" not in over  # decided 2–1: no fourth leg
    refused = client.post(f"{third}/next-leg")
    assert refused.status_code == 422 and "no leg to start now" in unescape(refused.text)
    paper(league, link, number, 2, (5, 0), (5, 3))                 # home 2–0
    paper(league, link, number, 3, (0, 5), (5, 2), (3, 5))         # away 2–1
    card = unescape(league.card(link, number).text)
    assert re.search(rf"legs 2–1</strong>\s*won by {home} · scored", card)
    assert "Leg 1 5–0 · Leg 2 0–5 · Leg 3 5–0" in card
    confirm(league, number, home, away)

    assert standings(public(league))[""] == [  # tables 1 and 2 to the home pairs: 2–1
        (home, 1, 1, 0, 0, 2, 1, "+1", 2, ""),
        ("Crown", 0, 0, 0, 0, 0, 0, "0", 0, ""),  # level on 0 with a better difference
        (away, 1, 0, 0, 1, 1, 2, "-1", 0, "")]
    assert (f"{home} 1", home, 1, 1) in players(public(league))  # three legs, one game


# -- Guisborough ----------------------------------------------------------------------

GUISBOROUGH = {"name": "Guisborough & District 5s&3s", "season": "2025–26",
               **FIVES_AND_THREES, "teams": "A:\nAnchor\nBell\nB:\nCrown\nDolphin",
               "games": "PPP", "scheme": "two_plus_games", **TIE_BREAKS,
               "line_ups": "drawn", "squad": "12"}


def test_guisborough_a_and_b_leagues_squads_of_12_and_pairs_drawn_from_each_teams_six(client):
    """Guisborough: "A" and "B" leagues; a squad of at most 12 players; teams of 6 selected
    for each match, and 3 pairs drawn from the players each team selected (neither captain
    sees the other's selection first)."""
    league = new_league(client, GUISBOROUGH)
    add_players(league, "Anchor", squad("Anchor", 12))
    refused = league.post(league.captains["Anchor"],
                          f"teams/{team_id(league, 'Anchor')}/players", {"name": "Anchor 13"})
    assert refused.status_code == 422
    assert "Anchor's squad is full: a team registers at most 12 players a season" in \
        unescape(refused.text)
    for team in ("Bell", "Crown", "Dolphin"):
        add_players(league, team, squad(team))
    make_fixtures(league)
    assert sorted({frozenset(pair[1:]) for pair in fixtures(league)}, key=sorted) == [
        {"Anchor", "Bell"}, {"Crown", "Dolphin"}]  # each division plays within itself

    number, home, away = fixture_of(league, "Anchor", "Bell")
    picked = squad(home, 6)
    card_write(league, league.captains[home], number, "line-up", {"player": picked})
    other = unescape(league.card(league.captains[away], number).text)
    assert f"{home}'s line-up is in." in other and f"{away}'s line-up is not in yet." in other
    assert not any(name in other for name in squad(home, 12))  # nothing of it is shown
    card = card_write(league, league.captains[away], number, "line-up",
                      {"player": squad(away, 6)}).text
    games = re.findall(r'class="who">([^<]+) v ([^<]+)</span>', unescape(card))
    assert sorted(name for pair in games for name in pair[0].split(" & ")) == sorted(picked)
    assert sorted(name for pair in games for name in pair[1].split(" & ")) == squad(away, 6)
    for game, score in ((1, (61, 40)), (2, (61, 30)), (3, (20, 61))):
        paper(league, league.captains[home], number, game, score)
    confirm(league, number, home, away)

    tables = standings(public(league))
    assert tables == {
        "A": [(home, 1, 1, 0, 0, 2, 1, "+1", 4, ""), (away, 1, 0, 0, 1, 1, 2, "-1", 1, "")],
        "B": [("Crown", 0, 0, 0, 0, 0, 0, "0", 0, ""), ("Dolphin", 0, 0, 0, 0, 0, 0, "0", 0, "")]}


def team_id(league, team: str) -> int:
    page = league.client.get(league.secretary).text
    return int(re.search(rf'for="player-(\d+)">New player for {team}<', page).group(1))


# -- Teesdale -------------------------------------------------------------------------

TEESDALE = {"name": "Barnard Castle & District 5s&3s League", "season": "2025–26",
            **FIVES_AND_THREES, "teams": "A:\nAnchor\nBell\nB:\nCrown\nDolphin",
            "games": SINGLES_PAIRS, "no_win_on_the_down": "y", "scheme": "two_plus_games",
            "tie_break1": "play_off", "tie_break2": "game_difference", "tie_break3": ""}


def test_teesdale_no_winning_on_the_down_two_divisions_and_a_tie_settled_by_a_play_off(client):
    """Teesdale: 61 exactly, 9 tiles in singles and 6 in pairs; "the winning points cannot be
    scored on a player's down"; A and B divisions; teams tied on points meet in a play-off."""
    league = new_league(client, TEESDALE)
    for team in ("Anchor", "Bell", "Crown", "Dolphin"):
        add_players(league, team, squad(team))
    make_fixtures(league)
    for number, home, away in fixtures(league):
        if "Anchor" in (home, away):
            full_card(league, league.captains[home], number, home, away, {1, 2, 3, 4, 5})
            confirm(league, number, home, away)  # each side wins its home card 5–4
    tables = standings(public(league))
    due = "level on points: a play-off decides"
    assert tables["A"] == [("Anchor", 2, 1, 0, 1, 9, 9, "0", 11, due),
                           ("Bell", 2, 1, 0, 1, 9, 9, "0", 11, due)]

    teams = dict(re.findall(r'<option value="(\d+)">([^<]+)</option>',
                            league.client.get(league.secretary).text))
    ids = {name: number for number, name in teams.items()}
    response = league.post(league.secretary, "fixtures", {
        "home": ids["Anchor"], "away": ids["Bell"], "day": date.today().isoformat(),
        "play_off": "y"})
    assert response.status_code == 303
    play_off = max(number for number, home, _ in fixtures(league) if home == "Anchor")
    full_card(league, league.captains["Anchor"], play_off, "Anchor", "Bell", {1, 2, 3, 4})
    confirm(league, play_off, "Anchor", "Bell")  # Bell wins the play-off 5–4

    page = public(league)
    placed = "placed by a play-off"
    assert standings(page)["A"] == [("Bell", 2, 1, 0, 1, 9, 9, "0", 11, placed),
                                    ("Anchor", 2, 1, 0, 1, 9, 9, "0", 11, placed)]
    assert "play-off" in page.split("Fixtures and results")[-1]

    number, home, away = fixture_of(league, "Crown", "Dolphin")
    pick(league, league.captains[home], number, 1, [f"{home} 1"], [f"{away} 1"])
    card = card_write(league, league.captains[home], number, "game/1/start").text
    table = unescape(league.client.get(table_link(card, 1)).text)
    assert "Fives and Threes · first to exactly 61 · House rules: no win on the down" in table


@pytest.mark.parametrize("fields, says", [
    ({**TEESDALE, "teams": "Anchor\nA:\nBell"}, "Anchor comes before the first division"),
    ({**TEESDALE, "teams": "A:\nAnchor"}, "name at least two"),
    ({**GUISBOROUGH, "squad": "3"}, "A squad is from 6 players"),
    ({**HDDDCL, "pairs_legs": "2"}, "Not a valid choice"),
    ({**LEEK, "walkover_for": "4", "walkover_against": "5"}, "more games than it loses"),
    ({**SOLIHULL, "scheme": "custom", "win": "3", "bonus": "1"}, "A losing bonus needs both"),
])
def test_a_rule_sheet_the_app_cannot_keep_is_refused_with_the_reason(client, fields, says):
    response = client.post("/league/new", data=fields)
    assert response.status_code == 422
    assert says in unescape(response.text)
