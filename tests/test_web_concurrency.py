"""Two phones on one match, and one phone tapping twice: every write names the pos it saw."""

import html
import json
import re
import threading

import pytest
import stores

from scorekeeper.rules import Match, Table
from scorekeeper.rules.notation.events import event_from_data
from scorekeeper.storage import connect, location

HTMX = {"HX-Request": "true"}


@pytest.fixture
def app(app_factory, database):
    """Every test here runs on SQLite and on PostgreSQL."""
    return app_factory(database=database)


def shown(page: str, css_class: str) -> list[str]:
    pattern = rf'<(\w+) class="{css_class}"[^>]*>(.*?)</\1>'
    return [html.unescape(text) for _, text in re.findall(pattern, page, re.S)]


def page_pos(page: str) -> int:
    return int(re.search(r'name="pos" value="(\d+)"', page).group(1))


def replay(app, match_id: str) -> Match:
    """The match rebuilt by the engine from the stored rows alone; raises if they break a rule."""
    conn = connect(location(app.config))
    try:
        setup, revision = conn.execute("SELECT setup, revision FROM matches WHERE id = ?",
                                       (match_id,)).fetchone()
        rows = [tuple(row) for row in conn.execute(
            "SELECT seq, kind, data FROM entries WHERE match_id = ? ORDER BY seq", (match_id,))]
    finally:
        conn.close()
    assert [seq for seq, _, _ in rows] == list(range(1, revision + 1))
    events = []
    for _, kind, data in rows:
        if kind == "event":
            events.append(event_from_data(json.loads(data)))
        else:
            events.pop()
    setup = json.loads(setup)
    table = Table.create(setup["players"], setup["partnerships"], setup["target"],
                         setup["hand_size"])
    return Match(table, events)


def fresh(table):
    """Nothing entered yet."""


def led(table):
    table.start(0)


def after_lead(table):
    table.start(0)
    table.play("5-5")


def both_ends(table):
    """Ends 0 and 5: 0-5 goes on either end with a different count."""
    table.start(0)
    table.play("0-2", "2-5@R")


def domino(table):
    table.start(0)
    table.play("2-4")


def boneyard_empty(table):
    table.start(0)
    table.play("3-3")


@pytest.mark.parametrize(("hand_size", "setup", "action", "data"), [
    (7, fresh, "start", {"seat": "1"}),
    (7, led, "lay", {"move": "5-5"}),
    (7, both_ends, "lay", {"move": "0-5@L"}),
    (7, after_lead, "draw", {}),
    (14, boneyard_empty, "pass", {}),
    (7, after_lead, "undo", {}),
    (1, domino, "end", {"pips_1": "8"}),
    (1, domino, "end", {"tiles_1": "3-5"}),
], ids=["start", "lead", "lay on an end", "draw", "pass", "undo", "pips", "tiles"])
def test_the_same_write_sent_twice_is_stored_once(phone, entries, hand_size, setup, action,
                                                  data):
    table = phone(hand_size=hand_size)
    setup(table)
    pos = table.pos()
    first = table.post(action, data, pos=pos)
    second = table.post(action, data, pos=pos)
    assert first.status_code == 200
    assert second.status_code == 200
    assert "<html" not in second.text
    assert second.text.lstrip().startswith('<section id="table"')
    assert shown(second.text, "notice") == []
    assert shown(second.text, "error") == []
    assert page_pos(second.text) == page_pos(first.text) == pos + 1
    assert len(entries(table.match_id)) == pos + 1


def test_the_same_tile_sent_twice_without_htmx_redirects_both_times(phone, entries):
    table = phone()
    table.start(0)
    pos = table.pos()
    for _ in range(2):
        response = table.lay("6-4", pos=pos, htmx=False)
        assert response.status_code == 303
        assert response.headers["Location"] == table.url
    assert len(entries(table.match_id)) == 2
    assert shown(table.page().text, "side-score") == ["10", "0"]


def test_the_same_tile_named_the_other_way_round_is_the_same_move(phone, entries):
    table = phone()
    table.start(0)
    pos = table.pos()
    assert table.lay("6-4", pos=pos).status_code == 200
    again = table.lay("4-6", pos=pos)
    assert again.status_code == 200
    assert shown(again.text, "notice") == []
    assert len(entries(table.match_id)) == 2


@pytest.mark.parametrize(("setup", "first", "second", "what"), [
    (led, ("lay", {"move": "5-5"}), ("lay", {"move": "6-4"}), "5-5"),
    (both_ends, ("lay", {"move": "0-5@L"}), ("lay", {"move": "0-5@R"}), "0-5 on the 0"),
    (after_lead, ("draw", {}), ("lay", {"move": "5-0"}), "a draw"),
    (after_lead, ("undo", {}), ("draw", {}), "an undo"),
    (fresh, ("start", {"seat": "1"}), ("start", {"seat": "0"}), "Bob leads"),
])
def test_a_different_write_against_the_same_pos_gets_409_naming_the_first(
        phone, other_phone, entries, setup, first, second, what):
    mine = phone()
    setup(mine)
    other = other_phone(mine)
    pos = mine.pos()
    assert mine.post(*first, pos=pos).status_code == 200
    after_first = entries(mine.match_id)
    current = mine.page().text

    response = other.post(*second, pos=pos)

    assert response.status_code == 409
    assert "<html" not in response.text
    assert shown(response.text, "notice") == [
        f"The other phone entered {what} first. Here is the table now."]
    assert page_pos(response.text) == pos + 1
    assert shown(response.text, "turn") == shown(current, "turn")
    assert shown(response.text, "side-score") == shown(current, "side-score")
    assert entries(mine.match_id) == after_first


def test_a_conflict_without_htmx_shows_the_whole_page_with_the_notice(phone, other_phone,
                                                                     entries):
    mine = phone()
    mine.start(0)
    other = other_phone(mine)
    pos = mine.pos()
    mine.lay("5-5", pos=pos)
    response = other.lay("3-3", pos=pos, htmx=False)
    assert response.status_code == 409
    assert "<html" in response.text
    assert shown(response.text, "notice") == [
        "The other phone entered 5-5 first. Here is the table now."]
    assert len(entries(mine.match_id)) == 2


def test_a_repeat_after_the_table_moved_on_is_taken_and_names_what_came_after(phone, entries):
    """A tap sent again after its answer was lost, once the table moved on: it is the tap
    already entered (never a second 5-5, nor a "not applied" that invites tapping again)."""
    table = phone()
    table.start(0)
    pos = table.pos()
    table.lay("5-5", pos=pos)
    table.draw(pos=pos + 1)
    response = table.lay("5-5", pos=pos)
    assert response.status_code == 200
    assert shown(response.text, "notice") == [
        "This tap was entered already; after it came a draw. Here is the table now."]
    assert len(entries(table.match_id)) == 3


def test_a_tap_stale_behind_another_phones_entry_is_not_applied(phone, entries):
    table = phone()
    table.start(0)
    pos = table.pos()
    table.lay("5-5", pos=pos)
    response = table.lay("6-6", pos=pos)
    assert response.status_code == 409
    assert shown(response.text, "notice") == [
        "The other phone entered 5-5 first. Here is the table now."]
    assert len(entries(table.match_id)) == 2


@pytest.mark.parametrize("undo_first", [True, False], ids=["undo first", "move first"])
def test_an_undo_racing_a_move_leaves_a_log_the_engine_replays(app, phone, other_phone, entries,
                                                               stored, undo_first):
    mine = phone()
    mine.start(0)
    mine.play("5-5", "5-0@L")
    other = other_phone(mine)
    pos = mine.pos()
    undo = lambda: mine.undo(pos=pos)  # noqa: E731
    move = lambda: other.lay("0-0@L", pos=pos)  # noqa: E731
    first, second = (undo, move) if undo_first else (move, undo)

    assert first().status_code == 200
    late = second()

    assert late.status_code == 409
    assert shown(late.text, "notice") == [
        f"The other phone entered {'an undo' if undo_first else '0-0 on the 0'} first. "
        "Here is the table now."]
    match = replay(app, mine.match_id)
    assert match.log == stored(mine.match_id, mine.key).match.log
    assert match.scores == ([10, 0] if undo_first else [20, 10])
    assert len(entries(mine.match_id)) == pos + 1


def test_undos_and_moves_sent_at_once_from_two_phones_keep_a_consistent_log(app, phone,
                                                                            other_phone):
    """Both phones post against the same pos at the same moment, round after round."""
    mine = phone(hand_size=7)
    mine.start(0)
    other = other_phone(mine)
    moves = ["0-0", "0-1@R", "1-1@R", "0-2@L", "2-2@L", "1-3@R"]
    for move in moves:
        pos = mine.pos()
        barrier = threading.Barrier(2)
        answers = {}

        def send(name, action, data, pos=pos, barrier=barrier, answers=answers):
            client = mine.client if name == "undo" else other.client
            barrier.wait()
            answers[name] = client.post(f"{mine.url}/{action}", data={**data, "pos": pos},
                                        headers=HTMX).status_code

        threads = [threading.Thread(target=send, args=("undo", "undo", {})),
                   threading.Thread(target=send, args=("lay", "lay", {"move": move}))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
        assert sorted(answers.values()) in ([200, 409], [200, 422]), answers
        mine.page()  # look at the table again: the other phone may have changed it
        if not replay(app, mine.match_id).log:
            mine.start(0)
    replay(app, mine.match_id)


def test_a_pos_the_match_never_reached_gets_the_table_as_it_is(phone, entries):
    table = phone()
    table.start(0)
    response = table.lay("5-5", pos=7)
    assert response.status_code == 409
    assert shown(response.text, "notice") == ["The table has changed. Here is the table now."]
    assert page_pos(response.text) == 1
    assert entries(table.match_id) == [("event", '{"start": 0}')]


def test_a_match_read_just_before_another_tap_commits_is_rebuilt_at_the_revision_read(app):
    """Another process's tap may commit between reading a match's row and its entries: the
    match rebuilt (and cached) under the row's revision holds that revision's entries only.
    Else a phone's tap at that revision met a hand already started, refused (422), not 409."""
    from scorekeeper.rules import Start
    from scorekeeper.services import matches
    from scorekeeper.web.answers.work import unit_of_work

    with app.test_request_context():
        uow = unit_of_work()
        made = matches.create_match(uow, Match.create(["Ann", "Bob", "Cat", "Dan"]))
        row = uow.matches.find(made.id, made.score_key, scoring=True)
        other = matches.open_match(uow, made.id, made.score_key)
        assert type(matches.tap(uow, other, 0, Start(0))).__name__ == "Written"
        read_before = stores.rebuild(uow.conn, row)
        late = matches.tap(uow, read_before, 0, Start(2))
    assert read_before.revision == 0
    assert type(late).__name__ == "Stale"
