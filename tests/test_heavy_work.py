"""Heavy work (a season restored, an archive or export written, a league printed) is
served a slot at a time across the workers: past it, 503 at once with Retry-After, in the
reader's words, so the other workers keep serving the tables' taps. (What it spares the
taps is measured by bench/heavy_work.py.)"""

import asyncio
import fcntl
import os
import time
from html import unescape

import pytest
from test_web_league import LEAGUE, League

from scorekeeper.web.answers import heavy


@pytest.fixture
def secretary(client) -> str:
    return League(client, client.post("/league/new", data=LEAGUE).headers["Location"]).secretary


def held_slot(app) -> int:
    """The app's one slot of heavy work, taken as another worker's request takes it."""
    with app.test_request_context():
        path = heavy._slot_files()[0]
    held = os.open(path, os.O_RDWR | os.O_CREAT)
    fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return held


@pytest.mark.parametrize("export", ["season.json.gz", "season.json", "games.csv",
                                   "players.csv", "standings.csv", "results.csv", "print"])
def test_heavy_work_while_another_request_holds_its_slot_is_answered_503_at_once(
        app, client, secretary, export):
    held = held_slot(app)
    try:
        busy = client.get(f"{secretary}/{export}")
        assert busy.status_code == 503 and busy.headers["Retry-After"] == "5"
        assert "busy restoring or exporting a season: wait 5 seconds" in unescape(busy.text)
        assert client.get(secretary).status_code == 200  # the league's page is not heavy
    finally:
        os.close(held)
    assert client.get(f"{secretary}/{export}").status_code == 200


def test_a_restore_while_another_holds_the_slot_is_answered_503(app, client):
    held = held_slot(app)
    try:
        assert client.post("/league/restore", data={}).status_code == 503
    finally:
        os.close(held)
    assert client.post("/league/restore", data={}).status_code == 422


def test_the_slot_is_given_back_when_the_view_fails(app, client, secretary, monkeypatch):
    from scorekeeper.services.league import archive

    def failing(*args):
        raise RuntimeError("a bug in an export")

    monkeypatch.setattr(archive, "games_csv", failing)
    with pytest.raises(RuntimeError):
        client.get(f"{secretary}/games.csv")
    monkeypatch.undo()
    assert client.get(f"{secretary}/games.csv").status_code == 200


def test_under_serve_heavy_work_runs_beside_the_queue_so_a_request_is_not_held_behind_it(
        app, secretary, monkeypatch):
    """On the worker's event loop, a request that reached the worker of an export waited
    for the whole export; on its own thread, the loop serves the request meanwhile."""
    from test_serve_overload import ask, run

    from scorekeeper.server.serve import gateway_for
    from scorekeeper.services.league import archive

    def slow(*args):
        time.sleep(0.5)  # as an export of the largest league holds its worker
        return "a,b\r\n"

    monkeypatch.setattr(archive, "games_csv", slow)
    gateway = gateway_for(app)

    async def together():
        return await asyncio.gather(ask(gateway, "GET", f"{secretary}/games.csv"),
                                    ask(gateway, "GET", "/rules"))

    (exported, *_, export_took), (rules, *_, rules_took) = run(together())
    assert exported == 200 and rules == 200 and rules_took < export_took / 2
