"""One codec for a table event: data for the store, record text, a tile button's value."""

import json

import pytest

from scorekeeper.rules import Draw, IllegalMove, Lay, Pass, Remaining, Start
from scorekeeper.rules.notation.events import (
    button_value,
    event_data,
    event_from_data,
    lay_from_button,
    move_text,
    parse_move,
)

EVENTS = [Start(2), Lay((6, 6)), Lay((3, 5), "L"), Lay((1, 0), "R"), Draw(1), Draw(3), Pass(),
          Remaining(((0, 12), (1, ((6, 6), (0, 1))))), Remaining(())]


@pytest.mark.parametrize("event", EVENTS)
def test_every_event_comes_back_from_the_data_the_store_keeps(event):
    assert event_from_data(json.loads(json.dumps(event_data(event)))) == event


def test_the_store_keeps_the_same_json_as_before():
    """Matches already stored must read back: the data's shape is fixed."""
    assert [json.dumps(event_data(event)) for event in EVENTS[:7]] == [
        '{"start": 2}', '{"lay": "6-6", "end": null}', '{"lay": "3-5", "end": "L"}',
        '{"lay": "1-0", "end": "R"}', '{"draw": 1}', '{"draw": 3}', '{"pass": true}']
    assert event_data(EVENTS[7]) == {"remaining": [[0, 12], [1, ["6-6", "0-1"]]]}


@pytest.mark.parametrize("move", [Lay((6, 6)), Lay((3, 5), "L"), Draw(1), Draw(2), Pass()])
def test_every_move_comes_back_from_its_record_text(move):
    assert parse_move(move_text(move)) == move


@pytest.mark.parametrize(("tile", "end", "value"), [((6, 3), None, "6-3"),
                                                    ((6, 3), "L", "6-3@L"),
                                                    ((0, 0), "R", "0-0@R")])
def test_a_tile_button_lays_the_tile_at_the_end_it_shows(tile, end, value):
    assert button_value(tile, end) == value
    assert lay_from_button(value) == Lay(tile, end)


@pytest.mark.parametrize("value", ["draw", "pass"])
def test_a_button_value_that_is_not_a_tile_is_refused_in_table_words(value):
    with pytest.raises(IllegalMove, match=f"^{value} is not a tile$") as refused:
        lay_from_button(value)
    assert refused.value.template == "%(text)s is not a tile"


def test_the_end_of_a_hand_lists_seats_in_order_whatever_order_they_came_in():
    assert Remaining.of({2: 7, 0: ((6, 6),), 1: 0}) == Remaining(((0, ((6, 6),)), (1, 0), (2, 7)))
