"""A season archive is bounded before it is read: its size while it unpacks, its lists
(teams, players, former players, fixtures, games, changes) while they are parsed, on the
web restore and in `league-import`; and a team's former players in the league itself.
(What a refusal costs is measured by bench/archive_refusal.py.)"""

import gzip
import io
import json
import re
from html import unescape

import pytest
import test_web_league
from test_web_league import League, _team_id
from test_web_league_secretary import _finish

from scorekeeper.league import LeagueError, limits
from scorekeeper.league.season import bounded_json
from scorekeeper.services.league import archive

SETUP = {"name": "Crafted", "season": "1", "games": "S", "points": {
    "per_game": 1, "win": 2, "draw": 1, "tie_breaks": ["game_difference"]},
    "rules": "all-fives", "target": 250, "singles_hand": 7, "pairs_hand": 5}
MILLION = 1_000_000


def crafted(**parts) -> bytes:
    doc = {"format": "allfives-league/1", "league": SETUP, "teams": [], "fixtures": []}
    return gzip.compress(json.dumps({**doc, **parts}).encode())


def refusal(data: bytes) -> str:
    with pytest.raises(LeagueError) as refused:
        archive.read_season(data)
    return str(refused.value)


@pytest.mark.parametrize("parts, says", [
    ({"teams": [{"name": "T", "players": [f"P{n}" for n in range(5000)],
                 "former": ["Gone"] * MILLION}]}, "A team has at most 30 players."),
    ({"teams": [{"name": "T", "players": ["P"], "former": ["Gone"] * MILLION}]},
     "A team keeps at most 100 former players."),
    ({"teams": [{"name": f"T{n}", "players": []} for n in range(31)]},
     "A league has at most 30 teams."),
    ({"fixtures": [{}] * MILLION}, "A league has at most 1000 fixtures."),
    ({"fixtures": [{"card": {"games": [{}] * MILLION}}]}, "This league archive is damaged"),
    ({"changes": [{}] * MILLION}, "This league archive is damaged"),
])
def test_a_list_longer_than_a_league_may_hold_is_refused_as_it_is_read(parts, says):
    assert says in refusal(crafted(**parts))


def test_the_list_refused_is_not_read_past_its_limit(monkeypatch):
    """The check sees the count grow one element at a time, and the refusal ends the read."""
    counts = []

    def counting(count):
        counts.append(count)
        limits.check_former(count)

    text = json.dumps({"teams": [{"former": ["Gone"] * 500}]})
    with pytest.raises(LeagueError):
        bounded_json.read_bounded(text, {("teams", "*", "former", "*"): counting})
    assert counts == list(range(1, limits.MAX_FORMER + 2))


def test_json_is_read_as_the_standard_library_reads_it():
    text = ' {"a": [1, -2.5e3, "x\\u00e9\\"", true, null, {"b\\n": []}], "c": {} } '
    assert bounded_json.read_bounded(text, {("a", "*"): lambda count: None}) == \
        json.loads(text)
    for broken in ('{"a": [1 2]}', '{"a" 1}', '{"a": [1,]}', "[1] 2", ""):
        with pytest.raises(ValueError):
            bounded_json.read_bounded(broken, {("a", "*"): lambda count: None})


def test_an_archive_that_unpacks_or_reads_past_the_limit_is_refused(monkeypatch, tmp_path):
    monkeypatch.setattr(archive, "UNPACKED_MOST", 1000)
    assert "unpacks to more" in refusal(gzip.compress(b" " * 1001))
    assert "unpacks to more" in refusal(b" " * 1001)
    with pytest.raises(LeagueError):
        archive.read_upload(io.BytesIO(b" " * 1001))
    assert archive.read_upload(io.BytesIO(b" " * 1000)) == b" " * 1000


app, rows = test_web_league.app, test_web_league.rows


def test_the_web_restore_and_league_import_refuse_a_crafted_archive(app, rows, tmp_path):
    data = crafted(teams=[{"name": "T", "players": ["P"], "former": ["Gone"] * MILLION}])
    uploaded = app.test_client().post(
        "/league/restore", data={"archive": (io.BytesIO(data), "season.json.gz")},
        content_type="multipart/form-data")
    assert uploaded.status_code == 422
    assert "at most 100 former players" in unescape(uploaded.text)
    path = tmp_path / "season.json.gz"
    path.write_bytes(data)
    imported = app.test_cli_runner().invoke(args=["league-import", str(path)])
    assert imported.exit_code == 1 and "at most 100 former players" in imported.output
    assert rows("SELECT count(*) FROM leagues") == [(0,)]


def test_a_team_keeps_at_most_its_limit_of_former_players(client, monkeypatch):
    monkeypatch.setattr(limits, "MAX_FORMER", 1)
    made = client.post("/league/new", data={**test_web_league.LEAGUE, "transfers": "y"})
    league = League(client, made.headers["Location"])
    for team, players in test_web_league.ROSTERS.items():
        for name in players:
            league.post(league.secretary, f"teams/{_team_id(league, team)}/players",
                        {"name": name})
    league.post(league.secretary, "fixtures/make", {"first": "2026-11-30", "every": "7"})
    _finish(league, league.fixture("Anchor", "Bell"))
    anchor = _team_id(league, "Anchor")
    left = [league.post(league.secretary, f"teams/{anchor}/players/move", {"player": name})
            for name in ("Ann", "Amy")]
    assert [answer.status_code for answer in left] == [303, 422]
    assert "at most 1 former players" in unescape(left[1].text)
    page = unescape(client.get(f"{league.secretary}/teams/{anchor}").text)
    assert re.search(r">Amy</a>", page.split("Former players")[0])
