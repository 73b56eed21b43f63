"""Are the screens byte-identical in two checkouts? A check for changes to how screens render.

It plays matches of every rule set (names in four scripts, one with HTML's own
characters) with this checkout's simulation into a list of taps: every kind of tap
as htmx and as a plain form, with refused, stale and previewed taps and undos among
them. Then each checkout, in a process of its own, creates the matches through the
new-match form, sends the taps, and after each one asks for the table (page and
fragment), the scoreboard (page and fragment) and the score sheet, in en, el, cs and
hu in turn (all four now and then). Every answer's status, type, redirect and body
must be the same bytes (the match's id, keys and CSRF tokens, random in each run,
are replaced by their names first).

    python bench/screens_identical.py --before /path/to/old/checkout [--matches 3]
                                      [--seed 5] [--most 250]
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
from lib.people import BrowserTable

from scorekeeper.rules import RULE_SETS, Draw, Lay, Match, Pass, Remaining, Start, Table, pips
from scorekeeper.rules.notation.events import button_value

NAMES = ("Ann", "Ζωή", "Kovács Éva", 'Tom & "Jo" <i>', "Dan")
LANGUAGES = ("en", "el", "cs", "hu")
WORKER = Path(__file__).resolve().parent / "lib" / "screens_worker.py"


def taps(event, required: list[int]) -> list[dict]:
    """The taps that enter one event of the simulation, as a scorer's phone sends them."""
    if isinstance(event, Start):
        return [{"path": "/start", "fields": {"seat": event.seat}}]
    if isinstance(event, Lay):
        return [{"path": "/lay", "fields": {"move": button_value(event.tile, event.end)}}]
    if isinstance(event, Draw):
        return [{"path": "/draw", "fields": {}} for _ in range(event.count)]
    if isinstance(event, Pass):
        return [{"path": "/pass", "fields": {}}]
    assert isinstance(event, Remaining)
    held = dict(event.held)
    fields = {f"pips_{seat}": held[seat] if isinstance(held[seat], int)
              else sum(pips(tile) for tile in held[seat])
              for seat in required}
    return [{"path": "/end", "fields": {**fields, "check": "1"}},  # previewed first
            {"path": "/end", "fields": fields}]


def detours(rng: random.Random, coming: list[dict], done: list[dict]) -> list[dict]:
    """Before the next taps, now and then: a stale copy of the next, a refused tile, or an
    undo of the last entry and the same entry again (a scored hand's undo asks first)."""
    roll = rng.random()
    if roll < 0.06:
        return [{**coming[0], "stale": True}]
    if roll < 0.12:
        return [{"path": "/lay", "fields": {"move": "0-0@L"}}]
    if roll < 0.18:
        return [{"path": "/undo", "fields": {}, "confirm": True}, dict(done[-1])]
    return []


def played(rng: random.Random, rules, players: int, most: int) -> dict:
    """One match as the taps that enter it, on a small target so that it ends."""
    names = list(NAMES[:players]) if rng.random() < 0.7 else list(NAMES[-players:])
    partnerships = players == 4 and rng.random() < 0.5
    target = 31 if rules.exact_target else rng.choice((25, 40))
    table = Table.create(names, partnerships, target, None, rules)
    match = Match(table)
    simulation = BrowserTable(match, rng, 0.8 if rules.name != "all-fives" else 0.0)
    steps: list[dict] = []
    while not match.is_over() and len(steps) < most:
        required = match.needed_remaining()[0] if match.phase == "end" else []
        started = bool(match.log)
        event = simulation.step()
        event_taps = taps(event, required)
        steps.extend(detours(rng, event_taps, steps) if started else [])
        steps.extend(event_taps)
    for step in steps:
        step["htmx"] = rng.random() < 0.85
    return {"rules": rules.name, "players": names, "partnerships": partnerships,
            "target": target, "hand_size": table.hand_size, "steps": steps}


def corpus(matches: int, seed: int, most: int) -> list[dict]:
    rng = random.Random(seed)
    return [played(rng, rules, players, most)
            for rules in RULE_SETS for players in (2, 3, 4)[:matches]]


def answers(checkout: Path, corpus_path: Path, folder: Path) -> list[str]:
    out = folder / f"out-{abs(hash(str(checkout)))}.jsonl"
    env = dict(os.environ, PYTHONPATH=str(checkout), LC_ALL="C.UTF-8",
               PYTHONIOENCODING="utf-8")
    subprocess.run([sys.executable, str(WORKER), str(corpus_path), str(out)],
                   env=env, check=True, cwd=folder)
    return out.read_text(encoding="utf-8").splitlines()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the other checkout")
    parser.add_argument("--matches", type=int, default=3, help="per rule set (2-4 players)")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--most", type=int, default=250, help="taps per match at most")
    args = parser.parse_args(argv)
    matches = corpus(min(args.matches, 3), args.seed, args.most)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        corpus_path = folder / "corpus.json"
        corpus_path.write_text(json.dumps(matches, ensure_ascii=False), encoding="utf-8")
        before = answers(args.before.resolve(), corpus_path, folder)
        after = answers(ROOT, corpus_path, folder)
    statuses = [json.loads(line)["status"] for line in after]
    print(f"{len(matches)} matches, {sum(len(m['steps']) for m in matches):,} taps, "
          f"{len(after):,} answers compared ({statuses.count(200):,} 200, "
          f"{statuses.count(303):,} 303, {statuses.count(409):,} 409, "
          f"{statuses.count(422):,} 422)")
    if len(before) != len(after):
        print(f"DIFFERENT: {len(before)} answers before, {len(after)} after")
        return 1
    differ = [index for index, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    if differ:
        first_before, first_after = json.loads(before[differ[0]]), json.loads(after[differ[0]])
        print(f"DIFFERENT answers: {len(differ)}, the first: {first_after['request']}")
        _show_difference(first_before, first_after)
        return 1
    print(f"byte-identical: this checkout and {args.before} answer every request alike")
    return 0


def _show_difference(before: dict, after: dict) -> None:
    for key in ("status", "type", "location"):
        if before[key] != after[key]:
            print(f"  {key}: {before[key]!r} before, {after[key]!r} after")
    a, b = before["body"], after["body"]
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
              min(len(a), len(b)))
    print(f"  body differs at character {at}:\n  before: {a[max(0, at - 150):at + 150]!r}"
          f"\n  after:  {b[max(0, at - 150):at + 150]!r}")


if __name__ == "__main__":
    sys.exit(main())
