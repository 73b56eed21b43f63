"""The path of one request through the code: the package's files it crosses, the calls of
the package's code it makes, and the calls the web makes into services/ (the unit of
work's opening and closing among them), counted with `sys.setprofile`.

`tap`: a lay posted with htmx on a match in progress, after a warm-up tap (templates
compiled, the match kept by the worker), as a running server sees it. `card`: a league's
paper score posted with htmx on a card whose game 1 is lined up. Both are set up through
the pages only, so the same script measures an older checkout too (its own process).

    python bench/request_path.py [--request tap|card] [--before /path/to/old/checkout]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HTMX = {"HX-Request": "true"}
TEAMS = ("Anchor", "Bell")
_TEAM_FORM = re.compile(r'action="(/league/[\w-]+/[\w-]+/teams/\d+/players)"')
_CARD = re.compile(r'href="(/league/[\w-]+/[\w-]+/card/\d+)"')
_REV = re.compile(r'name="rev"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="rev"')


def _posted(client, path: str, fields: dict, headers=None):
    reply = client.post(path, data=fields, headers=headers or {})
    if reply.status_code not in (200, 303):
        raise SystemExit(f"POST {path}: {reply.status_code} {reply.text[:300]!r}")
    return reply


def _rev(html: str) -> str:
    found = _REV.search(html)
    return found.group(1) or found.group(2)


def tap_ready(client):
    """A match led and one tile laid: the request that lays the next tile."""
    table = _posted(client, "/new", {"count": "2", "target": "61", "hand_size": "7",
                                     "player1": "Ann", "player2": "Bob"}).headers["Location"]
    _posted(client, f"{table}/start", {"seat": 0, "pos": 0}, HTMX)
    _posted(client, f"{table}/lay", {"move": "6-6", "pos": 1}, HTMX)  # warm-up
    return f"{table}/lay", {"move": "6-3", "pos": 2}


def card_ready(client):
    """A league of two teams, its fixtures made, game 1 of the first card lined up: the
    request that enters its paper score."""
    reply = _posted(client, "/league/new", {
        "name": "Path League", "season": "2026", "games": "SS", "scheme": "two_plus_games",
        "target": 61, "singles_hand": 7, "pairs_hand": 5, "teams": "\n".join(TEAMS),
        "tie_break1": "game_difference", "tie_break2": "games_won",
        "tie_break3": "head_to_head"})
    secretary = reply.headers["Location"]
    for team, action in zip(TEAMS, _TEAM_FORM.findall(client.get(secretary).text),
                            strict=True):
        _posted(client, action, {"name": f"{team} 1"})
    _posted(client, f"{secretary}/fixtures/make",
            {"first": date.today().isoformat(), "every": 7})
    card = _CARD.search(client.get(secretary).text).group(1)
    _posted(client, f"{card}/game/1/players", {
        "rev": _rev(client.get(card).text), "home1": "Anchor 1", "away1": "Bell 1"})
    return f"{card}/game/1/enter", {"rev": _rev(client.get(card).text), "home": "61",
                                    "away": "12"}


READY = {"tap": tap_ready, "card": card_ready}


def measure(request: str) -> dict:
    """The request posted with htmx, counted."""
    from scorekeeper import create_app

    package = str(Path(sys.modules["scorekeeper"].__file__).parent) + os.sep
    web, services = package + "web" + os.sep, package + "services" + os.sep
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "bench",
                          "DATABASE": os.path.join(folder, "path.sqlite")})
        client = app.test_client()
        path, fields = READY[request](client)
        files, service_calls, calls = set(), [], [0]

        def profile(frame, event, _arg):
            if event != "call":
                return
            where = frame.f_code.co_filename
            if where.startswith(package):
                calls[0] += 1
                files.add(where[len(package):])
                caller = frame.f_back.f_code.co_filename if frame.f_back else ""
                if where.startswith(services) and caller.startswith(web):
                    service_calls.append(f"{where[len(package):]}:{frame.f_code.co_name}")

        sys.setprofile(profile)
        try:
            reply = client.post(path, data=fields, headers=HTMX)
        finally:
            sys.setprofile(None)
        assert reply.status_code == 200, reply.status_code
    return {"service_calls": service_calls, "files": sorted(files), "calls": calls[0]}


def run_in(checkout: Path, request: str) -> dict:
    """`measure` in a checkout's package (its own process)."""
    done = subprocess.run([sys.executable, __file__, "--request", request, "--json"],
                          capture_output=True, text=True, check=True,
                          env=dict(os.environ, PYTHONPATH=str(checkout)))
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--request", choices=sorted(READY), default="tap")
    parser.add_argument("--before", type=Path, help="an older checkout to measure too")
    parser.add_argument("--json", action="store_true", help="print this checkout's figures")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.request)))
        return
    found = {"now": run_in(ROOT, args.request)}
    if args.before:
        found["before"] = run_in(args.before.resolve(), args.request)
    for name, figures in reversed(found.items()):
        print(f"{name}: {len(figures['service_calls'])} service calls, "
              f"{len(figures['files'])} package files, {figures['calls']} calls in the package")
        for call in figures["service_calls"]:
            print(f"    {call}")
    if "before" in found:
        gone = sorted(set(found["before"]["files"]) - set(found["now"]["files"]))
        new = sorted(set(found["now"]["files"]) - set(found["before"]["files"]))
        print("files no longer crossed:", ", ".join(gone) or "none")
        print("files crossed now only:", ", ".join(new) or "none")


if __name__ == "__main__":
    main()
