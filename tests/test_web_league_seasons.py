"""A season's new parts on SQLite and on PostgreSQL: divisions, play-offs and every leg of a
best-of game stored, pruning that keeps each leg, and an archive of them restored exactly
into an empty instance."""

import json
import re

import pytest
from league_pages import (
    add_players,
    card_write,
    fixture_of,
    fixtures,
    make_fixtures,
    new_league,
    pick,
    standings,
    table_link,
    win_with_the_lead,
)
from test_web_league import LEAGUE

from scorekeeper.storage import connect, location

SEASON = {**LEAGUE, "teams": "A:\nAnchor\nBell\nB:\nCrown\nDolphin", "games": "SP",
          "pairs_legs": "3", "pairs_target": "5", "walkover_for": "2",
          "tie_break1": "play_off"}


@pytest.fixture
def app(app_factory, database):
    return app_factory(database=database)


@pytest.fixture
def rows(app):
    def read(sql: str) -> list:
        conn = connect(location(app.config))
        try:
            return [tuple(row) for row in conn.execute(sql)]
        finally:
            conn.close()
    return read


def season_with_legs(client):
    """Anchor v Bell: game 2 (pairs, best of 3 to 5) won 2–0 in two legs at one table;
    Crown v Dolphin a walkover; a play-off of Anchor and Bell added."""
    league = new_league(client, SEASON)
    for team in ("Anchor", "Bell", "Crown", "Dolphin"):
        add_players(league, team, [f"{team} 1", f"{team} 2"])
    make_fixtures(league)
    number, home, away = fixture_of(league, "Anchor", "Bell")
    link = league.captains[home]
    pick(league, link, number, 2, [f"{home} 1", f"{home} 2"], [f"{away} 1", f"{away} 2"])
    first = table_link(card_write(league, link, number, "game/2/start").text, 2)
    win_with_the_lead(client, first, 0)
    second = client.post(f"{first}/next-leg").headers["Location"]
    win_with_the_lead(client, second, 0)
    walkover, _, _ = fixture_of(league, "Crown", "Dolphin")
    card_write(league, league.secretary, walkover, "walkover", {"side": "home"})
    ids = {name: number for number, name in re.findall(r'<option value="(\d+)">([^<]+)</option>',
                                                       client.get(league.secretary).text)}
    assert league.post(league.secretary, "fixtures", {
        "home": ids["Anchor"], "away": ids["Bell"], "day": "2027-04-01",
        "play_off": "y"}).status_code == 303
    return league, number


def test_divisions_play_offs_and_legs_are_stored(client, rows):
    league, fixture = season_with_legs(client)
    assert rows("SELECT name, division FROM teams ORDER BY id") == [
        ("Anchor", "A"), ("Bell", "A"), ("Crown", "B"), ("Dolphin", "B")]
    assert sorted(row[0] for row in rows("SELECT play_off FROM fixtures")) == [0] * 4 + [1]
    assert rows(f"SELECT count(*) FROM matches WHERE fixture_id = {fixture} AND game = 2") \
        == [(2,)]
    assert len(fixtures(league)) == 5


def test_pruning_keeps_every_leg_of_a_cards_game(client, app, runner, rows):
    season_with_legs(client)
    conn = connect(location(app.config))
    conn.execute("UPDATE matches SET updated = '2020-01-01T00:00:00Z'")
    conn.close()
    assert "Deleted 0 matches" in runner.invoke(args=["prune", "--older-than", "90d"]).output
    assert rows("SELECT count(*) FROM matches") == [(2,)]


def test_a_season_of_every_new_part_restores_exactly_elsewhere(client, app_factory, rows,
                                                               tmp_path):
    league, _fixture = season_with_legs(client)
    archive = client.get(f"{league.secretary}/season.json")
    doc = json.loads(archive.data)
    assert [team.get("division") for team in doc["teams"]] == ["A", "A", "B", "B"]
    path = tmp_path / "season.json"
    path.write_bytes(archive.data)
    other = app_factory("other.sqlite")
    restored = other.test_cli_runner().invoke(args=["league-import", str(path)])
    assert restored.exit_code == 0, restored.output
    secretary = re.search(r"Secretary's link: (\S+)", restored.output).group(1)
    again = other.test_client()
    assert json.loads(again.get(f"{secretary}/season.json").data) == doc
    assert standings(again.get(secretary).text) == standings(client.get(league.secretary).text)
