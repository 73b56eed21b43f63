"""A season's new parts on SQLite and on PostgreSQL: divisions, play-offs and every leg of a
best-of game stored, pruning that keeps each leg, and an archive of them restored exactly
into an empty instance."""

import json
import re

import pytest
from league_pages import fixtures, season_with_legs, standings
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


def test_divisions_play_offs_and_legs_are_stored(client, rows):
    league, fixture = season_with_legs(client, SEASON)
    assert rows("SELECT name, division FROM teams ORDER BY id") == [
        ("Anchor", "A"), ("Bell", "A"), ("Crown", "B"), ("Dolphin", "B")]
    assert sorted(row[0] for row in rows("SELECT play_off FROM fixtures")) == [0] * 4 + [1]
    assert rows(f"SELECT count(*) FROM matches WHERE fixture_id = {fixture} AND game = 2") \
        == [(2,)]
    assert len(fixtures(league)) == 5


def test_pruning_keeps_every_leg_of_a_cards_game(client, app, runner, rows):
    season_with_legs(client, SEASON)
    conn = connect(location(app.config))
    conn.execute("UPDATE matches SET updated = '2020-01-01T00:00:00Z'")
    conn.close()
    assert "Deleted 0 matches" in runner.invoke(args=["prune", "--older-than", "90d"]).output
    assert rows("SELECT count(*) FROM matches") == [(2,)]


def test_a_season_of_every_new_part_restores_exactly_elsewhere(client, app_factory, rows,
                                                               tmp_path):
    league, _fixture = season_with_legs(client, SEASON)
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
