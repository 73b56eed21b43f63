"""Is `scorekeeper replay --json` byte-identical in two checkouts? A check for engine changes.

It builds a corpus with this checkout: simulated matches of every rule set (house
targets and hand sizes too), the same records cut short or changed one move at a
time (so refusals are compared as well as scores), and any records in `--records`
(JSON lines). Then each checkout runs its own `scorekeeper.cli.main(["replay",
"--json", FILE])` over every record in a process of its own, and the outputs (standard
output, standard error and exit status of each record) must be the same bytes.

    python bench/replay_identical.py --before /path/to/old/checkout [--matches 150]
                                     [--seed 11] [--records more.jsonl]
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from lib.common import ROOT
from simulation import RandomTable, random_table

from scorekeeper.rules import RULE_SETS, Match
from scorekeeper.rules.match.record import write_record

GREED = {"all-fives-spinner": 0.8, "ola-5": 0.8}

WORKER = """
import contextlib, io, json, sys
from scorekeeper.cli import main
with open(sys.argv[1], encoding="utf-8") as corpus, open(sys.argv[2], "w") as out:
    for line in corpus:
        with tempfile_path(line) as path:
            stdout, stderr = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
                status = main(["replay", "--json", path])
            out.write(json.dumps([status, stdout.getvalue(), stderr.getvalue()]) + "\\n")
"""
TEMPFILE = """
import contextlib, os, tempfile
@contextlib.contextmanager
def tempfile_path(text):
    fd, path = tempfile.mkstemp(suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(text)
    try:
        yield path
    finally:
        os.unlink(path)
"""


def mutations(doc: dict, rng: random.Random) -> list[dict]:
    """The record changed in small ways a careless hand might: each gives a refusal or
    another legal match, and the two checkouts must agree on which and on its words."""
    found = []
    hands = [hand for hand in doc["hands"] if hand["moves"]]
    if not hands:
        return found
    for change in ("drop", "swap", "end", "tile", "remaining", "starter", "cut"):
        copy = json.loads(json.dumps(doc))
        hand = rng.choice([h for h in copy["hands"] if h["moves"]])
        moves = hand["moves"]
        spot = rng.randrange(len(moves))
        if change == "drop":
            del moves[spot]
        elif change == "swap" and len(moves) > 1:
            spot = min(spot, len(moves) - 2)
            moves[spot], moves[spot + 1] = moves[spot + 1], moves[spot]
        elif change == "end":
            text = moves[spot]
            moves[spot] = (text.replace("@L", "@R") if "@L" in text else
                           text.replace("@R", "@L") if "@R" in text else text.split("@")[0])
        elif change == "tile":
            moves[spot] = f"{rng.randint(0, 6)}-{rng.randint(0, 6)}" + rng.choice(["", "@L", "@R"])
        elif change == "remaining" and hand.get("remaining"):
            name = rng.choice(sorted(hand["remaining"]))
            value = hand["remaining"][name]
            hand["remaining"][name] = (value + rng.choice([-3, 1, 40]) if isinstance(value, int)
                                       else value[1:])
        elif change == "starter":
            hand.pop("starter", None) if "starter" in hand else hand.update(
                starter=rng.choice(copy["players"]))
        elif change == "cut":
            copy["hands"] = copy["hands"][:copy["hands"].index(hand) + 1]
            hand["moves"] = moves[:spot]
            hand.pop("remaining", None)
        found.append(copy)
    return found


def played(rng: random.Random, rules, most: int = 3000) -> Match:
    """A random match of a random setup, to its end or `most` events (some house setups of
    the spinner games hardly ever reach their target)."""
    match = Match(random_table(rng, rules))
    table = RandomTable(match, rng, GREED.get(rules.name, 0.0))
    for _ in range(most):
        if match.is_over():
            break
        table.step()
    return match


def corpus(matches: int, seed: int, extra: Path | None) -> list[str]:
    rng = random.Random(seed)
    lines = []
    for rules in RULE_SETS:
        for _ in range(matches):
            doc = write_record(played(rng, rules))
            lines.append(json.dumps(doc, ensure_ascii=False))
            lines.extend(json.dumps(changed, ensure_ascii=False)
                         for changed in mutations(doc, rng))
    if extra:
        lines.extend(line for line in extra.read_text(encoding="utf-8").splitlines() if line)
    return lines


def outputs(checkout: Path, corpus_path: Path, folder: Path) -> list[str]:
    out = folder / f"out-{abs(hash(str(checkout)))}.jsonl"
    env = dict(os.environ, PYTHONPATH=str(checkout), LC_ALL="C.UTF-8",
               PYTHONIOENCODING="utf-8")
    subprocess.run([sys.executable, "-c", TEMPFILE + WORKER, str(corpus_path), str(out)],
                   env=env, check=True, cwd=folder)
    return out.read_text().splitlines()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the other checkout")
    parser.add_argument("--matches", type=int, default=150, help="per rule set")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--records", type=Path, help="more records, one JSON per line")
    args = parser.parse_args(argv)
    lines = corpus(args.matches, args.seed, args.records)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        corpus_path = folder / "corpus.jsonl"
        corpus_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        before = outputs(args.before.resolve(), corpus_path, folder)
        after = outputs(ROOT, corpus_path, folder)
    differ = [index for index, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    statuses = [json.loads(line)[0] for line in after]
    print(f"{len(lines):,} records ({args.matches} simulated matches per rule set, each "
          f"with its changed copies): {statuses.count(0):,} replayed, {statuses.count(1):,} "
          f"illegal, {statuses.count(2):,} unreadable")
    if differ:
        print(f"DIFFERENT output for {len(differ)} records, the first: {lines[differ[0]][:300]}")
        print(f"  before: {before[differ[0]][:300]}\n  after:  {after[differ[0]][:300]}")
        return 1
    print(f"byte-identical: this checkout and {args.before} agree on every record")
    return 0


if __name__ == "__main__":
    sys.exit(main())
