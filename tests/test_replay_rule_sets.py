"""`scorekeeper replay` on Fives and Threes records: text, JSON and refusals, in each language."""

import json
import os
import subprocess
import sys

import pytest

FORMAT = "allfives-match/1"
# Hand 1 is blocked at once (Ann 2); in hand 2 Bob leads 6-6 (4) and Ann lays 6-3 (8).
PLAYED = {"format": FORMAT, "rules": "fives-and-threes", "players": ["Ann", "Bob"],
          "hands": [{"starter": "Ann", "moves": ["5-5", "pass", "pass"]},
                    {"moves": ["6-6", "6-3@L"]}]}


def replay(tmp_path, doc, *args, lang="C"):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "scorekeeper.cli", "replay", *args,
                             str(path)], capture_output=True, text=True, encoding="utf-8",
                            timeout=60, env=os.environ | {"PYTHONIOENCODING": "utf-8",
                                                           "LANG": lang, "LC_ALL": ""})
    assert "Traceback" not in result.stderr, result.stderr
    return result


def test_json_scores_a_fives_and_threes_match_and_its_blocked_hand(tmp_path):
    result = replay(tmp_path, PLAYED, "--json")
    summary = json.loads(result.stdout)
    assert [side["score"] for side in summary["sides"]] == [10, 4]
    assert [hand["result"] for hand in summary["hands"]] == ["blocked", "unfinished"]
    assert [hand["points"] for hand in summary["hands"]] == [[2, 0], [8, 4]]
    assert summary["hands"][1]["starter"] == "Bob" and summary["target"] == 61


def test_text_names_the_game_the_knocks_and_the_fives_and_threes(tmp_path):
    lines = replay(tmp_path, PLAYED).stdout.splitlines()
    assert lines[:2] == ["Fives and Threes", "Ann v Bob: first to exactly 61, 7 tiles each"]
    assert "  2. Bob knocks" in lines
    assert "  Blocked: every player still holding tiles knocked. Nobody scores." in lines
    assert "  2. Ann lays 6-3 on the 6-6: 3 + 6-6 (12) = 15 → 5 + 3 = 8 to Ann" in lines


@pytest.mark.parametrize(("lang", "words"), [
    ("C", "hand 2, move 3 (Bob draw): Bob cannot draw: the undealt tiles sleep"),
    ("el_GR.UTF-8", "γύρος 2, κίνηση 3 (Bob draw): Bob δεν μπορεί να τραβήξει"),
    ("cs_CZ.UTF-8", "kolo 2, tah 3 (Bob draw): Bob nemůže lízat"),
])
def test_a_draw_in_fives_and_threes_is_illegal_in_the_readers_language(tmp_path, lang,
                                                                         words):
    doc = json.loads(json.dumps(PLAYED))
    doc["hands"][1]["moves"].append("draw")
    result = replay(tmp_path, doc, lang=lang)
    assert result.returncode == 1 and result.stderr.startswith(words)


def test_a_refusal_with_a_number_takes_the_form_for_that_number(tmp_path):
    doc = {"format": FORMAT, "players": ["Ann", "Bob"],
           "hands": [{"starter": "Ann", "moves": ["5-5", "pass"]}]}
    result = replay(tmp_path, doc)
    assert result.stderr.strip() == (
        "hand 1, move 2 (Bob pass): Bob must draw first: 14 tiles are left in the boneyard")
    czech = replay(tmp_path, doc, lang="cs_CZ.UTF-8").stderr
    assert "v zásobě zbývá 14 kamenů" in czech
