"""Every screen of a match and every refusal, through the Flask test client."""

import html
import io
import json
import re
import sqlite3

import pytest

HTMX = {"HX-Request": "true"}
TILES = 28


def errors(page: str) -> list[str]:
    """The texts of the error messages shown on a page, unescaped."""
    return [html.unescape(text) for text in re.findall(r'<p class="error"[^>]*>(.*?)</p>', page)]


def shown(page: str, css_class: str) -> list[str]:
    """The unescaped texts of the elements with the given class."""
    pattern = rf'<(\w+) class="(?:[^"]* )?{css_class}(?: [^"]*)?"[^>]*>(.*?)</\1>'
    return [html.unescape(text) for _, text in re.findall(pattern, page, re.S)]


def field_errors(page: str, name: str) -> list[str]:
    """The error messages shown next to the form field called `name`."""
    for block in re.findall(r'<div class="field[^"]*">(.*?)</div>', page, re.S):
        if f'name="{name}"' in block:
            return errors(block)
    raise AssertionError(f"no field {name} on the page")


def offered(page: str) -> dict[str, int]:
    """The tile buttons of the table: the move each sends, and the points it shows."""
    found = {}
    pattern = r'<button class="tile-button[^"]*" name="move" value="([^"]+)"[^>]*>(.*?)</button>'
    for move, body in re.findall(pattern, page, re.S):
        points = re.search(r'<span class="points">\+(\d+)</span>', body)
        found[move] = int(points.group(1)) if points else 0
    return found


def has_form(page: str, url: str, action: str) -> bool:
    return f'action="{url}/{action}"' in page


def upload(body: bytes, name: str = "match.json") -> dict:
    return {"record": (io.BytesIO(body), name)}


# -- home ------------------------------------------------------------------------------


def test_home_without_matches_says_so(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "No matches yet." in response.text
    assert 'action="/import"' in response.text


def test_home_lists_matches_in_progress_first_with_their_scores(app, phone):
    playing = phone(("Cat", "Dan"))
    playing.start(1)
    playing.play("6-4")
    finished = phone(("Ann", "Bob"), target=10)
    finished.start(0)
    finished.play("5-5")
    with sqlite3.connect(app.config["DATABASE"]) as conn:  # played long before the other
        conn.execute("UPDATE matches SET updated = '2001-01-01T00:00:00Z' WHERE id = ?",
                     (playing.match_id,))
    conn.close()

    page = finished.client.get("/").text

    items = re.findall(r'<li class="(playing|over)">(.*?)</li>', page, re.S)
    assert [(state, shown(body, "names")[0]) for state, body in items] == [
        ("playing", "Cat v Dan"), ("over", "Ann v Bob")]
    assert [shown(body, "score")[0] for _, body in items] == ["0 – 10", "10 – 0"]
    # when each was last played and which hand it is at, to tell two matches apart
    assert [shown(body, "state") for _, body in items] == [
        ["hand 1", "last played 26 years ago"], ["won by Ann", "last played just now"]]


def test_players_left_unnamed_are_player_1_and_player_2(client, stored):
    response = client.post("/new", data={"count": "2", "player1": "", "player2": " ",
                                         "target": "250", "hand_size": "7"})
    assert response.status_code == 303
    _, _, match_id, key = response.headers["Location"].split("/")
    assert stored(match_id, key).match.table.players == ("Player 1", "Player 2")


def test_home_offers_the_scoring_link_only_to_the_browser_that_made_the_match(app, client,
                                                                             new_match):
    url = new_match()
    assert f'href="{url}"' in client.get("/").text
    stranger = app.test_client().get("/").text
    assert "Ann v Bob" in stranger
    assert f'href="{url}"' not in stranger
    assert "/board/" in stranger


# -- the new-match form ------------------------------------------------------------------


@pytest.mark.parametrize(("query", "names", "target", "hand_size", "partnerships"), [
    ("players=2", 2, 250, 7, None),
    ("players=3", 3, 200, 5, None),
    ("players=4", 4, 200, 5, False),
    ("players=4&partnerships=y", 4, 250, 5, True),
])
def test_new_match_form_fills_in_the_defaults_of_the_rules(client, query, names, target,
                                                           hand_size, partnerships):
    response = client.get(f"/new?{query}")
    assert response.status_code == 200
    page = response.text
    assert "<html" in page
    assert re.findall(r'name="player(\d)"', page) == [str(n) for n in range(1, names + 1)]
    assert re.search(rf'name="target"[^>]*value="{target}"', page)
    assert re.search(rf'name="hand_size"[^>]*value="{hand_size}"', page)
    box = re.search(r'<input[^>]*name="partnerships"[^>]*>', page)
    if partnerships is None:
        assert box is None
    else:
        assert ("checked" in box.group(0)) is partnerships


def test_new_match_form_asked_by_htmx_is_a_fragment_keeping_the_names(client):
    response = client.get("/new?players=3&player1=Ann&player2=Bob", headers=HTMX)
    assert response.status_code == 200
    assert "<html" not in response.text
    assert response.text.lstrip().startswith('<div id="new-match"')
    assert re.search(r'name="player1"[^>]*value="Ann"', response.text)
    assert re.search(r'name="player2"[^>]*value="Bob"', response.text)
    assert re.search(r'name="hand_size"[^>]*value="5"', response.text)


def test_partnerships_box_reloads_the_form_through_htmx(client):
    box = re.search(r'<input[^>]*name="partnerships"[^>]*>', client.get("/new?players=4").text)
    assert 'hx-get="/new"' in box.group(0)
    assert 'hx-trigger="change"' in box.group(0)


def test_new_match_is_stored_and_redirects_to_its_table(client, entries, stored):
    response = client.post("/new", data={"count": "3", "player1": " Ann ", "player2": "Bob",
                                         "player3": "Cat", "target": "150", "hand_size": "6"})
    assert response.status_code == 303
    _, _, match_id, key = response.headers["Location"].split("/")
    match = stored(match_id, key).match
    assert match.table.players == ("Ann", "Bob", "Cat")
    assert (match.table.target, match.table.hand_size) == (150, 6)
    assert entries(match_id) == []
    page = client.get(response.headers["Location"]).text
    assert "Hand 1: who holds the highest double?" in page
    assert [html.unescape(name) for name in re.findall(
        r'<button class="big" name="seat" value="\d"[^>]*>([^<]*)</button>', page)] == [
        "Ann", "Bob", "Cat"]


def test_new_match_with_partnerships_scores_the_pairs_as_sides(phone):
    table = phone(("Ann", "Bob", "Cat", "Dan"), partnerships=True)
    page = table.page().text
    assert shown(page, "side-name") == ["Ann & Cat", "Bob & Dan"]
    assert re.findall(r'<progress max="(\d+)"', page) == ["250", "250"]


GOOD = {"count": "2", "player1": "Ann", "player2": "Bob", "target": "250", "hand_size": "7"}


@pytest.mark.parametrize(("change", "field", "message"), [
    ({"player1": "Player 2", "player2": ""}, "player1",
     "two players are called Player 2: give each a different name"),
    ({"player2": "ann"}, "player2", "two players are called ann: give each a different name"),
    ({"count": "3", "player3": " Bob "}, "player3",
     "two players are called Bob: give each a different name"),
    ({"player1": "A" * 41}, "player1", "A name has at most 40 characters."),
    ({"count": "4", "player3": "Cat", "player4": "Dan", "hand_size": "8"}, "hand_size",
     "4 players × 8 tiles does not fit a set of 28: the hand size must be from 1 to 7"),
    ({"count": "3", "player3": "Cat", "hand_size": "10"}, "hand_size",
     "3 players × 10 tiles does not fit a set of 28: the hand size must be from 1 to 9"),
    ({"hand_size": "15"}, "hand_size",
     "2 players × 15 tiles does not fit a set of 28: the hand size must be from 1 to 14"),
    ({"hand_size": "0"}, "hand_size", "Each player is dealt from 1 to 28 tiles."),
    ({"target": "4"}, "target", "The target must be from 5 to 10000 points."),
    ({"target": "-250"}, "target", "The target must be from 5 to 10000 points."),
    ({"target": "abc"}, "target", "Enter the target: a whole number of points."),
    ({"target": "2.5e2"}, "target", "Enter the target: a whole number of points."),
    ({"hand_size": "seven"}, "hand_size", "Enter how many tiles each player is dealt."),
    ({"target": ""}, "target", "Enter the target: a whole number of points."),
])
def test_new_match_with_bad_input_is_refused_at_the_field(client, match_count, change, field,
                                                          message):
    response = client.post("/new", data={**GOOD, **change})
    assert response.status_code == 422
    assert field_errors(response.text, field)[0] == message
    assert match_count() == 0


def test_new_match_refused_through_htmx_answers_the_form_fragment(client, match_count):
    response = client.post("/new", data={**GOOD, "player2": "ANN"}, headers=HTMX)
    assert response.status_code == 422
    assert "<html" not in response.text
    assert field_errors(response.text, "player2") == [
        "two players are called ANN: give each a different name"]
    assert re.search(r'name="player1"[^>]*value="Ann"', response.text)
    assert match_count() == 0


def test_new_match_with_a_forged_player_count_creates_nothing(client, match_count):
    response = client.post("/new", data={**GOOD, "count": "5"})
    assert response.status_code == 422
    assert match_count() == 0


# -- starting a hand ---------------------------------------------------------------------


def test_the_chosen_starter_leads_the_first_hand(phone, entries):
    table = phone(("Ann", "Bob", "Cat"))
    response = table.start(1)
    assert response.status_code == 200
    assert "<html" not in response.text
    assert shown(response.text, "turn") == ["Bob to lead"]
    assert len(offered(response.text)) == TILES
    assert not has_form(response.text, table.url, "draw")
    assert not has_form(response.text, table.url, "pass")
    assert entries(table.match_id) == [("event", '{"start": 1}')]


@pytest.mark.parametrize(("seat", "message"), [
    ("2", "seat 2 is not at this table"),
    ("4", "Not understood (seat): Number must be between 0 and 3."),
    ("Ann", "Not understood (seat): Enter a whole number, in digits."),
    ("9" * 400, "Not understood (seat): Number must be between 0 and 3."),
])
def test_a_starter_not_at_the_table_is_refused(phone, entries, seat, message):
    table = phone()
    response = table.post("start", {"seat": seat})
    assert response.status_code == 422
    assert errors(response.text) == [message]
    assert entries(table.match_id) == []


def test_after_a_domino_the_winner_leads_without_being_asked(phone, entries):
    table = phone(hand_size=1)
    table.start(0)
    table.play("2-4")
    response = table.end({"pips_1": "8"})
    assert response.status_code == 200
    assert shown(response.text, "turn") == ["Ann to lead"]
    assert not has_form(response.text, table.url, "start")
    assert len(offered(response.text)) == TILES

    before = entries(table.match_id)
    refused = table.start(1)
    assert refused.status_code == 422
    assert errors(refused.text) == ["Ann went out last hand and leads this one, not Bob"]
    assert entries(table.match_id) == before

    laid = table.lay("3-3")
    assert laid.status_code == 200
    assert shown(laid.text, "turn") == ["Ann went out."]  # a hand of one tile each
    assert entries(table.match_id)[-1] == ("event", '{"lay": "3-3", "end": null}')


def test_after_a_blocked_hand_the_table_names_the_starter_again(phone):
    table = phone(hand_size=14)
    table.start(0)
    table.play("6-6", "pass", "pass")
    response = table.end({"pips_0": "70", "pips_1": "86"})
    assert response.status_code == 200
    assert shown(response.text, "turn") == ["Hand 2: who holds the highest double?"]
    assert has_form(response.text, table.url, "start")


# -- laying tiles --------------------------------------------------------------------------


def test_a_tile_laid_through_htmx_answers_the_table_fragment(phone, entries, stored):
    table = phone()
    table.start(0)
    response = table.lay("5-5")
    assert response.status_code == 200
    assert "<html" not in response.text
    assert response.text.lstrip().startswith('<section id="table"')
    assert shown(response.text, "announce") == ["+10 Ann — lead 5-5: 5 + 5 = 10"]
    assert shown(response.text, "side-score") == ["10", "0"]
    assert shown(response.text, "turn") == ["Bob to play"]
    assert entries(table.match_id)[-1] == ("event", '{"lay": "5-5", "end": null}')
    assert stored(table.match_id, table.key).match.scores == [10, 0]


def test_a_tile_laid_without_htmx_redirects_to_the_table_page(phone, entries):
    table = phone()
    table.start(0, htmx=False)
    response = table.lay("6-4", htmx=False)
    assert response.status_code == 303
    assert response.headers["Location"] == table.url
    page = table.page()
    assert "<html" in page.text
    assert shown(page.text, "side-score") == ["10", "0"]
    assert len(entries(table.match_id)) == 2


def test_a_refused_tile_without_htmx_answers_the_whole_page(phone, entries):
    table = phone()
    table.start(0)
    table.play("6-4")
    response = table.lay("1-2", htmx=False)
    assert response.status_code == 422
    assert "<html" in response.text
    assert errors(response.text) == ["1-2 matches neither open end (6 and 4)"]
    assert len(entries(table.match_id)) == 2


def test_a_tile_that_fits_both_ends_differently_is_offered_once_per_end(phone):
    table = phone()
    table.start(0)
    response = table.play("0-2", "2-5@R")  # ends 0 and 5
    assert shown(response.text, "announce") == ["+5 Bob — 0 + 5 = 5"]
    tiles = offered(response.text)
    assert tiles["0-5@L"] == 10  # ends 5 and 5
    assert tiles["0-5@R"] == 0  # ends 0 and 0
    assert [move for move in tiles if move.startswith("0-5")] == ["0-5@L", "0-5@R"]
    # named by the number each covers on the table, never by a side of the screen
    assert re.search(r'value="0-5@L"[^>]*>.*?<span class="end-word">on the 0</span>',
                     response.text, re.S)
    assert re.search(r'value="0-5@R"[^>]*>.*?<span class="end-word">on the 5</span>',
                     response.text, re.S)


def test_the_six_three_is_offered_on_each_end_with_its_own_count(phone):
    table = phone()
    table.start(0)
    response = table.play("6-1", "1-3@R")  # ends 6 and 3
    tiles = offered(response.text)
    assert {move: points for move, points in tiles.items() if move.startswith("3-6")} == {
        "3-6@L": 0, "3-6@R": 0}
    right = table.lay("6-3@R")  # ends 6 and 6
    assert shown(right.text, "announce") == ["Ann: 6 + 6 = 12, no score"]


def test_a_tile_that_fits_both_ends_the_same_way_is_offered_once(phone):
    table = phone()
    table.start(0)
    tiles = offered(table.play("3-3").text)
    assert [move for move in tiles if move.startswith("3-5")] == ["3-5@L"]


def test_laying_on_the_named_end_scores_that_end(phone, entries):
    table = phone()
    table.start(0)
    table.play("0-2", "2-5@R")
    response = table.lay("0-5@L")
    assert response.status_code == 200
    assert shown(response.text, "announce") == ["+10 Ann — 5 + 5 = 10"]
    assert shown(response.text, "side-score") == ["10", "5"]
    assert entries(table.match_id)[-1] == ("event", '{"lay": "0-5", "end": "L"}')


def test_draw_is_offered_while_the_boneyard_has_tiles_and_pass_once_it_is_empty(phone):
    table = phone(hand_size=13)  # a boneyard of 2
    table.start(0)
    response = table.play("6-6")
    assert has_form(response.text, table.url, "draw")
    assert not has_form(response.text, table.url, "pass")
    response = table.play("draw")
    assert re.search(r"<li>Boneyard <b>1</b></li>", response.text)
    assert has_form(response.text, table.url, "draw")
    response = table.play("draw")
    assert not has_form(response.text, table.url, "draw")
    assert has_form(response.text, table.url, "pass")
    assert re.search(r"<li class=turn>Bob <b>15</b></li>", response.text)


def after_lead(table):
    """Ann leads 3-6; Bob is to play on ends 3 and 6 with 14 tiles in the boneyard."""
    table.start(0)
    table.play("3-6")


def at_lead(table):
    table.start(0)


@pytest.mark.parametrize(("setup", "action", "data", "message"), [
    (after_lead, "lay", {"move": "1-2"}, "1-2 matches neither open end (3 and 6)"),
    (after_lead, "lay", {"move": "3-6"}, "3-6 was already laid in this hand"),
    (after_lead, "lay", {"move": "6-3@R"}, "6-3 was already laid in this hand"),
    (after_lead, "lay", {"move": "1-6@L"}, "1-6 does not fit the left end (3)"),
    (after_lead, "lay", {"move": "9-9"}, "9-9 is not in a double-six set: pips go from 0 to 6"),
    (after_lead, "lay", {"move": "abc"},
     "'abc' is not a move: write a tile like 3-5, draw or pass"),
    (after_lead, "lay", {"move": "draw"}, "draw is not a tile"),
    (after_lead, "lay", {"move": "3-4@X"},
     "'3-4@X' names no end: write @L or @R after the tile, or the laid tile it touches, "
     "like 3-1@5-3"),
    (after_lead, "lay", {"move": ""}, "Not understood (move): This field is required."),
    (after_lead, "lay", {"move": "3-4@L;drop"},
     "Not understood (move): Field cannot be longer than 8 characters."),
    (after_lead, "pass", {}, "Bob must draw first: 14 tiles are left in the boneyard"),
    (after_lead, "start", {"seat": "0"}, "Ann cannot start a hand: hand 1 is not over"),
    (after_lead, "end", {"pips_0": "5"},
     "the hand is not over: pips are entered when a player goes out or every player has "
     "passed"),
    (at_lead, "draw", {}, "Ann leads: the lead must be a tile, not a draw"),
    (at_lead, "pass", {}, "Ann leads: the lead must be a tile, not a pass"),
    (lambda table: None, "lay", {"move": "5-5"}, "say who leads this hand before any tile"),
    (lambda table: None, "draw", {}, "say who leads this hand before any draw"),
])
def test_a_move_the_rules_forbid_is_refused_with_the_reason(phone, entries, setup, action,
                                                            data, message):
    table = phone()
    setup(table)
    before = entries(table.match_id)
    response = table.post(action, data)
    assert response.status_code == 422
    assert "<html" not in response.text
    assert errors(response.text) == [message]
    assert shown(response.text, "announce") == []
    assert entries(table.match_id) == before


def test_a_tile_that_fits_both_ends_differently_needs_its_end(phone, entries):
    table = phone()
    table.start(0)
    table.play("0-2", "2-5@R")
    response = table.lay("5-0")
    assert response.status_code == 422
    assert errors(response.text) == ["5-0 fits both ends with different results: say which end"]
    assert len(entries(table.match_id)) == 3


@pytest.mark.parametrize("pos", ["", "abc", "-1"])
def test_a_write_without_a_readable_position_is_not_understood(phone, entries, pos):
    table = phone()
    response = table.post("start", {"seat": 0}, pos=pos)
    assert response.status_code == 422
    assert errors(response.text)[0] == "This page is out of date: here is the table now. Tap again."
    assert entries(table.match_id) == []


# -- end of a hand -------------------------------------------------------------------------


def three_player_domino(imported):
    """Ann goes out with her second tile; Bob and Cat hold two tiles each."""
    table = imported(("Ann", "Bob", "Cat"), hand_size=2, hands=[
        {"starter": "Ann", "moves": ["0-1", "draw", "1-2@R", "draw", "0-4@L"]}])
    assert table.lay("2-2@R").status_code == 200
    return table


def pips_fields(page: str) -> list[str]:
    return sorted(set(re.findall(r'name="(pips_\d)"', page)))


def test_after_a_domino_the_pips_form_asks_for_the_opponents_only(imported):
    page = three_player_domino(imported).page().text
    assert shown(page, "turn") == ["Ann went out."]
    assert pips_fields(page) == ["pips_1", "pips_2"]
    assert re.findall(r"<legend>([^<]*)</legend>", page) == ["Bob (2 tiles)", "Cat (2 tiles)"]


def test_after_a_partnership_domino_the_partner_is_not_asked(phone):
    table = phone(("Ann", "Bob", "Cat", "Dan"), partnerships=True, hand_size=1)
    table.start(0)
    page = table.play("1-2").text
    assert pips_fields(page) == ["pips_1", "pips_3"]
    response = table.end({"pips_1": "12", "pips_3": "3", "pips_2": "12"})
    assert response.status_code == 200
    assert shown(response.text, "announce") == [
        "Ann went out. Bob 12 → 10, Dan 3 → 5: 15 to Ann & Cat"]
    assert shown(response.text, "side-score") == ["15", "0"]


def test_after_a_blocked_hand_the_pips_form_asks_for_everyone(phone, stored):
    table = phone(hand_size=14)
    table.start(0)
    page = table.play("6-6", "pass", "pass").text
    assert shown(page, "turn") == ["Blocked: nobody can play."]
    assert pips_fields(page) == ["pips_0", "pips_1"]
    response = table.end({"pips_0": "70", "pips_1": "86"})
    assert shown(response.text, "announce") == [
        "Blocked: Ann 70 → 70 fewest; Bob 86 → 85; 85 − 70 = 15 to Ann"]
    assert stored(table.match_id, table.key).match.scores == [15, 0]


def test_check_previews_the_rounding_without_storing_anything(imported, entries):
    table = three_player_domino(imported)
    before = entries(table.match_id)
    response = table.end({"pips_1": "12", "pips_2": "13", "check": "1"})
    assert response.status_code == 200
    assert shown(response.text, "preview") == [
        "Ann went out. Bob 12 → 10, Cat 13 → 15: 25 to Ann"]
    assert re.search(r'name="pips_1"[^>]*value="12"', response.text)
    assert entries(table.match_id) == before
    assert shown(table.page().text, "side-score") == ["0", "0", "0"]


def test_scoring_the_hand_stores_the_pips_and_the_points(imported, entries, stored):
    table = three_player_domino(imported)
    response = table.end({"pips_1": "12", "pips_2": "13"})
    assert response.status_code == 200
    assert shown(response.text, "announce") == [
        "Ann went out. Bob 12 → 10, Cat 13 → 15: 25 to Ann"]
    assert shown(response.text, "turn") == ["Ann to lead"]
    assert entries(table.match_id)[-1] == ("event", '{"remaining": [[1, 12], [2, 13]]}')
    assert stored(table.match_id, table.key).match.scores == [25, 0, 0]


@pytest.mark.parametrize(("fields", "message"), [
    ({"pips_1": "40", "pips_2": "13"},
     "Bob cannot hold 40 in 2 tiles: 2 tiles not laid in this hand hold 2 to 23 pips"),
    ({"pips_1": "1", "pips_2": "13"},
     "Bob cannot hold 1 in 2 tiles: 2 tiles not laid in this hand hold 2 to 23 pips"),
    ({"pips_1": "12"}, "the pips left in Cat's hand are needed"),
    ({}, "the pips left in Bob, Cat's hand are needed"),
    ({"pips_1": "12", "pips_2": "a lot"}, "Cat's pips must be a whole number, not a lot"),
    ({"pips_1": "12", "pips_2": "-3"}, "Cat's pips must be a whole number, not -3"),
    ({"pips_1": "12", "pips_2": "13", "pips_0": "5"},
     "Ann holds no tiles: 0 pips, not 5"),
    ({"tiles_1": ["6-6"], "pips_2": "13"}, "Bob holds 2 tiles, not 1"),
    ({"tiles_1": ["6-6", "1-2"], "pips_2": "13"},
     "Bob cannot hold 1-2: it was laid in this hand"),
    ({"tiles_1": ["6-6", "0-0"], "tiles_2": ["6-6", "1-1"]},
     "6-6 cannot be in two hands: Bob and Cat"),
    ({"tiles_1": ["6-6", "7-0"], "pips_2": "13"},
     "7-0 is not in a double-six set: pips go from 0 to 6"),
])
def test_impossible_pips_are_refused_with_the_reason(imported, entries, fields, message):
    table = three_player_domino(imported)
    before = entries(table.match_id)
    for check in ({}, {"check": "1"}):
        response = table.end({**fields, **check})
        assert response.status_code == 422
        assert "<html" not in response.text
        assert errors(response.text) == [message]
        assert shown(response.text, "preview") == []
    assert entries(table.match_id) == before


def test_the_tiles_left_can_be_tapped_instead_of_counted(imported, entries, stored):
    table = three_player_domino(imported)
    page = table.page().text
    boxes = re.findall(r'<input type="checkbox" name="tiles_1" value="([^"]+)"', page)
    assert len(boxes) == TILES - 4
    assert not {"0-1", "1-2", "0-4", "2-2"} & set(boxes)
    assert re.findall(r'name="tiles_2" value="6-6"', page)

    preview = table.end({"tiles_1": ["6-6", "0-0"], "tiles_2": ["5-6", "1-1"], "check": "1"})
    assert shown(preview.text, "preview") == [
        "Ann went out. Bob 12 → 10, Cat 13 → 15: 25 to Ann"]
    assert re.search(r'name="tiles_1" value="6-6" checked', preview.text)

    response = table.end({"tiles_1": ["6-6", "0-0"], "tiles_2": ["5-6", "1-1"]})
    assert response.status_code == 200
    assert entries(table.match_id)[-1] == (
        "event", '{"remaining": [[1, ["6-6", "0-0"]], [2, ["5-6", "1-1"]]]}')
    assert stored(table.match_id, table.key).match.scores == [25, 0, 0]


# -- undo ----------------------------------------------------------------------------------


def test_undo_steps_back_any_number_of_entries_to_an_empty_match(phone, entries, stored):
    table = phone(hand_size=1)
    table.start(0)
    table.play("5-5")
    table.end({"pips_1": "8"})
    table.play("6-4")
    assert stored(table.match_id, table.key).match.scores == [30, 0]

    expected = [(20, "Ann to lead", "Undid: Ann 4-6 (+10)"),
                (10, "Bob (1 tile)", "Undid: the pips left in hand 1 (Ann went out. Bob 8 → 10: "
                                     "10 to Ann)"),
                (0, "Ann to lead", "Undid: Ann 5-5 (+10)")]
    for score, words, said in expected:
        response = table.undo()
        if "Bob" in words:  # taking back a scored hand asks once
            assert shown(response.text, "notice") == [
                "Undo the score of hand 1 (Ann went out. Bob 8 → 10: 10 to Ann)? "
                "The pips entered are kept."]
            assert shown(response.text, "side-score")[0] == "20"
            response = table.undo(data={"confirm": "1"})
        assert response.status_code == 200
        assert shown(response.text, "side-score")[0] == str(score)
        assert words in html.unescape(response.text)
        assert shown(response.text, "notice") == [said]
    response = table.undo(htmx=False)
    assert response.status_code == 303
    page = table.page().text
    assert shown(page, "turn") == ["Hand 1: who holds the highest double?"]
    assert shown(page, "notice") == ["Undid: Ann leads hand 1"]  # said once, after the 303
    assert shown(table.page().text, "notice") == []
    assert not has_form(page, table.url, "undo")
    assert stored(table.match_id, table.key).match.log == []
    assert [kind for kind, _ in entries(table.match_id)] == ["event"] * 4 + ["undo"] * 4


def test_undo_on_an_empty_match_is_refused(phone, entries):
    table = phone()
    response = table.undo()
    assert response.status_code == 422
    assert errors(response.text) == ["nothing to undo: the match has no entries yet"]
    assert entries(table.match_id) == []


def test_undo_of_the_pips_reopens_the_end_of_the_hand(imported, stored):
    table = three_player_domino(imported)
    table.end({"pips_1": "12", "pips_2": "13"})
    response = table.undo(data={"confirm": "1"})
    assert shown(response.text, "turn") == ["Ann went out."]
    assert pips_fields(response.text) == ["pips_1", "pips_2"]
    # the pips that were typed are kept, to be entered again
    assert re.search(r'name="pips_1"[^>]*value="12"', response.text)
    assert re.search(r'name="pips_2"[^>]*value="13"', response.text)
    assert stored(table.match_id, table.key).match.scores == [0, 0, 0]


# -- the end of the match -----------------------------------------------------------------


def won_by_ann(phone):
    """Target 10: Ann's lead 5-5 ends the match in the middle of the first hand."""
    table = phone(target=10)
    table.start(0)
    table.play("5-5")
    return table


def test_reaching_the_target_announces_the_winner(phone):
    page = won_by_ann(phone).page().text
    assert shown(page, "turn") == ["Ann won the match with 10!"]
    assert "The match is over: nothing more is played or scored. Undo still works." in page
    assert offered(page) == {}


@pytest.mark.parametrize(("action", "data"), [
    ("lay", {"move": "5-0"}),
    ("draw", {}),
    ("pass", {}),
    ("start", {"seat": "1"}),
    ("end", {"pips_1": "5"}),
])
def test_after_the_match_is_won_every_move_is_refused(phone, entries, action, data):
    table = won_by_ann(phone)
    before = entries(table.match_id)
    response = table.post(action, data)
    assert response.status_code == 422
    assert "<html" not in response.text
    assert errors(response.text) == ["the match is over: Ann reached 10"]
    assert entries(table.match_id) == before


def test_after_the_match_is_won_undo_still_works(phone, stored):
    table = won_by_ann(phone)
    response = table.undo()
    assert response.status_code == 200
    assert shown(response.text, "turn") == ["Ann to lead"]
    assert stored(table.match_id, table.key).match.winner is None


# -- score sheet, export, import ------------------------------------------------------------


def two_hands(phone):
    """Two hands of two tiles each: Ann 25 and Bob 10, then Ann 20 more."""
    table = phone(hand_size=2)
    table.start(0)
    table.play("5-5", "5-0@L", "0-0@L")
    table.end({"pips_1": "4"})
    table.play("6-4", "4-1@R", "6-3@L")
    table.end({"pips_1": "12"})
    return table


def test_score_sheet_shows_points_per_hand_totals_and_explanations(phone):
    table = two_hands(phone)
    response = table.client.get(f"{table.url}/sheet")
    assert response.status_code == 200
    page = response.text
    rows = re.findall(r'<tr><th scope="row">(\d+)</th>(.*?)</tr>', page)
    assert [(number, re.findall(r"<td>\+(\d+) <small>= (\d+)</small></td>", cells))
            for number, cells in rows] == [
        ("1", [("25", "25"), ("10", "10")]),
        ("2", [("20", "45"), ("0", "10")])]
    assert re.findall(r"<td><strong>(\d+)</strong></td>", page) == ["45", "10"]
    # each score names its hand, its move, the player and the tile, to settle a dispute
    assert [html.unescape(re.sub(r"<[^>]+>", "", item)).strip() for item in re.findall(
        r'<ol class="scores">(.*?)</ol>', page, re.S)[0].split("</li>") if "<li" in item] == [
        "Hand 1, move 1 Ann led 5-5: lead 5-5: 5 + 5 = 10 → 10 to Ann",
        "Hand 1, move 2 Bob laid 0-5 on the 5-5: 0 + 5-5 (10) = 10 → 10 to Bob",
        "Hand 1, move 3 Ann laid 0-0 on the 0: 0-0 (0) + 5-5 (10) = 10 → 10 to Ann",
        "Hand 1, end Ann went out. Bob 4 → 5: 5 to Ann",
        "Hand 2, move 1 Ann led 4-6: lead 6-4: 6 + 4 = 10 → 10 to Ann",
        "Hand 2, end Ann went out. Bob 12 → 10: 10 to Ann"]
    moves = re.findall(r'<details class="moves" id="hand-2">(.*?)</details>', page, re.S)[0]
    assert [html.unescape(re.sub(r"<[^>]+>", "", item)).strip()
            for item in re.findall(r"<li[^>]*>(.*?)</li>", moves)] == [
        "Ann led 4-6 +10", "Bob laid 1-4 on the 4", "Ann laid 3-6 on the 6"]
    assert f'href="{table.url}/export"' in page


def test_score_sheet_of_a_won_match_names_the_winner(phone):
    table = won_by_ann(phone)
    page = table.client.get(f"{table.url}/sheet").text
    assert shown(page, "winner") == ["Ann won the match with 10."]


def test_score_sheet_of_a_new_match_says_nothing_is_scored(phone):
    table = phone()
    page = table.client.get(f"{table.url}/sheet").text
    assert "No hand played yet." in page
    assert "Nothing scored yet." in page


def test_export_gives_a_record_that_imports_to_the_same_scores(phone, stored, match_count):
    table = two_hands(phone)
    response = table.client.get(f"{table.url}/export")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="match-{table.match_id}.json"')
    record = json.loads(response.text)
    assert record == {
        "format": "allfives-match/1", "players": ["Ann", "Bob"], "partnerships": False,
        "target": 250, "hand_size": 2, "hands": [
            {"starter": "Ann", "moves": ["5-5", "5-0@L", "0-0@L"], "remaining": {"Bob": 4}},
            {"moves": ["6-4", "4-1@R", "6-3@L"], "remaining": {"Bob": 12}}]}

    imported = table.client.post("/import", data=upload(response.data))
    assert imported.status_code == 303
    copy = imported.headers["Location"]
    _, _, match_id, key = copy.split("/")
    assert match_id != table.match_id
    assert stored(match_id, key).match.scores == [45, 10]
    assert match_count() == 2
    assert json.loads(table.client.get(f"{copy}/export").text) == record
    assert shown(table.client.get(copy).text, "side-score") == ["45", "10"]


def started_by_cat(phone):
    table = phone(("Ann", "Bob", "Cat"), hand_size=2)
    table.start(2)
    return table


def in_the_middle_of_a_hand(phone):
    table = started_by_cat(phone)
    table.play("6-6", "draw", "6-1@R")
    return table


def waiting_for_the_pips(phone):
    table = phone(hand_size=1)
    table.start(0)
    table.play("2-4")
    return table


def scored_by_tapping_tiles(phone):
    table = phone(("Ann", "Bob", "Cat"), hand_size=2)
    table.start(0)
    table.play("0-1", "draw", "1-2@R", "draw", "0-4@L", "2-2@R")
    table.end({"tiles_1": ["6-6", "0-0"], "tiles_2": ["5-6", "1-1"]})
    return table


@pytest.mark.parametrize("build", [
    started_by_cat, in_the_middle_of_a_hand, scored_by_tapping_tiles, waiting_for_the_pips,
])
def test_a_record_imports_to_the_same_table(phone, client, build):
    table = build(phone)
    record = client.get(f"{table.url}/export").data
    copy = client.post("/import", data=upload(record)).headers["Location"]
    original, imported = table.page().text, client.get(copy).text
    for css_class in ("turn", "side-score", "announce"):
        assert shown(imported, css_class) == shown(original, css_class)
    assert offered(imported) == offered(original)
    assert json.loads(client.get(f"{copy}/export").data) == json.loads(record)


def test_an_imported_match_can_be_played_on(phone, client):
    table = won_by_ann(phone)
    record = client.get(f"{table.url}/export").data.replace(b'"target": 10', b'"target": 250')
    copy = client.post("/import", data=upload(record)).headers["Location"]
    response = client.post(f"{copy}/lay", data={"pos": 2, "move": "5-0@L"}, headers=HTMX)
    assert response.status_code == 200
    assert shown(response.text, "side-score") == ["10", "10"]


RECORD = {"format": "allfives-match/1", "players": ["Ann", "Bob"],
          "hands": [{"starter": "Ann", "moves": ["5-5", "5-0"]}]}


@pytest.mark.parametrize(("body", "message"), [
    (b"{nope", "not JSON: Expecting property name enclosed in double quotes: line 1 column 2 "
               "(char 1)"),
    (b"", "not JSON: Expecting value: line 1 column 1 (char 0)"),
    (b"[1, 2]", "a record is a JSON object with format, players and hands"),
    (json.dumps({**RECORD, "format": "allfives-match/2"}).encode(),
     '"format" must be "allfives-match/1", not \'allfives-match/2\''),
    (json.dumps({**RECORD, "players": ["Ann", "ann"]}).encode(),
     "two players are called ann: give each a different name"),
    (json.dumps({**RECORD, "hands": [{"starter": "Ann", "moves": ["5-5", "1-2"]}]}).encode(),
     "hand 1, move 2 (Bob 1-2): 1-2 matches neither open end (5 and 5)"),
    (json.dumps({**RECORD, "hands": [{"starter": "Ann", "moves": ["5-5", "5-5"]}]}).encode(),
     "hand 1, move 2 (Bob 5-5): 5-5 was already laid in this hand"),
    (json.dumps({**RECORD, "hands": [{"starter": "Ann", "moves": ["pass"]}]}).encode(),
     "hand 1, move 1 (Ann pass): Ann leads: the lead must be a tile, not a pass"),
    (json.dumps({**RECORD, "hands": [{"starter": "Eve", "moves": []}]}).encode(),
     "hand 1, starter: 'Eve' is not a player at this table (Ann, Bob)"),
])
def test_a_record_that_cannot_be_imported_is_refused_with_the_reason(client, match_count,
                                                                     body, message):
    response = client.post("/import", data=upload(body))
    assert response.status_code == 422
    assert errors(response.text) == [message]
    assert match_count() == 0


def test_import_without_a_file_asks_for_one(client, match_count):
    response = client.post("/import", data={})
    assert response.status_code == 422
    assert "Choose a match record file (.json) to import." in errors(response.text)
    assert match_count() == 0


def test_a_record_over_256_kb_is_refused_as_too_large(client, match_count):
    body = json.dumps({**RECORD, "padding": "x" * 256 * 1024}).encode()
    response = client.post("/import", data=upload(body))
    assert response.status_code == 413
    assert "<html" in response.text
    assert match_count() == 0


# -- rules, unknown links, the scoreboard ----------------------------------------------------


@pytest.mark.parametrize("example", [
    "Lead 5-5: 10 points. Lead 6-4: 10. Lead 3-2: 5. Lead 2-4: count 6, nothing.",
    "Then 6-3 on the 3: ends 6 and 4, 10 points.",
    "Line 3-6, then 6-6 on the 6: ends 3 and 6-6, 3 + 12 = 15 points.",
    "Had 4-4 been laid instead: 2 + 8 = 10 points.",
    "0-4 on the 0-0: 6 and 4, 10 points.",
    "Two opponents holding 12 and 13 pips: 10 + 15 = 25 points. Three holding 13 each: "
    "15 + 15 + 15 = 45, not 40.",
    "Ann & Cat score 10 + 5 = 15. Cat's 20 does not count.",
    "Ann 9, Bob 23: Ann scores 25 − 10 = 15.",
    "Ann 4, Bob 11, Cat 17: Ann scores 10 + 15 − 5 = 20.",
    "Ann 6, Bob 6, Cat 20: a tie for fewest, nobody scores.",
    "Ann 4 + Cat 8 = 12 against Bob 9 + Dan 5 = 14: Ann & Cat score 15 − 10 = 5.",
    "The match ends the moment a side reaches the target, even in the middle of a hand",
    "12 → 10, 13 → 15, 7 → 5, 8 → 10, 2 → 0, 3 → 5.",
])
def test_rules_page_has_the_worked_examples(client, example):
    response = client.get("/rules")
    assert response.status_code == 200
    assert example in html.unescape(response.text)


def board_of(table) -> str:
    """The scoreboard link shown on the table page, as a path."""
    page = table.page().text
    return re.search(r'class="board-link" href="http://localhost([^"]+)"', page).group(1)


@pytest.mark.parametrize("path", [
    "/match/nosuchmatch/{key}",
    "/match/{id}/{key}x",
    "/match/{id}/{key_cut}",
    "/match/{id}/{view}",
    "/match/{id}/{view}/sheet",
    "/match/{id}/{view}/export",
    "/board/nosuchmatch/{view}",
    "/board/{id}/{view_cut}",
    "/board/{id}/{key}",
    "/board/{id}/{key}/qr.svg",
])
def test_an_unknown_match_or_a_wrong_key_is_not_found(client, phone, path):
    table = phone()
    view = board_of(table).rsplit("/", 1)[1]
    answer = client.get(path.format(id=table.match_id, key=table.key, key_cut=table.key[:-1],
                                    view=view, view_cut=view[:-1]))
    assert answer.status_code == 404
    assert "There is nothing here." in answer.text


def test_scoreboard_shows_the_match_without_any_control(phone):
    table = phone()
    table.start(1)
    table.play("6-4")
    board = board_of(table)
    response = table.client.get(board)
    assert response.status_code == 200
    page = response.text
    assert shown(page, "side-score") == ["0", "10"]
    assert shown(page, "turn") == ["Ann to play"]
    assert shown(page, "announce") == ["+10 Bob — lead 6-4: 6 + 4 = 10"]
    assert "<form" not in page
    assert 'name="pos"' not in page
    assert table.key not in page
    fragment = table.client.get(board, headers=HTMX)
    assert "<html" not in fragment.text
    assert fragment.text.lstrip().startswith('<section id="board"')


def test_scoreboard_answers_not_modified_until_a_move_is_made(phone):
    table = phone()
    board = board_of(table)
    first = table.client.get(board)
    etag = first.headers["ETag"]
    again = table.client.get(board, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    assert table.client.get(board, headers={**HTMX, "If-None-Match": etag}).status_code == 200

    table.start(0)
    moved = table.client.get(board, headers={"If-None-Match": etag})
    assert moved.status_code == 200
    assert moved.headers["ETag"] != etag
    assert shown(moved.text, "turn") == ["Ann to play"]


def test_scoreboard_qr_code_is_an_svg_of_its_link(client, phone):
    board = board_of(phone())
    answer = client.get(f"{board}/qr.svg")
    assert answer.status_code == 200
    assert answer.mimetype == "image/svg+xml"
    assert answer.text.startswith("<svg")


def test_the_table_says_who_each_shared_address_is_for(phone):
    """The QR code opens the read-only scoreboard: it is for the players and the pub,
    while the table's own address is for the scorers alone."""
    page = phone().page().text
    assert shown(page, "qr-for") == [
        "This QR code is for the players at the table and the rest of the pub: it opens "
        "the scoreboard, which no one can change from there."]
    assert "share it only with the scorers" in page


@pytest.mark.parametrize("action", ["start", "lay", "draw", "pass", "undo", "end"])
def test_every_write_with_the_scoreboard_key_is_not_found(phone, entries, action):
    table = phone()
    table.start(0)
    board = board_of(table)
    view_key = board.rsplit("/", 1)[1]
    response = table.client.post(f"/match/{table.match_id}/{view_key}/{action}",
                                 data={"pos": 1, "seat": 0, "move": "5-5", "pips_1": "5"},
                                 headers=HTMX)
    assert response.status_code == 404
    assert entries(table.match_id) == [("event", '{"start": 0}')]


# -- the backup command ----------------------------------------------------------------------


def test_backup_command_copies_every_match_and_keeps_an_existing_file(runner, phone, tmp_path):
    table = phone()
    table.start(0)
    table.play("5-5")
    target = tmp_path / "copy.sqlite"
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    conn = sqlite3.connect(target)
    try:
        assert conn.execute("SELECT id FROM matches").fetchall() == [(table.match_id,)]
        assert conn.execute("SELECT count(*) FROM entries").fetchone() == (2,)
    finally:
        conn.close()
    again = runner.invoke(args=["backup", str(target)])
    assert again.exit_code != 0
    assert "exists: choose a new file name" in again.output


def test_the_scoreboard_lists_only_the_latest_ten_scores_and_the_sheet_lists_every_one(
        client, imported):
    import random

    from simulation import play_match

    from scorekeeper.rules.match.record import write_record

    match = play_match(random.Random(3))
    record = write_record(match)
    table = imported(record["players"], record["hands"], partnerships=record["partnerships"],
                     target=record["target"], hand_size=record["hand_size"])
    every = len(match.score_list())
    assert every > 10
    board_url = re.search(r'href="http://localhost(/board/[^"]+)"', table.page().text).group(1)
    board = client.get(board_url).text
    sheet = client.get(f"{table.url}/sheet").text
    assert len(re.findall(r'<li><a class="hand-no" ', board)) == 10
    assert "<h2>Latest scores</h2>" in board
    assert len(re.findall(r'<li><a class="hand-no" ', sheet)) == every
    assert "<h2>Every score</h2>" in sheet


def test_a_refusal_is_worded_through_gettext_from_the_engines_template(phone, monkeypatch):
    from scorekeeper.web.scoring import view

    monkeypatch.setattr(view, "_", lambda template, **facts: "«" + template % facts + "»")
    table = phone()
    table.start(0)
    table.lay("5-5")
    response = table.lay("5-5")
    assert response.status_code == 422
    assert errors(response.text) == ["«5-5 was already laid in this hand»"]


def test_scoreboard_words_the_tile_laid_after_an_undo_not_the_one_taken_back(phone):
    """A score's words are kept from one revision to the next: a different tile scoring the
    same in the place of one taken back is worded anew."""
    table = phone()
    table.start(0)
    table.play("5-5")
    board = board_of(table)
    assert shown(table.client.get(board).text, "move-what") == ["Ann led 5-5:"]
    table.undo()
    table.play("6-4")
    assert shown(table.client.get(board).text, "move-what") == ["Ann led 4-6:"]


def test_the_scores_at_the_top_speak_each_readers_language(phone):
    table = phone()
    table.start(0)
    table.play("5-5")
    english = table.client.get(table.url, headers={"Accept-Language": "en"}).text
    greek = table.client.get(table.url, headers={"Accept-Language": "el"}).text
    assert shown(english, "rule-set") == ["All Fives · first to 250"]
    assert shown(greek, "rule-set") == ["Όλα τα πεντάρια · στόχος 250"]
