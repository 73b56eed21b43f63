"""The secretary's season through the web, on SQLite and PostgreSQL: teams, players and
fixtures renamed, deleted (asking first when results would go, refused once a card is
confirmed, kept in the league's record), swapped, postponed and rearranged, players moved;
links withdrawn and given out again; two captains saving different games of one card."""

import io
import json
import re
from html import unescape

import test_web_league
from test_web_league import League, _team_id, line_up

app, league, rows = test_web_league.app, test_web_league.league, test_web_league.rows
"""The league of test_web_league, on SQLite and PostgreSQL."""


def _finish(league: League, fixture: int, confirm: bool = True) -> None:
    """Every game of the card entered from paper (the home side wins 5–2), and confirmed."""
    line_up(league, fixture, league.captains["Anchor"])
    for number in (1, 2, 3):
        response = league.card_post(league.captains["Anchor"], fixture, f"game/{number}/enter",
                                    {"home": "5", "away": "2"})
        assert response.status_code == 200, unescape(response.text)
    if confirm:
        for team in ("Anchor", "Bell"):
            assert league.card_post(league.captains[team], fixture, "confirm").status_code == 200


def _changes(league: League) -> str:
    page = unescape(league.client.get(league.secretary).text)
    return page.split("Changes to the season", 1)[1] if "Changes to the season" in page else ""


def test_the_secretary_renames_a_team_and_the_record_keeps_it(league):
    team = _team_id(league, "Anchor")
    response = league.post(league.secretary, f"teams/{team}/name", {"name": "Anchor Inn"})
    assert response.status_code == 303
    page = unescape(league.client.get(league.secretary).text)
    assert "Anchor Inn v Bell" in page and ">Anchor<" not in page
    assert "Team Anchor renamed Anchor Inn" in _changes(league)
    taken = league.post(league.secretary, f"teams/{team}/name", {"name": "bell"})
    assert taken.status_code == 422 and "Bell" in unescape(taken.text)
    captain = league.post(league.captains["Bell"], f"teams/{_team_id(league, 'Bell')}/name",
                          {"name": "Bellend"})
    assert captain.status_code == 403


def test_a_player_renamed_is_renamed_on_the_cards_and_at_the_table(league, rows):
    fixture = league.fixture("Anchor", "Bell")
    line_up(league, fixture, league.captains["Anchor"])
    assert league.card_post(league.captains["Anchor"], fixture, "game/1/start").status_code == 200
    board = re.search(r'href="(/board/[^"]+)"', league.card(league.public, fixture).text)[1]
    assert "Ann" in league.client.get(board).text  # a board kept by this worker, and shared
    response = league.post(league.captains["Anchor"],
                           f"teams/{_team_id(league, 'Anchor')}/players/name",
                           {"player": "Ann", "name": "Anna"})
    assert response.status_code == 303
    card = unescape(league.card(league.public, fixture).text)
    assert re.search(r"Anna\s+v\s+Bob", card) and "Ann &amp; Amy" not in card
    (setup,) = [setup for (setup,) in rows("SELECT setup FROM matches")]
    assert '"Anna"' in setup and '"Ann"' not in setup
    assert "Anna" in league.client.get(board).text  # neither kept board is shown again
    assert "Ann of Anchor renamed Anna" in _changes(league)


def test_a_test_team_without_results_is_deleted_with_its_fixtures(league, rows):
    crown = _team_id(league, "Crown")
    response = league.post(league.secretary, f"teams/{crown}/delete")
    assert response.status_code == 303
    page = unescape(league.client.get(league.secretary).text)
    assert "Crown" not in page.split("Changes to the season")[0]
    assert "Team Crown deleted, with 4 fixtures" in _changes(league)
    assert rows("SELECT count(*) FROM fixtures") == [(2,)]
    assert rows("SELECT count(*) FROM teams") == [(2,)]


def test_deleting_a_fixture_with_results_asks_first_and_the_record_keeps_them(league, rows):
    fixture = league.fixture("Anchor", "Bell")
    _finish(league, fixture, confirm=False)
    asked = league.post(league.secretary, f"fixtures/{fixture}/delete")
    text = unescape(asked.text)
    assert asked.status_code == 200 and "Delete it?" in text
    assert re.search(r"Anchor v Bell, [^:]+: game 1, Ann v Bob, 5–2", text)
    assert rows("SELECT count(*) FROM fixtures WHERE id = ?", fixture) == [(1,)]
    sure = re.search(r'name="sure" value="(\w+)"', text).group(1)
    done = league.post(league.secretary, f"fixtures/{fixture}/delete", {"sure": sure})
    assert done.status_code == 303
    assert rows("SELECT count(*) FROM fixtures WHERE id = ?", fixture) == [(0,)]
    assert re.search(r"Fixture Anchor v Bell of [^\n]+ deleted, with 3 results",
                     _changes(league))
    (facts,) = rows("SELECT facts FROM league_changes WHERE kind = 'fixture_deleted'")[0]
    assert '"home_points": 5' in facts


def test_a_confirmed_result_is_never_deleted(league, rows):
    fixture = league.fixture("Anchor", "Bell")
    _finish(league, fixture)
    refused = league.post(league.secretary, f"fixtures/{fixture}/delete")
    assert refused.status_code == 422
    assert "is confirmed: reopen it first to delete the fixture" in unescape(refused.text)
    team = league.post(league.secretary, f"teams/{_team_id(league, 'Bell')}/delete")
    assert team.status_code == 422 and "a confirmed result stays" in unescape(team.text)
    player = league.post(league.secretary, f"teams/{_team_id(league, 'Bell')}/players/delete",
                         {"player": "Bob"})
    assert player.status_code == 422 and "Bob is on the confirmed card" in unescape(player.text)
    assert rows("SELECT count(*) FROM fixtures") == [(6,)]
    assert rows("SELECT count(*) FROM league_changes") == [(0,)]


def test_home_and_away_are_swapped_before_a_game_begins(league):
    fixture = league.fixture("Anchor", "Bell")
    line_up(league, fixture, league.captains["Anchor"])
    assert league.post(league.secretary, f"fixtures/{fixture}/swap").status_code == 303
    card = unescape(league.card(league.secretary, fixture).text)
    assert "<h1>Bell v Anchor</h1>" in card and re.search(r"Bob\s+v\s+Ann", card)
    assert "Home and away swapped" in card
    league.card_post(league.captains["Bell"], fixture, "game/1/start")
    refused = league.post(league.secretary, f"fixtures/{fixture}/swap")
    assert refused.status_code == 422 and "Game 1 has begun" in unescape(refused.text)


def test_a_page_from_before_a_swap_never_gives_a_game_to_the_side_it_no_longer_means(
        league, rows):
    """Anchor's captain opened the card at home and taps "Give game 3 to Bell" (the away
    side) after the secretary swapped the fixture: the card has changed, nothing is given."""
    fixture = league.fixture("Anchor", "Bell")
    page = league.card(league.captains["Anchor"], fixture).text
    rev = league.rev(league.captains["Anchor"], fixture)
    seen = dict(re.findall(r'id="edit-(\d+)".*?name="seen" value="(\w+)"', page, re.S))
    assert "Give game 3 to Bell" in page
    assert league.post(league.secretary, f"fixtures/{fixture}/swap").status_code == 303
    stale = league.card_post(league.captains["Anchor"], fixture, "game/3/award",
                             {"side": "away", "seen": seen["3"]}, rev=rev)
    assert stale.status_code == 409
    text = unescape(stale.text)  # nobody changed game 3: the swap did, and it says so
    assert "The secretary swapped home and away since this page was opened" in text
    assert "Someone else changed" not in text
    (card,) = rows("SELECT card FROM fixtures WHERE id = ?", fixture)[0]
    assert '"awarded"' not in card


def test_a_fixture_is_postponed_then_rearranged(league):
    fixture = league.fixture("Anchor", "Bell")
    assert league.post(league.secretary, f"fixtures/{fixture}/postpone").status_code == 303
    card = unescape(league.card(league.public, fixture).text)
    assert "postponed (was " in card and "Postponed: not played on" in card
    assert "postponed" in league.client.get(league.secretary).text
    assert ",,,postponed\r\n" in league.client.get(f"{league.secretary}/results.csv").text
    again = league.post(league.secretary, f"fixtures/{fixture}/postpone")
    assert again.status_code == 422 and "already postponed" in unescape(again.text)
    picked = league.card_post(league.captains["Anchor"], fixture, "game/1/players",
                              {"home1": "Ann", "away1": "Bob"}, rev=0)  # the page has no form
    assert picked.status_code == 422 and "This fixture is postponed" in unescape(picked.text)
    assert "Save the players" not in league.card(league.captains["Anchor"], fixture).text
    moved = league.post(league.secretary, f"fixtures/{fixture}/day", {"day": "2027-01-05"})
    assert moved.status_code == 303
    card = unescape(league.card(league.public, fixture).text)
    assert "postponed (was" not in card and "Rearranged to" in card
    assert league.post(league.secretary, f"fixtures/{fixture}/day",
                       {"day": "2027-01-12"}).status_code == 303
    assert league.post(league.secretary, f"fixtures/{fixture}/swap").status_code == 303
    changes = _changes(league)  # the season's list of changes has each, with the fixture
    assert re.search(r"Fixture Anchor v Bell of .+ postponed", changes)
    assert re.search(r"Fixture Anchor v Bell rearranged to .*5.* \(postponed from ", changes)
    assert re.search(r"Fixture Anchor v Bell moved from .*5.* to .*12", changes)
    assert re.search(r"Fixture Anchor v Bell of .*12.*: home and away swapped", changes)


def test_a_play_off_is_added_only_between_teams_level_on_points(league):
    _finish(league, league.fixture("Anchor", "Bell"))
    ids = {name: number for number, name in re.findall(
        r'<option value="(\d+)">([^<]+)</option>', league.client.get(league.secretary).text)}
    refused = league.post(league.secretary, "fixtures", {
        "home": ids["Anchor"], "away": ids["Bell"], "day": "2027-04-01", "play_off": "y"})
    assert refused.status_code == 422
    assert "A play-off settles a tie on points: Anchor have 5, Bell 0" in \
        unescape(refused.text)
    assert league.post(league.secretary, "fixtures", {
        "home": ids["Bell"], "away": ids["Crown"], "day": "2027-04-01",
        "play_off": "y"}).status_code == 303


def test_a_player_joins_mid_season_and_moves_only_where_the_league_allows(league):
    anchor, bell = _team_id(league, "Anchor"), _team_id(league, "Bell")
    fixture = league.fixture("Anchor", "Bell")
    _finish(league, fixture)
    assert league.post(league.captains["Anchor"], f"teams/{anchor}/players",
                       {"name": "Al"}).status_code == 303
    refused = league.post(league.secretary, f"teams/{anchor}/players/move",
                          {"player": "Ann", "to": str(bell)})
    assert refused.status_code == 422
    assert "lets no player change teams during a season" in unescape(refused.text)
    moved = league.post(league.secretary, f"teams/{anchor}/players/move",
                        {"player": "Al", "to": str(bell)})
    assert moved.status_code == 303
    bell_page = unescape(league.client.get(f"{league.secretary}/teams/{bell}").text)
    assert ">Al</a>" in bell_page
    left = league.post(league.secretary, f"teams/{anchor}/players/move",
                       {"player": "Ann", "to": ""})
    assert left.status_code == 303
    anchor_page = unescape(league.client.get(f"{league.secretary}/teams/{anchor}").text)
    assert "Former players" in anchor_page.split("Fixtures")[0]
    assert "Al moved from Anchor to Bell" in _changes(league)
    assert "Ann left Anchor" in _changes(league)


def test_a_withdrawn_captain_link_says_so_at_once_and_the_new_one_works(league):
    bell = _team_id(league, "Bell")
    old = league.captains["Bell"]
    assert league.client.get(old).status_code == 200
    assert league.post(league.secretary, f"teams/{bell}/link").status_code == 303
    gone = league.client.get(old)
    assert gone.status_code == 410 and "Link withdrawn" in unescape(gone.text)
    assert league.post(old, f"teams/{bell}/players", {"name": "Bea"}).status_code == 410
    new = re.search(r"Captain's link: <a [^>]*href=\"http://localhost(/league/[\w-]+/[\w-]+)\"",
                    unescape(league.client.get(f"{league.secretary}/teams/{bell}").text))
    assert new.group(1) != old and league.client.get(new.group(1)).status_code == 200
    assert league.client.get(league.secretary[:-3] + "xyz").status_code == 404


def test_the_public_and_secretary_links_are_given_out_again(league):
    old_public, old_secretary = league.public, league.secretary
    assert league.client.get(old_public, headers={"HX-Request": "true"}).status_code == 200
    response = league.post(old_secretary, "links/public")
    assert response.status_code == 303
    assert league.client.get(old_public).status_code == 410
    assert league.client.get(old_public, headers={"HX-Request": "true"}).status_code == 410
    moved = league.post(old_secretary, "links/secretary")
    new_secretary = moved.headers["Location"].split("#")[0]
    assert new_secretary != old_secretary
    assert league.client.get(old_secretary).status_code == 410
    page = unescape(league.client.get(new_secretary).text)
    assert "The public page's link given out again" in page
    assert "The secretary's link given out again" in page
    assert old_public not in page
    assert page.count("Withdraw this captain's link and give out a new one") == 3  # each team
    assert "Withdraw" not in unescape(league.client.get(league.captains["Bell"]).text)


def test_two_captains_save_different_games_of_one_card_and_neither_is_lost(league, rows):
    fixture = league.fixture("Anchor", "Bell")
    page = league.card(league.captains["Bell"], fixture).text  # both opened the card
    rev = league.rev(league.captains["Anchor"], fixture)
    seen = dict(re.findall(r'id="edit-(\d+)".*?name="seen" value="(\w+)"', page, re.S))
    first = league.card_post(league.captains["Anchor"], fixture, "game/1/players",
                             {"home1": "Ann", "away1": "Bob", "seen": seen["1"]}, rev=rev)
    second = league.card_post(league.captains["Bell"], fixture, "game/2/players",
                              {"home1": "Amy", "away1": "Ben", "seen": seen["2"]}, rev=rev)
    assert first.status_code == 200 and second.status_code == 200, unescape(second.text)
    assert 'id="edit-2"' in second.text and 'id="edit-1"' not in second.text.split(
        'id="card-live"')[0]  # the game's own part: the other games' inputs are left alone
    (card,) = rows("SELECT card FROM fixtures WHERE id = ?", fixture)[0]
    assert '"home": ["Ann"]' in card and '"home": ["Amy"]' in card


def test_a_paper_score_refusal_names_the_team_and_the_rule(league):
    fixture = league.fixture("Anchor", "Bell")
    line_up(league, fixture, league.captains["Anchor"])
    for typed in ("-1", "3.5", "x"):
        response = league.card_post(league.captains["Anchor"], fixture, "game/1/enter",
                                    {"home": typed, "away": "2"})
        text = unescape(response.text)
        assert response.status_code == 422
        assert re.search(r"Anchor points: a whole number from 0 to \d+", text), text
        assert "This field is required" not in text and f'value="{typed}"' in text


def test_the_card_refreshes_until_both_captains_have_confirmed(league):
    fixture = league.fixture("Anchor", "Bell")
    polls = 'hx-trigger="every'
    _finish(league, fixture, confirm=False)
    assert polls in league.card(league.captains["Bell"], fixture).text  # every game over
    league.card_post(league.captains["Anchor"], fixture, "confirm")
    assert polls in league.card(league.captains["Bell"], fixture).text
    league.card_post(league.captains["Bell"], fixture, "confirm")
    assert polls not in league.card(league.captains["Bell"], fixture).text


def test_where_the_league_allows_transfers_a_player_moves_and_their_games_stay(client):
    made = client.post("/league/new", data={**test_web_league.LEAGUE, "transfers": "y"})
    league = League(client, made.headers["Location"])
    for team, players in test_web_league.ROSTERS.items():
        for name in players:
            league.post(league.captains[team], f"teams/{_team_id(league, team)}/players",
                        {"name": name})
    league.post(league.secretary, "fixtures/make", {"first": "2026-11-30", "every": "7"})
    anchor, crown = _team_id(league, "Anchor"), _team_id(league, "Crown")
    _finish(league, league.fixture("Anchor", "Bell"))
    moved = league.post(league.secretary, f"teams/{anchor}/players/move",
                        {"player": "Ann", "to": str(crown)})
    assert moved.status_code == 303
    anchor_page = unescape(client.get(f"{league.secretary}/teams/{anchor}").text)
    assert ">Ann</a>" in anchor_page.split("Former players")[1]
    assert ">Ann</a>" in unescape(client.get(f"{league.secretary}/teams/{crown}").text)
    games = unescape(client.get(f"{league.public}/player/{anchor}/Ann").text)
    assert "former player of Anchor" in games and "<dd>2</dd>" in games


def test_deleting_a_player_whose_game_has_begun_asks_first(league, rows):
    fixture = league.fixture("Anchor", "Bell")
    line_up(league, fixture, league.captains["Anchor"])
    league.card_post(league.captains["Anchor"], fixture, "game/1/enter",
                     {"home": "5", "away": "2"})
    bell = _team_id(league, "Bell")
    captain = league.post(league.captains["Bell"], f"teams/{bell}/players/delete",
                          {"player": "Bob"})  # the losing captain cannot wipe the result
    assert captain.status_code == 403
    assert "only the secretary can delete a player with results" in unescape(captain.text)
    asked = league.post(league.secretary, f"teams/{bell}/players/delete", {"player": "Bob"})
    text = unescape(asked.text)
    assert asked.status_code == 200 and re.search(r"game 1, Ann v Bob, 5–2", text)
    assert "game 3" not in text  # picked for the pairs game, not begun: nothing lost there
    sure = re.search(r'name="sure" value="(\w+)"', text).group(1)
    done = league.post(league.secretary, f"teams/{bell}/players/delete",
                       {"player": "Bob", "sure": sure})
    assert done.status_code == 303
    card = unescape(league.card(league.secretary, fixture).text)
    assert "Bob deleted from Bell: taken off the card, and game 1's result with them" in card
    assert "Bob deleted from Bell, with 1 result" in _changes(league)


def test_the_second_captain_confirms_from_a_page_opened_before_the_first_did(league):
    fixture = league.fixture("Anchor", "Bell")
    _finish(league, fixture, confirm=False)
    page = league.card(league.captains["Bell"], fixture).text  # open, not refreshed since
    rev = re.search(r'name="rev" value="(\d+)"', page).group(1)
    seen = re.search(r'/confirm".*?name="seen" value="(\w+)"', page, re.S).group(1)
    assert league.card_post(league.captains["Anchor"], fixture, "confirm").status_code == 200
    second = league.card_post(league.captains["Bell"], fixture, "confirm", {"seen": seen},
                              rev=int(rev))
    assert second.status_code == 200, unescape(second.text)
    assert "Confirmed by both captains" in unescape(second.text)


def test_a_deduction_shows_on_the_table_the_csv_and_comes_back_from_the_archive(league, rows):
    """Issue 39: the secretary deducts 3 points from Bell with a reason and a date; the
    standings count it in a column with a note, the CSV and the archive keep it, a rename
    carries it."""
    bell = _team_id(league, "Bell")
    refused = league.post(league.secretary, f"teams/{bell}/points",
                          {"points": "0", "reason": "x", "day": "2027-01-15"})
    assert refused.status_code == 422 and "deducts or awards from 1 to 100" in \
        unescape(refused.text)
    assert league.post(league.captains["Bell"], f"teams/{bell}/points", {
        "points": "-3", "reason": "x", "day": "2027-01-15"}).status_code == 403
    assert league.post(league.secretary, f"teams/{bell}/points", {
        "points": "-3", "reason": "fielded an ineligible player",
        "day": "2027-01-15"}).status_code == 303
    assert league.post(league.secretary, f"teams/{bell}/name",
                       {"name": "Bell Inn"}).status_code == 303
    page = unescape(league.client.get(league.public).text)
    assert re.search(r"Bell Inn</th>.*?<td>-3</td><td><strong>-3</strong>", page, re.S)
    assert "Bell Inn: -3 points on " in page and ": fielded an ineligible player" in page
    assert "Bell: -3 points on" in _changes(league)  # as it was called then
    csv_text = league.client.get(f"{league.secretary}/standings.csv").data.decode("utf-8-sig")
    assert csv_text.splitlines()[0].endswith(",Difference,Adjustment,Points")
    assert any(line.startswith("3,Bell Inn,0,0,0,0,0,0,0,-3,-3") for line in
               csv_text.splitlines())
    archive = json.loads(league.client.get(f"{league.secretary}/season.json").data)
    assert [row["adjusted"] for row in archive["standings"] if row["team"] == "Bell Inn"] \
        == [-3]
    carried = league.client.post("/league/restore", data={
        "archive": (io.BytesIO(json.dumps(archive).encode()), "season.json")},
        content_type="multipart/form-data")
    assert carried.status_code == 200 and "fielded an ineligible player" in \
        unescape(carried.text)
