"""The table screen of a game with spinners, as a scorer uses it: the arms, the buttons named
by where a tile goes, the count with its terms, and the subtraction said plainly."""

import html
import re

from conftest import Phone


def spinner_match(client, rules="all-fives-spinner", players=("Ann", "Bob"), hand_size=9,
                  **fields) -> Phone:
    form = {"count": str(len(players)), "rules": rules, "target": "250",
            "hand_size": str(hand_size), **fields}
    form.update({f"player{seat}": name for seat, name in enumerate(players, 1)})
    response = client.post("/new", data=form)
    assert response.status_code == 303, response.text
    table = Phone(client, response.headers["Location"])
    assert table.start(0).status_code == 200
    return table


def texts(page: str, css_class: str) -> list[str]:
    """The text of each element with this class, tags removed and spaces collapsed."""
    found = re.findall(rf'<(\w+) class="{css_class}(?: [^"]*)?"[^>]*>(.*?)</\1>', page, re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", inner)).split())
            for _, inner in found]


def buttons(page: str) -> dict[str, str]:
    """Each tile button's move, and what it reads (its label)."""
    return dict(re.findall(r'name="move" value="([^"]+)"[^>]*data-label="([^"]*)"', page))


def test_the_spinner_is_shown_with_its_arms_and_the_count_with_every_term(client):
    table = spinner_match(client)
    page = table.play("5-5", "5-2", "5-3", "5-0").text
    assert texts(page, "count-sum") == ["5 2 + 3 + 0 = 5"]
    assert texts(page, "arm") == ["2", "3", "0", "5 counts 0"]  # compact: where, when heard
    assert re.findall(r'class="arm(?: [^"]*)?" aria-label="([^"]*)"', html.unescape(page)) == [
        "2 on 2-5", "3 on 3-5", "0 on 0-5", "5 on the side of spinner 5-5 (not started: counts 0)"]
    assert len(re.findall(r'class="arm spinner branch"', page)) == 1
    assert texts(page, "spinners") == ["1 spinner 5-5"]


def test_a_tile_that_fits_two_arms_with_different_results_is_offered_once_per_arm(client):
    table = spinner_match(client)
    page = table.play("6-3", "3-1").text
    offered = buttons(page)
    assert offered["1-6@3-6"] == "1-6 on 3-6"
    assert offered["1-6@1-3"] == "1-6 on 1-3"
    assert offered["4-6@3-6"] == "4-6"  # it fits one arm only: one tap, no words
    assert table.lay("1-6@1-3").status_code == 200
    assert texts(table.page().text, "count-sum") == ["12 6 + 6 = 12"]


def test_a_tile_that_fits_two_arms_alike_is_offered_on_each_so_the_layout_is_the_tables(
        client):
    """Issue 24: 5-5 fitting the open 5s of 3-5 and 0-5 (15 either way) was offered once,
    and the app put it on an arm of its own choosing."""
    table = spinner_match(client)
    offered = buttons(table.play("3-3", "3-5", "3-0", "0-5@0-3").text)
    assert offered["5-5@3-5"] == "5-5 on 3-5" and offered["5-5@0-5"] == "5-5 on 0-5"
    page = table.lay("5-5@0-5").text
    assert "on 0-5" in texts(page, "last")[0]
    assert re.findall(r'class="arm(?: [^"]*)?" aria-label="([^"]*)"',
                      html.unescape(page))[:2] == ["5 on 3-5", "5 on 5-5"]


def test_buttons_name_the_spinner_and_its_side(client):
    table = spinner_match(client, rules="ola-5", hand_size=7)
    page = table.play("3-2", "2-2", "2-6").text  # 2-2's branch sides are open now
    offered = buttons(page)
    assert offered["2-5@2-2"] == "2-5"
    assert table.lay("2-5@2-2").status_code == 200
    page = table.play("3-3").text  # a second spinner, on the 3 of 2-3
    assert 'class="arm spinner"' in page
    assert texts(page, "count-sum") == ["17 3-3 (6) + 6 + 5 = 17"]
    assert texts(page, "arm")[0] == "3"  # drawn on the spinner itself, framed as one
    assert 'aria-label="3 on the spinner 3-3"' in page


def test_going_out_takes_each_players_own_pips_off_and_the_sheet_says_so(client):
    table = spinner_match(client, hand_size=2)
    table.play("2-1", "draw", "draw", "1-1", "2-6")
    page = table.end({"pips_1": "13"}).text
    assert "Ann went out. Bob holds 13 → 15: −15 to Bob" in page
    sheet = client.get(f"{table.url}/sheet").text
    assert "−15" in sheet and "+-15" not in sheet
    assert "Ann went out. Bob holds 13 → 15: −15 to Bob" in sheet


def test_an_end_of_the_wrong_kind_is_refused_with_the_reason(client):
    table = spinner_match(client)
    table.play("6-3")
    response = table.lay("3-5@R")
    assert response.status_code == 422
    assert ("3-5@R names a left or right end, but this game has spinners: name the laid tile, "
            "like 3-5@3-6") in html.unescape(response.text)


def test_all_fives_with_a_spinner_asks_the_table_to_choose_the_starter_by_lot(client):
    """RULESETS.md: the starter of All Fives with a spinner is chosen by the table (by lot),
    not found by the highest double as in All Fives."""
    form = {"count": "2", "rules": "all-fives-spinner", "target": "250", "hand_size": "9",
            "player1": "Ann", "player2": "Bob"}
    page = client.get(client.post("/new", data=form).headers["Location"]).text
    assert "Hand 1: who leads? The table chooses." in page
    assert "Draw lots for it." in page and "highest double" not in page
    form.update(rules="all-fives", hand_size="7")
    page = client.get(client.post("/new", data=form).headers["Location"]).text
    assert "Hand 1: who holds the highest double?" in page
