"""One Undo is one step of the buttons (issue 30): a record's `draw 3` is three taps of the
Draw button, so Undo takes it back one tile at a time. The log stays append-only (an undo,
then the draw kept), a record reads and writes byte for byte, and a repeated or raced undo
is named as one undo. On SQLite and on PostgreSQL."""

import html
import json
import re

import pytest

from scorekeeper.commands.console import catalogue

DRAWN_3 = {"hand_size": 3, "hands": [{"starter": "Ann", "moves": ["2-3", "draw 3"]}]}
"""Ann led 2-3; Bob drew three tiles at once, as a record writes it: Bob holds 6."""


@pytest.fixture
def app(app_factory, database):
    """Every test here runs on SQLite and on PostgreSQL."""
    return app_factory(database=database)


def shown(page: str, css_class: str) -> list[str]:
    pattern = rf'<(\w+) class="(?:[^"]* )?{css_class}(?: [^"]*)?"[^>]*>(.*?)</\1>'
    return [html.unescape(re.sub(r"<[^>]+>", "", text)).strip()
            for _, text in re.findall(pattern, page, re.S)]


def held(page: str) -> list[str]:
    return [re.sub(r"\s+", " ", text) for text in shown(page, "held")]


def exported(table) -> dict:
    return json.loads(table.client.get(f"{table.url}/export").text)


def test_an_imported_record_exports_byte_for_byte_with_its_draw_of_three(imported, client):
    record = {"format": "allfives-match/1", "players": ["Ann", "Bob"], **DRAWN_3}
    table = imported(("Ann", "Bob"), **DRAWN_3)
    assert exported(table)["hands"] == record["hands"]


def test_one_undo_takes_one_tile_of_a_records_draw_back_as_the_draw_button_gave_it(
        imported, entries, stored):
    table = imported(("Ann", "Bob"), **DRAWN_3)
    assert "Bob 6" in held(table.page().text)[0]
    pos = table.pos()
    response = table.undo()
    assert response.status_code == 200
    assert shown(response.text, "notice") == ["Undid: one tile Bob drew"]
    assert shown(response.text, "last") == ["Bob drew 2 tiles"]
    assert "Bob 5" in held(response.text)[0]
    assert table.pos() == pos + 2  # the undo, then the draw kept: both appended
    assert entries(table.match_id)[-2:] == [("undo", "{}"), ("event", '{"draw": 2}')]
    assert exported(table)["hands"][0]["moves"] == ["2-3", "draw 2"]

    assert shown(table.undo().text, "notice") == ["Undid: one tile Bob drew"]
    response = table.undo()
    assert shown(response.text, "notice") == ["Undid: Bob's draw"]
    assert "Bob 3" in held(response.text)[0]
    assert exported(table)["hands"][0]["moves"] == ["2-3"]
    # three taps of Undo took back what three taps of Draw give again
    for _ in range(3):
        response = table.draw()
    assert "Bob 6" in held(response.text)[0]
    assert shown(response.text, "last") == ["Bob drew 3 tiles"]
    assert stored(table.match_id, table.key).match.hand.boneyard == 28 - 6 - 3


def test_an_undo_after_the_draw_buttons_takes_back_one_tile_too(imported, entries):
    table = imported(("Ann", "Bob"), hand_size=3, hands=[{"starter": "Ann", "moves": ["2-3"]}])
    table.draw()
    table.draw()
    response = table.undo()
    assert shown(response.text, "notice") == ["Undid: Bob's draw"]
    assert "Bob 4" in held(response.text)[0]
    assert [kind for kind, _ in entries(table.match_id)][-3:] == ["event", "event", "undo"]


def test_the_same_undo_sent_twice_takes_one_tile_back_once(imported, entries):
    table = imported(("Ann", "Bob"), **DRAWN_3)
    pos = table.pos()
    first = table.undo(pos=pos)
    second = table.undo(pos=pos)  # its answer was lost: the phone sends it again
    assert second.status_code == 200
    assert shown(second.text, "notice") == []
    assert "Bob 5" in held(second.text)[0]
    assert len(entries(table.match_id)) == pos + 2
    assert re.search(r'name="pos" value="(\d+)"', first.text).group(1) == str(pos + 2)


def test_the_other_phone_hears_of_one_undo_not_of_an_undo_and_a_draw(imported, other_phone,
                                                                     entries):
    table = imported(("Ann", "Bob"), **DRAWN_3)
    other = other_phone(table)
    pos = table.pos()
    table.undo(pos=pos)
    response = other.post("draw", pos=pos)
    assert response.status_code == 409
    assert shown(response.text, "notice") == [
        "The other phone entered an undo first. Here is the table now."]
    table.draw()  # Bob draws one tile back, then the other phone repeats the table's undo
    response = other.undo(pos=pos)  # the same undo: taken once, with what came after it
    assert response.status_code == 200
    assert shown(response.text, "notice") == [
        "This tap was entered already; after it came a draw. Here is the table now."]
    assert len(entries(table.match_id)) == pos + 3


@pytest.mark.parametrize("lang", ["el", "cs", "hu"])
def test_the_tile_taken_back_is_said_in_the_readers_language(speaking, imported, lang):
    speaking(lang)
    table = imported(("Ann", "Bob"), **DRAWN_3)
    words = catalogue({"LANG": f"{lang}.UTF-8"})
    assert shown(table.undo().text, "notice") == [
        words.gettext("Undid: one tile %(name)s drew") % {"name": "Bob"}]
