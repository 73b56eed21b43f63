"""Games with spinners played on a phone by tapping: All Fives with a spinner through all
four arms to a hand that takes a player below zero, and an Όλα 5 hand with two branching
doubles and six open ends, still usable on a 320 px wide phone."""

import re

import pytest
from playwright.sync_api import Page, expect

from .pages import (
    NAMES,
    Scorer,
    assert_accessible,
    scroll_width,
    settled,
    shoot,
    small_touch_targets,
)

pytestmark = pytest.mark.browser


def spinner_match(page: Page, rules: str, hand_size: int) -> Scorer:
    """The new-match form with a rule set picked (its link), two players, a house hand size."""
    page.goto(f"/new?rules={rules}")
    settled(page)
    for seat, name in enumerate(NAMES[:2], 1):
        page.get_by_label(f"Seat {seat}").fill(name)
    page.get_by_label("Tiles dealt").fill(str(hand_size))
    page.get_by_role("button", name="Start the match").tap()
    page.wait_for_url("**/match/**")
    return Scorer(page)


def tap_tile(table: Scorer, tile: str, where: str | None = None) -> None:
    """Tap the button of `tile` (the one that says `where` it goes, when it fits two arms)."""
    place = f" {re.escape(where)}" if where else ""
    table.page.wait_for_timeout(550)  # a new tap, never the second of a double tap
    table._tap(table.page.get_by_role("button", name=re.compile(
        rf"^{re.escape(tile)}{place}(?: \+\d+)?$")))


def arms(page: Page):
    return page.locator("#table .arm")


def test_a_spinner_hand_through_all_four_arms_takes_a_player_below_zero(mobile):
    table = spinner_match(mobile, "all-fives-spinner", hand_size=4)
    expect(mobile.locator("#table .rule-set")).to_contain_text("All Fives with a spinner")
    table.start("Ann")
    tap_tile(table, "5-5")  # the spinner leads: 10
    tap_tile(table, "2-5")  # a line side: 5-5 (10) + 2 = 12
    expect(mobile.locator("#table .count-sum")).to_have_text(
        re.compile(r"12\s+2 \+ 5-5 \(10\) = 12"))
    tap_tile(table, "3-5")  # the other line side: 2 + 3 = 5, and the branch sides open
    expect(table.side_score("Ann")).to_have_text("15")
    expect(arms(mobile)).to_have_count(4)
    expect(arms(mobile).nth(3)).to_have_attribute(
        "aria-label", "5 on the side of spinner 5-5 (not started: counts 0)")
    tap_tile(table, "0-5")  # the third arm: 2 + 3 + 0 = 5
    tap_tile(table, "5-6")  # the fourth: 2 + 3 + 0 + 6 = 11
    expect(arms(mobile)).to_have_count(4)
    expect(mobile.locator("#table .arm.branch")).to_have_count(0)
    expect(mobile.locator("#table .spinners")).to_have_text(re.compile(r"1 spinner\s+5-5"))
    # 2-3 fits two arms with different results: one button for each, named by the tile
    expect(table.page.get_by_role("button", name="2-3 on 2-5")).to_be_visible()
    expect(table.page.get_by_role("button", name="2-3 on 3-5 +10")).to_be_visible()
    assert_accessible(mobile, "a spinner with four arms")
    shoot(mobile, "table-spinner", docs=True)
    for _ in range(3):
        table.draw()
    tap_tile(table, "2-3", "on 3-5")  # 2 + 2 + 0 + 6 = 10 to Bob
    expect(table.side_score("Bob")).to_have_text("15")
    tap_tile(table, "6-6")  # Ann's last tile: she goes out
    expect(table.heading).to_have_text("Ann went out.")
    table.enter_pips(Bob=28)
    expect(table.announcement).to_have_text("Ann went out. Bob holds 28 → 30: −30 to Bob")
    expect(table.side_score("Bob")).to_have_text("−15")
    expect(table.side_score("Ann")).to_have_text("15")


def test_an_ola_5_hand_with_two_branching_doubles_fits_a_320_px_phone(open_phone):
    page = open_phone()
    table = spinner_match(page, "ola-5", hand_size=7)
    table.start("Ann")
    for tile in ("3-3", "1-3", "3-5", "3-6", "2-3", "5-5", "4-5", "0-5"):
        tap_tile(table, tile)
    expect(arms(page)).to_have_count(6)
    # both doubles branched: 3-3's four arms are started, 5-5 has one side left
    expect(page.locator("#table .arm.spinner.branch")).to_have_count(1)
    expect(page.locator("#table .spinners")).to_have_text(re.compile(r"2 spinners\s+3-3\s+5-5"))
    expect(page.locator("#table .arm.spinner")).to_have_attribute(
        "aria-label", "5 on the side of spinner 5-5 (not started: counts 0)")
    expect(page.locator("#table .count-sum")).to_have_text(
        re.compile(r"13\s+1 \+ 4 \+ 0 \+ 6 \+ 2 = 13"))
    page.set_viewport_size({"width": 320, "height": 720})
    assert scroll_width(page) <= 320, "six open ends scroll sideways at 320 px"
    assert small_touch_targets(page) == []
    assert_accessible(page, "Όλα 5 with six open ends at 320 px")
    shoot(page, "table-ola-5-320", docs=True)
    tap_tile(table, "1-6", "on 1-3")  # fits 1-3 and 3-6: 6 + 4 + 0 + 6 + 2 = 18
    expect(page.locator("#table .count-sum")).to_have_text(re.compile(r"^18\s"))
