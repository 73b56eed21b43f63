"""Settling a dispute on a phone: the replay stepped through a real match of each rule set
(every step the position the engine rebuilds from that many events) and each hand's fullest
layout at 320 px, the arrow keys and the links without JavaScript, the referee asked a
question, and the rules page opened from a match at its own game."""

import random
import re

import pytest
from playwright.sync_api import expect
from simulation import RandomTable

from scorekeeper.rules import OLA_5, RULE_SETS, Lay, Match, Table
from scorekeeper.rules.rulings.referee import token
from scorekeeper.rules.rulings.story import MOVE, position, steps
from scorekeeper.web.scoring.view import explained, move_words

from .pages import assert_accessible, assert_comfortable, colours, scroll_width, settled, shoot

pytestmark = pytest.mark.browser

STEPS = 60
"""Steps of each match stepped through one by one: a few hands' worth."""


def real_match(rules) -> Match:
    """A match of `rules` played by random players with real tiles, three at the table."""
    rng = random.Random(4)
    match = Match(Table.create(["Ann", "Bob", "Cat"], target=90, rules=rules))
    sim = RandomTable(match, rng, 0.6)
    while not match.is_over() and len(match.log) < STEPS:
        sim.step()
    return match


def expect_position(page, match: Match, number: int) -> None:
    """The replay shows step `number`: its place in the story, the totals, and (where tiles
    lie) the open ends of the engine's Match(table, log[:number])."""
    story = steps(match)
    step = story[number - 1]
    at = position(match, number)
    expect(page.locator("#replay .step-count")).to_have_text(
        f"Step {number} of {len(match.log)}")
    expect(page.locator("#replay .side-score")).to_have_text(
        [f"−{-score}" if score < 0 else str(score) for score in at.scores])
    hand = at.hands[step.hand - 1]
    if step.kind == MOVE and hand.layout.sides:
        ends = ", ".join(token(side) for side in hand.layout.sides)
        expect(page.locator("#replay svg.drawn")).to_have_attribute(
            "aria-label", re.compile(rf"Open ends: {re.escape(ends)};"))


def step_address(board: str, step) -> str:
    """The replay's address of a step of the story: a move, or a hand's end."""
    where = f"move/{step.move}" if step.kind == MOVE else "end"
    return f"{board}/hand/{step.hand}/{where}"


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.name)
def test_stepping_through_a_real_match_shows_the_engines_position_at_every_step(
        open_phone, server, rules):
    page = open_phone(viewport={"width": 412, "height": 800})
    match = real_match(rules)
    board = server.store_match(match)["board"]
    page.goto(f"{board}/hand/1")
    expect_position(page, match, 1)
    for number in range(2, len(match.log) + 1):
        page.get_by_role("link", name="Next", exact=True).click()
        expect_position(page, match, number)
        settled(page)
    expect(page.locator('#replay [data-step="next"]')).to_have_count(0)  # the last step
    assert page.url.endswith(step_address("", steps(match)[-1]))
    assert scroll_width(page) <= 412, "the replay scrolls sideways at 412 px"
    assert_accessible(page, f"the replay of {rules.name} at 412 px")
    assert_comfortable(page, f"the replay of {rules.name} at 412 px")


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.name)
def test_every_hands_fullest_layout_fits_a_320_px_phone(open_phone, server, rules):
    """The steps are the same at any width (above): at 320 px, the last move of each hand,
    where its layout is at its largest, is read without scrolling sideways."""
    page = open_phone(viewport={"width": 320, "height": 800})
    match = real_match(rules)
    board = server.store_match(match)["board"]
    story = steps(match)
    last_of_each_hand = {step.hand: number for number, step in enumerate(story, 1)
                         if step.kind == MOVE}
    for number in last_of_each_hand.values():
        page.goto(step_address(board, story[number - 1]))
        expect_position(page, match, number)
        assert scroll_width(page) <= 320, f"step {number} scrolls sideways at 320 px"
    page.goto(step_address(board, story[-1]))
    expect_position(page, match, len(story))
    assert scroll_width(page) <= 320, "the replay's last step scrolls sideways at 320 px"
    assert_accessible(page, f"the replay of {rules.name} at 320 px")
    assert_comfortable(page, f"the replay of {rules.name} at 320 px")
    shoot(page, f"replay-{rules.name}-320", docs=rules is OLA_5)


def test_what_a_move_three_moves_ago_scored_is_settled_from_the_scoreboard(mobile, server):
    """The first dispute of the issue, as a newcomer settles it: from the read-only link,
    to the replay, three steps back: who laid what, and the count with its arithmetic."""
    match = real_match(RULE_SETS[0])
    mobile.goto(server.store_match(match)["board"])
    mobile.get_by_role("link", name="Replay move by move").tap()
    for _ in range(3):
        mobile.get_by_role("link", name="Previous", exact=True).tap()
        settled(mobile)
    number = len(match.log) - 3
    expect_position(mobile, match, number)
    step = steps(match)[number - 1]
    at = position(match, number)
    hand = at.hands[step.hand - 1]
    with server.app.test_request_context():
        what = move_words(at, hand, step.move - 1)
        why = (explained(at.move_score(hand, step.move - 1), at)
               if isinstance(hand.moves[step.move - 1].move, Lay) else None)
    expect(mobile.locator("#replay .what")).to_have_text(what)
    if why:
        expect(mobile.locator("#replay .announce")).to_have_text(why)
    assert "/match/" not in mobile.url  # never the scoring link


def test_the_arrow_keys_step_and_the_back_button_returns(mobile, server):
    match = real_match(RULE_SETS[0])
    board = server.store_match(match)["board"]
    mobile.goto(f"{board}/hand/1/move/3")
    number = steps(match).index(next(step for step in steps(match) if step.move == 3)) + 1
    mobile.keyboard.press("ArrowRight")
    expect_position(mobile, match, number + 1)
    mobile.keyboard.press("ArrowLeft")
    expect_position(mobile, match, number)
    mobile.keyboard.press("ArrowLeft")
    expect_position(mobile, match, number - 1)
    mobile.keyboard.press("End")
    expect_position(mobile, match, len(match.log))
    mobile.keyboard.press("Home")
    expect_position(mobile, match, 1)
    mobile.go_back()  # each step was pushed into the history: back is the step before
    expect_position(mobile, match, len(match.log))
    shoot(mobile, "replay", docs=True)


def test_without_javascript_the_steps_are_plain_links(open_phone, server):
    page = open_phone(java_script_enabled=False)
    match = real_match(RULE_SETS[3])
    board = server.store_match(match)["board"]
    page.goto(f"{board}/replay")
    expect_position(page, match, len(match.log))
    page.get_by_role("link", name="First", exact=True).click()
    expect_position(page, match, 1)
    page.get_by_role("link", name="Next", exact=True).click()
    expect_position(page, match, 2)
    assert page.url.endswith("/hand/1/move/1")


def test_a_link_to_a_hands_moves_unfolds_them(mobile, server):
    """`#hand-2` on the score sheet opens hand 2's folded move list (and a later one too)."""
    match = real_match(RULE_SETS[0])
    sheet = server.store_match(match)["board"] + "/sheet"
    mobile.goto(sheet + "#hand-2")
    expect(mobile.locator("details#hand-2")).to_have_attribute("open", "")
    expect(mobile.locator("details#hand-1")).not_to_have_attribute("open", "")
    mobile.evaluate("location.hash = '#hand-1'")
    expect(mobile.locator("details#hand-1")).to_have_attribute("open", "")
    mobile.locator("details#hand-2 li a").first.tap()
    expect(mobile).to_have_url(re.compile(r"/hand/2/move/1$"))


def test_the_dark_replay_is_dark(open_phone, server):
    page = open_phone(color_scheme="dark")
    match = real_match(RULE_SETS[2])
    page.goto(server.store_match(match)["board"] + "/replay")
    background, text = colours(page)
    assert background < 0.05 and text > 0.6
    face = page.locator("#replay svg.drawn .face").first
    assert face.evaluate("(el) => getComputedStyle(el).fill") != "rgb(255, 253, 247)"
    assert_accessible(page, "the replay in the dark", rules=["color-contrast"])


def test_the_referee_rules_a_question_on_a_320_px_phone(open_phone):
    page = open_phone(viewport={"width": 320, "height": 800})
    page.goto("/referee")
    page.get_by_label("Game").select_option("fives-and-threes")
    page.get_by_label("Open ends").fill("6-6 3")
    page.get_by_label("Scores, the side laying the tile first").fill("59 40")
    page.get_by_label("The tile", exact=True).fill("3-3")
    page.get_by_label("It is the player's last tile").check()
    page.get_by_role("button", name="Ask").tap()
    expect(page.locator(".verdict")).to_have_text("Yes: 3-3 can be laid on the 3.")
    expect(page.locator(".ruling .announce")).to_have_text(
        "6-6 (12) + 3-3 (6) = 18 → 6 + 1 = 7: bust, Player 1 would pass 61: no score")
    assert "tile=3-3" in page.url and "rules=fives-and-threes" in page.url
    settled(page)
    assert scroll_width(page) <= 320
    assert_accessible(page, "a ruling at 320 px")
    assert_comfortable(page, "a ruling at 320 px")
    shoot(page, "referee-320", docs=True, at=".ruling")


def test_the_rules_link_of_a_fives_and_threes_match_opens_at_its_game(open_phone, server):
    page = open_phone(viewport={"width": 320, "height": 640})
    match = Match.create(["Ann", "Bob"], rules=RULE_SETS[3])
    page.goto(server.store_match(match)["table"])
    page.get_by_role("link", name="Rules", exact=True).tap()
    expect(page).to_have_url(re.compile(r"/rules#fives-and-threes$"))
    heading = page.get_by_role("heading", name="Fives and Threes", exact=True)
    expect(heading).to_be_in_viewport()
    expect(page.get_by_text("+1 to the side (partners: once both are out)").first) \
        .to_be_visible()
    assert scroll_width(page) <= 320
    shoot(page, "rules-fives-and-threes-320", docs=True, at="#fives-and-threes")
