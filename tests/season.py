"""A played season in a store, made through the app as a pub makes it, and read back: for
the tests of `scorekeeper move-store`.

The season holds a league mid-season (teams with rosters, a double round robin, a card
scored at the tables and on paper, confirmed, reopened and corrected by the secretary,
confirmed again; another card with a game being played), a league of two divisions (a
best-of-three game played in two legs, a walkover, a play-off), free matches of every rule
set (finished, and cut short in a hand, one with an undo in its log), a scoreboard kept
for the other workers and the write limits' counts of it all; `break_a_log` adds an event
the rules refuse to one of them.
"""

import io
import json
import os
import random
import re
from datetime import date

import stores
from conftest import HTMX, Phone
from league_pages import season_with_legs
from simulation import play_match
from test_web_league import League

from scorekeeper.rules import RULE_SETS, Table
from scorekeeper.rules.match.record import write_record
from scorekeeper.storage import connect, is_postgresql, upgrade

LEAGUE = {"name": "Fives League", "season": "2026–27", "games": "SSP",
          "scheme": "two_plus_games", "target": "5", "singles_hand": "7", "pairs_hand": "5",
          "teams": "Anchor\nBell\nCrown", "tie_break1": "game_difference",
          "tie_break2": "games_won", "tie_break3": "head_to_head"}
ROSTERS = {"Anchor": ["Ann", "Amy"], "Bell": ["Bob", "Ben"], "Crown": ["Cat", "Cy"]}
DIVISIONS = {**LEAGUE, "name": "Dale League", "teams": "A:\nAnchor\nBell\nB:\nCrown\nDolphin",
             "games": "SP", "pairs_legs": "3", "pairs_target": "5", "walkover_for": "2",
             "tie_break1": "play_off"}
GREED = 0.8  # random players who lay their best tile: every rule set's match ends
TABLES = ("leagues", "teams", "fixtures", "matches", "entries", "corrections",
          "league_changes", "withdrawn_links", "boards", "write_hits")
ROWS = {table: {"sqlite": f"SELECT rowid, * FROM {table}"}
        for table in ("corrections", "league_changes")}
"""SQLite numbers a correction and a change by its own rowid, PostgreSQL's schema by a rowid
column."""


def play_season(client) -> None:
    """Everything the season holds, made through the app's pages."""
    secretary = _league(client)
    _match_night(client, secretary)
    _secretarys_corrections(client, secretary)  # schema version 7
    season_with_legs(client, DIVISIONS)  # schema version 5: divisions and a play-off
    _free_matches(client)


def _league(client) -> str:
    made = client.post("/league/new", data=LEAGUE)
    assert made.status_code == 303, made.text
    secretary = made.headers["Location"]
    for team, players in ROSTERS.items():
        page = client.get(secretary).text
        team_id = re.search(rf'for="player-(\d+)">New player for {team}<', page).group(1)
        for name in players:
            assert client.post(f"{secretary}/teams/{team_id}/players",
                               data={"name": name}).status_code == 303
    assert client.post(f"{secretary}/fixtures/make", data={
        "first": date.today().isoformat(), "every": "7"}).status_code == 303
    return secretary


def _card(client, link: str, fixture: int, action: str, data=None) -> str:
    page = client.get(f"{link}/card/{fixture}").text
    revision = re.search(r'name="rev" value="(\d+)"', page).group(1)
    response = client.post(f"{link}/card/{fixture}/{action}", data={"rev": revision,
                                                                     **(data or {})},
                           headers=HTMX)
    assert response.status_code == 200, response.text
    return response.text


def _fixture(client, secretary: str, home: str, away: str) -> int:
    return int(re.search(rf'/card/(\d+)">{home} v {away}</a>',
                         client.get(secretary).text).group(1))


def _match_night(client, secretary: str) -> None:
    """Anchor v Bell played, confirmed, reopened and corrected, confirmed again; Bell v
    Crown with its first game at a table."""
    captains = League(client, secretary).captains
    fixture = _fixture(client, secretary, "Anchor", "Bell")
    for number, home, away in ((1, "Ann", "Bob"), (2, "Amy", "Ben")):
        _card(client, secretary, fixture, f"game/{number}/players",
              {"home1": home, "away1": away})
    _card(client, secretary, fixture, "game/3/players",
          {"home1": "Ann", "home2": "Amy", "away1": "Bob", "away2": "Ben"})
    _win_at_the_table(client, _card(client, secretary, fixture, "game/1/start"))
    _card(client, secretary, fixture, "game/2/enter", {"home": "3", "away": "5"})
    _win_at_the_table(client, _card(client, secretary, fixture, "game/3/start"))
    for team in ("Anchor", "Bell"):
        _card(client, captains[team], fixture, "confirm")
    _card(client, secretary, fixture, "reopen")
    _card(client, secretary, fixture, "game/2/clear")
    _card(client, secretary, fixture, "game/2/enter", {"home": "5", "away": "4"})
    for team in ("Anchor", "Bell"):
        _card(client, captains[team], fixture, "confirm")
    tonight = _fixture(client, secretary, "Bell", "Crown")
    _card(client, secretary, tonight, "game/1/players", {"home1": "Bob", "away1": "Cat"})
    card = _card(client, secretary, tonight, "game/1/start")
    table = Phone(client, re.search(r'href="(/match/[\w-]+/[\w-]+)">Score game', card).group(1))
    table.start(0)


def _secretarys_corrections(client, secretary: str) -> None:
    """Crown v Anchor postponed and Crown's captain's link withdrawn and given out again:
    the season's list of changes and a withdrawn link, which must keep working as withdrawn."""
    fixture = _fixture(client, secretary, "Crown", "Anchor")
    assert client.post(f"{secretary}/fixtures/{fixture}/postpone").status_code == 303
    crown = re.search(r'/teams/(\d+)">Crown<', client.get(secretary).text).group(1)
    assert client.post(f"{secretary}/teams/{crown}/link").status_code == 303


def _win_at_the_table(client, card: str) -> None:
    """The game's table won with the lead: 2-3 counts 5, the league's target."""
    table = Phone(client, re.search(r'href="(/match/[\w-]+/[\w-]+)">Score game', card).group(1))
    table.start(0)
    assert "won the match" in table.lay("2-3").text


def _free_matches(client) -> None:
    """A finished match of every rule set and one cut short in a hand; an undo; a broken log
    (written as an older version did); a scoreboard polled and kept."""
    rng = random.Random(31)
    for rules in RULE_SETS:
        table = Table.create(["Ann", "Bob", "Cat"], False, rules=rules)
        record = write_record(play_match(rng, table, greed=GREED))
        _import(client, record)
        record["hands"] = record["hands"][:1]
        record["hands"][0]["moves"] = record["hands"][0]["moves"][:5]
        record["hands"][0].pop("remaining", None)
        cut = _import(client, record)
    assert cut.undo().status_code == 200
    board = re.search(r'class="board-link" href="http://localhost([^"]+)"',
                      client.get(cut.url).text).group(1)
    assert client.get(board).status_code == 200  # rendered once, kept for every worker


def _import(client, record: dict) -> Phone:
    response = client.post("/import", data={
        "record": (io.BytesIO(json.dumps(record).encode()), "match.json")})
    assert response.status_code == 303, response.text
    return Phone(client, response.headers["Location"])


def small_store(where: str) -> list[str]:
    """A store at the newest schema holding a finished match of every rule set (no league):
    where a test needs matches, not a season. Their ids."""
    rng = random.Random(7)
    conn = connect(where)
    try:
        upgrade(conn)
        return [stores.create(conn, play_match(rng, Table.create(["Ann", "Bob"], rules=rules),
                                               greed=GREED)).id for rules in RULE_SETS]
    finally:
        conn.close()


def break_a_log(where: str) -> str:
    """Append to one free match an event the rules refuse, as a buggy older worker did;
    returns the match's id."""
    conn = connect(where)
    try:
        match_id, revision = conn.execute(
            "SELECT id, revision FROM matches WHERE fixture_id IS NULL AND revision > 3 "
            "ORDER BY id").fetchone()
        conn.execute("INSERT INTO entries (match_id, seq, kind, data) VALUES (?, ?, ?, ?)",
                     (match_id, revision + 1, "event", json.dumps({"lay": "0-0", "end": "Z"})))
        conn.execute("UPDATE matches SET revision = ? WHERE id = ?", (revision + 1, match_id))
        if not is_postgresql(where):
            conn.commit()
    finally:
        conn.close()
    return match_id


def rows(where: str, tables=TABLES) -> dict[str, list[tuple]]:
    """Every row of every table, sorted: two stores compared whole."""
    conn = connect(where)
    try:
        found = {}
        for table in tables:
            query = ROWS.get(table, {}).get(conn.dialect.name, f"SELECT * FROM {table}")
            found[table] = sorted((tuple(row) for row in conn.execute(query)), key=repr)
        return found
    finally:
        conn.close()


def as_found(where: str) -> dict[str, list[tuple]] | None:
    """A store as it is: None for a SQLite file that is not there, else every table it
    holds (none for a blank database) with its rows."""
    if not is_postgresql(where) and not os.path.exists(where):
        return None
    conn = connect(where)
    try:
        listed = ("SELECT name FROM sqlite_master WHERE type = 'table'"
                  if conn.dialect.name == "sqlite" else
                  "SELECT table_name FROM information_schema.tables "
                  "WHERE table_schema = current_schema()")
        tables = sorted(row[0] for row in conn.execute(listed))
    finally:
        conn.close()
    return rows(where, tables)


def links(where: str) -> list[str]:
    """Every page a link of the store opens: each match's table, record, sheet and
    scoreboard; each league's pages through every one of its links, and every card."""
    conn = connect(where)
    try:
        pages = ["/"]
        for match_id, score, view in conn.execute("SELECT id, score_key, view_key FROM "
                                                  "matches ORDER BY id"):
            pages += [f"/match/{match_id}/{score}", f"/match/{match_id}/{score}/export",
                      f"/match/{match_id}/{score}/sheet", f"/board/{match_id}/{view}"]
        for league, *keys in conn.execute("SELECT id, secretary_key, public_key FROM leagues"):
            keys += [key for (key,) in conn.execute("SELECT captain_key FROM teams WHERE "
                                                    "league_id = ?", (league,))]
            fixtures = [f for (f,) in conn.execute("SELECT id FROM fixtures WHERE "
                                                   "league_id = ? ORDER BY id", (league,))]
            for key in keys:
                pages += [f"/league/{league}/{key}", f"/league/{league}/{key}/standings.csv",
                          f"/league/{league}/{key}/results.csv"]
                pages += [f"/league/{league}/{key}/card/{fixture}" for fixture in fixtures]
            pages.append(f"/league/{league}/{keys[0]}/season.json")
        return pages
    finally:
        conn.close()


_FORM_TOKEN = re.compile(r'name="csrf_token" value="[^"]*"')


def shown(client, pages: list[str]) -> list[tuple[str, int, str]]:
    """Each page as the app answers it: its status and its text (but the form token, which
    is signed with the time of the request)."""
    return [(page, *_answer(client.get(page))) for page in pages]


def _answer(response) -> tuple[int, str]:
    return response.status_code, _FORM_TOKEN.sub("", response.get_data(as_text=True))
