"""League night played from league cards: a league set up over HTTP as a secretary and
captains would, every table scoring one game of tonight's cards, and people following
the public league page.

Each game is started from its card (`Start game N at a table`) and scored through the
scoring link the card shows, exactly as a table's phone does.
"""

import re
from datetime import date
from urllib.parse import urlencode, urlsplit

from scorekeeper.rules import Match, Table

from .people import BrowserTable, Resting, Scorer, field_value, timed, turned_away

CARD = "SSSSSSPPP"
"""Six singles then three pairs: the card of many English pub leagues."""
SINGLES_HAND, PAIRS_HAND, TARGET = 7, 5, 250
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
_SCORE_LINK = re.compile(r'href="(/match/[\w-]+/[\w-]+)">Score game (\d+)<')
_TONIGHT = re.compile(r'<a href="(/league/[\w-]+/[\w-]+/card/\d+)"><strong>')
_CAPTAIN = re.compile(r"Captain&#39;s link: <a href=\"[^\"]*?(/league/[\w-]+/[\w-]+)\"")
_PUBLIC = re.compile(r'class="board-link" href="[^"]*?(/league/[\w-]+/[\w-]+)"')
_TEAM_FORM = re.compile(r'action="(/league/[\w-]+/[\w-]+/teams/\d+/players)"')


class LeagueSetupFailed(Exception):
    """The league could not be set up over HTTP: the run stops before measuring."""


def _post(client, recorder, path: str, fields: dict):
    reply = timed(client, recorder, "setup", "league", "POST", path,
                  urlencode(fields).encode(), FORM)
    if reply is None or reply.status not in (200, 303):
        raise LeagueSetupFailed(f"POST {path}: {reply and reply.status} "
                                f"{reply and reply.text[:300]!r}")
    return reply


def _get(client, recorder, path: str):
    reply = timed(client, recorder, "setup", "league", "GET", path)
    if reply is None or reply.status != 200:
        raise LeagueSetupFailed(f"GET {path}: {reply and reply.status}")
    return reply


def set_up_league(client, recorder, games_wanted: int) -> dict:
    """A league with enough teams that tonight's cards hold `games_wanted` games, started.

    Returns the public page's path and, per game, its scoring path and its table.
    """
    fixtures_tonight = -(-games_wanted // len(CARD))
    teams = [f"Team {n:02d}" for n in range(2 * fixtures_tonight)]
    page = _get(client, recorder, "/league/new")
    reply = _post(client, recorder, "/league/new", {
        "csrf_token": field_value(page.text, "csrf_token"), "name": "Bench League",
        "season": "2026", "games": CARD, "scheme": "two_plus_games", "target": TARGET,
        "singles_hand": SINGLES_HAND, "pairs_hand": PAIRS_HAND, "teams": "\n".join(teams),
        "tie_break1": "game_difference", "tie_break2": "games_won",
        "tie_break3": "head_to_head"})
    secretary = urlsplit(reply.headers["Location"]).path
    page = _get(client, recorder, secretary).text
    csrf = field_value(page, "csrf_token")
    for team, action in zip(teams, _TEAM_FORM.findall(page), strict=True):
        for number in range(6):
            _post(client, recorder, action, {"csrf_token": csrf, "name": f"{team} P{number}"})
    _post(client, recorder, f"{secretary}/fixtures/make",
          {"csrf_token": csrf, "first": date.today().isoformat(), "every": 7})
    page = _get(client, recorder, secretary).text
    games = []
    for card_path in _TONIGHT.findall(page)[:fixtures_tonight]:
        games.extend(_start_card(client, recorder, card_path, csrf))
    return {"public": _PUBLIC.search(page).group(1), "games": games[:games_wanted]}


def _start_card(client, recorder, card_path: str, csrf: str) -> list[dict]:
    """Line up every game of one card (player n plays singles n and pairs n // 2), start
    them all, and read each game's scoring link off the card."""
    card = _get(client, recorder, card_path).text
    rosters = {side: re.findall(r'<option>([^<]+)</option>', _select(card, f"g1-{side}1"))
               for side in ("home", "away")}
    tables = []
    for number, kind in enumerate(CARD, 1):
        if kind == "S":
            picked = {side: [rosters[side][number - 1]] for side in rosters}
        else:
            pair = number - CARD.index("P") - 1
            picked = {side: rosters[side][2 * pair:2 * pair + 2] for side in rosters}
        fields = {f"{side}{seat}": name for side, names in picked.items()
                  for seat, name in enumerate(names, 1)}
        _post(client, recorder, f"{card_path}/game/{number}/players",
              {"csrf_token": csrf, "rev": int(field_value(card, "rev")), **fields})
        card = _get(client, recorder, card_path).text
        _post(client, recorder, f"{card_path}/game/{number}/start",
              {"csrf_token": csrf, "rev": int(field_value(card, "rev"))})
        card = _get(client, recorder, card_path).text
        seats = [name for pair in zip(picked["home"], picked["away"], strict=True)
                 for name in pair]
        tables.append({"number": number, "table": Table.create(
            seats, kind == "P", TARGET, SINGLES_HAND if kind == "S" else PAIRS_HAND)})
    links = {int(n): path for path, n in _SCORE_LINK.findall(card)}
    for game in tables:
        game["path"] = links[game["number"]]
    return tables


def _select(html: str, element_id: str) -> str:
    start = html.index(f'id="{element_id}"')
    return html[start:html.index("</select>", start)]


class CardScorer(Scorer):
    """The phone on a table playing one game of a league card; afterwards, as any table,
    it starts ordinary matches."""

    def __init__(self, game: dict, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game

    def new_match(self, preplay: bool, category: str = "setup") -> bool:
        if self.game is None:
            return super().new_match(False, category)
        game, self.game = self.game, None
        self.match = Match(game["table"])
        self.sim = BrowserTable(self.match, self.rng)
        self.pending.clear()
        self.matches += 1
        self.page_url = game["path"]
        reply = timed(self.client, self.recorder, category, "page", "GET", game["path"])
        if reply is None or reply.status != 200:
            return self._fail(f"could not open league game {game['path']}")
        return self._enter(reply.text)


class PublicViewer(Resting):
    """Someone following the public league page: its live part, polled as htmx does."""

    def __init__(self, path: str, client, recorder):
        self.path, self.client, self.recorder = path, client, recorder
        self.errors: list[str] = []

    def tick(self) -> None:
        if self.resting():
            return
        headers = {"HX-Request": "true", "HX-Current-URL": f"http://127.0.0.1{self.path}",
                   "HX-Target": "live"}
        reply = timed(self.client, self.recorder, "public", "public", "GET", self.path, None,
                      headers)
        wait = turned_away(reply)
        if wait is not None:
            self.rest(wait)  # counted among the run's 503s, not a wrong page
        elif reply is not None and (reply.status != 200 or "/match/" in reply.text):
            self.errors.append(f"public page: status {reply.status}, or a scoring link")
