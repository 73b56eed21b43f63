"""A Fives and Threes hand played on a phone: a knock, a chip-out, then a bust."""

import pytest
from playwright.sync_api import expect

from .pages import assert_accessible, new_match, shoot

pytestmark = pytest.mark.browser


def test_a_fives_and_threes_hand_to_a_chip_out_and_a_bust(mobile):
    mobile.goto("/new")
    mobile.get_by_role("link", name="Fives and Threes").tap()
    expect(mobile.get_by_label("Target")).to_have_value("61")
    table = new_match(mobile, 2, hand_size=2, target=5, rules="Fives and Threes")
    expect(mobile.locator("#table .rule-set")).to_have_text("Fives and Threes · first to exactly 5")
    expect(table.heading).to_have_text("Hand 1: who leads? The table chooses.")
    table.start("Ann")

    table.lay("5-5")  # 10 → 2
    expect(table.announcement).to_have_text("+2 Ann — lead 5-5: 5 + 5 = 10 → 2")
    expect(mobile.get_by_role("button", name="Draw", exact=True)).to_have_count(0)
    table.knock()
    expect(mobile.locator("#table .last")).to_have_text("Bob knocked")
    table.lay("4-5")  # ends 5-5 (10) and 4: 14, no count; Ann's last tile: + 1
    expect(table.side_score("Ann")).to_have_text("3")
    expect(mobile.locator("#table .hand-over")).to_have_text(
        "Ann went out. Bob leads the next hand.")
    expect(table.heading).to_have_text("Bob to lead")
    assert_accessible(mobile, "after a chip-out")

    table.lay("6-6")  # 12 → 4
    expect(table.side_score("Bob")).to_have_text("4")
    table.lay("3-6")  # 3 + 6-6 (12) = 15 → 8: Ann's 3 + 8 would pass 5
    expect(mobile.locator("#table .announce.bust")).to_have_text(
        "3 + 6-6 (12) = 15 → 5 + 3 = 8: bust, Ann would pass 5: no score")
    expect(table.side_score("Ann")).to_have_text("3")
    assert_accessible(mobile, "after a bust")
    shoot(mobile, "table-fives-and-threes-bust")
