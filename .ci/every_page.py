"""Serve every page from the installed package (run by .ci/wheel with the fresh venv's Python).

Every GET route of the app is requested, as a page and as an htmx fragment (a
redirect followed to its page), on a match and a league made through the forms;
every page template must have been rendered, so a page missing from the wheel
fails here rather than on the first night out.
"""

import io
import os
import re
import sys
import tempfile

from flask import template_rendered

import scorekeeper

HTMX = {"HX-Request": "true"}
KEYS = {"board": "view_key", "replay": "view_key", "league": "league_key",
        "card": "league_key"}
"""Which key a blueprint's `<key>` is; the table's scoring key otherwise."""
LEAGUE = {"name": "CI League", "season": "2026", "games": "SSP", "scheme": "two_plus_games",
          "target": "5", "singles_hand": "7", "pairs_hand": "5", "teams": "Anchor\nBell",
          "tie_break1": "game_difference", "tie_break2": "games_won",
          "tie_break3": "head_to_head"}


def main() -> int:
    installed = os.path.dirname(scorekeeper.__file__)
    if "site-packages" not in installed:
        sys.exit(f"scorekeeper was imported from {installed}, not from the installed wheel")
    folder = tempfile.mkdtemp(prefix="every-page-", dir=os.getcwd())
    app = scorekeeper.create_app({"DATABASE": os.path.join(folder, "db.sqlite"),
                                  "SECRET_KEY": "ci", "WTF_CSRF_ENABLED": False})
    rendered = set()

    def seen(_app, template, context, **_extra):
        rendered.add(template.name)

    template_rendered.connect(seen, app)
    client = app.test_client()
    values = {**_match(client), **_league(client)}
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        area = rule.endpoint.split(".")[0]
        known = dict(values, key=values[KEYS.get(area, "score_key")])
        missing = rule.arguments - known.keys()
        if missing:
            print(f"skipped {rule.rule}: no value for {', '.join(sorted(missing))}")
            continue
        path = rule.build(known, append_unknown=False)[1]
        for headers in ({}, HTMX):
            answer = client.get(path, headers=headers, follow_redirects=True)
            if answer.status_code != 200:
                sys.exit(f"GET {path} {headers}: {answer.status_code}")
    _posted_pages(client, values)
    answer = client.get("/static/app.css")
    if answer.status_code != 200 or b"button" not in answer.data:
        sys.exit("the stylesheet is not served from the installed package")
    answer.close()
    if client.get("/no-such-page").status_code != 404:
        sys.exit("an unknown page does not answer 404")
    _speaks_every_language(app, installed)
    pages = {os.path.relpath(os.path.join(root, name), os.path.join(installed, "templates"))
             for root, _dirs, files in os.walk(os.path.join(installed, "templates"))
             for name in files if name.endswith(".html") and not name.startswith("_")}
    pages.discard("base.html")  # every page extends it
    unseen = sorted(pages - rendered)
    if unseen:
        sys.exit(f"page templates never rendered: {', '.join(unseen)}")
    print(f"served {len(rendered)} templates from {installed}")
    return 0


def _match(client) -> dict:
    """A match made and played through the forms, one tile each and its first hand scored;
    the values of the URLs' arguments (`key` is the scoring key, or the scoreboard's on
    board and replay pages; hand 1's move 1)."""
    made = client.post("/new", data={"count": "2", "player1": "Ann", "player2": "Bob",
                                     "target": "61", "hand_size": "1"})
    if made.status_code != 303:
        sys.exit(f"POST /new answered {made.status_code}")
    match_id, score_key = made.headers["Location"].rstrip("/").split("/")[-2:]
    page = client.get(made.headers["Location"]).text
    taps = (("start", {"seat": "0"}), ("lay", {"move": "6-4"}),
            ("end", {"pips_1": "12"}))  # Ann goes out with her one tile; Bob holds 6-6
    for pos, (action, data) in enumerate(taps):
        answer = client.post(f"/match/{match_id}/{score_key}/{action}",
                             data={**data, "pos": str(pos)})
        if answer.status_code != 303:
            sys.exit(f"POST {action} answered {answer.status_code}")
    view_key = re.search(r'/board/[^/]+/([^/"]+)', page).group(1)
    return {"match_id": match_id, "score_key": score_key, "view_key": view_key, "hand": 1,
            "move": 1}


def _speaks_every_language(app, installed: str) -> None:
    """Each catalogue in the wheel is the one the app words its pages with."""
    from babel.support import Translations
    from flask_babel import gettext

    folder = os.path.join(installed, "translations")
    for language in sorted(os.listdir(folder)):
        if not os.path.isdir(os.path.join(folder, language)):
            continue
        catalogue = Translations.load(folder, [language])
        msgid, text = next((k, v) for k, v in catalogue._catalog.items()
                           if isinstance(k, str) and k and v != k)
        with app.test_request_context(f"/?lang={language}"):
            if gettext(msgid) != text:
                sys.exit(f"the app does not word its pages with the {language} catalogue")


def _league(client) -> dict:
    """A league of two teams with its fixtures made: its secretary's key and a card."""
    made = client.post("/league/new", data=LEAGUE)
    if made.status_code != 303:
        sys.exit(f"POST /league/new answered {made.status_code}")
    link = made.headers["Location"]
    league_id, key = link.rstrip("/").split("/")[-2:]
    fixtures = client.post(f"{link}/fixtures/make", data={"first": "2026-11-30", "every": "7"})
    if fixtures.status_code != 303:
        sys.exit(f"POST fixtures/make answered {fixtures.status_code}")
    page = client.get(link).text
    fixture = re.search(r'/card/(\d+)"', page).group(1)
    teams = re.findall(r'/teams/(\d+)/players"', page)
    for team, name in zip(teams, ("Ann", "Bob"), strict=True):
        _posted(client, f"{link}/teams/{team}/players", {"name": name}, 303)
    return {"league_id": league_id, "league_key": key, "fixture_id": fixture,
            "team_id": teams[0], "name": "Ann"}


def _posted(client, path: str, data: dict, status: int, **options):
    answer = client.post(path, data=data, **options)
    if answer.status_code != status:
        sys.exit(f"POST {path} answered {answer.status_code}, not {status}")
    return answer


def _posted_pages(client, values: dict) -> None:
    """The pages only a POST shows: a season archive's preview before it is restored, and
    the question a deletion that would take a result away asks first."""
    link = f"/league/{values['league_id']}/{values['league_key']}"
    archive = client.get(f"{link}/season.json").data
    _posted(client, "/league/restore", {"archive": (io.BytesIO(archive), "season.json")},
            200, content_type="multipart/form-data")
    card = f"{link}/card/{values['fixture_id']}"

    def rev() -> str:
        return re.search(r'name="rev" value="(\d+)"', client.get(card).text).group(1)

    _posted(client, f"{card}/game/1/players", {"rev": rev(), "home1": "Ann", "away1": "Bob"},
            303)
    _posted(client, f"{card}/game/1/enter", {"rev": rev(), "home": "5", "away": "2"}, 303)
    _posted(client, f"{link}/teams/{values['team_id']}/players/delete", {"player": "Ann"},
            200)


if __name__ == "__main__":
    sys.exit(main())
