"""At the table, as players feel it: placements named by the number they cover whichever
way the lead lies, no lost tap, pips filled in when known, undo that says what it did, a
score sheet that settles a dispute, the main action without scrolling, an app that
installs, and every failed tap said on the screen."""

import pytest
from playwright.sync_api import expect

from scorekeeper.rules import Draw, Lay, Match

from .conftest import CHROMIUM_ARGS, find_chromium
from .pages import Scorer, assert_accessible, assert_comfortable, first_answered, shoot

pytestmark = pytest.mark.browser


def _three_five_on_either_end(lead: tuple) -> Match:
    """Ends 5 and 3 after Ann's lead and Bob's 2-5: Ann's 3-5 scores 10 on the 3 only."""
    match = Match.create(["Ann", "Bob"], hand_size=3)
    match.start(0)
    match.push(Lay(lead))
    match.draw()
    match.lay((2, 5), "L" if lead[0] == 2 else "R")
    return match


@pytest.mark.parametrize("lead", [(2, 3), (3, 2)], ids=["2-3", "3-2"])
def test_a_tile_is_named_by_the_number_it_covers_whichever_way_the_lead_lies(
        mobile, server, lead):
    links = server.store_match(_three_five_on_either_end(lead))
    table = Scorer(mobile)
    mobile.goto(links["table"])
    expect(table.tile("3-5", "on the 3")).to_have_accessible_name("3-5 on the 3 +10")
    expect(table.tile("3-5", "on the 5")).to_have_accessible_name("3-5 on the 5")
    expect(table.tile("1-5")).to_have_accessible_name("1-5")  # fits one end: no end word
    expect(mobile.locator("#table")).not_to_contain_text("left")
    expect(mobile.locator("#table")).not_to_contain_text("right")
    table.lay("3-5", "on the 3")
    expect(table.side_score("Ann")).to_have_text("15")
    expect(mobile.locator("#table .last")).to_have_text("Ann laid 3-5 on the 3")


def _bob_to_draw() -> Match:
    match = Match.create(["Ann", "Bob"], hand_size=3)
    match.start(0)
    match.lay((6, 6))
    return match


def test_two_quick_draw_taps_record_two_draws_and_show_at_once(mobile, server):
    links = server.store_match(_bob_to_draw())
    table = Scorer(mobile)
    mobile.goto(links["table"])
    before = len(server.entries(table.match_id))
    draw = table.button("Draw")
    # the tap shows before the server answers: pressed in the same frame
    assert draw.evaluate("(button) => { button.click(); return button.classList"
                         ".contains('pressed'); }")
    mobile.wait_for_timeout(150)
    table.button("Draw").tap()
    expect(mobile.locator("#table .last")).to_have_text("Bob drew 2 tiles")
    expect(mobile.locator("#table .held")).to_contain_text("Bob 5")
    assert [row["data"] for row in server.entries(table.match_id)[before:]] == [
        '{"draw": 1}', '{"draw": 1}']


def test_a_tile_no_longer_on_the_table_when_its_tap_is_sent_is_shown_not_applied(
        mobile, server):
    links = server.store_match(_bob_to_draw())
    table = Scorer(mobile)
    mobile.goto(links["table"])
    tile = table.tile("4-6")
    tile.evaluate("(button) => { button.click(); button.click(); }")
    expect(mobile.locator("#tap-status")).to_have_text("Not applied: 4-6")
    expect(mobile.locator("#table .last")).to_have_text("Bob laid 4-6 on the 6-6")


def _bob_holds_every_tile_not_laid() -> Match:
    match = Match.create(["Ann", "Bob"], hand_size=2)
    match.start(0)
    match.lay((2, 1))
    match.draw(24)
    match.lay((1, 1), "R")
    match.lay((2, 6), "L")
    return match


def test_pips_only_one_value_fits_are_filled_in_and_the_player_only_confirms(mobile, server):
    links = server.store_match(_bob_holds_every_tile_not_laid())
    table = Scorer(mobile)
    mobile.goto(links["table"])
    expect(table.pips_field("Bob")).to_have_value("155")
    expect(mobile.locator("#table .filled")).to_have_text(
        "Bob must hold exactly 155 pips: filled in.")
    shoot(mobile, "end-of-hand-filled-in")
    table._tap(table.button("Score the hand"))
    expect(table.side_score("Ann")).to_have_text("155")


def _went_out() -> Match:
    match = Match.create(["Ann", "Bob"], hand_size=2)
    match.start(0)
    match.lay((5, 5))
    match.draw()
    match.lay((5, 0), "L")
    match.lay((0, 0), "L")  # Ann's last tile; Bob holds two
    return match


def test_ticked_tiles_stay_ticked_after_check_and_the_pips_box_shows_their_sum(mobile, server):
    table = Scorer(mobile)
    mobile.goto(server.store_match(_went_out())["table"])
    mobile.get_by_text("or tap the tiles").tap()
    mobile.get_by_role("checkbox", name="6-6").check()
    mobile.get_by_role("checkbox", name="0-1").check()
    mobile.get_by_role("button", name="Check").tap()
    expect(mobile.locator("#table .preview")).to_have_text("Ann went out. Bob 13 → 15: 15 to Ann")
    expect(mobile.get_by_role("checkbox", name="6-6")).to_be_checked()
    expect(mobile.get_by_role("checkbox", name="0-1")).to_be_visible()
    expect(table.pips_field("Bob")).to_have_value("13")


def test_switching_the_language_keeps_the_pips_and_tiles_already_typed(mobile, server):
    """Issue 24: the language menu reloaded the end of a hand with its boxes empty."""
    table = Scorer(mobile)
    mobile.goto(server.store_match(_went_out())["table"])
    table.pips_field("Bob").fill("13")
    mobile.get_by_text("or tap the tiles").tap()
    mobile.get_by_role("checkbox", name="6-6").check()
    mobile.locator("details.languages summary").click()
    mobile.locator("details.languages a[hreflang=cs]").click()
    mobile.wait_for_url("**lang=cs")
    expect(mobile.locator("html")).to_have_attribute("lang", "cs")
    expect(mobile.locator("input[name=pips_1]")).to_have_value("13")
    expect(mobile.locator("input[name=tiles_1][value='6-6']")).to_be_checked()


def test_undo_says_what_it_took_back_and_asks_once_before_a_scored_hand(mobile, server):
    table = Scorer(mobile)
    mobile.goto(server.store_match(_went_out())["table"])
    table.enter_pips(Bob=13)
    expect(table.side_score("Ann")).to_have_text("35")
    table.button("Undo").tap()
    expect(mobile.locator("#table .notice")).to_have_text(
        "Undo the score of hand 1 (Ann went out. Bob 13 → 15: 15 to Ann)? "
        "The pips entered are kept.")
    expect(table.side_score("Ann")).to_have_text("35")
    table._tap(table.button("Undo the hand's score"))
    expect(table.side_score("Ann")).to_have_text("20")
    expect(table.pips_field("Bob")).to_have_value("13")  # kept, to be entered again
    table.undo()
    expect(mobile.locator("#table .notice")).to_have_text("Undid: Ann 0-0 on the 0 (+10)")
    expect(table.side_score("Ann")).to_have_text("10")


def test_the_score_sheet_names_each_scores_move_and_opens_a_hands_moves(mobile, server):
    match = _went_out()
    match.end_hand({1: 13})
    mobile.goto(server.store_match(match)["sheet"])
    expect(mobile.locator(".scores li").first).to_have_text(
        "Hand 1, move 1 Ann led 5-5: lead 5-5: 5 + 5 = 10 → 10 to Ann")
    mobile.get_by_text("Hand 1: 4 moves").tap()
    expect(mobile.locator("#hand-1 li")).to_have_text([
        "Ann led 5-5 +10", "Bob drew 1 tile", "Bob laid 0-5 on the 5-5 +10",
        "Ann laid 0-0 on the 0 +10"])
    assert_accessible(mobile, "a hand's moves")
    assert_comfortable(mobile, "a hand's moves")


def _lead() -> Match:
    match = Match.create(["Ann", "Bob"])
    match.start(0)
    return match


def _four_went_out() -> Match:
    match = Match.create(["Ann", "Bob", "Cat", "Dan"], hand_size=2)
    match.start(0)
    match.lay((2, 1))
    for tile, end in (((1, 1), "R"), ((2, 2), "L"), ((1, 4), "R")):
        match.draw()
        match.lay(tile, end)
    match.lay((4, 3), "R")  # Ann's last tile: three players' pips are needed
    return match


def _four_blocked() -> Match:
    match = Match.create(["Ann", "Bob", "Cat", "Dan"], hand_size=7)
    match.start(0)
    match.lay((0, 0))
    for _ in range(4):
        match.pass_turn()
    return match


def _four_won() -> Match:
    match = Match.create(["Ann", "Bob", "Cat", "Dan"], partnerships=True, target=10)
    match.start(0)
    match.lay((5, 5))
    return match


MAIN_ACTION = {"start": lambda: Match.create(["Ann", "Bob", "Cat", "Dan"]), "lead": _lead,
               "play": _bob_to_draw, "went-out-4": _four_went_out, "blocked-4": _four_blocked,
               "won": _four_won}


PAGES = {"home": "/", "new-match-4": "/new?players=4&partnerships=y"}


@pytest.mark.parametrize("screen", [*PAGES, *MAIN_ACTION])
def test_the_main_action_is_in_reach_without_scrolling(open_phone, server, screen):
    page = open_phone()
    page.goto(PAGES.get(screen) or server.store_match(MAIN_ACTION[screen]())["table"])
    main = page.locator("[data-main]").first
    assert main.bounding_box()["y"] + main.bounding_box()["height"] <= 839, \
        f"{screen}: the main action needs a scroll at 412×839"
    page.set_viewport_size({"width": 360, "height": 640})
    box = main.bounding_box()
    assert box["y"] + box["height"] <= 2 * 640, f"{screen}: more than one scroll at 360×640"


def test_the_lead_shows_only_the_tiles_with_the_number_tapped(mobile, server):
    mobile.goto(server.store_match(_lead())["table"])
    tiles = mobile.locator("#table button[name=move]")
    expect(tiles).to_have_count(28)
    mobile.locator(".filter label").filter(has_text="5").tap()
    visible = mobile.locator("#table button[name=move]:visible")
    expect(visible).to_have_count(7)
    expect(visible.first).to_have_accessible_name("5-5 +10")  # doubles first, then high to low
    expect(visible.nth(1)).to_have_accessible_name("5-6")
    assert_comfortable(mobile, "the lead's filter")
    shoot(mobile, "table-lead-filtered")


@pytest.mark.usefixtures("chromium")  # skipped, as every browser test, without Chromium
def test_chromium_finds_the_app_installable(playwright_session, pixel7, server, tmp_path):
    """A phone's own profile (not a private window, where nothing installs)."""
    context = playwright_session.chromium.launch_persistent_context(
        tmp_path, executable_path=find_chromium(), args=CHROMIUM_ARGS, **pixel7)
    try:
        page = context.new_page()
        page.goto(server.store_match(_lead())["table"])
        page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
        session = context.new_cdp_session(page)
        assert session.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        assert session.send("Page.getAppManifest")["errors"] == []
    finally:
        context.close()


def test_a_tap_made_offline_is_kept_and_sent_when_the_connection_is_back(mobile, server):
    """Issue 24: a tap made while the connection was down was forgotten."""
    links = server.store_match(_bob_to_draw())
    table = Scorer(mobile)
    mobile.goto(links["table"])
    mobile.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    before = len(server.entries(table.match_id))
    mobile.watcher.expect("ERR_INTERNET_DISCONNECTED")
    mobile.context.set_offline(True)
    expect(mobile.locator("#tap-status")).to_have_text(
        "Offline: your taps are not sent until the connection is back.")
    table.button("Draw").tap()
    expect(mobile.locator("#tap-status")).to_have_text(
        "No connection: Draw is kept, and sent when the connection is back.")
    assert len(server.entries(table.match_id)) == before
    shoot(mobile, "table-offline")
    mobile.context.set_offline(False)
    expect(mobile.locator("#table .last")).to_have_text("Bob drew 1 tile")
    assert len(server.entries(table.match_id)) == before + 1
    table.draw()
    expect(mobile.locator("#table .last")).to_have_text("Bob drew 2 tiles")


def test_a_tap_whose_answer_was_lost_is_checked_and_applied_once(routed, server):
    """The server stored the tap but the phone never heard: it sends it again against the
    revision it saw, and the server takes the copy for the tap it already has."""
    links = server.store_match(_bob_to_draw())
    table = Scorer(routed)
    routed.goto(links["table"])
    before = len(server.entries(table.match_id))
    routed.watcher.expect("ERR_FAILED")

    def answer_lost(route):
        route.fetch()  # the server gets it and stores it; its answer never arrives
        return route.abort()

    lost = first_answered(routed, "**/draw", answer_lost)
    table.button("Draw").tap()
    expect(routed.locator("#table .last")).to_have_text("Bob drew 1 tile")
    expect(routed.locator("#tap-status")).to_be_hidden()  # taken, not "Not applied"
    assert lost and len(server.entries(table.match_id)) == before + 1
    routed.unroute("**/draw")


def _offline_under_the_service_worker(mobile, server) -> tuple[dict, Scorer, int]:
    """Bob to draw, the page kept by the service worker, the phone offline; the links, the
    scorer and how many entries the match had."""
    links = server.store_match(_bob_to_draw())
    table = Scorer(mobile)
    mobile.goto(links["table"])
    mobile.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    mobile.reload()  # under the service worker, which keeps a copy of the page
    mobile.watcher.expect("ERR_INTERNET_DISCONNECTED")
    mobile.context.set_offline(True)
    return links, table, len(server.entries(table.match_id))


def test_taps_made_offline_outlive_a_reload(mobile, server):
    _links, table, before = _offline_under_the_service_worker(mobile, server)
    table.button("Draw").tap()
    expect(mobile.locator("#tap-status")).to_contain_text("is kept")
    mobile.reload()  # offline: the page kept by the service worker, the tap from storage
    mobile.context.set_offline(False)  # the page sends the tap it read back
    expect(mobile.locator("#table .last")).to_have_text("Bob drew 1 tile")
    mobile.reload()  # once the tap is in (a reload while it is on its way can be answered
    expect(mobile.locator("#table .last")).to_have_text("Bob drew 1 tile")  # before it)
    assert len(server.entries(table.match_id)) == before + 1


def test_a_kept_tap_whose_table_another_phone_changed_is_not_applied_after_a_reload(
        mobile, server):
    """A tap kept offline goes with the table it was made on, also across a reload: the
    Undo meant for Ann's lead must not take back the draw another phone entered since."""
    mobile.watcher.expect("status of 409")
    links, table, before = _offline_under_the_service_worker(mobile, server)
    table.button("Undo").tap()
    expect(mobile.locator("#tap-status")).to_contain_text("is kept")
    server.enter(links, Draw(1))  # the other phone, meanwhile
    mobile.close()  # the tab is closed; the phone comes back online and opens it again
    mobile.context.set_offline(False)
    again = mobile.context.new_page()
    again.goto(links["table"])
    expect(again.locator("#tap-status")).to_have_text("Not applied: Undo")
    expect(again.locator("#table .last")).to_have_text("Bob drew 1 tile")
    assert len(server.entries(table.match_id)) == before + 1


def test_a_tap_over_the_tap_limit_says_so_and_how_long_then_is_sent_again(routed, server):
    links = server.store_match(_bob_to_draw())
    table = Scorer(routed)
    routed.goto(links["table"])
    routed.watcher.expect("status of 429")
    first_answered(routed, "**/draw", lambda route: route.fulfill(
        status=429, body="too many", headers={"Retry-After": "1"}))
    table.button("Draw").tap()
    expect(routed.locator("#tap-status")).to_have_text(
        "Too many taps in a short time: your tap is sent again by itself in 1 s.")
    expect(routed.locator("#table .last")).to_have_text("Bob drew 1 tile")
    routed.unroute("**/draw")


def test_a_reload_offline_still_shows_the_table_this_phone_saw(mobile, server):
    links = server.store_match(_bob_to_draw())
    mobile.goto(links["table"])
    mobile.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    mobile.reload()  # now under the service worker, which keeps a copy
    mobile.context.set_offline(True)
    mobile.reload()
    expect(mobile.locator("#table h1")).to_have_text("Bob to play")
    expect(mobile.locator("#tap-status")).to_have_text(
        "Offline: your taps are not sent until the connection is back.")


def test_a_tap_the_server_fails_to_store_says_not_saved(routed, server):
    links = server.store_match(_bob_to_draw())
    table = Scorer(routed)
    routed.goto(links["table"])
    routed.watcher.expect("status of 500")
    routed.route("**/draw", lambda route: route.fulfill(status=500, body="boom"))
    table.button("Draw").tap()
    expect(routed.locator("#tap-status")).to_have_text(
        "Not saved: the server could not store it. Tap again.")
    expect(table.button("Draw")).to_be_enabled()
    routed.unroute("**/draw")
    table.draw()
    expect(routed.locator("#tap-status")).to_be_hidden()
    expect(routed.locator("#table .last")).to_have_text("Bob drew 1 tile")


def test_a_tap_a_busy_server_turned_away_says_so_and_is_applied_when_sent_again(routed, server):
    links = server.store_match(_bob_to_draw())
    table = Scorer(routed)
    routed.goto(links["table"])
    before = len(server.entries(table.match_id))
    routed.watcher.expect("status of 503")
    turned_away = first_answered(routed, "**/draw", lambda route: route.fulfill(
        status=503, body="busy", headers={"Retry-After": "1", "Scorekeeper-Busy": "1"}))
    table.button("Draw").tap()
    expect(routed.locator("#tap-status")).to_have_text(
        "The server is busy: your tap is not applied yet. It is sent again by itself in a "
        "moment.")
    expect(routed.locator("#table .last")).to_have_text("Bob drew 1 tile")
    expect(routed.locator("#tap-status")).to_be_hidden()
    assert len(turned_away) == 1
    assert len(server.entries(table.match_id)) == before + 1  # applied once, when sent again
