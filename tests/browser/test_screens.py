"""Every screen, as a phone shows it: accessible (axe-core), thumb-sized targets, text of
16 px or more, no sideways scrolling at 320 px, dark in the dark, no console errors.

The matches behind the screens are built with the rules engine and stored directly,
so each screen is one GET; the taps that lead to them are tested in test_play.py.
"""

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.rules import Match

from .pages import (
    Scorer,
    assert_accessible,
    assert_comfortable,
    colours,
    scroll_width,
    settled,
    shoot,
)

pytestmark = pytest.mark.browser

TILE_NAME = re.compile(r"^[0-6]-[0-6](?: on the [0-6](?:-[0-6])?)?(?: \+\d+)?$")


def _two(hand_size=3):
    return Match.create(["Ann", "Bob"], hand_size=hand_size)


def _playing():
    match = _two()
    match.start(0)
    match.lay((2, 3))
    match.draw()
    match.lay((2, 5), "L")  # Ann to play: 3-5 fits both ends, scoring only on the right
    return match


def _must_pass():
    match = _two(hand_size=14)
    match.start(0)
    match.lay((6, 6))
    return match


def _went_out():
    match = _two(hand_size=2)
    match.start(0)
    match.lay((5, 5))
    match.draw()
    match.lay((5, 0), "L")
    match.lay((0, 0), "L")  # Ann's last tile; Bob holds two
    return match


def _blocked():
    match = Match.create(["Ann", "Bob", "Cat", "Dan"], hand_size=7)
    match.start(0)
    match.lay((0, 0))
    for _ in range(4):
        match.pass_turn()
    return match


def _won():
    match = Match.create(["Ann", "Bob", "Cat", "Dan"], partnerships=True, target=10)
    match.start(0)
    match.lay((2, 3))
    match.lay((3, 3), "R")
    match.lay((2, 4), "L")
    return match


def _scored():
    match = _went_out()
    match.end_hand({1: 13})
    return match


def _lead():
    match = _two()
    match.start(0)
    return match


MATCHES = {"start": _two, "lead": _lead, "play": _playing, "pass": _must_pass,
           "went-out": _went_out, "blocked": _blocked, "won": _won, "scored": _scored}
SCREENS = ["home", "new-match", "new-match-4", "rules", "not-found", "table-start",
           "table-lead", "table-play", "table-pass", "end-went-out", "end-blocked",
           "table-won", "score-sheet-2", "scoreboard-play", "scoreboard-won"]
DOCS = {"new-match", "table-dark"}


@pytest.fixture(scope="module")
def screens(server) -> dict:
    """Each screen's address, on matches stored for this module."""
    links = {name: server.store_match(make()) for name, make in MATCHES.items()}
    return {
        "home": "/", "new-match": "/new", "new-match-4": "/new?players=4&partnerships=y",
        "rules": "/rules", "not-found": "/match/nothing/here",
        "table-start": links["start"]["table"], "table-lead": links["lead"]["table"],
        "table-play": links["play"]["table"], "table-pass": links["pass"]["table"],
        "end-went-out": links["went-out"]["table"], "end-blocked": links["blocked"]["table"],
        "table-won": links["won"]["table"], "score-sheet-2": links["scored"]["sheet"],
        "scoreboard-play": links["play"]["board"], "scoreboard-won": links["won"]["board"],
    }


def visit(page, url: str, screen: str) -> None:
    if screen == "not-found":
        page.watcher.expect("status of 404")
    page.goto(url)
    expect(page.locator("h1").first).to_be_visible()


@pytest.mark.parametrize("screen", SCREENS)
def test_screen_suits_a_phone_in_light_in_the_dark_and_at_320_px(open_phone, screens, screen):
    page = open_phone()
    visit(page, screens[screen], screen)
    shoot(page, screen, docs=screen in DOCS)
    assert_accessible(page, screen)
    assert_comfortable(page, screen)
    tiles = page.locator("button[name=move]")
    for index in range(tiles.count()):
        expect(tiles.nth(index)).to_have_accessible_name(TILE_NAME)

    page.emulate_media(color_scheme="dark")
    background, text = colours(page)
    assert background < 0.05, f"{screen} in the dark: the background is not dark"
    assert text > 0.6, f"{screen} in the dark: the text is not light"
    assert_accessible(page, f"{screen} in the dark", rules=["color-contrast"])
    if screen == "table-play":
        shoot(page, "table-dark", docs=True)

    page.set_viewport_size({"width": 320, "height": 640})
    assert scroll_width(page) <= 320, f"{screen} scrolls sideways at 320 px"


def test_states_reached_by_tapping_are_accessible_too(open_phone, server):
    """Form errors, the tiles picker at the end of a hand, the share panel."""
    page = open_phone()
    page.watcher.expect("status of 422")
    page.goto("/new")
    page.get_by_label("Target").fill("0")
    page.get_by_role("button", name="Start the match").tap()
    expect(page.locator(".field.invalid").first).to_be_visible()
    assert_accessible(page, "new match with errors")
    assert_comfortable(page, "new match with errors")
    shoot(page, "new-match-errors")

    table = Scorer(page)
    page.goto(server.store_match(_went_out())["table"])
    table.pips_field("Bob").fill("99")
    page.get_by_role("button", name="Check").tap()
    expect(page.locator("#table .error")).to_be_visible()
    settled(page)
    assert_accessible(page, "impossible pips")
    shoot(page, "end-of-hand-error")

    page.get_by_text("or tap the tiles").tap()
    page.get_by_role("checkbox", name="6-6").check()
    page.get_by_role("checkbox", name="0-1").check()
    page.get_by_role("button", name="Check").tap()
    expect(page.locator("#table .preview")).to_have_text("Ann went out. Bob 13 → 15: 15 to Ann")
    settled(page)
    page.get_by_text("or tap the tiles").tap()  # the swap closed it: open it again
    assert_accessible(page, "tiles picker")
    assert_comfortable(page, "tiles picker")
    shoot(page, "end-of-hand-tiles")

    page.get_by_text("Share the scoreboard").tap()
    qr_code = page.get_by_role("img", name="QR code of the scoreboard link")
    expect(qr_code).to_be_visible()
    assert qr_code.evaluate("(img) => img.decode().then(() => img.naturalWidth)") > 100
    assert_accessible(page, "share panel")
    assert_comfortable(page, "share panel")
    shoot(page, "share")


def test_the_watcher_reports_a_content_security_policy_violation(open_phone):
    """The console check every browser test ends with would see a blocked inline script."""
    page = open_phone()
    page.goto("/rules")
    page.evaluate("""document.querySelector("main").insertAdjacentHTML(
        "beforeend", "<img alt='' src='/static/favicon.svg' onload='alert(1)'>")""")
    expect(page.locator("main img[onload]")).to_have_count(1)
    for _ in range(40):  # the image loads, its handler is refused and reported
        if any("CSP violation: script-src-attr" in seen for seen in page.watcher.seen):
            break
        page.wait_for_timeout(50)
    else:
        pytest.fail(f"no CSP violation reported: {page.watcher.seen}")
    page.watcher.expect("Content Security Policy")
    page.watcher.expect("CSP violation")
