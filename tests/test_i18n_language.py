"""Which language a phone gets: its browser's on a first visit, the menu's choice after,
a shared `?lang=` link; and the pub's TV its own, whatever the scorer's phone speaks."""

import html
import re
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta

import pytest
from test_web_league import LEAGUE

HTMX = {"HX-Request": "true"}


def page_language(page: str) -> str:
    return re.search(r'<html lang="(\w+)">', page).group(1)


def menu(page: str) -> dict[str, str]:
    """The language menu: each language's own name -> the address it links to."""
    found = re.findall(r'<a href="([^"]*)" lang="(\w+)" hreflang="\w+"[^>]*>([^<]+)</a>', page)
    return {name: html.unescape(href) for href, _code, name in found}


@pytest.mark.parametrize(("accept", "lang", "heading"), [
    ("el-GR,el;q=0.9,en;q=0.8", "el", "Όλα τα πεντάρια: μετρητής πόντων"),
    ("cs-CZ,cs;q=0.9", "cs", "Všechny pětky: počítání bodů"),
    ("hu", "hu", "Ötös szorzók: pontszámláló"),
    ("de-DE,de;q=0.9", "en", "All Fives scorekeeper"),
    ("", "en", "All Fives scorekeeper"),
])
def test_a_first_visit_speaks_the_browsers_language(client, accept, lang, heading):
    page = client.get("/", headers={"Accept-Language": accept}).text
    assert page_language(page) == lang
    assert f"<h1>{heading}</h1>" in page


def test_every_language_is_offered_in_its_own_name_from_every_screen(client):
    assert menu(client.get("/rules").text) == {
        "English": "?lang=en", "Ελληνικά": "?lang=el", "Čeština": "?lang=cs",
        "Magyar": "?lang=hu"}


def test_the_menu_keeps_the_rest_of_the_address(client):
    links = menu(client.get("/new?players=4&lang=hu").text)
    assert links["Ελληνικά"] == "?players=4&lang=el"


def test_the_choice_is_remembered_over_the_browsers_language(client):
    chosen = client.get("/rules?lang=el", headers={"Accept-Language": "cs"})
    assert page_language(chosen.text) == "el"
    assert "lang=el" in chosen.headers["Set-Cookie"]
    later = client.get("/", headers={"Accept-Language": "cs"})
    assert page_language(later.text) == "el"
    assert "Set-Cookie" not in later.headers


def test_an_unknown_language_is_ignored(client):
    response = client.get("/?lang=xx", headers={"Accept-Language": "hu"})
    assert page_language(response.text) == "hu"
    assert "Set-Cookie" not in response.headers


def test_a_tap_answers_in_the_language_chosen(phone):
    table = phone()
    table.client.get("/?lang=cs")
    table.start(0)
    response = table.lay("5-5")
    assert "Hraje Bob" in response.text
    assert "+10 Ann — zahájení 5-5: 5 + 5 = 10" in html.unescape(response.text)


def test_a_refused_tap_offers_the_languages_of_the_table_screen(phone):
    table = phone()
    table.start(0)
    table.lay("3-6")
    refused = table.lay("1-2", htmx=False)
    assert refused.status_code == 422
    assert menu(refused.text)["Magyar"] == table.url + "?lang=hu"


def test_the_scoreboard_link_speaks_the_language_of_the_phone_that_opens_it(app, phone):
    scorer = phone()
    scorer.client.get("/?lang=el")
    page = scorer.page().text
    board = re.search(r'class="board-link" href="([^"]+)"', page).group(1)
    assert "lang=" not in board
    tv = app.test_client()
    shown = tv.get(board, headers={"Accept-Language": "hu-HU,hu"})
    assert page_language(shown.text) == "hu"
    assert "Eredményjelző · magától frissül" in shown.text
    assert page_language(scorer.client.get(board).text) == "el"


def test_a_scoreboard_switched_to_another_language_is_not_answered_from_the_old_one(
        app, phone):
    """The TV's next poll names the page it had; in another language that is no longer it."""
    board = re.search(r'class="board-link" href="([^"]+)"', phone().page().text).group(1)
    tv = app.test_client()
    first = tv.get(board, headers=HTMX)
    tv.get(board + "?lang=cs")
    again = tv.get(board, headers={**HTMX, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200
    assert "Výsledková tabule" in again.text
    assert "Accept-Language" in again.headers["Vary"]


@pytest.mark.parametrize(("lang", "target"), [
    ("en", "1,500"), ("el", "1.500"), ("cs", "1\xa0500"), ("hu", "1\xa0500")])
def test_numbers_are_written_as_the_language_writes_them(client, new_match, lang, target):
    url = new_match(target=1500)
    client.get(f"/?lang={lang}")
    sheet = html.unescape(client.get(url + "/sheet").text)
    assert re.search(rf"<caption>[^<]*{target}\)</caption>", sheet)


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "last played 3 hours ago"), ("el", "τελευταία κίνηση πριν από 3 ώρες"),
    ("cs", "naposledy hráno před 3 hodinami"), ("hu", "utoljára játszva: 3 órával ezelőtt")])
def test_the_home_page_says_when_each_match_was_played_in_its_language(app, client, new_match,
                                                                       lang, said):
    new_match()
    three_hours_ago = (datetime.now(UTC) - timedelta(hours=3)).strftime("%Y-%m-%dT%H:%M:%SZ")
    with closing(sqlite3.connect(app.config["DATABASE"])) as conn, conn:
        conn.execute("UPDATE matches SET updated = ?", (three_hours_ago,))
    page = html.unescape(client.get(f"/?lang={lang}").text)
    assert re.search(rf"<time [^>]*>{re.escape(said)}</time>", page)


@pytest.mark.parametrize(("lang", "day"), [
    ("en", "Nov 30, 2026"), ("el", "30 Νοε 2026"), ("cs", "30. 11. 2026"),
    ("hu", "2026. nov. 30.")])
def test_a_fixtures_day_is_written_as_the_language_writes_dates(client, lang, day):
    made = client.post("/league/new", data={**LEAGUE, "teams": "Anchor\nBell"})
    secretary = made.headers["Location"]
    client.post(f"{secretary}/fixtures/make", data={"first": "2026-11-30", "every": "7"})
    page = html.unescape(client.get(f"{secretary}?lang={lang}").text)
    assert f'<time class="day" datetime="2026-11-30">{day}</time>' in page
