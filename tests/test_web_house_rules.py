"""House rules at the table (RULESETS.md §5): picked on the new-match form, stored with the
match, named on every screen of it, and refereed on the scoring screen."""

import json
import re

from test_web_rule_sets import HTMX, fives_and_threes, shown


def test_the_form_offers_the_house_rules_of_the_game_picked(client):
    boxes = re.findall(r'name="(no_[a-z_]+)"', client.get("/new?rules=fives-and-threes").text)
    assert boxes == ["no_last_point", "no_win_on_the_down"]
    page = client.get("/new", headers=HTMX).text
    assert re.findall(r'name="(no_[a-z_]+)"', page) == ["no_win_on_the_down"]
    assert "No win on the down: the lead of a hand cannot win the match" in page


def test_a_match_with_house_rules_names_them_on_every_screen(client, stored):
    table = fives_and_threes(client, no_last_point="y", no_win_on_the_down="y")
    house = stored(table.match_id, table.key).match.table.house
    assert (house.last_tile_point, house.win_on_the_down) == (False, False)
    line = ("Fives and Threes · first to exactly 61 · House rules: no point for the last "
            "tile; no win on the down")
    page = table.page().text
    assert shown(page, "rule-set") == [line]
    assert shown(client.get(f"{table.url}/sheet").text, "rule-set") == [line]
    board = re.search(r'class="board-link" href="[^"]*(/board/[^"]+)"', page).group(1)
    assert line in client.get(board).text.replace("&amp;", "&")
    exported = json.loads(client.get(f"{table.url}/export").data)
    assert exported["house"] == {"last_tile_point": False, "win_on_the_down": False}


def test_a_house_rule_the_game_does_not_have_is_not_switched(client, stored):
    """All Fives has no point for the last tile: a tick sent for it anyway changes nothing."""
    response = client.post("/new", data={"count": "2", "player1": "Ann", "player2": "Bob",
                                         "target": "250", "hand_size": "7",
                                         "no_last_point": "y"})
    assert response.status_code == 303
    match_id, key = response.headers["Location"].split("/")[-2:]
    assert stored(match_id, key).match.table.house.is_default


def test_a_lead_that_would_win_on_the_down_is_announced_and_scores_nothing(client):
    table = fives_and_threes(client, target="5", hand_size="1", no_win_on_the_down="y")
    table.start(0)
    page = table.play("6-6").text  # 4 + 1 for going out = 5: the target, on the down
    assert shown(page, "announce bust") == [
        "lead 6-6: 6 + 6 = 12 → 4 + 1 = 5: not on the down, Ann would win the match: "
        "no score"]
    assert shown(page, "side-score") == ["0", "0"]


def test_an_imported_record_keeps_its_house_rules(imported, stored):
    table = imported(hands=[{"starter": "Ann", "moves": ["5-5"]}], target=10,
                     house={"win_on_the_down": False})
    assert shown(table.page().text, "side-score") == ["0", "0"]
    assert "House rules: no win on the down" in table.page().text


def test_the_rules_page_explains_the_house_rules_with_their_examples(client):
    page = client.get("/rules").text
    assert 'id="house-rules"' in page
    assert "a side on 57 leads 6-6 (12 → 4)" in page
    assert "a player on 55 chips out with a tile counting 9 (3 points): 58, not 59" in page
