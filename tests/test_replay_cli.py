"""`scorekeeper replay` as a referee runs it: a console command, files in, text or JSON out."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FORMAT = "allfives-match/1"
ANN_GOES_OUT = ["2-1", "draw", "1-1@R", "2-6@L"]
ANN_GOES_OUT_4 = ["2-1", "draw", "1-1@R", "draw", "2-2@L", "draw", "1-4@R", "4-3@R"]

# Ann goes out against Bob's 12 (10 points), then leads 6-4 (10 more) and reaches the
# target of 15 in the middle of hand 2.
WON = {"format": FORMAT, "players": ["Ann", "Bob"], "target": 15, "hand_size": 2,
       "hands": [{"starter": "Ann", "moves": ANN_GOES_OUT, "remaining": {"Bob": 12}},
                 {"moves": ["6-4"]}]}
# Partnerships: Ann goes out (Bob 12 → 10, Dan 3 → 5), then hand 2 is under way.
UNFINISHED = {"format": FORMAT, "players": ["Ann", "Bob", "Cat", "Dan"], "partnerships": True,
              "hand_size": 2,
              "hands": [{"starter": "Ann", "moves": ANN_GOES_OUT_4,
                         "remaining": {"Bob": 12, "Dan": ["0-0", "0-3"]}},
                        {"moves": ["5-5", "5-0"]}]}
# Blocked at once: Ann leads 0-0, Bob draws the boneyard dry, both pass.
BLOCKED = {"format": FORMAT, "players": ["Ann", "Bob"],
           "hands": [{"starter": "Ann", "moves": ["0-0", "draw 14", "pass", "pass"],
                      "remaining": {"Ann": 20, "Bob": 148}}]}
ILLEGAL = {"format": FORMAT, "players": ["Ann", "Bob"],
           "hands": [BLOCKED["hands"][0],
                     {"starter": "Ann",
                      "moves": ["6-1", "draw", "1-3@R", "3-4", "4-0", "0-3", "4-2"]}]}
ILLEGAL_MESSAGE = "hand 2, move 7 (Bob 4-2): 4-2 matches neither open end (6 and 3)"


def installed_script() -> str:
    """The console script pip installed beside this Python, else the one on PATH."""
    beside = Path(sys.executable).with_name("scorekeeper")
    found = str(beside) if beside.exists() else shutil.which("scorekeeper")
    assert found, "the scorekeeper console script is not installed"
    return found


def replay(*args, stdin: str | None = None, script: bool = False, cwd=None):
    command = [installed_script()] if script else [sys.executable, "-m", "scorekeeper.cli"]
    result = subprocess.run(command + ["replay", *map(str, args)], input=stdin,
                            capture_output=True, text=True, encoding="utf-8", timeout=60,
                            cwd=cwd, env=os.environ | {"PYTHONIOENCODING": "utf-8",
                                                       "LC_ALL": "C.UTF-8"})  # in English
    assert "Traceback" not in result.stderr, result.stderr
    return result


@pytest.fixture
def write(tmp_path):
    def write(name: str, doc) -> Path:
        path = tmp_path / name
        path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
        return path

    return write


# -- text -------------------------------------------------------------------------------------


def test_the_installed_command_tells_the_match_hand_by_hand(write):
    result = replay(write("won.json", WON), script=True)
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == "Ann v Bob: first to 15, 2 tiles each"
    for line in [
        "Hand 1: Ann leads",
        "  1. Ann lays 2-1: lead 2-1: 2 + 1 = 3, not a multiple of five: no score",
        "  2. Bob draws a tile",
        "  3. Bob lays 1-1 on the 1: 2 + 1-1 (2) = 4, not a multiple of five: no score",
        "  4. Ann lays 2-6 on the 2: 6 + 1-1 (2) = 8, not a multiple of five: no score",
        "  Domino! Ann went out. Bob 12 → 10: 10 to Ann",
        "  Hand 1 points: Ann 10, Bob 0",
        "  Score: Ann 10, Bob 0",
        "Hand 2: Ann leads",
        "  1. Ann lays 6-4: lead 6-4: 6 + 4 = 10 → 10 to Ann",
        "  The match ends here: nothing more is played or scored.",
    ]:
        assert line in lines
    assert lines[-1] == "Ann reached 20 and won the match. Final score: Ann 20, Bob 0"


def test_text_shows_blocked_hands_with_the_rounding(write):
    result = replay(write("blocked.json", BLOCKED))
    assert result.returncode == 0
    assert ("  Every player passed. Blocked: Ann 20 → 20 fewest; Bob 148 → 150; "
            "150 − 20 = 130 to Ann") in result.stdout.splitlines()
    assert result.stdout.lower().count("blocked") == 1  # said once, never "Blocked: … blocked:"
    assert result.stdout.splitlines()[-1] == "Not finished. Score: Ann 130, Bob 0"


def test_text_names_partnerships_and_an_unfinished_hand(write):
    result = replay(write("pairs.json", UNFINISHED))
    lines = result.stdout.splitlines()
    assert lines[0] == "Ann & Cat v Bob & Dan: first to 250, 2 tiles each"
    assert "  Domino! Ann went out. Bob 12 → 10, Dan 3 → 5: 15 to Ann & Cat" in lines
    assert "  2. Bob lays 0-5 on the 5-5: 0 + 5-5 (10) = 10 → 10 to Bob & Dan" in lines
    assert "  (the hand is not finished)" in lines
    assert lines[-1] == "Not finished. Score: Ann & Cat 25, Bob & Dan 10"


# -- JSON -------------------------------------------------------------------------------------


def test_json_has_exactly_the_documented_shape(write):
    result = replay("--json", write("won.json", WON))
    assert result.returncode == 0 and result.stderr == ""
    assert json.loads(result.stdout) == {
        "sides": [{"players": ["Ann"], "score": 20}, {"players": ["Bob"], "score": 0}],
        "target": 15,
        "winner": 0,
        "hands": [
            {"number": 1, "starter": "Ann", "result": "domino", "points": [10, 0],
             "moves": [{"player": "Ann", "move": "2-1", "ends": 3, "points": 0},
                       {"player": "Bob", "move": "draw", "points": 0},
                       {"player": "Bob", "move": "1-1@R", "ends": 4, "points": 0},
                       {"player": "Ann", "move": "2-6@L", "ends": 8, "points": 0}]},
            {"number": 2, "starter": "Ann", "result": "won", "points": [10, 0],
             "moves": [{"player": "Ann", "move": "6-4", "ends": 10, "points": 10}]},
        ],
    }


def test_json_sides_are_partnerships_in_seat_order_and_moves_as_written(write):
    summary = json.loads(replay("--json", write("pairs.json", UNFINISHED)).stdout)
    assert summary["sides"] == [{"players": ["Ann", "Cat"], "score": 25},
                                {"players": ["Bob", "Dan"], "score": 10}]
    assert summary["target"] == 250 and summary["winner"] is None
    assert [hand["result"] for hand in summary["hands"]] == ["domino", "unfinished"]
    assert [hand["points"] for hand in summary["hands"]] == [[15, 0], [10, 10]]
    assert [move["move"] for move in summary["hands"][1]["moves"]] == ["5-5", "5-0"]
    assert summary["hands"][1]["starter"] == "Ann"


def test_json_draws_and_passes_have_no_ends_and_no_points(write):
    summary = json.loads(replay("--json", write("blocked.json", BLOCKED)).stdout)
    hand = summary["hands"][0]
    assert hand["result"] == "blocked" and hand["points"] == [130, 0]
    assert hand["moves"] == [
        {"player": "Ann", "move": "0-0", "ends": 0, "points": 0},
        {"player": "Bob", "move": "draw 14", "points": 0},
        {"player": "Bob", "move": "pass", "points": 0},
        {"player": "Ann", "move": "pass", "points": 0},
    ]


def test_json_for_several_files_is_one_object_per_line(write):
    files = [write("won.json", WON), write("pairs.json", UNFINISHED),
             write("blocked.json", BLOCKED)]
    result = replay("--json", *files)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    summaries = [json.loads(line) for line in lines]
    assert [(summary["target"], summary["winner"]) for summary in summaries] == [
        (15, 0), (250, None), (250, None)]
    assert [len(summary["sides"]) for summary in summaries] == [2, 2, 2]
    assert summaries[1]["sides"][0]["players"] == ["Ann", "Cat"]


def test_a_record_can_come_from_standard_input():
    result = replay("--json", "-", stdin=json.dumps(WON))
    assert result.returncode == 0
    assert json.loads(result.stdout)["winner"] == 0


# -- refusals -----------------------------------------------------------------------------------


def test_an_illegal_record_exits_1_with_one_line_naming_the_place(write):
    result = replay(write("illegal.json", ILLEGAL))
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == ILLEGAL_MESSAGE + "\n"


@pytest.mark.parametrize("args, hands, message", [
    ([], [{"moves": ["5-5"]}], "hand 1, starter: say who leads"),
    (["--json"], [{"starter": "Ann", "moves": ["5-5", "pass"]}],
     "hand 1, move 2 (Bob pass): Bob must draw first"),
    (["--json"], [{"starter": "Ann", "moves": []}, {"moves": ["5-5"]}],
     "hand 2, starter: hand 1 has not ended"),
    ([], [{"starter": "Ann", "moves": ["5-5"], "remaining": {"Bob": 3}}],
     "hand 1, remaining: no pips are entered for this hand: it has not ended"),
], ids=["no-starter", "pass", "hand-not-ended", "remaining-too-soon"])
def test_every_illegal_record_exits_1_with_the_place_first(write, args, hands, message):
    doc = {"format": FORMAT, "players": ["Ann", "Bob"], "hands": hands}
    result = replay(*args, write("illegal.json", doc))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


@pytest.mark.parametrize("content, message", [
    ('{"format": "allfives-match/1", "players": ["Ann", "Bob"], "hands": [',
     "not JSON"),
    ({"format": "allfives-match/0", "players": ["Ann", "Bob"], "hands": []},
     '"format" must be "allfives-match/1"'),
    ({"format": FORMAT, "players": ["Ann", "Bob"]}, 'the record has no "hands"'),
    ({"format": FORMAT, "hands": []}, 'the record has no "players"'),
    ({"format": FORMAT, "players": ["Ann", "Bob"], "hands": [{"starter": "Ann"}]},
     'hand 1 needs "moves"'),
], ids=["bad-json", "wrong-format", "no-hands", "no-players", "no-moves"])
def test_a_file_that_is_not_a_record_exits_2_saying_what_is_missing(write, content, message):
    result = replay(write("bad.json", content))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


def test_a_missing_file_exits_2(tmp_path):
    result = replay("missing.json", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == "cannot read missing.json: No such file or directory\n"


def test_several_files_exit_with_the_worst_status_and_name_each_failure(write):
    good, illegal = write("good.json", WON), write("illegal.json", ILLEGAL)
    unreadable = write("bad.json", "[]")
    result = replay("--json", good, illegal)
    assert result.returncode == 1
    assert json.loads(result.stdout)["winner"] == 0
    assert result.stderr == f"{illegal}: {ILLEGAL_MESSAGE}\n"
    result = replay(unreadable, good, illegal)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"{unreadable}: a record is a JSON object with format, players and hands",
        f"{illegal}: {ILLEGAL_MESSAGE}"]
    assert f"== {good}" in result.stdout


def test_nothing_on_standard_input_is_not_a_record():
    result = replay("-", stdin="")
    assert result.returncode == 2
    assert result.stderr.startswith("not JSON")


def test_a_setup_the_rules_refuse_is_an_unreadable_record(write):
    path = write("low.json", {"format": "allfives-match/1", "players": ["Ann", "Bob"], "target": 1,
                  "hands": []})
    result = replay(path)
    assert result.returncode == 2
    assert result.stderr.strip() == "the target must be from 5 to 10000 points, not 1"


WEB_PACKAGES = {"flask", "werkzeug", "jinja2", "flask_babel", "babel", "flask_wtf", "wtforms",
                "granian", "itsdangerous"}
"""What the web app loads; the command line itself is click."""


def test_replay_starts_without_loading_the_web_app(write):
    """A referee's replay is pure rules: it must not pay for importing Flask and its kin."""
    path = write("won.json", WON)
    code = ("import json, sys\nfrom scorekeeper.cli import main\n"
            "status = main(['replay', '--json', sys.argv[1]])\n"
            "print(json.dumps(sorted({name.partition('.')[0] for name in sys.modules})))\n"
            "sys.exit(status)")
    result = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    replayed, loaded = result.stdout.splitlines()
    assert json.loads(replayed)["winner"] == 0
    assert "scorekeeper" in json.loads(loaded)
    assert WEB_PACKAGES.isdisjoint(json.loads(loaded))


# -- the table's words, the score sheet's numbers, one position --------------------------------

SPINNER = {"format": FORMAT, "rules": "all-fives-spinner", "players": ["Ann", "Bob"],
           "hands": [{"starter": "Ann", "moves": ["5-5", "5-2@5-5", "5-3@5-5", "5-0@5-5",
                                                   "2-2@2-5"]}]}
"""All Fives with a spinner: the spinner leads, both its line sides and one side across take
a tile, then a double on an arm."""


def test_an_end_is_named_by_the_number_it_covers_never_left_or_right(write):
    lines = replay(write("won.json", WON)).stdout.splitlines()
    assert "  4. Ann lays 2-6 on the 2: 6 + 1-1 (2) = 8, not a multiple of five: no score" in lines
    assert not any(" on the left" in line or " on the right" in line for line in lines)


def test_where_doubles_branch_an_arm_is_named_by_the_laid_tile_it_touches(write):
    lines = replay(write("spinner.json", SPINNER)).stdout.splitlines()
    assert "  2. Bob lays 5-2 on the spinner 5-5: 2 + 5-5 (10) = 12, not a multiple of five: " \
        "no score" in lines
    assert "  4. Bob lays 5-0 on the side of spinner 5-5: 2 + 3 + 0 = 5 → 5 to Bob" in lines
    assert "  5. Ann lays 2-2 on 2-5: 2-2 (4) + 3 + 0 = 7, not a multiple of five: no score" \
        in lines


def test_move_prints_the_position_after_that_move_with_the_layout_in_text(write):
    result = replay("--move", "1.5", write("spinner.json", SPINNER))
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.splitlines() == [
        "Hand 1, move 5",
        "  Ann lays 2-2 on 2-5: 2-2 (4) + 3 + 0 = 7, not a multiple of five: no score",
        "  Layout: 2-2 2-5 [5-5*] 5-3",
        "  Across 5-5*: 5-0",
        "  Open ends: 2-2, 3, 0, (5-5); count 2-2 (4) + 3 + 0 = 7",
        "  Score: Ann 15, Bob 5",
        "  Bob to play",
    ]


def test_move_numbers_the_moves_as_the_score_sheet_does_draws_included(write):
    result = replay("--move", "1.3", write("won.json", WON))
    assert result.stdout.splitlines()[:3] == [
        "Hand 1, move 3",
        "  Bob lays 1-1 on the 1: 2 + 1-1 (2) = 4, not a multiple of five: no score",
        "  Layout: [2-1] 1-1"]


@pytest.mark.parametrize("args, status, said", [
    (["--move", "1.9"], 2, "hand 1 has no move 9\n"),
    (["--move", "3.1"], 2, "hand 3 has no move 1\n"),
    (["--move", "7"], 2, "write the hand and the move, like 3.7"),
    (["--move", "0.1"], 2, "write the hand and the move, like 3.7"),
    (["--json", "--move", "1.1"], 2, "--move prints the position in words"),
], ids=["no-such-move", "no-such-hand", "no-dot", "hand-zero", "with-json"])
def test_a_move_that_is_not_in_the_record_says_so(write, args, status, said):
    result = replay(*args, write("won.json", WON))
    assert result.returncode == status and result.stdout == ""
    assert said in result.stderr


def test_a_reader_that_stops_reading_ends_it_quietly(write, tmp_path):
    """`scorekeeper replay *.json | head`: the pipe closes early, and nothing more is said."""
    import random

    from simulation import play_match

    from scorekeeper.rules.match.record import write_record

    doc = write_record(play_match(random.Random(5)))
    files = [write(f"long{number}.json", doc) for number in range(40)]  # far more than a pipe
    command = [sys.executable, "-m", "scorekeeper.cli", "replay", *map(str, files)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=os.environ | {"LC_ALL": "C.UTF-8"}) as reading:
        first = reading.stdout.readline()
        reading.stdout.close()  # as `head -1` does
        stderr = reading.stderr.read().decode()
        status = reading.wait(timeout=60)
    assert first.startswith(b"== ")
    assert stderr == "" and status == 0
