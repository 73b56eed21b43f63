"""A league's paperwork and its season restored from the web, on SQLite and PostgreSQL:
the match card and fixture list to print (A4 and A5), a page per player, game-by-game
results and player averages in CSV, the league's own time zone, and an archive uploaded,
previewed and restored (a hostile one refused whole); the write limits of the new views."""

import csv
import gzip
import io
import json
import re
from html import unescape

import test_web_league
from test_web_league import League, _team_id
from test_web_league_secretary import _finish

from scorekeeper.storage import connect, location

app, league, rows = test_web_league.app, test_web_league.league, test_web_league.rows
"""The league of test_web_league, on SQLite and PostgreSQL."""


def _table(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


def test_a_blank_match_card_prints_with_the_teams_games_and_signature_boxes(league):
    fixture = league.fixture("Anchor", "Bell")
    for size in ("a4", "a5"):
        page = unescape(league.client.get(
            f"{league.captains['Anchor']}/card/{fixture}/print?size={size}").text)
        assert f'class="printout {size}"' in page
        assert "Match card: Anchor v Bell" in page
        assert page.count('<th scope="row">') == 4  # three games and the games won
        assert page.count('class="sign">Signature<') == 2
        assert "Anchor captain" in page and "Bell captain" in page
        assert "Ann, Amy" in page  # the rosters, to write the players in
    assert "print-a5.css" in page and "print-a5.css" not in league.client.get(
        f"{league.captains['Anchor']}/card/{fixture}/print").text
    assert league.client.get(f"{league.public}/card/{fixture}/print").status_code == 200


def test_the_fixture_list_and_standings_print_and_a_played_card_prints_its_scores(league):
    fixture = league.fixture("Anchor", "Bell")
    _finish(league, fixture)
    card = unescape(league.client.get(f"{league.public}/card/{fixture}/print").text)
    assert re.search(r'<td class="box">5</td>', card)
    listing = unescape(league.client.get(f"{league.public}/print?size=a5").text)
    assert 'class="printout a5"' in listing and "Fixtures and results" in listing
    assert "3–0" in listing and listing.count('<span class="leg-box"></span>–') == 5
    assert "standings" in listing


def test_a_player_page_shows_the_season_game_by_game(league):
    fixture = league.fixture("Anchor", "Bell")
    _finish(league, fixture)
    anchor = _team_id(league, "Anchor")
    page = unescape(league.client.get(f"{league.public}/player/{anchor}/Ann").text)
    figures = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", page))
    assert figures["Games played"] == "2" and figures["Games won"] == "2 (100 %)"
    assert figures["Points for"] == "10" and figures["Points against"] == "4"
    assert figures["Average per game"] == "5.0"
    assert figures["Best game"].startswith("5–2 · Anchor v Bell")
    assert "with Amy" in page and ">Bob<" in page
    assert league.client.get(f"{league.public}/player/{anchor}/Nobody").status_code == 404


def test_game_by_game_and_player_csvs_mark_what_was_not_played(league):
    fixture = league.fixture("Anchor", "Bell")
    _finish(league, fixture)
    games = _table(league.client.get(f"{league.public}/games.csv").text)
    assert games[0][:4] == ["Date", "Home", "Away", "Game"]
    played = [row for row in games if row[1:3] == ["Anchor", "Bell"] and row[-1] == "confirmed"]
    assert [row[3:10] for row in played][0] == ["1", "singles", "Ann", "Bob", "5", "2", ""]
    assert played[2][5:7] == ["Ann & Amy", "Bob & Ben"]
    unplayed = [row for row in games if row[-1] == "unplayed"]
    assert unplayed and all(row[7:9] == ["", ""] for row in unplayed)
    players = _table(league.client.get(f"{league.public}/players.csv").text)
    assert players[0] == ["Player", "Team", "Games played", "Games won", "Win rate", "Points for",
                          "Points against", "Average per game", "Best game"]
    ann = next(row for row in players if row[0] == "Ann")
    assert ann[1:8] == ["Anchor", "2", "2", "100", "10", "4", "5.0"]


def test_a_league_keeps_its_own_time_zone_for_its_moments(client):
    response = client.post("/league/new", data={**test_web_league.LEAGUE,
                                                "time_zone": "Europe/Athens"})
    made = League(client, response.headers["Location"])
    assert "Dates and times: Europe/Athens" in unescape(client.get(made.secretary).text)
    made.post(made.secretary, f"teams/{_team_id(made, 'Crown')}/name", {"name": "Crown Inn"})
    conn = connect(location(client.application.config))
    (stored,) = conn.execute("SELECT at FROM league_changes").fetchone()
    conn.close()
    page = unescape(client.get(made.secretary).text)
    shown = re.search(r'<time datetime="[^"]+">([^<]+)</time> Team Crown renamed', page).group(1)
    assert "T" not in shown and "Z" not in shown  # no UTC ISO stamp
    hour = (int(stored[11:13]) + 2) % 24  # Athens in winter: UTC+2
    assert f"{hour % 12 or 12}:{stored[14:16]}" in shown  # English: 8:47 PM
    refused = client.post("/league/new", data={**test_web_league.LEAGUE, "time_zone": "Mars"})
    assert refused.status_code == 422


def _archive(league: League) -> bytes:
    return league.client.get(f"{league.secretary}/season.json").data


def _upload(client, data: bytes, name="season.json"):
    return client.post("/league/restore", data={"archive": (io.BytesIO(data), name)},
                       content_type="multipart/form-data")


def test_a_season_is_restored_from_the_web_after_a_preview(league, rows):
    _finish(league, league.fixture("Anchor", "Bell"))
    league.post(league.secretary, f"teams/{_team_id(league, 'Crown')}/name", {"name": "Cro"})
    league.post(league.secretary, f"fixtures/{league.fixture('Bell', 'Anchor')}/postpone")
    archive = _archive(league)
    for data, name in ((archive, "season.json"), (gzip.compress(archive), "season.json.gz")):
        preview = _upload(league.client, data, name)
        text = unescape(preview.text)
        assert preview.status_code == 200 and "Restore Fives League (2026–27)?" in text
        assert "6 fixtures: 1 result counted, 1 postponed" in text and "Cro" in text
        assert rows("SELECT count(*) FROM leagues") == [(1,)]  # nothing stored yet
    carried = re.search(r'name="archive"[^>]* value="([^"]+)"', text).group(1)
    done = league.client.post("/league/restore/confirm", data={"archive": carried})
    assert done.status_code == 303
    restored = unescape(league.client.get(done.headers["Location"]).text)
    assert "Anchor v Bell" in restored and "3–0" in restored
    assert "Team Crown renamed Cro" in restored  # the league's record came with it
    assert re.search(r"Bell v Anchor</a>\s*<span class=\"badge\">postponed", restored)
    assert rows("SELECT count(*) FROM leagues") == [(2,)]


def test_a_hostile_or_inconsistent_archive_is_refused_whole_with_its_reason(league, rows):
    _finish(league, league.fixture("Anchor", "Bell"))
    doc = json.loads(_archive(league))
    doc["standings"][0]["points"] += 1
    refused = _upload(league.client, json.dumps(doc).encode())
    assert refused.status_code == 422
    assert "disagree" in unescape(refused.text) or "standings" in unescape(refused.text)
    for hostile in (b"not json", b"\x1f\x8b" + b"\x00" * 20, gzip.compress(b"[" * 100000)):
        response = _upload(league.client, hostile)
        assert response.status_code == 422
        assert "not a league season archive" in unescape(response.text)
    forged = league.client.post("/league/restore/confirm", data={"archive": "@@@"})
    assert forged.status_code == 422
    assert rows("SELECT count(*) FROM leagues") == [(1,)]


def test_an_archive_whose_changes_cannot_be_read_restores_pages_that_still_open(league, rows):
    """A change or a card correction with facts no page knows how to word (the archive's
    checks let any facts through, bounded) is shown as such: never a 500."""
    fixture = league.fixture("Anchor", "Bell")
    league.post(league.secretary, f"fixtures/{fixture}/postpone")
    doc = json.loads(_archive(league))
    doc["changes"] = [{"at": "2026-01-01T00:00:00Z", "kind": "team_renamed", "facts": {}}]
    for item in doc["fixtures"]:
        for correction in item.get("corrections", []):
            correction["facts"] = {"day": ["not", "a", "day"]}
    text = unescape(_upload(league.client, json.dumps(doc).encode()).text)
    carried = re.search(r'name="archive"[^>]* value="([^"]+)"', text).group(1)
    done = league.client.post("/league/restore/confirm", data={"archive": carried})
    assert done.status_code == 303
    page = league.client.get(done.headers["Location"])
    assert page.status_code == 200
    assert "A change this page cannot show (team_renamed)" in unescape(page.text)
    card = re.search(r'href="([^"]+/card/\d+)">Anchor v Bell', page.text).group(1)
    shown = league.client.get(card)
    assert shown.status_code == 200
    assert "A change this page cannot show (postponed)" in unescape(shown.text)


def test_an_archive_with_more_changes_than_a_league_keeps_or_huge_facts_is_refused(league,
                                                                                   rows):
    doc = json.loads(_archive(league))
    change = {"at": "2026-01-01T00:00:00Z", "kind": "team_renamed",
              "facts": {"from": "A", "to": "B"}}
    for changes in ([change] * 5001, [{**change, "facts": {"from": "A" * 20_001, "to": "B"}}]):
        doc["changes"] = changes
        refused = _upload(league.client, gzip.compress(json.dumps(doc).encode()),
                          "season.json.gz")
        assert refused.status_code == 422
        assert "This league archive is damaged" in unescape(refused.text)
    assert rows("SELECT count(*) FROM leagues") == [(1,)]


def test_the_qr_code_of_the_public_page_changes_with_its_link(league):
    """The browser keeps the QR image a day: a public link given out again is a new
    image address, so the page never shows the withdrawn link's code."""
    def qr() -> str:
        return re.search(r'class="qr" src="([^"]+)"', league.client.get(league.secretary).text
                         ).group(1)

    before = qr()
    assert league.post(league.secretary, "links/public").status_code == 303
    league.secretary = re.search(r"/league/[\w-]+/[\w-]+", league.secretary).group(0)
    assert qr() != before


def test_restores_and_the_new_exports_count_against_their_limits(app):
    client = app.test_client()
    app.config.update(RATELIMIT_ENABLED=True, NEW_LEAGUE_LIMIT="2 per minute",
                      EXPORT_LIMIT="2 per minute", LEAGUE_LIMIT="2 per minute")
    made = League(client, client.post("/league/new", data=test_web_league.LEAGUE)
                  .headers["Location"])
    assert [_upload(client, b"{}").status_code for _ in range(2)] == [422, 429]
    exports = [client.get(f"{made.secretary}/{name}").status_code
               for name in ("games.csv", "players.csv", "season.json.gz")]
    assert exports == [200, 200, 429]
    crown = _team_id(made, "Crown")
    renames = [made.post(made.secretary, f"teams/{crown}/name", {"name": f"Crown {n}"})
               .status_code for n in range(3)]
    assert renames == [303, 303, 429]


def test_an_upload_larger_than_any_request_may_be_is_refused_in_words(client):
    refused = _upload(client, b" " * (300 * 1024))
    assert refused.status_code == 413 and "That file is too large" in unescape(refused.text)
