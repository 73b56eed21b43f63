"""Without JavaScript every tap is a plain form post: a hand can still be played to its end."""

import pytest
from playwright.sync_api import expect

from .pages import new_match, shoot

pytestmark = pytest.mark.browser


def test_a_hand_is_played_to_its_end_without_javascript(open_phone):
    page = open_phone(java_script_enabled=False)
    page.goto("/new")
    page.get_by_role("link", name="4 players").tap()  # a plain link without htmx
    expect(page.get_by_label("Seat 4")).to_be_visible()

    table = new_match(page, 2, hand_size=2)
    table.start("Ann")
    expect(table.heading).to_have_text("Ann to lead")
    table.lay("2-3")
    expect(table.side_score("Ann")).to_have_text("5")
    table.draw()
    table.lay("3-4")  # ends 2 and 4: 6, nothing
    table.undo()
    expect(table.heading).to_have_text("Bob to play")
    table.lay("3-4")
    table.lay("1-2")  # Ann's last tile: ends 1 and 4 → 5
    expect(table.side_score("Ann")).to_have_text("10")
    expect(table.heading).to_have_text("Ann went out.")

    page.get_by_text("or tap the tiles").tap()  # <details> opens without script
    expect(page.get_by_role("checkbox", name="6-6")).to_be_visible()
    shoot(page, "no-js-end-of-hand")
    table.enter_pips(Bob=8)
    expect(table.side_score("Ann")).to_have_text("20")
    expect(table.heading).to_have_text("Ann to lead")

    page.get_by_role("link", name="Score sheet").tap()
    expect(page.locator(".sheet tbody tr").first.locator("td")).to_have_text(
        ["+20 = 20", "+0 = 0"])
