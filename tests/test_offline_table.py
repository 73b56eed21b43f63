"""The offline table (web/offline/table.py) answers every tap with the bytes the server
answers: random matches of every rule set, with house rules, partnerships and spinners, in
every language, each tap sent to the server and to the offline table from the same screen.

The offline table runs here in CPython on the files of the zip the phones download (its
templates and catalogues), so what it draws in the browser is what is compared."""

import io
import json
import random
import re
import zipfile

import pytest
from simulation import RandomTable, random_table
from werkzeug.datastructures import MultiDict

from scorekeeper.rules import RULE_SETS, Draw, Lay, Match, Pass, Remaining, Start
from scorekeeper.rules.notation.events import button_value
from scorekeeper.services import matches
from scorekeeper.web.answers.language import LANGUAGES
from scorekeeper.web.answers.work import app_unit_of_work
from scorekeeper.web.offline.table import OfflineTable
from scorekeeper.web.scoring.install import engine_version

_TOKEN = re.compile(r'name="csrf_token" value="([^"]*)"')


def taps(event, required: list[int]) -> list[tuple[str, list]]:
    """The taps (form action, fields) a scorer's phone sends for one event."""
    if isinstance(event, Start):
        return [("start", [("seat", str(event.seat))])]
    if isinstance(event, Lay):
        return [("lay", [("move", button_value(event.tile, event.end))])]
    if isinstance(event, Draw):
        return [("draw", [])] * event.count
    if isinstance(event, Pass):
        return [("pass", [])]
    assert isinstance(event, Remaining)
    held, fields = dict(event.held), []
    for seat in required:
        value = held[seat]
        if isinstance(value, int):
            fields.append((f"pips_{seat}", str(value)))
        else:
            fields.extend((f"tiles_{seat}", f"{tile[0]}-{tile[1]}") for tile in value)
    return [("end", [*fields, ("check", "1")]), ("end", fields)]


def played(rng: random.Random, rules, most: int, table=None, hands: int | None = None):
    """A random match's setup and its taps (up to `most`, or until `hands` hands have
    begun), with detours now and then: a tile that fits nowhere, a pips value that is not a
    number, an undo (a scored hand's asks first, then is confirmed) and the same taps
    again."""
    table = table or random_table(rng, rules, house=rng.random() < 0.5)
    mirror = Match(table)
    simulation = RandomTable(mirror, rng, 0.5)
    steps = []
    while not mirror.is_over() and len(steps) < most and len(mirror.hands) <= (hands or 99):
        required = mirror.needed_remaining()[0] if mirror.phase == "end" else []
        event = simulation.step()
        event_taps = taps(event, required)
        roll = rng.random()
        if mirror.log[:-1] and roll < 0.05:
            steps.append(("lay", [("move", "0-0@L")]))
        elif roll < 0.08 and mirror.phase == "end":
            steps.append(("end", [(f"pips_{seat}", "x") for seat in required]))
        steps.extend(event_taps)
        if roll > 0.92 and not isinstance(event, Draw):
            steps.extend([("undo", []), ("undo", [("confirm", "1")])] + event_taps)
    return table, steps


@pytest.fixture
def engine_root(app, tmp_path):
    """The zip the phones download, unpacked (through its own address)."""
    with app.test_request_context():
        version = engine_version()
    answer = app.test_client().get(f"/engine/{version}.zip")
    assert answer.status_code == 200 and "immutable" in answer.headers["Cache-Control"]
    zipfile.ZipFile(io.BytesIO(answer.data)).extractall(tmp_path / "engine")
    assert app.test_client().get("/engine/0123456789abcdef.zip").status_code == 404
    return str(tmp_path / "engine")


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.name)
def test_every_tap_offline_draws_what_the_server_answers(app, engine_root, rules):
    rng = random.Random(rules.name)
    for number, language in enumerate(LANGUAGES):
        table, steps = played(rng, rules, most=90 if number else 400)
        opened = matches.create_match(app_unit_of_work(app), Match(table))
        page = f"/match/{opened.id}/{opened.score_key}"
        client = app.test_client()
        headers = {"Accept-Language": language, "HX-Request": "true"}
        client.get(page, headers=headers)  # the session's form token, signed from now on
        first = client.get(page, headers=headers).get_data(as_text=True)
        token = _TOKEN.search(first)[1]
        state = client.get(f"{page}/engine-state", headers=headers).get_json()
        offline = OfflineTable(state, engine_root, token)
        assert offline.show()["html"] == first
        for action, fields in steps:
            server = client.post(f"{page}/{action}", headers=headers,
                                 data=MultiDict([*fields, ("pos", str(offline.revision)),
                                                 ("csrf_token", token)]))
            answer = offline.tap(action, fields)
            said = f"{rules.name} {language} {action} {fields}"
            assert answer["status"] == server.status_code, said
            assert answer["html"] == server.get_data(as_text=True), said


def test_a_league_table_held_by_its_card_refuses_offline_as_the_server(app, engine_root):
    table, steps = played(random.Random(3), RULE_SETS[0], most=6)
    opened = matches.create_match(app_unit_of_work(app), Match(table))
    client = app.test_client()
    page = f"/match/{opened.id}/{opened.score_key}"
    state = client.get(f"{page}/engine-state").get_json()
    assert state["held"] is False and state["revision"] == 0
    state["held"] = True
    offline = OfflineTable(state, engine_root, "token")
    answer = offline.tap(*steps[0])
    assert answer["status"] == 422 and "card is confirmed" in answer["html"]
    assert offline.revision == 0


def test_the_engine_state_is_the_match_record_at_its_revision(app):
    table, steps = played(random.Random(4), RULE_SETS[1], most=5)
    opened = matches.create_match(app_unit_of_work(app), Match(table))
    client = app.test_client()
    page = f"/match/{opened.id}/{opened.score_key}"
    answer = client.get(f"{page}/engine-state", headers={"Accept-Language": "hu"})
    assert answer.headers["Cache-Control"] == "no-store"
    state = answer.get_json()
    assert state["locale"] == "hu" and state["record"]["players"] == list(table.players)
    assert state["urls"]["table.lay"][0] == "/match/<match_id>/<key>/lay"
    assert client.get(f"/match/{opened.id}/wrong/engine-state").status_code == 404
    assert json.dumps(state)  # plain JSON for the page
