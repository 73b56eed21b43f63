"""The table picks the game: the new-match form, the stored rule set, and every screen of a
Fives and Threes match as a scorer uses it."""

import html
import json
import re

import pytest
from conftest import Phone

HTMX = {"HX-Request": "true"}


def shown(page: str, css_class: str) -> list[str]:
    return [html.unescape(text).strip()
            for text in re.findall(rf'class="{css_class}"[^>]*>([^<]*)<', page)]


def fives_and_threes(client, players=("Ann", "Bob"), **fields) -> Phone:
    form = {"count": str(len(players)), "rules": "fives-and-threes", "target": "61",
            "hand_size": "2", **fields}
    form.update({f"player{seat}": name for seat, name in enumerate(players, 1)})
    response = client.post("/new", data=form)
    assert response.status_code == 303, response.text
    return Phone(client, response.headers["Location"])


def test_the_form_offers_the_rule_sets_the_app_referees_by_their_names(client):
    page = client.get("/new").text
    games = re.findall(r'<a href="/new\?[^"]*rules=([a-z0-9-]+)[^"]*"[^>]*>([^<]*)</a>', page)
    assert games == [("all-fives", "All Fives"), ("all-fives-spinner", "All Fives with a spinner"),
                     ("ola-5", "Όλα 5"), ("fives-and-threes", "Fives and Threes")]


@pytest.mark.parametrize(("query", "target", "hand_size"), [
    ("rules=fives-and-threes&players=2", 61, 7),
    ("rules=fives-and-threes&players=4&partnerships=y", 61, 5),
    ("rules=all-fives&players=3", 200, 5),
    ("rules=all-fives-spinner&players=2", 250, 9),
    ("rules=all-fives-spinner&players=3", 200, 7),
    ("rules=ola-5&players=2", 100, 7),
    ("rules=ola-5&players=4&partnerships=y", 100, 5),
])
def test_picking_a_rule_set_fills_in_its_defaults_without_javascript(client, query, target,
                                                                     hand_size):
    page = client.get(f"/new?{query}").text
    assert re.search(rf'name="target"[^>]*value="{target}"', page)
    assert re.search(rf'name="hand_size"[^>]*value="{hand_size}"', page)
    rules = re.search(r"rules=([a-z0-9-]+)", query).group(1)
    assert re.search(rf'name="rules"[^>]*value="{rules}"', page)


def test_the_players_links_keep_the_rule_set_picked(client):
    page = client.get("/new?rules=fives-and-threes", headers=HTMX).text
    assert "<html" not in page
    assert 'href="/new?players=3&amp;rules=fives-and-threes"' in page
    assert "Default: exactly 61; a play that would pass it scores nothing." in page


def test_a_rule_set_the_app_does_not_referee_is_refused_with_a_message(client, match_count):
    response = client.post("/new", data={"count": "2", "rules": "sniff", "player1": "Ann",
                                         "player2": "Bob", "target": "61", "hand_size": "7"})
    assert response.status_code == 422
    assert "does not referee that game yet" in response.text
    assert match_count() == 0


def test_the_rule_set_is_stored_with_the_match_and_named_on_every_screen(client, stored):
    table = fives_and_threes(client)
    assert stored(table.match_id, table.key).match.table.rules.name == "fives-and-threes"
    page = table.page().text
    assert shown(page, "rule-set") == ["Fives and Threes · first to exactly 61"]
    assert "<title>Ann v Bob · Fives and Threes</title>" in page
    sheet = client.get(f"{table.url}/sheet").text
    assert shown(sheet, "rule-set") == ["Fives and Threes · first to exactly 61"]
    board_link = re.search(r'class="board-link" href="[^"]*(/board/[^"]+)"', page).group(1)
    assert "Fives and Threes · first to exactly 61" in client.get(board_link).text
    assert json.loads(client.get(f"{table.url}/export").data)["rules"] == "fives-and-threes"


def test_the_starter_is_asked_once_then_the_lead_moves_round(client):
    table = fives_and_threes(client)
    assert "Hand 1: who leads? The table chooses." in table.page().text
    table.start(0)
    page = table.play("5-5", "5-4@R", "pass", "4-1@R").text  # Bob goes out
    assert shown(page, "hand-over") == ["Bob went out. Bob leads the next hand."]
    assert shown(page, "turn") == ["Bob to lead"]
    assert 'name="seat"' not in page


def test_a_knock_replaces_draw_and_pass_and_a_blocked_hand_scores_nothing(client):
    table = fives_and_threes(client)
    table.start(0)
    page = table.play("5-5").text
    assert re.findall(r'data-key="(draw|pass)" data-label="([^"]*)"', page) == [
        ("pass", "Knock")]
    assert "Sleeping" in page and "Boneyard" not in page
    page = table.play("pass", "pass").text
    assert shown(page, "last") == ["Ann knocked"]
    assert shown(page, "hand-over") == [
        "Hand 1 is blocked: nobody scores. Bob leads the next hand."]
    assert shown(page, "side-score") == ["2", "0"]


def test_scores_are_worded_as_fives_and_threes_never_as_multiples_of_five(client):
    table = fives_and_threes(client, hand_size="3")
    table.start(0)
    page = table.play("3-6", "6-6@R").text
    assert shown(page, "announce") == ["+8 Bob — 3 + 6-6 (12) = 15 → 5 + 3 = 8"]
    page = table.play("3-1@L").text  # 1 + 12 = 13
    assert shown(page, "announce quiet") == ["Ann: 1 + 6-6 (12) = 13, no score"]
    sheet = client.get(f"{table.url}/sheet").text
    assert "3 + 6-6 (12) = 15 → 5 + 3 = 8 to Bob" in html.unescape(sheet)
    assert "multiple of five" not in sheet


def test_a_bust_is_announced_and_scores_nothing(imported):
    # Ann and Bob each lead one tile a hand (hand size 1): Ann's 6-6 hands score 5 each.
    hands = [{"starter": "Ann", "moves": ["6-6"]}] + [
        {"moves": [tile]} for tile in ["0-1"] + ["6-6", "0-1"] * 10 + ["6-3", "0-1"]]
    table = imported(hands=hands, rules="fives-and-threes", hand_size=1)
    assert shown(table.page().text, "side-score") == ["59", "12"]
    page = table.play("3-3").text  # 6 → 2, + 1 for going out: 62 would pass 61
    assert shown(page, "announce bust") == [
        "lead 3-3: 3 + 3 = 6 → 2 + 1 = 3: bust, Ann would pass 61: no score"]
    assert shown(page, "side-score") == ["59", "12"]
