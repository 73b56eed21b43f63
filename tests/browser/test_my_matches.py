"""The home page of the phone that started a match: its matches first, and a way to delete one."""

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .pages import assert_accessible, new_match

pytestmark = pytest.mark.browser


def test_the_creator_deletes_a_match_from_the_home_page(mobile):
    table = new_match(mobile, 2)
    match_id, path = table.match_id, urlsplit(table.url).path
    mobile.goto("/")
    mine = mobile.locator("ul.matches").first
    expect(mine.get_by_role("link", name="Score", exact=True)).to_have_attribute("href", path)
    mine.get_by_role("link", name="Delete").first.tap()
    expect(mobile.get_by_role("heading", name="Delete the match?")).to_be_visible()
    assert_accessible(mobile, "asking before a match is deleted")
    mobile.get_by_role("button", name="Delete the match").tap()
    expect(mobile.get_by_role("status")).to_have_text("The match was deleted.")
    expect(mobile.locator(f'a[href*="{match_id}"]')).to_have_count(0)
