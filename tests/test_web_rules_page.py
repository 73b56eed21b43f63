"""The rules page settles a question in one screen: a contents list, each game's own section
(the anchor a match opens it at) with its answer to every question, the games side by side
in a form a 320 px phone can read, and the words players use at the table."""

import html
import re

import pytest

from scorekeeper.rules import RULE_SETS
from scorekeeper.rules.setup.topics import ANSWERED


@pytest.fixture
def page(client) -> str:
    return client.get("/rules").text


def test_the_contents_list_every_game_the_comparison_the_words_and_the_referee(page):
    contents = re.search(r'<nav class="toc".*?</nav>', page, re.S)[0]
    assert re.findall(r'href="([^"]+)"', contents) == [
        *[f"#{rules.name}" for rules in RULE_SETS], "#rule-sets", "#house-rules", "#words",
        "/referee"]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.name)
def test_each_game_has_its_section_with_its_answer_to_every_question(page, rules):
    section = re.search(rf'<section id="{rules.name}" class="game">(.*?)</section>', page,
                        re.S)[1]
    for topic in ANSWERED:
        assert f'id="{rules.name}-{topic}"' in section
    answers = dict((html.unescape(question), html.unescape(answer)) for question, answer in
                   re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", section))
    assert answers == {question: answer % values for question, answer, values
                       in rules.answers()}


def test_chipping_out_in_fives_and_threes_is_answered_where_its_link_opens(page):
    section = re.search(r'<section id="fives-and-threes" class="game">(.*?)</section>', page,
                        re.S)[1]
    assert "+1 to the side (partners: once both are out)" in section
    assert 'id="fives-and-threes-chipping-out"' in section
    assert "Yes, chipping out scores a point." in section


def test_the_games_side_by_side_are_a_list_per_question_and_a_table(page):
    listed = re.search(r'<div class="by-question">(.*?)</div>', page, re.S)[1]
    assert len(re.findall(r"<h3>", listed)) == len(ANSWERED)
    assert len(re.findall(r"<li>", listed)) == len(ANSWERED) * len(RULE_SETS)
    table = re.search(r'<table class="rule-sets-table">(.*?)</table>', page, re.S)[1]
    assert len(re.findall(r"<tr>", table)) == len(ANSWERED) + 1


@pytest.mark.parametrize("word", ["Chipping out", "Knock", "The down", "Bust", "Boneyard",
                                  "The spinner", "Domino!"])
def test_the_words_players_use_at_the_table_are_on_it(page, word):
    words = re.search(r'<section id="words">(.*?)</section>', page, re.S)[1]
    assert f"<dt>{word}</dt>" in html.unescape(words)
