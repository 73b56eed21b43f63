"""A league through the web, as the secretary, the captains and the public use it: the
forms, the links' rights, a match night on the cards, refusals that change nothing, two
captains at once, and the public page that never shows a scoring link."""

import csv
import io
import re
from datetime import date
from html import unescape

import pytest
from conftest import HTMX

from scorekeeper.storage import connect, location

LEAGUE = {"name": "Fives League", "season": "2026–27", "games": "SSP",
          "scheme": "two_plus_games", "target": "5", "singles_hand": "7", "pairs_hand": "5",
          "teams": "Anchor\nBell\nCrown", "tie_break1": "game_difference",
          "tie_break2": "games_won", "tie_break3": "head_to_head"}
ROSTERS = {"Anchor": ["Ann", "Amy"], "Bell": ["Bob", "Ben"], "Crown": ["Cat", "Cy"]}
_LINK = re.compile(r"/league/[\w-]+/[\w-]+")


class League:
    """One league on the test client: its links, read off the pages as a person would."""

    def __init__(self, client, secretary: str):
        self.client = client
        self.secretary = secretary
        page = unescape(client.get(secretary).text)
        self.captains = dict(re.findall(
            r"<strong><a [^>]*>([^<]+)</a></strong>:.*?Captain's link: <a href=\"http://localhost"
            r"(/league/[\w-]+/[\w-]+)\"", page, re.S))
        self.public = re.search(r'class="board-link" href="http://localhost(/league/[^"]+)"',
                                page).group(1)

    def post(self, link: str, action: str, data=None, htmx=False):
        return self.client.post(f"{link}/{action}", data=data or {},
                                headers=HTMX if htmx else {})

    def fixture(self, home: str, away: str) -> int:
        page = self.client.get(self.secretary).text
        found = re.search(rf'/card/(\d+)">{home} v {away}</a>', page)
        return int(found.group(1))

    def card(self, link: str, fixture: int, htmx=False):
        return self.client.get(f"{link}/card/{fixture}", headers=HTMX if htmx else {})

    def rev(self, link: str, fixture: int) -> int:
        return int(re.search(r'name="rev" value="(\d+)"', self.card(link, fixture).text)
                   .group(1))

    def card_post(self, link: str, fixture: int, action: str, data=None, htmx=True,
                  rev=None):
        fields = {"rev": self.rev(link, fixture) if rev is None else rev, **(data or {})}
        return self.post(link, f"card/{fixture}/{action}", fields, htmx)


@pytest.fixture
def league(client) -> League:
    response = client.post("/league/new", data=LEAGUE)
    assert response.status_code == 303, response.text
    made = League(client, response.headers["Location"])
    for team, players in ROSTERS.items():
        for name in players:
            assert made.post(made.captains[team], f"teams/{_team_id(made, team)}/players",
                             {"name": name}).status_code == 303
    assert made.post(made.secretary, "fixtures/make",
                     {"first": date.today().isoformat(), "every": "7"}).status_code == 303
    return made


def _team_id(league: League, team: str) -> int:
    page = league.client.get(league.secretary).text
    return int(re.search(rf'for="player-(\d+)">New player for {team}<', page).group(1))


@pytest.fixture
def app(app_factory, database):
    """The league's storage is tested on SQLite and on PostgreSQL."""
    return app_factory(database=database)


@pytest.fixture
def rows(app):
    def read(sql: str, *args) -> list:
        conn = connect(location(app.config))
        try:
            return [tuple(row) for row in conn.execute(sql, args)]
        finally:
            conn.close()
    return read


def test_a_secretary_starts_a_league_from_the_home_page(client, rows):
    home = client.get("/").text
    assert 'href="/league/new"' in home and "Start a league" in home
    response = client.post("/league/new", data=LEAGUE)
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).text
    assert "Fives League" in page and "Secretary's page" in unescape(page)
    assert [name for (name,) in rows("SELECT name FROM teams ORDER BY id")] == [
        "Anchor", "Bell", "Crown"]
    assert "Fives League" in client.get("/").text  # this browser keeps its link


@pytest.mark.parametrize("changes, says", [
    ({"scheme": "custom", "per_game": "1", "win": "-2", "draw": "0"}, "From 0 to 100 points"),
    ({"scheme": "custom", "per_game": "0", "win": "0", "draw": "0"}, "Nobody could ever score"),
    ({"scheme": "custom", "per_game": "0", "win": "1", "draw": "3"}, "cannot be worth more"),
    ({"games": "SSXP"}, "not X"),
    ({"teams": "Anchor\nanchor"}, "already a team called anchor"),
    ({"tie_break2": "game_difference"}, "only once"),
    ({"name": ""}, "needs a name"),
])
def test_a_league_that_makes_no_sense_is_refused_and_nothing_is_stored(client, rows,
                                                                       changes, says):
    response = client.post("/league/new", data={**LEAGUE, **changes})
    assert response.status_code == 422
    assert says in unescape(response.text)
    assert rows("SELECT count(*) FROM leagues") == [(0,)]


def test_the_fixtures_are_a_double_round_robin_listed_by_date(league):
    page = league.client.get(league.public).text
    found = re.findall(r'class="day" datetime="([\d-]+)">[^<]+</time>\s*'
                       r'<a href="[^"]+">(\w+) v (\w+)</a>', page)
    assert len(found) == 6
    assert sorted((home, away) for _, home, away in found) == sorted(
        (h, a) for h in ROSTERS for a in ROSTERS if h != a)
    assert [day for day, _, _ in found] == sorted(day for day, _, _ in found)


def test_a_fixture_of_a_team_against_itself_is_refused(league, rows):
    anchor = _team_id(league, "Anchor")
    response = league.post(league.secretary, "fixtures",
                           {"home": anchor, "away": anchor, "day": "2027-02-01"})
    assert response.status_code == 422
    assert "A team cannot play itself" in response.text
    assert rows("SELECT count(*) FROM fixtures") == [(6,)]


def test_a_captain_adds_players_only_to_their_own_team(league, rows):
    bell = _team_id(league, "Bell")
    response = league.post(league.captains["Anchor"], f"teams/{bell}/players", {"name": "Zed"})
    assert response.status_code == 403
    assert "only that team's roster" in unescape(response.text)
    assert league.post(league.public, f"teams/{bell}/players",
                       {"name": "Zed"}).status_code == 403
    response = league.post(league.captains["Bell"], f"teams/{bell}/players", {"name": "bob"})
    assert response.status_code == 422 and "bob already plays for Bell" in response.text
    assert "Zed" not in str(rows("SELECT players FROM teams"))


def line_up(league: League, fixture: int, link: str):
    for number, home, away in ((1, ["Ann"], ["Bob"]), (2, ["Amy"], ["Ben"]),
                               (3, ["Ann", "Amy"], ["Bob", "Ben"])):
        data = {f"home{n}": name for n, name in enumerate(home, 1)}
        data.update({f"away{n}": name for n, name in enumerate(away, 1)})
        response = league.card_post(link, fixture, f"game/{number}/players", data)
        assert response.status_code == 200, response.text


def score_to_the_end(client, card_html: str) -> str:
    """Open the game's scoring link from the card and win it with the lead (target 5)."""
    table = re.search(r'href="(/match/[\w-]+/[\w-]+)">Score game', card_html).group(1)
    pos = lambda html: re.search(r'name="pos" value="(\d+)"', html).group(1)  # noqa: E731
    page = client.get(table).text
    page = client.post(f"{table}/start", data={"seat": 0, "pos": pos(page)},
                       headers=HTMX).text
    response = client.post(f"{table}/lay", data={"move": "2-3", "pos": pos(page)},
                           headers=HTMX)
    assert response.status_code == 200 and "won the match" in response.text
    return table


def test_a_match_night_from_line_up_to_standings(league, rows):
    fixture = league.fixture("Anchor", "Bell")
    home, away = league.captains["Anchor"], league.captains["Bell"]
    line_up(league, fixture, home)
    response = league.card_post(home, fixture, "game/1/start")
    assert response.status_code == 200 and "<html" not in response.text
    assert "being scored at a table" in response.text
    score_to_the_end(league.client, response.text)
    card = league.card(away, fixture).text
    assert "<strong>5–0</strong> won by Anchor · scored" in card  # nobody typed it
    assert re.search(r"Anchor</span> <strong>1–0</strong>", card)
    response = league.card_post(away, fixture, "game/2/enter", {"home": "3", "away": "5"})
    assert "<strong>3–5</strong> won by Bell · entered from paper" in response.text
    league.card_post(home, fixture, "game/3/start")
    score_to_the_end(league.client, league.card(home, fixture).text)
    assert rows("SELECT count(*) FROM matches") == [(2,)]
    assert "Bell" in league.client.get(league.public).text
    for link in (home, away):
        response = league.card_post(link, fixture, "confirm")
        assert response.status_code == 200, response.text
    assert "Confirmed by both captains" in response.text
    standings = league.client.get(league.public).text
    anchor = re.search(r'<th scope="row" class="name">Anchor</th>(.*?)</tr>', standings, re.S)
    cells = re.findall(r"<td>(?:<strong>)?([-+\d]+)", anchor.group(1))
    assert cells == ["1", "1", "0", "0", "2", "1", "+1", "4"]  # P W D L F A +/- Pts
    assert "Bob" in standings and "Amy" in standings  # the players' table


def test_games_in_progress_do_not_count_until_both_captains_confirm(league):
    fixture = league.fixture("Anchor", "Bell")
    line_up(league, fixture, league.captains["Anchor"])
    for number in (1, 2, 3):
        league.card_post(league.captains["Anchor"], fixture, f"game/{number}/enter",
                         {"home": "5", "away": "0"})
    league.card_post(league.captains["Anchor"], fixture, "confirm")
    page = league.client.get(league.public).text
    assert "3–0 · not yet confirmed" in page
    assert re.search(r'class="name">Anchor</th>\s*<td>0</td>', page)


@pytest.mark.parametrize("action, data, says", [
    ("game/2/players", {"home1": "Ann", "away1": "Ann"}, "Ann is not on the team"),
    ("game/2/players", {"home1": "Bob", "away1": "Ann"}, "Bob is not on the team"),
    ("game/1/players", {"home1": "Amy", "away1": "Bob"}, "Game 1 has begun"),
    ("game/3/players", {"home1": "Ann", "home2": "Ann", "away1": "Bob", "away2": "Ben"},
     "Ann cannot play twice in one game"),
    ("game/2/players", {"home1": "Ann", "away1": "Ben"}, "Ann already plays singles game 1"),
    ("game/1/start", {}, "already being scored"),
    ("game/1/enter", {"home": "5", "away": "1"}, "already being scored"),
    ("game/2/enter", {"home": "5", "away": "5"}, "A finished game has one side"),
    ("game/9/start", {}, "This card has no game 9"),
    ("confirm", {}, "Game 1 is not over yet"),
])
def test_a_refused_change_to_a_card_says_why_and_changes_nothing(league, rows, action,
                                                                 data, says):
    fixture = league.fixture("Anchor", "Bell")
    home = league.captains["Anchor"]
    league.card_post(home, fixture, "game/1/players", {"home1": "Ann", "away1": "Bob"})
    league.card_post(home, fixture, "game/2/players", {"home1": "Amy", "away1": "Ben"})
    league.card_post(home, fixture, "game/1/start")
    before = rows("SELECT card, revision FROM fixtures WHERE id = ?", fixture)
    response = league.card_post(home, fixture, action, data)
    assert response.status_code == 422
    assert says in unescape(response.text)
    assert rows("SELECT card, revision FROM fixtures WHERE id = ?", fixture) == before
    assert rows("SELECT count(*) FROM matches") == [(1,)]


@pytest.mark.parametrize("who", ["Crown", "public", "secretary"])
def test_only_the_fixtures_captains_confirm_its_card(league, rows, who):
    fixture = league.fixture("Anchor", "Bell")
    line_up(league, fixture, league.captains["Anchor"])
    for number in (1, 2, 3):
        league.card_post(league.captains["Bell"], fixture, f"game/{number}/enter",
                         {"home": "1", "away": "5"})
    link = {"public": league.public, "secretary": league.secretary}.get(
        who, league.captains.get(who))
    before = rows("SELECT card FROM fixtures WHERE id = ?", fixture)
    response = league.card_post(link, fixture, "confirm", rev=3 + 3)
    assert response.status_code == 403
    assert "this fixture" in response.text
    assert rows("SELECT card FROM fixtures WHERE id = ?", fixture) == before


def test_two_captains_editing_one_card_one_wins_the_other_sees_it_now(league, rows):
    fixture = league.fixture("Anchor", "Bell")
    seen = league.rev(league.captains["Anchor"], fixture)
    first = league.card_post(league.captains["Anchor"], fixture, "game/1/players",
                             {"home1": "Ann", "away1": "Bob"}, rev=seen)
    second = league.card_post(league.captains["Bell"], fixture, "game/1/players",
                              {"home1": "Amy", "away1": "Ben"}, rev=seen)
    assert first.status_code == 200 and second.status_code == 409
    assert "Someone else changed game 1 first" in second.text
    assert re.search(r"Now: Ann\s+v\s+Bob", second.text)  # the game as it is now
    assert re.search(r"<option selected>Amy</option>", second.text)  # what was typed, kept
    assert '"home": ["Ann"]' in rows("SELECT card FROM fixtures WHERE id = ?", fixture)[0][0]


def test_the_public_page_never_shows_a_scoring_link(league):
    fixture = league.fixture("Anchor", "Bell")
    line_up(league, fixture, league.captains["Anchor"])
    captain_card = league.card_post(league.captains["Anchor"], fixture, "game/1/start").text
    assert "/match/" in captain_card  # the captain may score it
    for page in (league.client.get(league.public).text,
                 league.card(league.public, fixture).text,
                 league.card(league.public, fixture, htmx=True).text):
        assert "/match/" not in page
        assert "/board/" in page
        assert 'name="rev"' not in page and league.secretary not in page
        assert not any(link in page for link in league.captains.values())


def test_the_secretary_reopens_and_corrects_a_card_and_the_correction_is_kept(league, rows):
    fixture = league.fixture("Anchor", "Bell")
    line_up(league, fixture, league.captains["Anchor"])
    for number in (1, 2, 3):
        league.card_post(league.captains["Anchor"], fixture, f"game/{number}/enter",
                         {"home": "5", "away": "2"})
    for team in ("Anchor", "Bell"):
        league.card_post(league.captains[team], fixture, "confirm")
    refused = league.card_post(league.secretary, fixture, "game/2/clear")
    assert refused.status_code == 422
    assert "the secretary, or both captains, can reopen" in refused.text
    assert league.card_post(league.secretary, fixture, "reopen").status_code == 200
    league.card_post(league.secretary, fixture, "game/2/clear")
    card = league.card_post(league.secretary, fixture, "game/2/enter",
                            {"home": "1", "away": "5"}).text
    assert "Card reopened by the secretary" in card
    assert "Game 2: result 5–2 taken off the card" in card  # the score taken off, and the new
    assert "Game 2: paper score 1–5 entered" in card
    assert [kind for (kind,) in rows("SELECT kind FROM corrections ORDER BY rowid")] == [
        "reopened", "cleared", "entered"]
    assert "Confirmed by both" not in card


def test_standings_and_results_open_in_a_spreadsheet_as_they_are(client):
    response = client.post("/league/new", data={**LEAGUE, "teams": 'The "Anchor", Dock\nBell'})
    secretary = response.headers["Location"]
    client.post(f"{secretary}/fixtures/make", data={"first": "2026-11-30", "every": "7"})
    csv = client.get(f"{secretary}/standings.csv")
    assert csv.mimetype == "text/csv" and "attachment" in csv.headers["Content-Disposition"]
    text = csv.data.decode("utf-8")
    assert text.startswith("\ufeffPosition,Team,P,W,D,L,Games for,Games against,"
                           "Difference,Points\r\n")
    assert '"The ""Anchor"", Dock",0,0,0,0,0,0,0,0\r\n' in text
    results = client.get(f"{secretary}/results.csv").data.decode("utf-8")
    assert results.startswith("\ufeffDate,Home,Away,Home games,Away games,Result\r\n")
    assert results.count("\r\n") == 3
    assert results.count(",,,unplayed\r\n") == 2  # never played: no 0–0 result


FORMULAS = ['=HYPERLINK("http://x","y")', "+1+1", "-2", "@SUM(1)"]


def test_team_names_a_spreadsheet_would_run_are_exported_as_text(client):
    """Every CSV export: a cell starting =, +, -, @ (or a tab or CR) gets a single quote
    first; plain names and the numbers (a negative difference too) are as they were."""
    teams = "\n".join([*FORMULAS, "Bell", "Crown - Dock"])
    secretary = client.post("/league/new", data={**LEAGUE, "teams": teams}).headers["Location"]
    client.post(f"{secretary}/fixtures/make", data={"first": "2026-11-30", "every": "7"})
    standings = client.get(f"{secretary}/standings.csv").data.decode("utf-8")
    results = client.get(f"{secretary}/results.csv").data.decode("utf-8")
    cells = [cell for text in (standings, results) for cell in
             csv.reader(io.StringIO(text.removeprefix("\ufeff")))]
    names = {name for row in cells for name in row}
    assert {"'" + name for name in FORMULAS} <= names
    assert not names & set(FORMULAS)
    assert {"Bell", "Crown - Dock"} <= names


def test_a_negative_number_stays_a_number_in_the_export():
    from scorekeeper.services.league.archive import spreadsheet_safe

    assert [spreadsheet_safe(cell) for cell in (-2, 0, "-2", "\t=1", "\r=1", "Bell")] == [
        -2, 0, "'-2", "'\t=1", "'\r=1", "Bell"]


def test_a_season_exported_and_imported_into_an_empty_instance_has_the_same_standings(
        league, app_factory, tmp_path):
    fixture = league.fixture("Anchor", "Bell")
    line_up(league, fixture, league.captains["Anchor"])
    league.card_post(league.captains["Anchor"], fixture, "game/1/start")
    score_to_the_end(league.client, league.card(league.captains["Anchor"], fixture).text)
    for number in (2, 3):
        league.card_post(league.captains["Bell"], fixture, f"game/{number}/enter",
                         {"home": "0", "away": "5"})
    for team in ("Anchor", "Bell"):
        league.card_post(league.captains[team], fixture, "confirm")
    assert league.client.get(f"{league.public}/season.json").status_code == 404
    archive = league.client.get(f"{league.secretary}/season.json")
    exported = league.client.get(f"{league.secretary}/standings.csv").data
    (tmp_path / "season.json").write_bytes(archive.data)

    other = app_factory("other.sqlite")
    result = other.test_cli_runner().invoke(args=["league-import",
                                                  str(tmp_path / "season.json")])
    assert result.exit_code == 0, result.output
    secretary = re.search(r"Secretary's link: (\S+)", result.output).group(1)
    restored = League(other.test_client(), secretary)
    assert restored.client.get(f"{secretary}/standings.csv").data == exported
    card = restored.card(secretary, restored.fixture("Anchor", "Bell")).text
    assert "<strong>5–0</strong> won by Anchor · scored" in card


@pytest.mark.parametrize("content, says", [
    (b"not json", "not a league season archive"),
    (b'{"format": "allfives-league/1", "league": {}}', "damaged"),
])
def test_league_import_refuses_a_file_that_is_not_an_archive(runner, rows, tmp_path,
                                                             content, says):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    result = runner.invoke(args=["league-import", str(path)])
    assert result.exit_code == 1 and says in result.output
    assert rows("SELECT count(*) FROM leagues") == [(0,)]


def test_a_wrong_key_finds_nothing(league):
    league_id = league.secretary.split("/")[2]
    assert league.client.get(f"/league/{league_id}/not-the-key").status_code == 404
    assert league.client.get(f"{league.public}/card/999").status_code == 404


def test_the_public_page_has_a_qr_code_of_itself(league):
    response = league.client.get(f"{league.secretary}/qr.svg")
    assert response.mimetype == "image/svg+xml" and response.data.startswith(b"<svg")
    assert league.client.get(f"{league.public}/qr.svg").data == response.data


def test_everyone_following_the_public_page_shares_one_rendering_for_a_moment(league, app):
    fixture = league.fixture("Bell", "Crown")  # tonight's
    captain = league.captains["Bell"]
    league.card_post(captain, fixture, "game/1/players", {"home1": "Bob", "away1": "Cat"})
    before = league.client.get(league.public, headers=HTMX).text
    assert "Bell 0–0 Crown" in before
    league.card_post(captain, fixture, "game/1/enter", {"home": "5", "away": "1"})
    assert league.client.get(league.public, headers=HTMX).text == before  # still fresh
    assert "Bell 1–0 Crown" in league.client.get(league.public).text  # a page is never kept
    app.config["PUBLIC_PAGE_SECONDS"] = 0
    assert "Bell 1–0 Crown" in league.client.get(league.public, headers=HTMX).text


def test_pruning_old_matches_keeps_the_games_of_league_cards(league, app, runner, rows):
    fixture = league.fixture("Anchor", "Bell")
    line_up(league, fixture, league.captains["Anchor"])
    league.card_post(league.captains["Anchor"], fixture, "game/1/start")
    score_to_the_end(league.client, league.card(league.captains["Anchor"], fixture).text)
    league.client.post("/new", data={"count": "2", "player1": "Ann", "player2": "Bob",
                                     "target": "250", "hand_size": "7"})
    conn = connect(location(app.config))
    conn.execute("UPDATE matches SET updated = '2020-01-01T00:00:00Z'")
    conn.close()
    assert "Deleted 1 match " in runner.invoke(args=["prune", "--older-than", "90d"]).output
    card = league.card(league.public, fixture).text
    assert "<strong>5–0</strong> won by Anchor · scored" in card
    assert rows("SELECT count(*) FROM matches") == [(1,)]



def signed_card_with_a_table(league) -> tuple[int, str]:
    """A fixture whose game 1 was scored at a table and games 2 and 3 on paper, its card
    confirmed by both captains; and the scoring link of game 1."""
    fixture = league.fixture("Anchor", "Bell")
    line_up(league, fixture, league.captains["Anchor"])
    league.card_post(league.captains["Anchor"], fixture, "game/1/start")
    table = score_to_the_end(league.client, league.card(league.captains["Anchor"],
                                                        fixture).text)
    for number in (2, 3):
        league.card_post(league.captains["Anchor"], fixture, f"game/{number}/enter",
                         {"home": "5", "away": "0"})
    for team in ("Anchor", "Bell"):
        league.card_post(league.captains[team], fixture, "confirm")
    return fixture, table


def table_pos(league, table: str) -> str:
    """The revision of a table as its page shows it: on every form, or as the match's
    entries when a held table shows none."""
    page = league.client.get(table).text
    found = re.search(r'name="pos" value="(\d+)"', page)
    if found:
        return found.group(1)
    return str(len(league.client.get(f"{table}/export").get_json()["hands"][0]["moves"]) + 1)


def anchor_has_won(league) -> bool:
    return bool(re.search(r'class="name">Anchor</th>\s*<td>1</td>',
                          league.client.get(league.public).text))


def test_a_confirmed_cards_table_refuses_undo_and_taps_and_says_who_can_reopen(league):
    """Issue 24: an Undo at a table turned a card both captains had confirmed from a win
    into a loss and took it out of the standings. Now the table changes nothing."""
    fixture, table = signed_card_with_a_table(league)
    assert anchor_has_won(league)
    page = league.client.get(table).text
    assert "both captains have confirmed the card" in page
    assert "The league secretary, or both captains together, can reopen the card." in page
    assert 'class="undo tap"' not in page and 'name="pos"' not in page  # no Undo, no taps
    pos = table_pos(league, table)
    for action in ("undo", "start", "lay"):
        refused = league.client.post(f"{table}/{action}",
                                     data={"pos": pos, "seat": "0", "move": "6-6"},
                                     headers=HTMX)
        assert refused.status_code == 422
        assert "this game's card is confirmed" in unescape(refused.text)
    assert table_pos(league, table) == pos
    assert anchor_has_won(league)
    assert "Confirmed by both captains: this result counts" in league.card(
        league.public, fixture).text


def test_both_captains_asking_reopens_the_card_and_frees_its_table(league):
    fixture, table = signed_card_with_a_table(league)
    asked = league.card_post(league.captains["Bell"], fixture, "reopen")
    assert asked.status_code == 200 and "The away captain asked to reopen the card." in asked.text
    assert anchor_has_won(league)  # one captain alone reopens nothing
    pos = table_pos(league, table)
    assert league.client.post(f"{table}/undo", data={"pos": pos},
                              headers=HTMX).status_code == 422
    league.card_post(league.captains["Anchor"], fixture, "reopen")
    card = league.card(league.secretary, fixture).text
    assert "Card reopened by both captains" in card
    assert not anchor_has_won(league)  # reopened: it counts again once confirmed again
    undone = league.client.post(f"{table}/undo", data={"pos": pos}, headers=HTMX)
    assert undone.status_code == 200 and "Undid:" in undone.text


def test_a_game_taken_off_a_reopened_card_tells_its_table_and_the_score_taken_off(league):
    fixture, table = signed_card_with_a_table(league)
    scored = re.search(r"<strong>(\d+)–(\d+)</strong>",
                       league.card(league.public, fixture).text).groups()
    league.card_post(league.secretary, fixture, "reopen")
    assert "Undid:" in league.client.post(  # the secretary's reopening frees the table
        f"{table}/undo", data={"pos": table_pos(league, table)}, headers=HTMX).text
    taken = league.card_post(league.secretary, fixture, "game/1/clear")
    assert taken.status_code == 200
    card = league.card(league.secretary, fixture).text
    assert "Card reopened by the secretary" in card
    assert re.search(r"Game 1: (result \d+–\d+ taken off the card|taken off the card at "
                     r"\d+–\d+, unfinished)", card)
    assert scored  # what the card showed before
    page = league.client.get(table).text
    assert "The league secretary took this game off the card of Anchor v Bell" in page


def test_without_javascript_a_card_write_comes_back_to_the_card_page(league):
    fixture = league.fixture("Anchor", "Bell")
    link = league.captains["Anchor"]
    done = league.card_post(link, fixture, "game/1/players", {"home1": "Ann", "away1": "Bob"},
                            htmx=False)
    assert done.status_code == 303
    assert done.headers["Location"] == f"{link}/card/{fixture}"
    refused = league.card_post(link, fixture, "game/2/players",
                               {"home1": "Ann", "away1": "Ben"}, htmx=False)
    assert refused.status_code == 422 and "<html" in refused.text
    assert "Ann already plays singles game 1" in refused.text


def test_a_league_of_another_rule_set_plays_every_game_by_it(client, rows):
    form = client.get("/league/new?rules=fives-and-threes").text
    assert 'href="/league/new?rules=fives-and-threes"' in form
    assert re.search(r'name="target"[^>]*value="61"', form)
    response = client.post("/league/new", data={**LEAGUE, "rules": "fives-and-threes",
                                                 "target": "61"})
    made = League(client, response.headers["Location"])
    public = client.get(made.public).text
    assert "Singles: Fives and Threes to 61, 7 tiles each" in public
    assert "Pairs: Fives and Threes to 61, 5 tiles each" in public
    for team, players in ROSTERS.items():
        for name in players:
            made.post(made.captains[team], f"teams/{_team_id(made, team)}/players",
                      {"name": name})
    made.post(made.secretary, "fixtures/make", {"first": "2026-11-30", "every": "7"})
    fixture = made.fixture("Anchor", "Bell")
    line_up(made, fixture, made.captains["Anchor"])
    made.card_post(made.captains["Anchor"], fixture, "game/3/start")
    assert '"rules": "fives-and-threes"' in rows("SELECT setup FROM matches")[0][0]
    refused = made.card_post(made.captains["Anchor"], fixture, "game/1/enter",
                             {"home": "70", "away": "20"})
    assert refused.status_code == 422 and "ends on exactly 61" in refused.text
