"""Ask the referee on the web: a GET form whose every answer has its own address, ruling one
game or all four side by side, with the arithmetic and the rules that applied."""

import html
import re

import pytest
from test_web_match import field_errors, shown

HTMX = {"HX-Request": "true"}


def ask(client, headers=None, **question):
    return client.get("/referee", query_string=question, headers=headers or {})


def rulings(page: str) -> dict:
    """Each game's verdict, by its name as the page shows it."""
    found = {}
    for article in re.findall(r'<article class="ruling">(.*?)</article>', page, re.S):
        game = html.unescape(re.search(r"<h2[^>]*><a[^>]*>(.*?)</a></h2>", article)[1])
        verdict = shown(article, "verdict") or shown(article, "error")
        found[game] = verdict[0]
    return found


def test_the_page_poses_the_question_before_any_ruling(client):
    page = client.get("/referee")
    assert page.status_code == 200
    assert "<form method=\"get\"" in page.text and rulings(page.text) == {}
    assert 'name="ends"' in page.text and 'name="tile"' in page.text


def test_a_ruling_says_where_the_tile_goes_and_what_each_place_scores(client):
    page = ask(client, rules="all-fives", ends="3 5", scores="20 15", tile="3-5")
    assert page.status_code == 200
    assert rulings(page.text) == {"All Fives": "Yes: 3-5 can be laid on the 3 or on the 5."}
    assert shown(page.text, "announce") == ["5 + 5 = 10 → 10 to Player 1",
                                            "3 + 3 = 6, not a multiple of five: no score"]
    assert shown(page.text, "announce quiet") == ["3 + 3 = 6, not a multiple of five: no score"]
    assert "Scores after it: Player 1 30, Player 2 15" in html.unescape(page.text)
    assert 'href="/rules#all-fives-count"' in page.text


def test_fives_and_threes_chipping_out_past_61_is_a_bust(client):
    page = ask(client, rules="fives-and-threes", ends="3 2", scores="59 40", tile="3-4",
               last="y").text
    assert html.unescape(shown(page, "announce quiet")[0]) == (
        "4 + 2 = 6 → 2 + 1 = 3: bust, Player 1 would pass 61: no score")
    assert "Player 1 goes out: the hand ends." in html.unescape(page)
    assert 'href="/rules#fives-and-threes-target"' in page  # the rule: exactly 61
    assert 'href="/rules#fives-and-threes-out"' in page  # and the +1 for chipping out


def test_all_four_games_side_by_side_each_rule_their_own_way(client):
    page = ask(client, rules="all", ends="6-6 3", scores="0 0", tile="3-3").text
    assert rulings(page) == dict.fromkeys(
        ["All Fives", "All Fives with a spinner", "Όλα 5", "Fives and Threes"],
        "Yes: 3-3 can be laid on the 3.")
    worked = [html.unescape(text) for text in re.findall(
        r'<p class="announce[^"]*">(.*?)</p>', page)]
    assert worked == ["6-6 (12) + 3-3 (6) = 18, not a multiple of five: no score"] * 3 + [
        "6-6 (12) + 3-3 (6) = 18 → 6 to Player 1"]


def test_a_position_a_game_cannot_show_is_refused_for_that_game_only(client):
    page = ask(client, rules="all", ends="2 3 (5-5) (5-5)", scores="0 0", tile="5-0").text
    found = rulings(page)
    assert found["All Fives"] == "(5-5) is a spinner, but no double branches in this game"
    assert found["All Fives with a spinner"] == \
        "Yes: 5-0 can be laid on the side of spinner 5-5."
    assert found["Όλα 5"] == "Yes: 5-0 can be laid on the side of spinner 5-5."


@pytest.mark.parametrize(("question", "field", "said"), [
    ({"tile": "3-9"}, "tile", "3-9 is not in a double-six set"),
    ({"tile": "3-5", "scores": "10"}, "scores", "Give each side's score"),
    ({"tile": "3-5", "scores": "ten 5"}, "scores", "Give each side's score"),
    ({"tile": "3-5", "target": "3"}, "target", "The target must be from 5 to 10000 points."),
], ids=["tile", "one-score", "not-a-number", "target"])
def test_a_question_that_cannot_be_read_is_refused_at_its_field(client, question, field, said):
    page = ask(client, rules="all-fives", ends="3 5", **{"scores": "0 0", **question})
    assert page.status_code == 422
    assert any(said in error for error in field_errors(page.text, field))


@pytest.mark.parametrize(("question", "verdict"), [
    ({"ends": "6-6 3", "tile": "6-6"}, "No: 6-6 is already on the table."),
    ({"ends": "6-6 3", "tile": "1-2"}, "No: 1-2 matches none of the open ends (6-6, 3)."),
    ({"ends": "", "tile": "6-4"}, "Yes: 6-4 is the lead."),
    ({"ends": "3", "tile": "3-4"}, "a line has two open ends, not 1: write both, like 6-6 3"),
    ({"ends": "6 3", "tile": "3-4", "scores": "250 3"},
     "a side on 250 has already reached the target of 250: the match is over"),
])
def test_the_verdicts(client, question, verdict):
    page = ask(client, rules="all-fives", **{"scores": "0 0", **question}).text
    assert rulings(page) == {"All Fives": verdict}


def test_every_ruling_has_its_own_address_that_gives_it_again(client):
    question = {"rules": "fives-and-threes", "ends": "6-6 3", "scores": "30 40",
                "tile": "3-3"}
    page = ask(client, **question).text
    address = html.unescape(re.search(r'<p class="address">.*?href="([^"]+)"', page, re.S)[1])
    assert address.startswith("http://localhost/referee?")
    again = client.get(address.removeprefix("http://localhost")).text
    assert rulings(again) == rulings(page) == {
        "Fives and Threes": "Yes: 3-3 can be laid on the 3."}


def test_htmx_swaps_the_question_and_its_ruling_together(client):
    page = ask(client, headers=HTMX, rules="all-fives", ends="3 5", scores="0 0", tile="5-5")
    assert "<html" not in page.text
    assert page.text.lstrip().startswith('<section id="referee"')
    assert 'hx-push-url="true"' in page.text


def test_the_house_rules_in_force_change_the_ruling_and_are_named(client):
    """RULESETS.md §5's worked example: in Fives and Threes a side on 57 leading 6-6 would
    make 61 on the down, which a league playing without a win on the down does not allow."""
    plain = html.unescape(ask(client, rules="fives-and-threes", ends="", scores="57 0",
                              tile="6-6").text)
    assert shown(plain, "announce") == ["lead 6-6: 6 + 6 = 12 → 4 to Player 1"]
    assert shown(plain, "house") == []
    house = html.unescape(ask(client, rules="fives-and-threes", ends="", scores="57 0",
                              tile="6-6", no_win_on_the_down="y").text)
    assert shown(house, "house") == ["House rules: no win on the down"]
    assert shown(house, "announce quiet") == [
        "lead 6-6: 6 + 6 = 12 → 4: not on the down, Player 1 would win the match: no score"]
