"""The replay and the read-only score sheet: every step of a match at its own address under
the scoreboard's key, each showing the position the engine rebuilds from that many events,
and every score, move, explanation and refusal linked to its step."""

import html
import random
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from simulation import RandomTable
from test_web_match import shown

from scorekeeper.rules import RULE_SETS, Match, Table
from scorekeeper.rules.match.record import write_record
from scorekeeper.rules.rulings.referee import token
from scorekeeper.rules.rulings.story import MOVE, START, position, steps
from scorekeeper.web.scoring.view import move_words

HTMX = {"HX-Request": "true"}
ANN_GOES_OUT = [{"starter": "Ann", "moves": ["2-1", "draw", "1-1@R", "2-6@L"],
                 "remaining": {"Bob": 12}}, {"moves": ["6-4", "4-3@R"]}]


def watched(table) -> str:
    """The scoreboard's address of a match, from its table page: /board/<id>/<view key>."""
    return re.search(r'href="http://localhost(/board/[^/"]+/[^/"]+)"', table.page().text)[1]


def text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def test_each_move_has_its_own_read_only_address_showing_what_happened(client, imported):
    table = imported(("Ann", "Bob"), ANN_GOES_OUT, hand_size=2)
    board = watched(table)
    page = client.get(f"{board}/hand/1/move/3")
    assert page.status_code == 200 and "<html" in page.text
    assert shown(page.text, "what") == ["Bob laid 1-1 on the 1"]
    assert shown(page.text, "announce quiet") == [
        "2 + 1-1 (2) = 4, not a multiple of five: no score"]  # why it did not score
    assert "Hand 1, move 3" in text(page.text) and "Step 4 of 8" in text(page.text)
    assert table.key not in page.text  # the scoring key never appears
    assert page.headers["X-Robots-Tag"] == "noindex, nofollow"


@pytest.mark.parametrize(("path", "place", "what"), [
    ("/hand/1", "Hand 1: who leads", "Ann leads"),
    ("/hand/1/end", "Hand 1, end", "Ann went out. Bob 12 → 10: 10 to Ann"),
    ("/hand/2", "Hand 1, end", "Ann went out. Bob 12 → 10: 10 to Ann"),  # Ann leads by right
    ("/hand/2/move/2", "Hand 2, move 2", "Bob laid 3-4 on the 4"),
    ("/replay", "Hand 2, move 2", "Bob laid 3-4 on the 4"),  # where the table is now
])
def test_a_hands_start_its_end_and_the_latest_step_have_addresses_too(
        client, imported, path, place, what):
    board = watched(imported(("Ann", "Bob"), ANN_GOES_OUT, hand_size=2))
    page = client.get(board + path).text
    assert re.search(r"<h1>(.*?)</h1>", page)[1] == place
    assert html.unescape(re.search(r'<p class="what">(.*?)</p>', page)[1]) == what


@pytest.mark.parametrize("path", ["/hand/3", "/hand/1/move/5", "/hand/2/end", "/hand/0/move/1",
                                  "/hand/1/move/0"])
def test_a_step_the_match_does_not_have_is_not_found(client, imported, path):
    board = watched(imported(("Ann", "Bob"), ANN_GOES_OUT, hand_size=2))
    assert client.get(board + path).status_code == 404


def test_the_scoring_key_does_not_open_the_replay(client, imported):
    table = imported(("Ann", "Bob"), ANN_GOES_OUT, hand_size=2)
    for path in ("/replay", "/hand/1/move/1", "/sheet"):
        assert client.get(f"/board/{table.match_id}/{table.key}{path}").status_code == 404


def test_htmx_swaps_one_step_for_the_next_and_a_browser_gets_the_page(client, imported):
    board = watched(imported(("Ann", "Bob"), ANN_GOES_OUT, hand_size=2))
    fragment = client.get(f"{board}/hand/1/move/2", headers=HTMX).text
    assert "<html" not in fragment and fragment.lstrip().startswith("<section id=\"replay\"")
    stepper = re.search(r'<nav class="stepper".*?</nav>', fragment, re.S)[0]
    assert re.findall(r'data-step="(\w+)"', stepper) == ["first", "previous", "next", "last"]
    assert f'href="{board}/hand/1/move/3" hx-get="{board}/hand/1/move/3"' in stepper
    assert 'hx-push-url="true"' in stepper
    restored = client.get(f"{board}/hand/1/move/2", headers={
        **HTMX, "HX-History-Restore-Request": "true"}).text
    assert "<html" in restored  # the back button wants the whole page


def test_the_first_and_last_steps_cannot_step_further(client, imported):
    board = watched(imported(("Ann", "Bob"), ANN_GOES_OUT, hand_size=2))
    first = client.get(f"{board}/hand/1").text
    assert 'data-step="previous"' not in first and 'data-step="first"' not in first
    last = client.get(f"{board}/replay").text
    assert 'data-step="next"' not in last and 'data-step="last"' not in last


def test_the_rules_that_applied_link_to_their_paragraphs_of_the_rules_page(client, imported):
    board = watched(imported(("Ann", "Bob"), ANN_GOES_OUT, hand_size=2))
    page = client.get(f"{board}/hand/1/move/4").text
    anchors = re.findall(r'<ul class="cited">.*?</ul>', page, re.S)[0]
    cited = re.findall(r'href="/rules#([\w-]+)"', anchors)
    assert cited == ["play", "scoring", "scoring", "all-fives-count", "all-fives-out"]
    rules_page = client.get("/rules").text
    assert all(f'id="{anchor}"' in rules_page for anchor in cited)


def test_a_position_in_play_opens_the_referee_with_it_filled_in(client, imported):
    board = watched(imported(("Ann", "Bob"), [{"starter": "Ann", "moves": ["6-4", "4-4@R"]}]))
    page = client.get(f"{board}/hand/1/move/2").text
    ask = html.unescape(re.search(r'href="(/referee\?[^"]+)"', page)[1])
    assert parse_qs(urlsplit(ask).query) == {"rules": ["all-fives"], "ends": ["6 4-4"],
                                             "scores": ["10 0"], "target": ["250"]}
    ruling = client.get(ask + "&tile=6-6").text
    assert "+ 4-4 (8) = 20 → 20 to Player 1" in html.unescape(ruling)


def test_the_referee_opened_from_a_step_keeps_the_matchs_house_rules(client, imported):
    board = watched(imported(("Ann", "Bob"), [{"starter": "Ann", "moves": ["6-4", "4-4@R"]}],
                             house={"win_on_the_down": False}))
    ask = html.unescape(re.search(r'href="(/referee\?[^"]+)"',
                                  client.get(f"{board}/hand/1/move/2").text)[1])
    assert parse_qs(urlsplit(ask).query)["no_win_on_the_down"] == ["y"]
    assert "House rules: no win on the down" in html.unescape(client.get(ask + "&tile=6-6").text)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.name)
def test_every_step_shows_the_match_that_many_events_make(client, imported, rules):
    """A whole random match of each rule set: at every step the replay's totals, its move
    and whose turn it is are those of the engine's Match(table, log[:N])."""
    rng = random.Random(11)
    match = Match(Table.create(["Ann", "Bob", "Cat"], rules=rules, target=80))
    sim = RandomTable(match, rng, 0.6)
    while not match.is_over() and len(match.log) < 160:
        sim.step()
    record = write_record(match)
    board = watched(imported(record["players"], record["hands"], target=80,
                             rules=rules.name))
    for step in steps(match):
        at = position(match, step.number)
        if step.kind == MOVE:
            path = f"/hand/{step.hand}/move/{step.move}"
        else:
            path = f"/hand/{step.hand}" if step.kind == START else f"/hand/{step.hand}/end"
        page = client.get(board + path, headers=HTMX).text
        scores = [int(score.replace("−", "-")) for score in shown(page, "side-score")]
        assert scores == at.scores, (path, scores, at.scores)
        assert f"Step {step.number} of {len(match.log)}" in page
        if step.kind == MOVE:
            hand = at.hands[step.hand - 1]
            with client.application.test_request_context():
                assert shown(page, "what") == [move_words(at, hand, step.move - 1)]
            if hand.layout.sides:  # the drawing's words name the engine's open ends
                ends = ", ".join(token(side) for side in hand.layout.sides)
                assert f"Open ends: {ends};" in html.unescape(page), path


def test_the_scoreboard_links_to_the_replay_and_to_the_whole_score_sheet(client, imported):
    board = watched(imported(("Ann", "Bob"), ANN_GOES_OUT, hand_size=2))
    page = client.get(board).text
    assert f'href="{board}/replay"' in page and f'href="{board}/sheet"' in page
    sheet = client.get(f"{board}/sheet").text
    assert "<form" not in sheet
    moves = re.findall(r'<li value="\d+"><a href="([^"]+)">', sheet)
    assert moves[:2] == [f"{board}/hand/1/move/1", f"{board}/hand/1/move/2"]
    assert re.findall(r'<a class="hand-no" href="([^"]+)">', sheet) == [
        f"{board}/hand/1/end", f"{board}/hand/2/move/1"]  # the domino, then 6-4 for 10
    assert 'id="hand-2"' in sheet


def test_the_tables_announcement_and_a_refusal_link_to_their_move_read_only(imported):
    table = imported(("Ann", "Bob"), [{"starter": "Ann", "moves": ["3-6"]}])
    board = watched(table)
    said = table.lay("6-6@R").text
    assert re.search(r'<p class="said-move">.*?href="([^"]+)"', said, re.S)[1] == \
        f"{board}/hand/1/move/2"
    refused = table.lay("1-2").text
    assert f'<a class="step-link" href="{board}/replay">' in refused
    assert table.key not in re.search(r'<p class="why">.*?</p>', refused, re.S)[0]


def test_the_rules_link_of_a_match_opens_at_its_game(client, imported):
    table = imported(("Ann", "Bob"), [], rules="fives-and-threes")
    for page in (table.page().text, client.get(watched(table) + "/replay").text):
        assert 'href="/rules#fives-and-threes"' in page
    assert 'href="/rules"' in client.get("/").text  # elsewhere, the top of the page
