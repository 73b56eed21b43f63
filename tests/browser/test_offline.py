"""Scoring with the Wi-Fi off (issue 37): the offline table (static/engine.js running
web/offline/table.py in Pyodide) moves the screen on with every tap, keeps the taps through
a reload, and sends them when the connection is back; the server stays the authority.

Each test scores a random match's own taps from the screen's buttons and forms, in a real
Chromium at phone widths, and compares what the phone showed with the server's rebuild of
the same entries after the sync. (That every offline answer is the server's, byte for
byte, over whole matches of every rule set, is tests/test_offline_table.py's.)"""

import random
import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.rules import Match, Table, find_rule_set
from scorekeeper.rules.notation.events import lay_from_button

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_offline_table import played  # noqa: E402  (the taps of a random match)

READY_SECONDS = 180
"""Pyodide's first start on a busy two-core machine (about 10 s when it is quiet)."""


def ready(page) -> None:
    """The offline table is ready, and the service worker keeps the page for a reload."""
    expect(page.locator("#offline-engine")).to_have_attribute(
        "data-state", "ready", timeout=READY_SECONDS * 1000)
    kept = "() => caches.keys().then((names) => Promise.all(names.map((name) => caches.open(name)"
    kept += ".then((cache) => cache.match(location.href, {ignoreVary: true}))))).then("
    kept += "(found) => found.some(Boolean))"
    for _ in range(50):
        if page.evaluate(kept):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the service worker did not keep the page")


def revision(page) -> int:
    return int(page.locator("#table input[name=pos]").first.input_value())


def tap(page, action: str, fields: list) -> None:
    """One tap as a scorer makes it: the form's button, its fields filled in first. (A
    click event, not a touch: the screen's double-tap guard must not see two taps at one
    spot when the script is faster than a finger.)"""
    table = page.locator("#table")
    if action == "end":
        for name, value in fields:
            if name.startswith("pips_"):
                table.locator(f"input[name={name}]").fill(value)
            elif name.startswith("tiles_"):
                box = table.locator(f'input[name={name}][value="{value}"]')
                box.evaluate("(el) => { el.closest('details').open = true; el.checked = true; }")
        check = any(name == "check" for name, _ in fields)
        button = table.locator("button[name=check]" if check
                                else "form.end-hand button[data-main]")
    elif action == "start":
        button = table.locator(f"button[name=seat][value='{fields[0][1]}']")
    elif action == "lay":  # the tile's button (where the tile fits one way, any of them)
        move = fields[0][1]
        button = table.locator(f"button[name=move][value='{move}']")
        if not button.count():
            low, high = sorted(int(number) for number in move.split("@")[0].split("-"))
            button = table.locator(f"button[name=move][data-pips='{low} {high}']").first
    elif action == "undo":  # "confirm" is sent as a plain undo where none was asked
        button = table.locator("form.undo button[name=confirm]")
        if not fields or not button.count():
            button = table.locator("form.undo button:not([name])")
    else:
        button = table.locator(f"form[action$='/{action}'] button")
    button.dispatch_event("click")


def first_hand(rules: str, seed: int):
    """A random table of `rules` (2 to 4 players, partnerships now and then) and the taps
    of its first hand scored and the next begun (undos, refused tiles and checks among
    them)."""
    rng = random.Random(seed)
    players = rng.choice((2, 3, 4))
    table = Table.create(["Ann", "Bob", "Cat", "Dan"][:players],
                         players == 4 and rng.random() < 0.5, None, None, find_rule_set(rules))
    table, steps = played(rng, table.rules, most=400, table=table, hands=1)
    # no screen offers a tile that fits nowhere, and the browser stops pips that are not a
    # number before they are sent
    return table, [step for step in steps if step != ("lay", [("move", "0-0@L")])
                   and not any(value == "x" for _, value in step[1])]


def server_table(page, links: dict) -> str:
    """The table as the server draws it now: the page loaded again, online."""
    page.goto(links["table"])
    return page.locator("#table").inner_text(timeout=30_000)


def without_notice(text: str) -> str:
    return re.sub(r"(?m)^(Not applied|.*\bentered\b).*$", "", text)


@pytest.mark.parametrize("rules, language, width", [
    ("all-fives", "en", 412), ("all-fives-spinner", "el", 320)])
def test_a_whole_hand_scored_offline_is_the_servers_after_the_sync(
        open_phone, server, rules, language, width):
    table, steps = first_hand(rules, seed=len(rules))
    links = server.store_match(Match(table))
    page = open_phone(engine=True, locale=language, viewport={"width": width, "height": 800})
    page.goto(links["table"])
    ready(page)
    page.watcher.expect("ERR_INTERNET_DISCONNECTED")
    page.context.set_offline(True)
    shown = []
    half = len(steps) // 2
    for number, (action, fields) in enumerate(steps):
        if number == half:  # the phone reloads the page: the taps and the table outlive it
            at = revision(page)
            page.reload()
            ready(page)
            expect(page.locator("#table input[name=pos]").first).to_have_value(str(at))
        tap(page, action, fields)
        shown.append(page.locator("#table").inner_text())
    expect(page.locator("#tap-status")).to_be_visible()  # how many taps wait
    assert page.evaluate("() => document.body.scrollWidth") <= width
    offline_revision, offline_screen = revision(page), shown[-1]
    assert server.entries(page.url.split("/")[-2]) == []  # nothing reached the server
    page.context.set_offline(False)
    expect(page.locator("#tap-status")).to_be_hidden(timeout=30_000)
    assert len(server.entries(page.url.split("/")[-2])) == offline_revision
    assert revision(page) == offline_revision
    assert page.locator("#table").inner_text() == offline_screen
    assert without_notice(server_table(page, links)) == without_notice(offline_screen)


def test_two_phones_diverging_offline_name_the_taps_and_apply_them_again(open_phone, server):
    """The scorer's phone scores two taps offline; meanwhile another phone lays a tile. Back
    online, the server keeps what it had, the phone names the taps it did not take, and one
    tap applies again those that still fit (the server says which do not)."""
    table, steps = first_hand("all-fives", seed=11)
    lead = next(i for i, (action, _) in enumerate(steps) if action == "lay")
    links = server.store_match(Match(table))
    page = open_phone(engine=True)
    page.goto(links["table"])
    ready(page)
    for step in steps[:lead + 1]:  # online, up to the lead
        tap(page, *step)
    expect(page.locator("#table .last")).to_be_visible()
    online = revision(page)
    fitting = page.locator("#table button[name=move]").evaluate_all(
        "(buttons) => buttons.map((button) => button.value)")
    mine = [step for step in steps[lead + 1:] if step[0] in ("lay", "draw", "pass")][:2]
    theirs = next(move for move in fitting if mine[0][0] != "lay"
                  or move.split("@")[0] != mine[0][1][0][1].split("@")[0])
    page.watcher.expect("ERR_INTERNET_DISCONNECTED")
    page.watcher.expect("status of 409")
    page.watcher.expect("status of 422")
    page.context.set_offline(True)
    for step in mine:
        tap(page, *step)
    expect(page.locator("#table input[name=pos]").first).to_have_value(str(online + 2))
    server.enter(links, lay_from_button(theirs))  # the other phone
    page.context.set_offline(False)
    status = page.locator("#tap-status")
    expect(status).to_contain_text("Another phone changed this table", timeout=30_000)
    expect(page.locator("#table .notice")).to_contain_text("entered")
    match_id = page.url.split("/")[-2]
    assert len(server.entries(match_id)) == online + 1  # the server kept what it had
    again = status.locator("button.again")
    expect(again).to_be_visible()
    again.dispatch_event("click")
    expect(status.locator("button.again")).to_have_count(0, timeout=30_000)
    page.wait_for_timeout(500)  # the last answer swapped in
    if status.is_visible():  # a tap that no longer fits is named, never dropped silently
        expect(status).to_contain_text("Not applied")
    assert len(server.entries(match_id)) == revision(page)


def test_with_the_engine_not_yet_downloaded_taps_are_kept_and_sent(open_phone, server):
    """The connection goes before the offline table is ready: the page says so, keeps the
    tap (the table does not move on), and sends it when the connection is back."""
    table, steps = first_hand("all-fives", seed=2)
    links = server.store_match(Match(table))
    page = open_phone(engine=True, service_workers="block")
    page.context.route("**/engine/*.zip", lambda route: None)  # never arrives
    page.goto(links["table"])
    engine = page.locator("#offline-engine")
    expect(engine).to_have_attribute("data-state", "loading")
    expect(engine).to_contain_text("Until it is ready, a tap made with no connection is kept")
    page.watcher.expect("ERR_INTERNET_DISCONNECTED")
    page.context.set_offline(True)
    tap(page, *steps[0])
    expect(page.locator("#tap-status")).to_contain_text("is kept")
    assert revision(page) == 0  # the table waits for the server
    page.context.set_offline(False)
    expect(page.locator("#table input[name=pos]").first).to_have_value("1", timeout=30_000)
    assert len(server.entries(page.url.split("/")[-2])) == 1
