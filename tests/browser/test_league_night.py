"""A whole league match night on phones: the secretary sets up a league of three teams,
the home captain lines up the card, two games are scored tile by tile at two tables,
one is entered from paper, both captains confirm, and the public page shows the table."""

import os
import re
from datetime import date

import pytest
from playwright.sync_api import Page, expect

from .pages import DOCS_SCREENSHOTS, Scorer, assert_accessible, settled, shoot

pytestmark = pytest.mark.browser

ROSTERS = {"Anchor": ["Ann", "Amy"], "Bell": ["Bob", "Ben"], "Crown": ["Cat", "Cy"]}


def create_league(page: Page) -> str:
    page.goto("/")
    page.get_by_role("link", name="Start a league").tap()
    page.get_by_label("League name").fill("Harbour Fives League")
    page.get_by_label("Season").fill("2026–27")
    page.get_by_label("Teams, one per line").fill("\n".join(ROSTERS))
    page.get_by_label("The card: its games in order").fill("SSP")
    page.get_by_label("Singles: target (points)").fill("15")
    assert_accessible(page, "the new-league form")
    page.get_by_role("button", name="Create the league").tap()
    expect(page.get_by_text("Secretary's page")).to_be_visible()
    players_and_fixtures(page, ROSTERS, 6)
    return page.url


def players_and_fixtures(page: Page, rosters: dict, fixtures: int) -> None:
    """The secretary adds each team's players, then makes the fixtures from tonight."""
    for team, players in rosters.items():
        for name in players:
            page.get_by_label(f"New player for {team}").fill(name)
            page.get_by_label(f"New player for {team}").press("Enter")
            expect(page.locator(".teams")).to_contain_text(name)
    page.get_by_label("First match night").fill(date.today().isoformat())
    page.get_by_role("button", name="Make the fixtures").tap()
    expect(page.locator(".fixtures").last.locator("li")).to_have_count(fixtures)


def captain_link(secretary: Page, team: str) -> str:
    item = secretary.locator(".teams > li").filter(has_text=re.compile(rf"^\s*{team}:"))
    return item.locator(".link a").get_attribute("href")


def line_up(card: Page, number: int, home: list[str], away: list[str]) -> None:
    for side, names in (("home", home), ("away", away)):
        for seat, name in enumerate(names, 1):
            card.locator(f"#g{number}-{side}{seat}").select_option(name)
    card.get_by_role("button", name=f"Save the players of game {number}").tap()
    expect(card.locator(".game").nth(number - 1)).to_contain_text(
        f"{' & '.join(home)} v {' & '.join(away)}")
    settled(card)


def play_to_fifteen(table: Scorer, first: str, second: str, third: str) -> None:
    """2-3 leads (+5), the next seat draws and lays 2-5, then 3-5 on the 3 scores 10."""
    table.start(first)
    table.lay("2-3")
    table.draw()
    table.lay("2-5")
    table.lay("3-5", "on the 3")
    expect(table.heading).to_have_text(re.compile(rf"^{re.escape(third)} won the match"))


def test_a_whole_match_night_from_the_secretary_to_the_public_standings(open_phone, server):
    secretary = open_phone()
    create_league(secretary)
    assert_accessible(secretary, "the secretary's page")
    tonight = secretary.locator("#live .fixtures > li > a").first
    expect(tonight).to_have_text("Bell 0–0 Crown")
    public_link = secretary.locator("a.board-link").get_attribute("href")

    home = open_phone()
    home.goto(captain_link(secretary, "Bell"))
    expect(home.get_by_text("Captain's page: Bell")).to_be_visible()
    home.get_by_role("link", name="Bell 0–0 Crown").tap()
    expect(home.get_by_role("heading", name="Bell v Crown")).to_be_visible()
    line_up(home, 1, ["Bob"], ["Cat"])
    line_up(home, 2, ["Ben"], ["Cy"])
    line_up(home, 3, ["Bob", "Ben"], ["Cat", "Cy"])
    home.get_by_role("button", name="Start game 1 at a table").tap()
    expect(home.get_by_role("link", name="Score game 1")).to_be_visible()
    home.get_by_role("button", name="Start game 3 at a table").tap()
    expect(home.get_by_role("link", name="Score game 3")).to_be_visible()
    assert_accessible(home, "the card at the start of the night")

    first, second = Scorer(open_phone()), Scorer(open_phone())
    first.page.goto(home.get_by_role("link", name="Score game 1").get_attribute("href"))
    second.page.goto(home.get_by_role("link", name="Score game 3").get_attribute("href"))
    play_to_fifteen(first, "Bob", "Cat", "Bob")
    play_to_fifteen(second, "Bob", "Cat", "Bob & Ben")

    away = open_phone()
    away.goto(captain_link(secretary, "Crown"))
    away.get_by_role("link", name=re.compile(r"^Bell \d–\d Crown$")).tap()
    away.get_by_text("Played on paper? Enter its final score").tap()
    away.get_by_label("Bell points").fill("7")
    away.get_by_label("Crown points").fill("15")
    away.get_by_role("button", name="Enter the paper score of game 2").tap()
    games = away.locator(".game")
    expect(games.nth(1)).to_contain_text("7–15 won by Crown · entered from paper")
    # the home captain's card follows the tables by itself: nobody typed these
    expect(home.locator(".game").nth(0)).to_contain_text("15–0 won by Bell · scored",
                                                         timeout=5000)
    expect(home.locator(".game").nth(2)).to_contain_text("15–0 won by Bell · scored")
    home.reload()
    expect(home.locator(".match-score")).to_have_text(re.compile(r"Bell\s+2–1\s+Crown"))

    home.get_by_role("button", name="Confirm the card for Bell").tap()
    expect(home.locator(".confirmations")).to_contain_text("Confirmed by the home captain")
    away.reload()
    away.get_by_role("button", name="Confirm the card for Crown").tap()
    expect(away.locator(".confirmations")).to_contain_text("Confirmed by both captains")
    assert_accessible(away, "the confirmed card")
    shoot(away, "league-card", docs=True)

    public = open_phone()
    public.goto(public_link)
    rows = public.locator("table.standings").first.locator("tbody tr")
    expect(rows.nth(0)).to_have_text(re.compile(r"^\s*1\s*Bell\s*1\s*1\s*0\s*0\s*2\s*1\s*\+1\s*4"))
    expect(rows.nth(1)).to_have_text(re.compile(r"^\s*2\s*Crown\s*1\s*0\s*0\s*1\s*1\s*2\s*-1\s*1"))
    assert "/match/" not in public.content()  # never a scoring link on the public page
    expect(public.locator("#live a[href*='/board/']")).to_have_count(2)
    assert public.locator("form, [hx-post]").count() == 0
    assert_accessible(public, "the public league page")
    shoot(public, "league-public", docs=True)
    if os.environ.get("UPDATE_DOCS_SCREENSHOTS") == "1":  # the tables alone, for the README
        public.locator("#standings").screenshot(path=DOCS_SCREENSHOTS / "league-standings.png",
                                                scale="css", animations="disabled")

    secretary.reload()  # a player's season: the games the confirmed card counts
    secretary.locator(".teams a.player", has_text="Bob").first.tap()
    expect(secretary.get_by_role("heading", name=re.compile("^Bob"))).to_be_visible()
    expect(secretary.locator("main")).to_contain_text("15–0")
    assert_accessible(secretary, "a player's page")
    shoot(secretary, "league-player", docs=True)
