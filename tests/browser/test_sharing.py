"""More than one browser on a match: the read-only scoreboard, a double tap, and two
scoring phones tapping at the same moment."""

import time

import pytest
from playwright.sync_api import expect

from .pages import Scorer, assert_accessible, new_match, settled, shoot

pytestmark = pytest.mark.browser


def test_scoreboard_shows_a_move_within_the_polling_interval_and_changes_nothing(
        mobile, open_phone, server):
    table = new_match(mobile, 2, hand_size=3)
    table.start("Ann")
    board_link = mobile.locator("a.board-link").get_attribute("href")
    assert table.url.split("/")[-1] not in board_link  # the scoring key is not shared

    board = open_phone()
    methods = []
    board.on("request", lambda request: methods.append(request.method))
    board.goto(board_link)
    expect(board.locator(".turn")).to_have_text("Ann to play")
    expect(board.locator(".side-score")).to_have_text(["0", "0"])
    assert_accessible(board, "scoreboard")

    table.lay("5-5")
    poll_ms = server.app.config["POLL_SECONDS"] * 1000
    expect(board.locator(".side-score")).to_have_text(["10", "0"], timeout=poll_ms + 1500)
    expect(board.locator(".announce")).to_have_text("+10 Ann — lead 5-5: 5 + 5 = 10")
    expect(board.locator(".turn")).to_have_text("Bob to play")
    settled(board)
    assert_accessible(board, "scoreboard after an update")
    shoot(board, "scoreboard", docs=True)

    # nothing on the board writes: no form, no button, no htmx verb but GET
    assert board.locator("form, button, [hx-post], [hx-put], [hx-patch], [hx-delete]").count() == 0
    assert table.url.split("/")[-1] not in board.content()
    assert set(methods) == {"GET"}


def test_a_double_tap_lays_the_tile_once(mobile, server):
    table = new_match(mobile, 2, hand_size=3)
    table.start("Ann")
    posts = []
    mobile.on("request", lambda request: request.method == "POST" and posts.append(request))

    def all_answered():
        mobile.wait_for_timeout(500)  # past the double-tap interval: nothing more is sent
        for request in posts:
            request.response()

    before = len(server.entries(table.match_id))
    table.tile("5-5").dblclick()
    expect(table.heading).to_have_text("Bob to play")
    all_answered()
    assert len(server.entries(table.match_id)) == before + 1
    expect(table.side_score("Ann")).to_have_text("10")

    def double_tap(tile: str, pause_ms: int) -> None:
        box = table.tile(tile).bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        mobile.touchscreen.tap(x, y)
        mobile.wait_for_timeout(pause_ms)
        mobile.touchscreen.tap(x, y)
        all_answered()

    # the first tap's answer can be on the screen before the second tap lands, with
    # another tile (the next player's) under the finger
    double_tap("0-5", 0)  # Bob
    double_tap("0-0", 150)  # Ann, as fast as a finger
    assert len(server.entries(table.match_id)) == before + 3
    expect(table.side_score("Bob")).to_have_text("10")  # 0-5: ends 0 and 5-5
    expect(table.side_score("Ann")).to_have_text("20")  # 0-0: ends 0-0 and 5-5
    expect(mobile.locator("#table .held li")).to_have_text(["Ann 1", "Bob 2", "Boneyard 22"])


def test_two_phones_tapping_at_once_one_wins_and_the_other_sees_the_notice(
        mobile, open_phone):
    first = new_match(mobile, 2, hand_size=3)
    first.start("Ann")
    other = open_phone()
    other.goto(first.url)
    second = Scorer(other)
    assert second.revision == first.revision
    for page in (mobile, other):  # the phone that loses is answered 409 Conflict
        page.watcher.expect("status of 409")
    after = first.revision + 1  # one of the two taps is written, never both

    first.tile("5-5").tap()  # Ann leads 5-5 on one phone ...
    second.tile("2-3").tap()  # ... while the other phone enters 2-3
    for table in (first, second):
        expect(table.pos).to_have_value(str(after))
        expect(table.heading).to_have_text("Bob to play")

    notices = [table.page.locator("#table .notice") for table in (first, second)]
    shown = [notice.count() for notice in notices]
    assert sorted(shown) == [0, 1], shown
    loser, winner = (second, first) if shown[1] else (first, second)
    won_with = "5-5" if winner is first else "2-3"
    expect(loser.page.locator("#table .notice")).to_have_text(
        f"The other phone entered {won_with} first. Here is the table now.")
    expect(loser.announcement).to_have_text(winner.announcement.inner_text())
    expect(loser.page.locator("#table .side-score")).to_have_text(
        ["10" if won_with == "5-5" else "5", "0"])
    assert_accessible(loser.page, "the notice after a conflict")
    shoot(loser.page, "conflict-notice")


@pytest.mark.parametrize("told", ["503 Retry-After", "200 Scorekeeper-Poll-After"])
def test_a_scoreboard_a_busy_server_asks_to_wait_polls_again_only_after_that_wait(
        open_phone, server, told):
    from scorekeeper.rules import Match

    links = server.store_match(Match.create(["Ann", "Bob"], hand_size=3))
    board = open_phone(service_workers="block")  # every poll through the route below
    polls = []

    def busy_once(route):
        polls.append(time.monotonic())
        if len(polls) > 1:
            return route.continue_()
        if told.startswith("503"):
            return route.fulfill(status=503, body="busy",
                                 headers={"Retry-After": "3", "Scorekeeper-Busy": "1"})
        answer = route.fetch()
        return route.fulfill(response=answer,
                             headers={**answer.headers, "scorekeeper-poll-after": "3"})

    if told.startswith("503"):
        board.watcher.expect("status of 503")
    board.goto(links["board"])
    board.route("**/board/**", busy_once)
    deadline = time.monotonic() + 15
    while len(polls) < 2 and time.monotonic() < deadline:
        board.wait_for_timeout(100)  # a poll a second (POLL_SECONDS) unless told to wait
    assert len(polls) >= 2
    assert 2.9 <= polls[1] - polls[0] <= 3 * 1.5 + 1.5  # up to half as long again, + a poll
    expect(board.locator(".turn")).to_have_text("Waiting for the next hand")


@pytest.mark.parametrize("failure", ["503", "no connection"])
def test_a_scoreboard_that_cannot_be_updated_keeps_its_board_and_says_since_when(
        open_phone, server, failure):
    """The pub's TV: while its polls fail (the store cannot be read, the server is gone)
    the last board stays, and once it is older than three polls it says since when, in
    the page's language; the next board that arrives takes the note away."""
    from scorekeeper.rules import Match

    links = server.store_match(Match.create(["Ann", "Bob"], hand_size=3))
    board = open_phone(service_workers="block", locale="cs-CZ")
    for logged in (["503"] if failure == "503"  # htmx logs a request that failed
                   else ["ERR_FAILED", "htmx:sendError", "htmx:afterRequest"]):
        board.watcher.expect(logged)
    board.goto(links["board"])
    expect(board.locator(".turn")).to_have_text("Čeká se na další kolo")
    shown_at = board.evaluate("new Date().toLocaleTimeString('cs', {hour: '2-digit', "
                              "minute: '2-digit'})")

    def fail(route):
        if failure == "503":
            return route.fulfill(status=503, body="cannot be read",
                                 headers={"Retry-After": "1"})
        return route.abort()

    board.route("**/board/**", fail)
    stale = board.locator("#board .stale")
    expect(stale).to_contain_text("Neaktualizováno od", timeout=8000)
    expect(stale).to_contain_text(shown_at)
    expect(board.locator(".turn")).to_have_text("Čeká se na další kolo")  # the board stays
    board.unroute("**/board/**")
    expect(stale).to_have_count(0, timeout=5000)
