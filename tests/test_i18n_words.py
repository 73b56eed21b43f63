"""Words a native player would say at the table: where a tile goes named with its own
ending (Hungarian a 3-asra, az 5-ösre), an ambiguous English word translated by its
meaning (a context), a count in the form its number takes, and names that nothing in
the sentence has to agree with."""

import html
import re

import pytest
from test_web_league import league  # noqa: F401 (the fixture)
from test_web_spinners import buttons

from scorekeeper.commands.console import catalogue, sayer
from scorekeeper.rules.placement import places
from scorekeeper.rules.placement.layout import Side


def say_in(lang: str):
    return sayer(catalogue({"LANG": f"{lang}.UTF-8"}))


def line_end(value: int, double: bool = False) -> Side:
    return Side((value, value) if double else (value, (value + 1) % 7), value, value)


@pytest.mark.parametrize(("end", "said"), [
    (line_end(3), "a 3-asra"), (line_end(5), "az 5-ösre"), (line_end(1), "az 1-esre"),
    (line_end(0), "a 0-sra"), (line_end(6, double=True), "a 6-6-os duplára"),
    (line_end(5, double=True), "az 5-5-ös duplára")])
def test_a_hungarian_end_has_its_own_ending_and_article(end, said):
    assert places.on_end(end, say=say_in("hu_HU")) == said


def test_every_hungarian_place_takes_az_exactly_before_one_and_five():
    """a/az follows how the first number is read: egy and öt begin with a vowel."""
    say = say_in("hu_HU")
    for message in (*places.ON_NUMBER, *places.ON_DOUBLE, *places.ON_TILE.values(),
                    *places.ON_SPINNER, *places.ON_SPINNER_SIDE):
        said = say(message)
        first = re.search(r"\d", message).group()
        assert said.split()[0] == ("az" if first in "15" else "a"), (message, said)
        assert "→" not in said


def test_where_doubles_branch_a_tile_is_named_with_its_ending():
    say = say_in("hu_HU")
    assert places.on_tile((3, 5), say) == "a 3-5-ös kőhöz"
    assert places.on_tile((5, 1), say) == "az 1-5-ös kőhöz"
    assert places.on_end(Side((5, 5), 5, 10, spinner=True), True, say) == (
        "az 5-5-ös négyfelé ágazó duplához")
    assert places.on_end(Side((5, 5), 5, 0, branch=True, spinner=True), True, say) == (
        "az 5-5-ös négyfelé ágazó dupla oldalára")


def test_the_table_names_the_two_ends_a_tile_fits_in_hungarian(imported):
    """Ends 3 and 5: 3-5 fits both, each way with another count."""
    table = imported(("Ann", "Bob"), hands=[{"starter": "Ann", "moves": ["3-6", "6-5"]}])
    table.client.get("/?lang=hu")
    offered = {label for label in buttons(html.unescape(table.page().text)).values()
               if label.startswith("3-5")}
    assert offered == {"3-5 a 3-asra", "3-5 az 5-ösre"}
    move = next(move for move, label in buttons(html.unescape(table.page().text)).items()
                if label == "3-5 az 5-ösre")
    page = html.unescape(table.lay(move).text)
    assert "Ann lerakta: 3-5 az 5-ösre" in page
    assert "→ 5" not in page and "→ 3" not in page


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("cs", "Bob: líznut 1 kámen", "Bob: líznuty 2 kameny"),
    ("el", "Bob τράβηξε 1 πλακίδιο", "Bob τράβηξε 2 πλακίδια"),
    ("hu", "Bob húzott 1 követ", "Bob húzott 2 követ")])
def test_a_draw_already_made_is_said_in_the_past_whoever_drew(imported, lang, one, two):
    table = imported(("Ann", "Bob"), hands=[{"starter": "Ann", "moves": ["6-6"]}])
    table.client.get(f"/?lang={lang}")
    assert one in html.unescape(table.draw().text)
    assert two in html.unescape(table.draw().text)


@pytest.mark.parametrize(("lang", "page_word", "team_word"), [
    ("el", "Αρχική", "Γηπεδούχος"), ("cs", "Domů", "Domácí"), ("hu", "Kezdőlap", "Hazai")])
def test_home_is_the_home_page_or_the_home_team_by_where_it_is(client, league, lang,  # noqa: F811
                                                              page_word, team_word):
    client.get(f"/?lang={lang}")
    error = html.unescape(client.get("/match/nothing/here").text)
    assert f">{page_word}</a>" in error and team_word not in error
    secretary = html.unescape(client.get(league.secretary).text)
    assert re.search(rf'<label for="home">{team_word}</label>', secretary)
    results = client.get(f"{league.secretary}/results.csv").data.decode("utf-8-sig")
    assert results.splitlines()[0].split(",")[1] == team_word


def test_p_is_fixtures_for_a_team_and_games_for_a_player(client, league):  # noqa: F811
    client.get("/?lang=el")
    page = html.unescape(client.get(league.public).text)
    assert '<abbr title="Συναντήσεις">Σ</abbr>' in page
    standings = client.get(f"{league.secretary}/standings.csv").data.decode("utf-8-sig")
    assert standings.splitlines()[0].split(",")[2] == "Σ"


def test_the_winner_is_named_without_a_word_that_must_agree_with_them(imported):
    """Czech «Vítěz» is a man, and one: the winner may be a woman, or a pair."""
    table = imported(("Ann", "Bob"), target=10, hands=[{"starter": "Ann", "moves": []}])
    table.client.get("/?lang=cs")
    table.lay("5-5")
    page = html.unescape(table.lay("5-0").text)
    assert "Vítězství v zápase: Ann, 10 bodů!" in page
