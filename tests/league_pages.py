"""A league worked through its pages as a secretary and captains do, for the web tests of
real leagues' formats: forms posted, links and tables read off the pages."""

import re
from datetime import date
from html import unescape

from conftest import HTMX
from test_web_league import League, _team_id

_ROW = re.compile(
    r'<tr>\s*<td>(\d+)</td><th scope="row" class="name">([^<]+?)'
    r'(?: <small class="badge">([^<]*)</small>)?</th>\s*'
    r"<td>(\d+)</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td>\s*<td>(\d+)</td><td>(\d+)</td>"
    r"\s*<td>([^<]+)</td><td><strong>(\d+)</strong></td>")


def new_league(client, fields: dict) -> League:
    response = client.post("/league/new", data=fields)
    assert response.status_code == 303, unescape(response.text)
    return League(client, response.headers["Location"])


def add_players(league: League, team: str, names: list[str]) -> None:
    for name in names:
        response = league.post(league.captains[team], f"teams/{_team_id(league, team)}/players",
                               {"name": name})
        assert response.status_code == 303, unescape(response.text)


def make_fixtures(league: League) -> None:
    response = league.post(league.secretary, "fixtures/make",
                           {"first": date.today().isoformat(), "every": "7"})
    assert response.status_code == 303, unescape(response.text)


def fixtures(league: League) -> list[tuple[int, str, str]]:
    """Every fixture on the secretary's page: (id, home, away), in date order."""
    page = league.client.get(league.secretary).text
    return [(int(number), home, away)
            for number, home, away in re.findall(r'/card/(\d+)">([^<]+) v ([^<]+)</a>', page)]


def fixture_of(league: League, team: str, other: str) -> tuple[int, str, str]:
    """The first fixture between two teams, at either pub."""
    return next(found for found in fixtures(league) if {found[1], found[2]} == {team, other})


def card_write(league: League, link: str, fixture: int, action: str, data=None):
    response = league.card_post(link, fixture, action, data)
    assert response.status_code == 200, unescape(response.text)
    return response


def pick(league: League, link: str, fixture: int, number: int, home: list[str],
         away: list[str]) -> None:
    data = {f"home{n}": name for n, name in enumerate(home, 1)}
    data.update({f"away{n}": name for n, name in enumerate(away, 1)})
    card_write(league, link, fixture, f"game/{number}/players", data)


def paper(league: League, link: str, fixture: int, number: int, *legs) -> None:
    """A game's paper score: one (home, away) pair, or one per leg of a best-of game."""
    data = {}
    for leg, (home, away) in enumerate(legs, 1):
        suffix = "" if leg == 1 else leg
        data.update({f"home{suffix}": str(home), f"away{suffix}": str(away)})
    card_write(league, link, fixture, f"game/{number}/enter", data)


def confirm(league: League, fixture: int, *teams: str) -> None:
    for team in teams:
        card_write(league, league.captains[team], fixture, "confirm")


def standings(page: str) -> dict[str, list[tuple]]:
    """Each division's table on a league page (by its heading's division, "" for none):
    (team, P, W, D, L, F, A, +/−, points, the play-off mark)."""
    found = {}
    for part in unescape(page).split('class="standings-division"')[1:]:
        heading = re.search(r"<h2[^>]*>Standings(?:: division ([^<]+))?</h2>", part)
        rows = [match.groups() for match in _ROW.finditer(part.split("</table>")[0])]
        found[heading.group(1) or ""] = [
            (row[1], *map(int, row[3:9]), row[9], int(row[10]), row[2] or "") for row in rows]
    return found


def players(page: str) -> list[tuple[str, str, int, int]]:
    """Every players' table on a league page: (player, team, played, won)."""
    return [(name, team, int(played), int(won)) for name, team, played, won in re.findall(
        r'<tr><th scope="row" class="name">([^<]+)</th><td class="name">([^<]+)</td>'
        r"<td>(\d+)</td><td>(\d+)</td>", unescape(page))]


def table_link(card_html: str, number: int) -> str:
    """The scoring link of game `number` on a card (any leg)."""
    return re.search(rf'href="(/match/[\w-]+/[\w-]+)">Score game {number}\b', card_html).group(1)


def position(html: str) -> str:
    return re.search(r'name="pos" value="(\d+)"', html).group(1)


def win_with_the_lead(client, table: str, seat: int) -> str:
    """A leg to 5 won at once: `seat` leads 2-3 (a count of 5). The table's answer."""
    page = client.get(table).text
    page = client.post(f"{table}/start", data={"seat": seat, "pos": position(page)},
                       headers=HTMX).text
    response = client.post(f"{table}/lay", data={"move": "2-3", "pos": position(page)},
                           headers=HTMX)
    assert response.status_code == 200 and "won the match" in response.text, response.text
    return unescape(response.text)


def season_with_legs(client, fields: dict) -> tuple[League, int]:
    """A league of `fields` with divisions A (Anchor, Bell) and B (Crown, Dolphin), its game
    2 pairs, best of 3 to 5: Anchor v Bell's won 2–0 in two legs at one table; Crown v
    Dolphin a walkover; a play-off of Anchor and Bell added. The league, and the fixture
    played."""
    league = new_league(client, fields)
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
