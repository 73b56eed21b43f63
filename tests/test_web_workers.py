"""Two workers (app instances) on one database, as `scorekeeper serve` runs one per core:
a scoreboard revision is rendered and compressed by one of them for both, and every
phone gets exactly the answer one worker alone would give it."""

import gzip
import io
import json
import random
import re

import pytest
import stores
from conftest import HTMX, Phone, create_match
from flask import render_template, request_started, template_rendered
from simulation import RandomTable, random_table
from tables import event_form

from scorekeeper import storage
from scorekeeper.rules import (
    RULE_SETS,
    Draw,
    Match,
    Remaining,
    Table,
)
from scorekeeper.rules.match.record import write_record
from scorekeeper.rules.notation.events import UNDO
from scorekeeper.storage.dialects import SQLITE
from scorekeeper.web.answers import compression
from scorekeeper.web.scoring import board
from scorekeeper.web.scoring.screens import board_screen

GZIP = {"Accept-Encoding": "gzip, deflate"}


@pytest.fixture
def workers(app_factory, database):
    """Two workers on one database (SQLite, then PostgreSQL)."""
    return app_factory(database=database), app_factory(database=database)


@pytest.fixture
def rendered(workers):
    """The boards each worker renders, as (worker number, template) in order."""
    seen = []
    for number, app in enumerate(workers):
        template_rendered.connect(
            lambda _app, template, number=number, **_: seen.append((number, template.name)),
            app, weak=False)
    return seen


def new_table(app) -> Phone:
    client = app.test_client()
    return Phone(client, create_match(client))


def board_of(table: Phone) -> str:
    page = table.page().text
    return re.search(r'class="board-link" href="http://localhost([^"]+)"', page).group(1)


def boards_kept(app, match_id: str) -> list[tuple]:
    conn = storage.connect(storage.location(app.config))
    try:
        return [tuple(row) for row in conn.execute(
            "SELECT variant, revision FROM boards WHERE match_id = ? ORDER BY variant",
            (match_id,))]
    finally:
        conn.close()


def test_a_revision_polled_through_both_workers_is_rendered_and_compressed_once(
        workers, rendered, monkeypatch):
    first, second = workers
    table = new_table(first)
    table.start(0)
    path = board_of(table)
    rendered.clear()
    made = []
    cheap = compression.cheap
    monkeypatch.setattr(compression, "cheap",
                        lambda body, encoding: made.append(encoding) or cheap(body, encoding))
    one = first.test_client().get(path, headers={**HTMX, **GZIP})
    two = second.test_client().get(path, headers={**HTMX, **GZIP})
    assert rendered == [(0, "board/_board.html")] and made == ["gzip"]
    assert two.data == one.data and two.headers["Content-Encoding"] == "gzip"
    assert two.headers["ETag"] == one.headers["ETag"]
    assert "Ann to play" in gzip.decompress(two.data).decode()
    unchanged = second.test_client().get(path, headers={**HTMX,
                                                         "If-None-Match": one.headers["ETag"]})
    assert unchanged.status_code == 304
    table.lay("6-4")
    moved = second.test_client().get(path, headers={**HTMX, **GZIP})
    assert rendered[-1] == (1, "board/_board.html") and made == ["gzip", "gzip"]
    assert "Bob to play" in gzip.decompress(moved.data).decode()


def answer_of(response) -> tuple:
    return response.status_code, sorted(response.headers.items()), response.data


def test_a_poll_asked_again_is_answered_as_before_without_the_app_until_the_match_changes(
        workers):
    """Through the other server too: the revision is read from the database at each poll."""
    first, second = workers
    table = new_table(first)
    table.start(0)
    path = board_of(table)
    seen = []
    request_started.connect(lambda _app, **_: seen.append(path), second, weak=False)
    phone = second.test_client()
    board_now = phone.get(path, headers={**HTMX, **GZIP})
    polled = {**HTMX, **GZIP, "If-None-Match": board_now.headers["ETag"]}
    unchanged = [answer_of(phone.get(path, headers=polled)) for _ in range(3)]
    assert len(seen) == 2 and unchanged[0][0] == 304 and unchanged.count(unchanged[0]) == 3
    again = phone.get(path, headers={**HTMX, **GZIP})
    assert answer_of(again) == answer_of(board_now) and len(seen) == 2
    table.lay("6-4")
    moved = phone.get(path, headers=polled)
    assert moved.status_code == 200 and len(seen) == 3
    assert "Bob to play" in gzip.decompress(moved.data).decode()
    table.client.post(f"/mine/{table.match_id}/delete")
    assert phone.get(path, headers=polled).status_code == 404


def test_a_poll_in_another_language_or_with_a_query_is_the_apps_own_answer(workers):
    first, _ = workers
    table = new_table(first)
    table.start(0)
    path = board_of(table)
    phone = first.test_client()
    english = phone.get(path, headers=HTMX)
    greek = phone.get(path, headers={**HTMX, "Accept-Language": "el"})
    assert "Ann to play" in english.text and "Ann to play" not in greek.text
    chosen = phone.get(path + "?lang=cs", headers=HTMX)
    assert "lang=cs" in chosen.headers["Set-Cookie"]


def fresh_board(app, path: str, made: stores.Stored) -> str:
    """The board fragment rendered from a replay of the whole log, nothing kept anywhere."""
    conn = storage.connect(storage.location(app.config))
    try:
        with app.test_request_context(path, headers=HTMX):
            stored = stores.load(conn, made.id, made.view_key, scoring=False)
            return render_template("board/_board.html", stored=stored, match=stored.match,
                                   screen=board_screen(stored.match))
    finally:
        conn.close()


def test_through_either_worker_each_poll_shows_what_one_worker_alone_would_show(workers):
    """Taps (and undos, of a tile and of a hand's end) through either worker, as the server
    hands them on; polls through either, in either encoding."""
    rng = random.Random(5)
    conns = [storage.connect(storage.location(app.config)) for app in workers]
    table = Table.create(["Ann", "Bob", "Cat"], target=61)
    made = stores.create(conns[0], Match(table))
    path = f"/board/{made.id}/{made.view_key}"
    sim = RandomTable(Match(table), rng)
    while not sim.match.is_over():
        worker = rng.randrange(2)
        cache = workers[worker].extensions["scorekeeper.store"].cache
        loaded = stores.load(conns[worker], made.id, made.score_key, True, cache)
        if sim.match.log and rng.random() < 0.15:
            sim.undo_tap()  # as the Undo button: one tile of a draw of several
            entry = UNDO
        else:
            entry = sim.step()
        stores.write(conns[worker], loaded, loaded.revision, entry, cache)
        expected = fresh_board(workers[0], path, made)
        for _viewer in range(2):
            asked = rng.choice([{}, GZIP])
            answer = workers[rng.randrange(2)].test_client().get(path, headers={**HTMX, **asked})
            body = gzip.decompress(answer.data) if asked else answer.data
            assert body.decode() == expected
    for conn in conns:
        conn.close()


def test_only_the_newest_revision_is_kept_and_the_boards_go_with_their_match(workers):
    first, second = workers
    table = new_table(first)
    table.start(0)
    path = board_of(table)
    first.test_client().get(path, headers=HTMX)
    first.test_client().get(path, headers={**HTMX, **GZIP})
    table.lay("6-4")
    second.test_client().get(path, headers=HTMX)
    assert [(variant.rsplit("-", 1)[0], revision)
            for variant, revision in boards_kept(first, table.match_id)] == [
        ("fragment-en-gzip", 1), ("fragment-en-plain", 2)]
    deleted = table.client.post(f"/mine/{table.match_id}/delete")
    assert deleted.status_code == 303
    assert boards_kept(first, table.match_id) == []


def test_a_board_kept_by_another_release_is_rendered_again(workers, rendered, monkeypatch):
    first, second = workers
    table = new_table(first)
    table.start(0)
    path = board_of(table)
    rendered.clear()
    first.test_client().get(path, headers=HTMX)
    monkeypatch.setattr(board, "_release", lambda templates: "upgraded")
    second.test_client().get(path, headers=HTMX)
    assert rendered == [(0, "board/_board.html"), (1, "board/_board.html")]


def test_a_board_is_never_kept_for_a_match_deleted_meanwhile_nor_over_a_newer_one(database):
    conn = storage.connect(database)
    try:
        made = stores.create(conn, Match.create(["Ann", "Bob"]))
        boards = storage.BoardRepository(conn)
        boards.keep(made.id, 3, "fragment-en-plain", b"three", None)
        boards.keep(made.id, 2, "fragment-en-plain", b"two", None)
        assert boards.kept(made.id, 3, "fragment-en-plain") == (b"three", None)
        assert boards.kept(made.id, 2, "fragment-en-plain") is None
        assert stores.delete(conn, made.id, made.score_key)
        boards.keep(made.id, 4, "fragment-en-gzip", b"four", "gzip")
        assert boards.kept(made.id, 4, "fragment-en-gzip") is None
        if conn.dialect is SQLITE:  # a tap's write after it still waits for the disk
            assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2
    finally:
        conn.close()


def record_of(app, url: str) -> dict:
    return app.test_client().get(url + "/export").get_json()


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.name)
def test_an_undo_through_one_worker_is_what_the_other_shows_and_taps_on(workers, rules):
    """Issue 24: each worker kept its own state after an undo, so one match showed 61-58
    through one and 54-59 through the other. Undo through one worker, read and tap through
    the other, many times at every depth: both show what a replay of the log shows."""
    rng = random.Random(24)
    table = random_table(rng, rules)
    match = Match(table)
    sim = RandomTable(match, rng, 0.8)
    while len(match.log) < 120 and not match.is_over():
        sim.step()
    match = Match(table, [single for event in match.log for single in as_tapped(event)])
    first, second = workers
    client = first.test_client()
    answer = client.post("/import", data={
        "record": (io.BytesIO(json.dumps(write_record(match)).encode()), "m.json")})
    url = answer.headers["Location"]
    phones = [Phone(first.test_client(), url), Phone(second.test_client(), url)]
    for phone in phones:
        phone.page()  # each worker keeps the match at this revision
    log = list(match.log)
    for depth in (1, 3, 7, 15):
        undoing, other = phones[depth % 2], phones[1 - depth % 2]
        undoing.page()
        for _ in range(depth):
            assert undoing.undo(data={"confirm": "1"}).status_code == 200
        shortened = Match(table, log[:-depth])
        for app in workers:
            assert record_of(app, url) == write_record(shortened)
        other.page()
        for event in log[-depth:]:  # the same taps again, through the other worker
            assert other.post(*event_form(event)).status_code == 200
            shortened.push(event)
        for app in workers:
            assert record_of(app, url) == write_record(match)


def as_tapped(event) -> list:
    """The events a phone's taps make of one event: a draw of n tiles is n taps of Draw, and
    the tiles left in a hand are typed as their pips."""
    if isinstance(event, Draw):
        return [Draw(1)] * event.count
    if isinstance(event, Remaining):
        return [Remaining(tuple((seat, held if isinstance(held, int) else sum(map(sum, held)))
                                for seat, held in event.held))]
    return [event]


def test_the_reported_record_undoes_and_redoes_exactly_through_the_pages(workers):
    """The record of issue 24, imported and undone through one worker, redone through the
    other: 14-28 after the undo, and the same record byte for byte after the redo."""
    from test_rules_undo import REPORTED

    first, second = workers
    answer = first.test_client().post("/import", data={
        "record": (io.BytesIO(REPORTED.encode()), "report.json")})
    url = answer.headers["Location"]
    imported = record_of(first, url)
    one, other = Phone(first.test_client(), url), Phone(second.test_client(), url)
    other.page()
    undone = one.undo()
    assert undone.status_code == 200 and "Undid: Alan Birch 5-6 on the 5" in undone.text
    for app in workers:
        assert record_of(app, url)["hands"][-1]["moves"] == ["2-5", "2-4@L"]
    page = other.page().text
    assert ">14<" in page and ">28<" in page
    assert other.lay("5-6@R").status_code == 200
    assert record_of(first, url) == record_of(second, url) == imported
