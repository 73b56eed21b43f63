"""`scorekeeper replay` speaks the language its environment names (LC_ALL, else LANG)."""

import json
import os
import subprocess
import sys

import pytest

WON = {"format": "allfives-match/1", "players": ["Ann", "Bob"], "target": 15, "hand_size": 2,
       "hands": [{"starter": "Ann", "moves": ["2-1", "draw", "1-1@R", "2-6@L"],
                  "remaining": {"Bob": 12}},
                 {"moves": ["6-4"]}]}


def replay(path, **environment) -> list[str]:
    env = {name: value for name, value in os.environ.items()
           if name not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    result = subprocess.run([sys.executable, "-m", "scorekeeper.cli", "replay", str(path)],
                            capture_output=True, text=True, encoding="utf-8", timeout=60,
                            env=env | environment | {"PYTHONIOENCODING": "utf-8"})
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return result.stdout.splitlines()


@pytest.fixture
def won(tmp_path):
    path = tmp_path / "won.json"
    path.write_text(json.dumps(WON), encoding="utf-8")
    return path


@pytest.mark.parametrize(("lang", "first", "domino", "last"), [
    ("cs_CZ.UTF-8", "Ann – Bob: hraje se do 15 bodů, každý dostává 2 kameny",
     "  Ann hlásí domino. Bob 12 → 10, celkem 10 bodů: Ann",
     "Vítězství v zápase: Ann (20 bodů). Konečný stav: Ann 20, Bob 0"),
    ("el_GR.UTF-8", "Ann – Bob: στόχος οι 15 πόντοι, 2 πλακίδια ο καθένας",
     "  Ντόμινο! Ann βγήκε. Bob 12 → 10: 10 πόντοι: Ann",
     "Νίκη στον αγώνα: Ann, με 20 πόντους. Τελικό σκορ: Ann 20, Bob 0"),
    ("hu_HU.UTF-8", "Ann – Bob: 15 pontig, fejenként 2 kő",
     "  Dominó! Ann kiment. Bob 12 → 10: Ann kap 10 pontot",
     "Ann 20 ponttal megnyerte a mérkőzést. Végeredmény: Ann 20, Bob 0"),
])
def test_the_match_is_told_in_the_language_of_lang(won, lang, first, domino, last):
    lines = replay(won, LANG=lang)
    assert (lines[0], lines[-1]) == (first, last)
    assert domino in lines


def test_lc_all_wins_over_lang(won):
    assert replay(won, LANG="hu_HU.UTF-8", LC_ALL="el_GR.UTF-8")[0].startswith(
        "Ann – Bob: στόχος")


@pytest.mark.parametrize("lang", ["C.UTF-8", "de_DE.UTF-8", ""])
def test_without_a_language_of_the_app_it_speaks_english(won, lang):
    assert replay(won, LANG=lang)[0] == "Ann v Bob: first to 15, 2 tiles each"


def test_one_tile_and_several_tiles_are_said_as_each_language_says_them(won, tmp_path):
    one = tmp_path / "one.json"
    one.write_text(json.dumps({**WON, "hand_size": 1, "hands": []}), encoding="utf-8")
    assert replay(one, LANG="cs_CZ.UTF-8")[0].endswith("každý dostává 1 kámen")
    five = tmp_path / "five.json"
    five.write_text(json.dumps({**WON, "hand_size": 5, "hands": []}), encoding="utf-8")
    assert replay(five, LANG="cs_CZ.UTF-8")[0].endswith("každý dostává 5 kamenů")


ONE_POINT = {"format": "allfives-match/1", "rules": "ola-5", "players": ["Ann", "Bob"],
             "hand_size": 1, "hands": [{"starter": "Ann", "moves": ["6-6"],
                                        "remaining": {"Bob": 1}}]}


@pytest.mark.parametrize(("lang", "domino"), [
    ("cs_CZ.UTF-8", "  Ann hlásí domino. Bob 1, celkem 1 bod: Ann"),
    ("el_GR.UTF-8", "  Ντόμινο! Ann βγήκε. Bob 1: 1 πόντος: Ann"),
    ("hu_HU.UTF-8", "  Dominó! Ann kiment. Bob 1: Ann kap 1 pontot"),
    ("C.UTF-8", "  Domino! Ann went out. Bob 1: 1 to Ann"),
])
def test_one_point_is_said_as_one_point(tmp_path, lang, domino):
    """Όλα 5 takes the pips as they are, so going out can score 1: never "1 bodů"."""
    path = tmp_path / "one.json"
    path.write_text(json.dumps(ONE_POINT), encoding="utf-8")
    assert domino in replay(path, LANG=lang)
