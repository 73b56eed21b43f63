"""Two captains on one card of nine games, on phones and a desktop browser: a save
answers with its game's own part, so the page stays where the captain was, the other
games' unsaved choices stay as they were typed, and the other captain's open copy still
saves its own game (a stale save of the same game keeps what was typed)."""

import re

import pytest
from playwright.sync_api import Page, expect

from .pages import assert_accessible, assert_comfortable, scroll_width, settled, shoot
from .test_league_night import players_and_fixtures

pytestmark = pytest.mark.browser

ROSTERS = {"Anchor": ["Ann", "Amy"], "Bell": ["Bob", "Ben"]}


def nine_game_league(page: Page) -> None:
    page.goto("/league/new")
    page.get_by_label("League name").fill("Quay Fives")
    page.get_by_label("Season").fill("2026–27")
    page.get_by_label("Teams, one per line").fill("\n".join(ROSTERS))
    page.get_by_label("The card: its games in order").fill("SSSSSSPPP")
    page.get_by_label("Singles: target (points)").fill("15")
    page.get_by_role("button", name="Create the league").tap()
    players_and_fixtures(page, ROSTERS, 2)


def card_of(secretary: Page, team: str) -> str:
    """The team's captain's address of the card of Anchor (at home) v Bell."""
    item = secretary.locator(".teams > li").filter(has_text=re.compile(rf"^\s*{team}:"))
    captain = item.locator(".link a").get_attribute("href")
    card = secretary.locator(".fixtures a[href*='/card/']",
                             has_text="Anchor v Bell").first.get_attribute("href")
    return f"{captain}/card/{card.rsplit('/', 1)[1]}"


def pick(card: Page, number: int, home: str, away: str) -> None:
    card.locator(f"#g{number}-home1").select_option(home)
    card.locator(f"#g{number}-away1").select_option(away)


SIZES = {"phone": {}, "desktop": {"viewport": {"width": 1280, "height": 800},
                                  "is_mobile": False, "device_scale_factor": 1}}
"""A Pixel 7 (the phones' default), and a laptop's browser (touch kept, for tap())."""


@pytest.mark.parametrize("size", SIZES)
def test_a_save_keeps_the_page_in_place_and_the_other_games_as_typed(open_phone, size):
    secretary = open_phone()
    nine_game_league(secretary)
    anchor, bell = open_phone(**SIZES[size]), open_phone(**SIZES[size])
    anchor.goto(card_of(secretary, "Anchor"))
    bell.goto(card_of(secretary, "Bell"))  # both captains have the card open

    game5 = anchor.locator("#edit-5")
    game5.scroll_into_view_if_needed()
    pick(anchor, 6, "Amy", "Ben")  # typed, not saved (Bell picks them for game 2 below)
    pick(anchor, 5, "Ann", "Bob")
    before = game5.bounding_box()["y"]
    anchor.get_by_role("button", name="Save the players of game 5").tap()
    settled(anchor)
    expect(anchor.locator(".game").nth(4)).to_contain_text("Ann v Bob")
    assert abs(anchor.locator("#edit-5").bounding_box()["y"] - before) < 40  # still there
    assert 0 <= anchor.locator("#edit-5").bounding_box()["y"] < anchor.viewport_size["height"]
    expect(anchor.locator("#g6-home1")).to_have_value("Amy")  # game 6 as it was typed
    expect(anchor.locator("#g6-away1")).to_have_value("Ben")
    shoot(anchor, f"league-card-saved-in-place-{size}")

    pick(bell, 2, "Amy", "Ben")  # Bell's copy is older than Anchor's save
    bell.get_by_role("button", name="Save the players of game 2").tap()
    settled(bell)
    expect(bell.locator(".game").nth(1)).to_contain_text("Amy v Ben")
    expect(bell.locator(".game").nth(4)).to_contain_text("Ann v Bob")  # and Anchor's save

    pick(bell, 5, "Amy", "Ben")  # the game Anchor changed: refused, what was typed kept
    bell.watcher.expect("409")
    bell.get_by_role("button", name="Save the players of game 5").tap()
    settled(bell)
    expect(bell.locator("#edit-5")).to_contain_text("Someone else changed game 5 first")
    expect(bell.locator("#g5-home1")).to_have_value("Amy")
    expect(bell.locator(".game").nth(4)).to_contain_text("Ann v Bob")


@pytest.mark.parametrize("size", ["a4", "a5"])
def test_the_blank_match_card_prints_on_one_page_of_its_paper(open_phone, size):
    """A card of nine games with its rosters and both signature boxes: one A4 or A5 page,
    the app's header and buttons left off the paper."""
    secretary = open_phone()
    nine_game_league(secretary)
    card = open_phone(viewport={"width": 1280, "height": 800}, is_mobile=False)
    card.goto(f"{card_of(secretary, 'Anchor')}/print?size={size}")
    card.emulate_media(media="print")
    expect(card.locator(".signature")).to_have_count(2)
    expect(card.locator(".paper-card tbody tr")).to_have_count(9)
    expect(card.locator("[data-print]")).to_be_hidden()
    pdf = card.pdf(prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1  # one sheet of paper
    (width,) = {float(found) for found in re.findall(rb"/MediaBox \[0 0 ([\d.]+)", pdf)}
    assert abs(width - {"a4": 595, "a5": 420}[size]) < 1  # points: the stylesheet's paper


@pytest.mark.parametrize("size", SIZES)
def test_the_secretarys_season_pages_are_comfortable_on_a_phone_and_a_desktop(open_phone,
                                                                              size):
    """A team's page (rename, move, delete, the captain's link), a player's page, the
    question a deletion asks first, and the restore page: accessible, every target a
    thumb's size, no text too small, nothing wider than the screen."""
    secretary = open_phone(**SIZES[size])
    nine_game_league(secretary)
    league = secretary.url
    anchor = open_phone(**SIZES[size])
    anchor.goto(card_of(secretary, "Anchor"))
    pick(anchor, 1, "Ann", "Bob")
    anchor.get_by_role("button", name="Save the players of game 1").tap()
    settled(anchor)
    anchor.get_by_text("Played on paper? Enter its final score").first.tap()
    anchor.get_by_label("Anchor points").first.fill("15")
    anchor.get_by_label("Bell points").first.fill("3")
    anchor.get_by_role("button", name="Enter the paper score of game 1").tap()
    settled(anchor)

    secretary.goto(league)
    secretary.locator(".teams a", has_text="Anchor").first.tap()
    expect(secretary.get_by_role("heading", name="Anchor")).to_be_visible()
    secretary.get_by_text("Correct Ann").tap()
    for where in ("a team's page",):
        assert_accessible(secretary, where)
        assert_comfortable(secretary, where)
        assert scroll_width(secretary) <= secretary.viewport_size["width"]
    shoot(secretary, "league-team" + ("" if size == "phone" else "-desktop"),
          docs=size == "phone")
    secretary.get_by_role("button", name="Delete Ann").tap()
    expect(secretary.get_by_role("heading", name="Delete it?")).to_be_visible()
    expect(secretary.locator(".losses")).to_contain_text("game 1, Ann v Bob, 15–3")
    assert_accessible(secretary, "a deletion asking first")
    assert_comfortable(secretary, "a deletion asking first")
    shoot(secretary, "league-ask-first" + ("" if size == "phone" else "-desktop"),
          docs=size == "phone")
    secretary.get_by_role("link", name="Keep it").tap()
    secretary.locator(".roster a.player", has_text="Amy").tap()
    expect(secretary.get_by_role("heading", name=re.compile("^Amy"))).to_be_visible()
    assert_accessible(secretary, "a player's page")
    assert_comfortable(secretary, "a player's page")
    secretary.goto("/league/restore")
    assert_accessible(secretary, "the restore page")
    assert_comfortable(secretary, "the restore page")
