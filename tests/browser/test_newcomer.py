"""What a newcomer tripped over at the table (issue 30), as a phone 412 px wide (a Pixel 7)
and one 320 px wide show it, in each of the four languages: the home list and the header
naming each match's game, "bust" on a tile's button, the tiles-left grid on one line a
tile, a share summary that wraps tightly, the open ends said as a sentence, Όλα 5's six
open ends compact enough to keep the tiles in reach, and Undo stepping as the buttons do.
"""

import re

import pytest
from playwright.sync_api import expect
from test_web_newcomer import NEAR_61, OLA_5_WAITING

from scorekeeper.rules import RULE_SETS, Match, find_rule_set
from scorekeeper.rules.match.record import read_record

from .pages import Scorer, assert_accessible, assert_comfortable, scroll_width, shoot
from .test_languages import _OVERFLOWING, PHONE_LOCALES, words

pytestmark = pytest.mark.browser

SCREENS = {412: 839, 320: 640}
"""Each phone's width and the height of its first screen."""
LANGUAGES = ["en", "el", "cs", "hu"]


def phone_in(open_phone, lang: str):
    page = open_phone(locale=PHONE_LOCALES[lang])
    page.words = words(lang)
    return page


def at_each_width(page):
    """Set the phone to each width in turn (412 px first), yielding the width."""
    for width, height in SCREENS.items():
        page.set_viewport_size({"width": width, "height": height})
        yield width


def fits(page, where: str) -> None:
    """Nothing scrolls sideways or is clipped, and every target is thumb-sized."""
    width = page.viewport_size["width"]
    assert scroll_width(page) <= width, f"{where} scrolls sideways at {width} px"
    clipped = page.evaluate(_OVERFLOWING)
    assert not clipped, f"{where} at {width} px:\n" + "\n".join(clipped)
    assert_comfortable(page, f"{where} at {width} px")


def record(**setup) -> dict:
    return {"format": "allfives-match/1", "players": ["Ann", "Bob"], **setup}


def ola_5_six_open_ends() -> Match:
    """Two branching doubles (3-3, then 5-5): six open ends, Ann to play."""
    match = Match.create(["Ann", "Bob"], hand_size=7, rules=find_rule_set("ola-5"))
    match.start(0)
    for tile in ((3, 3), (1, 3), (3, 5), (3, 6), (2, 3), (5, 5), (4, 5)):
        match.lay(tile)
    match.lay((0, 5), "5-5")
    return match


def went_out() -> Match:
    """Ann went out at once; Bob holds seven tiles, 25 tiles are left to tick."""
    match = Match.create(["Ann", "Bob"], hand_size=1)
    match.start(0)
    match.lay((6, 4))
    return match


def four_four_and_three() -> Match:
    match = Match.create(["Ann", "Bob"])
    match.start(0)
    match.lay((4, 4))
    match.lay((4, 3), "R")
    return match


@pytest.fixture(scope="module")
def tables(server) -> dict:
    """The matches behind the screens, stored once for the module."""
    games = {rules.name: server.store_match(Match.create(["Ann", "Bob"], rules=rules))
             for rules in RULE_SETS}
    return {**games, "ola-5 waiting": server.store_match(read_record(record(**OLA_5_WAITING))),
            "near 61": server.store_match(read_record(record(**NEAR_61))),
            "six ends": server.store_match(ola_5_six_open_ends()),
            "went out": server.store_match(went_out()),
            "4-4 and 3": server.store_match(four_four_and_three())}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_home_list_and_the_header_name_each_matchs_game(open_phone, tables, lang):
    page = phone_in(open_phone, lang)
    say = page.words.gettext
    page.goto("/")
    games = page.locator(".matches li .game")
    expect(games.first).to_be_visible()
    shown = games.all_inner_texts()
    for rules in RULE_SETS:
        assert say(rules.shown_name) in shown
    waiting = page.locator(".matches li", has_text="22 – 10").first
    expect(waiting.locator(".state").first).to_have_text(say("hand %(n)s") % {"n": 2})
    for _width in at_each_width(page):
        fits(page, f"the home page in {lang}")
    for rules in RULE_SETS:
        for screen in ("table", "sheet", "board"):
            page.goto(tables[rules.name][screen])
            expect(page.locator(".top .brand")).to_have_text(say(rules.shown_name))
            for _width in at_each_width(page):
                fits(page, f"the {screen} of {rules.name} in {lang}")
    shoot(page, f"newcomer-header-{lang}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_tile_that_would_bust_says_bust_on_its_button(open_phone, tables, lang):
    page = phone_in(open_phone, lang)
    table = Scorer(page, page.words)
    page.goto(tables["near 61"]["table"])
    bust = page.words.gettext("bust")
    for _width in at_each_width(page):
        busting = page.locator("#table .tile-button.busts")
        expect(busting).to_have_count(3)
        for index in range(3):
            expect(busting.nth(index).locator(".bust")).to_have_text(bust)
            expect(busting.nth(index)).to_have_accessible_name(re.compile(rf" {bust}$"))
        expect(table.tile("3-4", "on the 4-4")).to_have_accessible_name(re.compile(r" \+2$"))
        fits(page, f"a bust offered in {lang}")
    assert_accessible(page, f"a bust offered in {lang}")
    shoot(page, f"newcomer-bust-{lang}")


_TICKS = """() => [...document.querySelectorAll(".tile-check")].map((label) => {
  const box = label.querySelector("input").getBoundingClientRect();
  const text = label.querySelector(".tile-text");
  return {box: [Math.round(box.width), Math.round(box.height)], name: text.textContent,
          lines: text.getClientRects().length, height: text.getBoundingClientRect().height,
          inside: text.getBoundingClientRect().right <= label.getBoundingClientRect().right};
})"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tiles_left_are_ticked_in_a_grid_of_equal_boxes_one_line_each(open_phone, tables,
                                                                         lang):
    page = phone_in(open_phone, lang)
    page.goto(tables["went out"]["table"])
    page.get_by_text(page.words.gettext("or tap the tiles")).tap()
    for width in at_each_width(page):
        ticks = page.evaluate(_TICKS)
        assert len(ticks) == 27
        wrapped = [tick["name"] for tick in ticks if tick["lines"] != 1 or tick["height"] > 30
                   or not tick["inside"]]
        assert not wrapped, f"{lang} at {width} px: wrapped labels {wrapped}"
        assert {tuple(tick["box"]) for tick in ticks} == {(22, 22)}, f"{lang} at {width} px"
        fits(page, f"the tiles left in {lang}")
    shoot(page, f"newcomer-ticks-{lang}")


_LINE_TOPS = """(el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  return [...new Set([...range.getClientRects()].map((r) => Math.round(r.top)))]
    .sort((a, b) => a - b);
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_summary_that_wraps_keeps_its_lines_together(open_phone, tables, lang):
    page = phone_in(open_phone, lang)
    page.goto(tables["went out"]["table"])
    summaries = [page.locator("details.share > summary"), page.locator(".end-hand summary")]
    for width in at_each_width(page):
        for summary in summaries:
            tops = summary.evaluate(_LINE_TOPS)
            size = float(summary.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)"))
            gaps = [after - before for before, after in zip(tops, tops[1:], strict=False)]
            assert all(gap <= 1.6 * size for gap in gaps), (
                f"{summary.inner_text()!r} in {lang} at {width} px: lines {gaps} px apart")
            assert summary.bounding_box()["height"] >= 44
        fits(page, f"the share summary in {lang}")
    page.locator("details.share > summary").tap()
    shoot(page, f"newcomer-share-{lang}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_screen_readers_hear_the_open_ends_as_a_sentence(open_phone, tables, lang):
    page = phone_in(open_phone, lang)
    say = page.words.gettext
    sentence = say("Open ends: %(left)s and %(right)s, count %(count)s") % {
        "left": say("double 4"), "right": 3, "count": 11}
    for screen in ("table", "board"):
        page.goto(tables["4-4 and 3"][screen])
        heard = page.locator("main").aria_snapshot()
        assert sentence in heard, heard
        assert "4-4" not in heard.split(sentence)[0].splitlines()[-1]
        assert not re.search(r"^\s*- text: 4-4\b", heard, re.M), heard
        expect(page.locator(".line .count")).to_have_text("11")  # still drawn for the eye


@pytest.mark.parametrize("lang", LANGUAGES)
def test_six_open_ends_leave_the_tiles_in_reach(open_phone, tables, lang):
    """Όλα 5 with two branching doubles: the arms take two rows of compact chips, so the
    first tile button is on the first screen (it was at 646–730 px at 412, 740–878 at 320)."""
    page = phone_in(open_phone, lang)
    page.goto(tables["six ends"]["table"])
    arms = page.locator("#table .arm")
    expect(arms).to_have_count(6)
    for width in at_each_width(page):
        rows = {round(box["y"]) for box in (arms.nth(index).bounding_box() for index in range(6))}
        assert len(rows) <= 2, f"six open ends take {len(rows)} rows at {width} px in {lang}"
        first = page.locator("#table button[name=move]").first.bounding_box()
        height = SCREENS[width]
        if width == 412:
            assert first["y"] + first["height"] <= height, f"{lang}: {first}"
        else:
            assert first["y"] + 24 <= height, f"{lang} at 320 px: {first}"
        fits(page, f"six open ends in {lang}")
    expect(page.locator("#table .arm.branch")).to_have_attribute(
        "aria-label", re.compile(re.escape(page.words.gettext("(not started: counts 0)"))))
    assert_accessible(page, f"six open ends in {lang}")
    shoot(page, f"newcomer-six-ends-{lang}")


def test_undo_takes_a_records_draw_of_three_back_a_tile_a_tap(mobile, server):
    match = read_record(record(hand_size=3, hands=[{"starter": "Ann",
                                                    "moves": ["2-3", "draw 3"]}]))
    mobile.goto(server.store_match(match)["table"])
    table = Scorer(mobile)
    held = mobile.locator("#table .held")
    expect(held).to_contain_text("Bob 6")
    table.undo(written=2)  # the undo, then the two tiles kept
    expect(held).to_contain_text("Bob 5")
    expect(mobile.locator("#table .notice")).to_have_text("Undid: one tile Bob drew")
    expect(mobile.locator("#table .last")).to_have_text("Bob drew 2 tiles")
    table.undo(written=2)
    table.undo()
    expect(held).to_contain_text("Bob 3")
    for _ in range(3):  # three taps of Undo, three of Draw
        table.draw()
    expect(held).to_contain_text("Bob 6")
    expect(mobile.locator("#table .last")).to_have_text("Bob drew 3 tiles")
