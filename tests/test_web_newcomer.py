"""What a newcomer tripped over at the table (issue 30), in every language: the home list
naming each match's game and hand, the header naming the game, a bust said on its button,
capitalised explanations, the last move kept after a refusal, and the open ends said as a
sentence. (Undo's step: test_web_undo_steps.py; how they look at 320 and 412 px:
tests/browser/test_newcomer.py.)"""

import html
import json
import re

import pytest

from scorekeeper.commands.console import catalogue
from scorekeeper.rules import RULE_SETS

LANGUAGES = ("en", "el", "cs", "hu")

OLA_5_WAITING = {"rules": "ola-5", "hand_size": 2, "hands": [
    {"starter": "Ann", "moves": ["5-5", "0-5@5-5", "0-1@0-5"], "remaining": {"Bob": 12}}]}
"""Ann went out of an Όλα 5 hand and Bob's pips are in: hand 2 waits for its starter."""

NEAR_61 = {"rules": "fives-and-threes", "hand_size": 7, "hands": [
    {"starter": "Bob", "moves": ["3-6", "2-3@L", "0-2@L", "0-0@L", "pass", "2-6@R", "0-4@L",
                                 "1-4@L", "pass", "1-1@L", "pass", "pass"]},
    {"moves": ["3-6", "pass", "0-6@R", "pass", "0-0@R", "3-3@L", "0-5@R", "5-6@R", "4-6@R",
               "0-4@R", "pass", "pass"]},
    {"moves": ["6-3", "pass", "3-4@R", "0-4@R", "0-1@R", "5-6@L", "pass", "pass"]},
    {"moves": ["4-0", "1-4@L", "pass", "0-2@R", "2-6@R", "5-6@R", "3-5@R", "3-3@R", "3-6@R",
               "1-1@L", "pass", "6-6@R", "pass", "pass"]},
    {"moves": ["3-6", "6-6@R", "1-3@L", "1-2@L", "5-6@R", "2-5@L", "1-5@L", "4-5@R", "4-6@R",
               "pass", "pass"]},
    {"moves": ["2-5", "4-5@R", "pass", "2-6@L", "5-6@L", "1-4@R", "1-5@R", "3-5@L", "3-3@L",
               "pass", "3-6@L", "pass", "6-6@L", "pass", "pass"]},
    {"moves": ["2-6", "2-3@L", "pass", "pass"]},
    {"moves": ["2-2", "0-2@L", "1-2@R", "0-4@L", "1-5@R", "3-5@R", "3-6@R", "4-4@L", "6-6@R",
               "pass", "5-6@R", "0-5@R", "1-4@L"]},
    {"moves": ["3-4", "3-3@L", "0-3@L", "0-5@L", "pass", "1-5@L", "pass", "1-1@L", "pass",
               "pass"]},
    {"moves": ["1-5", "5-6@R", "0-1@L", "2-6@R", "0-4@L", "pass", "4-4@L", "2-3@R"]}]}
"""A Fives and Threes match played by random players: Ann on 59 of exactly 61, to play on
the open ends 4-4 and 3. 3-4 on the 4-4 makes 2 (61: she wins), on the 3 it would bust."""


def words(lang: str):
    return catalogue({"LANG": f"{lang}.UTF-8"})


def shown(page: str, css_class: str) -> list[str]:
    """The unescaped texts of the elements with the given class (tags inside dropped)."""
    pattern = rf'<(\w+) class="(?:[^"]* )?{css_class}(?: [^"]*)?"[^>]*>(.*?)</\1>'
    return [html.unescape(re.sub(r"<[^>]+>", "", text)).strip()
            for _, text in re.findall(pattern, page, re.S)]


def brand(page: str) -> str:
    return html.unescape(re.search(r'<a class="brand"[^>]*>(.*?)</a>', page).group(1))


# -- 1. the home list ------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_home_list_names_each_matchs_game_and_the_hand_it_waits_for(speaking, imported,
                                                                         lang):
    say = words(lang).gettext
    client = speaking(lang)
    for rules in RULE_SETS:  # the same two players in each game: only the game tells them apart
        imported(("Ann", "Bob"), rules=rules.name)
    imported(("Ann", "Bob"), **OLA_5_WAITING)
    page = client.get("/").text
    rows = re.findall(r'<li class="playing">(.*?)</li>', page, re.S)
    assert len(rows) == 5
    assert {shown(row, "names")[0] for row in rows} == {"Ann" + say(" v ") + "Bob"}
    games = [shown(row, "game")[0] for row in rows]
    assert sorted(games) == sorted([say(rules.shown_name) for rules in RULE_SETS]
                                   + [say("Όλα 5")])
    waiting = next(row for row in rows if shown(row, "score")[0] == "22 – 10")
    assert shown(waiting, "game") == [say("Όλα 5")]
    assert shown(waiting, "state")[0] == say("hand %(n)s") % {"n": 2}  # not "hand 1"


def test_a_summary_stored_before_the_hand_was_kept_is_listed_by_its_hand_count(app, imported,
                                                                              client):
    """Rows written by an older version have no `hand`: they are listed as they were."""
    from scorekeeper.storage import connect, location

    table = imported(("Ann", "Bob"), **OLA_5_WAITING)
    conn = connect(location(app.config))
    try:
        summary = json.loads(conn.execute("SELECT summary FROM matches WHERE id = ?",
                                          (table.match_id,)).fetchone()[0])
        assert summary["hand"] == 2
        del summary["hand"]
        with conn:
            conn.execute("UPDATE matches SET summary = ? WHERE id = ?",
                         (json.dumps(summary), table.match_id))
    finally:
        conn.close()
    assert "hand 1" in shown(client.get("/").text, "state")


# -- 2. the header names the match's game --------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_screen_of_a_match_names_its_own_game_in_the_header(speaking, imported, lang):
    say = words(lang).gettext
    client = speaking(lang)
    assert brand(client.get("/").text) == say("All Fives")
    for rules in RULE_SETS:
        table = imported(("Ann", "Bob"), rules=rules.name)
        board = re.search(r'class="board-link" href="[^"]*?(/board/[^"]+)"',
                          client.get(table.url).text).group(1)
        for url in (table.url, table.url + "/sheet", board):
            assert brand(client.get(url).text) == say(rules.shown_name), (rules.name, url)


# -- 3. a tile that would bust says so on its button --------------------------------------


def tile_buttons(page: str) -> dict[str, str]:
    """Each tile button's move and the words under its tile (points, "bust" or nothing)."""
    found = {}
    pattern = r'<button class="tile-button[^"]*" name="move" value="([^"]+)"[^>]*>(.*?)</button>'
    for move, body in re.findall(pattern, page, re.S):
        said = re.search(r'<span class="(?:points|bust)">(.*?)</span>', body)
        found[move] = html.unescape(said.group(1)) if said else ""
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_tile_that_would_bust_says_bust_on_its_button_before_the_tap(speaking, imported,
                                                                       stored, lang):
    speaking(lang)
    table = imported(("Ann", "Bob"), **NEAR_61)
    match = stored(table.match_id, table.key).match
    assert match.scores[0] == 59 and match.turn == 0
    page = table.page().text
    bust = words(lang).gettext("bust")
    buttons = tile_buttons(page)
    assert buttons["3-4@L"] == "+2"  # on the 4: 61, exactly the target
    assert buttons["3-4@R"] == buttons["1-3@R"] == buttons["4-6@L"] == bust
    assert buttons["3-6@R"] == ""  # scores nothing: never a bust
    assert len(re.findall(r'class="tile-button busts"', page)) == 3
    # the button said what the tap then does: no score, and the announcement says why
    response = table.lay("3-4@R")
    assert stored(table.match_id, table.key).match.scores[0] == 59
    assert shown(response.text, "announce bust")


def test_in_all_fives_a_tile_past_the_target_scores_and_never_says_bust(imported):
    table = imported(("Ann", "Bob"), target=10, hands=[{"starter": "Ann",
                                                         "moves": ["5-0", "0-1@R"]}])
    buttons = tile_buttons(table.page().text)  # Ann on 5 of 10, the ends 5 and 1
    assert "bust" not in buttons.values()
    assert buttons["1-5@R"] == "+10"  # 15, past the target: All Fives wins with it


# -- 5. explanations start with a capital, and "blocked" is said once ---------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_blocked_hand_is_explained_in_a_sentence_that_starts_with_a_capital(speaking,
                                                                              imported, lang):
    speaking(lang)
    table = imported(("Ann", "Bob"), hand_size=14, hands=[{"starter": "Ann",
                                                            "moves": ["6-6", "pass", "pass"]}])
    preview = shown(table.end({"pips_0": "70", "pips_1": "86", "check": "1"}).text, "preview")
    said = shown(table.end({"pips_0": "70", "pips_1": "86"}).text, "announce")
    sheet = shown(table.client.get(table.url + "/sheet").text, "scores")[0]
    explained = "Blocked: %(parts)s; %(others)s − %(own)s = %(points)s to %(side)s"
    blocked = words(lang).npgettext("points", explained, explained, 15).split(":")[0]
    for text in (preview[0], said[0]):
        assert text.startswith(blocked + ":") and text[0].isupper(), text
        assert text.lower().count(blocked.lower()) == 1
    assert f"{blocked}: Ann 70 → 70" in sheet


# -- 6. the last move stays on the screen after a refusal ----------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_last_move_stays_on_screen_after_refused_pips(speaking, imported, lang):
    speaking(lang)
    table = imported(("Ann", "Bob", "Cat"), hand_size=2, hands=[
        {"starter": "Ann", "moves": ["0-1", "draw", "1-2@R", "draw", "0-4@L", "2-2@R"]}])
    last = shown(table.page().text, "last")
    assert last and last[0]
    refused = table.end({"pips_1": "40", "pips_2": "13"})
    assert refused.status_code == 422
    assert shown(refused.text, "error")
    assert shown(refused.text, "last") == last
    refused_check = table.end({"pips_1": "40", "pips_2": "13", "check": "1"}, htmx=False)
    assert shown(refused_check.text, "last") == last


# -- 8. the open ends said as a sentence ---------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_screen_readers_hear_the_open_ends_as_a_sentence(speaking, imported, lang):
    say = words(lang).gettext
    speaking(lang)
    table = imported(("Ann", "Bob"), hands=[{"starter": "Ann", "moves": ["4-4", "4-3@R"]}])
    for page in (table.page().text,
                 table.client.get(re.search(r'class="board-link" href="[^"]*?(/board/[^"]+)"',
                                            table.page().text).group(1)).text):
        sentence = say("Open ends: %(left)s and %(right)s, count %(count)s") % {
            "left": say("double 4"), "right": 3, "count": 11}
        assert sentence in shown(page, "sr")
        drawn = re.search(r'<div class="line"([^>]*)>', page).group(1)
        assert 'aria-hidden="true"' in drawn  # the drawing and its bare "4-4 11 3" are not read
    if lang == "en":
        assert sentence == "Open ends: double 4 and 3, count 11"
