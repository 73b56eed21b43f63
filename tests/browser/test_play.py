"""Whole hands played on a phone by tapping: a two-player hand to the score sheet, a
partnership reaching the target mid-hand, and blocked hands (a win and a tie)."""

import re

import pytest
from playwright.sync_api import expect

from .pages import assert_accessible, new_match, shoot

pytestmark = pytest.mark.browser

TILE_NAME = re.compile(r"^[0-6]-[0-6](?: on the [0-6](?:-[0-6])?)?(?: \+\d+)?$")


def test_two_players_play_a_whole_hand_by_tapping_and_read_the_score_sheet(mobile):
    table = new_match(mobile, 2, hand_size=3)
    expect(table.heading).to_have_text("Hand 1: who holds the highest double?")
    assert_accessible(mobile, "choosing the starter")
    shoot(mobile, "table-start")

    table.start("Ann")
    expect(table.heading).to_have_text("Ann to lead")
    buttons = mobile.locator("#table button[name=move]")
    expect(buttons).to_have_count(28)
    for index in range(28):
        expect(buttons.nth(index)).to_have_accessible_name(TILE_NAME)
    assert_accessible(mobile, "the lead")
    shoot(mobile, "table-lead")

    table.lay("2-3")  # the lead counts its pips: 5
    expect(table.side_score("Ann")).to_have_text("5")
    expect(table.announcement).to_have_text("+5 Ann — lead 2-3: 2 + 3 = 5")
    expect(table.heading).to_have_text("Bob to play")
    assert_accessible(mobile, "after the lead")

    table.draw()
    expect(mobile.locator("#table .held")).to_contain_text("Bob 4")
    table.lay("2-5")  # fits only the 2: no end word; ends 5 and 3: 8, nothing
    expect(table.announcement).to_have_text("Bob: 5 + 3 = 8, no score")

    # 3-5 fits both ends with different results: one button per end, named by the number
    # it covers on the table
    expect(table.tile("3-5", "on the 5")).to_have_accessible_name("3-5 on the 5")
    expect(table.tile("3-5", "on the 3")).to_have_accessible_name("3-5 on the 3 +10")
    shoot(mobile, "table", docs=True)
    table.lay("3-5", "on the 3")
    expect(table.side_score("Ann")).to_have_text("15")

    table.undo()
    expect(table.side_score("Ann")).to_have_text("5")
    expect(table.heading).to_have_text("Ann to play")
    table.lay("3-5", "on the 3")  # and again
    expect(table.side_score("Ann")).to_have_text("15")
    expect(table.announcement).to_have_text("+10 Ann — 5 + 5 = 10")

    table.lay("5-6")  # ends 5 and 5: the same either way, so offered once
    table.lay("4-5")  # Ann's last tile: ends 6 and 4 → 10
    expect(table.side_score("Ann")).to_have_text("25")
    expect(table.heading).to_have_text("Ann went out.")
    expect(mobile.get_by_role("group", name="Bob (2 tiles)")).to_be_visible()
    assert_accessible(mobile, "end of the hand")

    table.enter_pips(check=True, Bob=13)
    expect(mobile.locator("#table .preview")).to_have_text(
        "Ann went out. Bob 13 → 15: 15 to Ann")
    shoot(mobile, "end-of-hand", docs=True)
    table.enter_pips(Bob=13)
    expect(table.side_score("Ann")).to_have_text("40")
    expect(table.side_score("Bob")).to_have_text("0")
    expect(table.heading).to_have_text("Ann to lead")  # who went out leads the next hand
    assert_accessible(mobile, "the next hand")

    mobile.get_by_role("link", name="Score sheet").tap()
    expect(mobile.get_by_role("heading", level=1)).to_have_text("Score sheet")
    rows = mobile.locator(".sheet tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first.locator("th, td")).to_have_text(["1", "+40 = 40", "+0 = 0"])
    expect(mobile.locator(".sheet tfoot td")).to_have_text(["40", "0"])
    expect(mobile.locator(".scores li")).to_have_text([
        "Hand 1, move 1 Ann led 2-3: lead 2-3: 2 + 3 = 5 → 5 to Ann",
        "Hand 1, move 4 Ann laid 3-5 on the 3: 5 + 5 = 10 → 10 to Ann",
        "Hand 1, move 6 Ann laid 4-5 on the 5: 6 + 4 = 10 → 10 to Ann",
        "Hand 1, end Ann went out. Bob 13 → 15: 15 to Ann",
    ])
    assert_accessible(mobile, "score sheet")
    shoot(mobile, "score-sheet", docs=True)


def test_partnership_reaching_the_target_mid_hand_wins_and_nothing_more_is_offered(mobile):
    table = new_match(mobile, 4, partnerships=True, target=10)
    table.start("Ann")
    table.lay("2-3")  # Ann & Cat 5
    table.lay("3-3")  # ends 2 and 3-3: 8
    expect(table.side_score("Ann & Cat")).to_have_text("5")
    table.lay("2-4")  # Cat: ends 4 and 3-3 → 10, the side reaches 15 ≥ 10

    expect(table.heading).to_have_text("Ann & Cat won the match with 15!")
    expect(table.side_score("Ann & Cat")).to_have_text("15")
    expect(table.side_score("Bob & Dan")).to_have_text("0")
    expect(mobile.locator("#table .side.won")).to_have_count(1)
    expect(mobile.locator("#table button[name=move]")).to_have_count(0)
    expect(mobile.get_by_role("button", name=re.compile("^(Draw|Pass|Score the hand)$"))
           ).to_have_count(0)
    expect(mobile.get_by_role("button", name="Undo")).to_be_visible()
    assert_accessible(mobile, "match won")
    shoot(mobile, "match-won")

    mobile.get_by_role("link", name="See the score sheet").tap()
    expect(mobile.locator(".winner")).to_have_text("Ann & Cat won the match with 15.")


def test_blocked_hand_scores_the_fewest_pips_and_a_tie_scores_nothing(mobile):
    table = new_match(mobile, 4, hand_size=7)  # 4 × 7 = 28: no boneyard
    table.start("Ann")
    table.lay("0-0")
    expect(mobile.get_by_role("button", name="Draw")).to_have_count(0)
    for _ in range(4):  # Bob, Cat, Dan and Ann pass
        table.pass_turn()
    expect(table.heading).to_have_text("Blocked: nobody can play.")
    expect(mobile.locator("#table fieldset legend")).to_have_text(
        ["Ann (6 tiles)", "Bob (7 tiles)", "Cat (7 tiles)", "Dan (7 tiles)"])
    table.enter_pips(check=True, Ann=20, Bob=40, Cat=50, Dan=58)
    expect(mobile.locator("#table .preview")).to_have_text(
        "Blocked: Ann 20 → 20 fewest; Bob 40 → 40; Cat 50 → 50; Dan 58 → 60; "
        "40 + 50 + 60 − 20 = 130 to Ann")
    shoot(mobile, "end-of-hand-blocked")
    table.enter_pips(Ann=20, Bob=40, Cat=50, Dan=58)
    expect(table.side_score("Ann")).to_have_text("130")
    # after a blocked hand the highest double leads again: the table says who
    expect(table.heading).to_have_text("Hand 2: who holds the highest double?")

    table.start("Bob")
    table.lay("6-6")
    for _ in range(4):
        table.pass_turn()
    table.enter_pips(Ann=30, Bob=30, Cat=40, Dan=50)
    expect(table.announcement).to_contain_text("Ann and Bob tie for fewest: nobody scores")
    expect(mobile.locator("#table .side-score")).to_have_text(["130", "0", "0", "0"])

    mobile.get_by_role("link", name="Score sheet").tap()
    rows = mobile.locator(".sheet tbody tr")
    expect(rows.nth(0).locator("td")).to_have_text(["+130 = 130", "+0 = 0", "+0 = 0", "+0 = 0"])
    expect(rows.nth(1).locator("td")).to_have_text(["+0 = 130", "+0 = 0", "+0 = 0", "+0 = 0"])
