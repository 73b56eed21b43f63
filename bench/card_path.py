"""The path of one league card's paper score through the code: the use-case calls the web
makes for it, and the package's files it crosses, counted with `sys.setprofile`.

A league is set up over HTTP (its pages, as a secretary and captains would), game 1 of a
card is lined up, and then one paper score is posted as a phone's htmx does and counted:
every call the web code makes into services/ (the unit of work's opening and closing
among them), every file of the package that runs, and every call of the package's code.
Only the pages are used, so the same script measures an older checkout too.

    python bench/card_path.py [--before /path/to/old/checkout]
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


def card_ready(client) -> str:
    """A league of two teams, its fixtures made, game 1 of the first card lined up: the
    card's path."""
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
    return card


def measure() -> dict:
    """One paper score posted with htmx, counted: the web's calls into services/ and the
    package's files that ran."""
    from scorekeeper import create_app

    package = str(Path(sys.modules["scorekeeper"].__file__).parent) + os.sep
    web, services = package + "web" + os.sep, package + "services" + os.sep
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "bench",
                          "DATABASE": os.path.join(folder, "path.sqlite")})
        client = app.test_client()
        card = card_ready(client)
        fields = {"rev": _rev(client.get(card).text), "home": "61", "away": "12"}
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
            reply = client.post(f"{card}/game/1/enter", data=fields, headers=HTMX)
        finally:
            sys.setprofile(None)
        assert reply.status_code == 200 and "61" in reply.text, reply.status_code
    return {"service_calls": service_calls, "files": sorted(files), "calls": calls[0]}


def run_in(checkout: Path) -> dict:
    """`measure` in another checkout's package (its own process)."""
    done = subprocess.run([sys.executable, __file__, "--json"], capture_output=True,
                          text=True, check=True, env=dict(os.environ, PYTHONPATH=str(checkout)))
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="an older checkout to measure too")
    parser.add_argument("--json", action="store_true", help="print this checkout's figures")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure()))
        return
    found = {"now": run_in(ROOT)}
    if args.before:
        found["before"] = run_in(args.before.resolve())
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
