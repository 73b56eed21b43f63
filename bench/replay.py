"""Replay benchmark: `scorekeeper replay --json` against a naive reference, on the same records.

1,000 random full matches (the rule set's default setups, as `bench/engine.py`
makes them) are replayed in one process, each record's text as `scorekeeper
replay --json FILE` replays a file: the CLI's own `replay_json` (read the JSON,
check every move, score, and the JSON line it prints). The yardstick is
`lib/naive.py`, the rules written plainly from the rules cards, doing the same
parse-and-score and printing the same line. First every line of the two is checked
to be the same bytes (else the comparison means nothing); then passes over all
records alternate between the two, and the ratio of their CPU times is printed.

    python bench/replay.py [--matches 1000] [--passes 5] [--seed 1] [--rules NAME]
"""

import argparse
import gc
import json
import statistics
import sys
import time

from lib import naive
from lib.common import pin_one_core, print_table, write_results
from lib.records import generate

from scorekeeper.commands.replay import replay_json
from scorekeeper.rules import find_rule_set

TARGET_RATIO = 1.4


def naive_json(text: str) -> str:
    """The naive reference's `replay --json` line for a record."""
    return json.dumps(naive.replay(text), ensure_ascii=False)


def check_agreement(texts: list[str]) -> int:
    """How many records both replay to the same line; stops at the first that differs."""
    for number, text in enumerate(texts, 1):
        engine, reference = replay_json(text), naive_json(text)
        if engine != reference:
            raise SystemExit(f"record {number}: the engine and the naive reference disagree\n"
                             f"  engine: {engine[:400]}\n  naive:  {reference[:400]}")
    return len(texts)


def one_pass(replay, texts: list[str]) -> tuple[float, float]:
    """CPU and wall seconds to replay every record once."""
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    for text in texts:
        replay(text)
    return time.process_time() - cpu, time.perf_counter() - wall


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--passes", type=int, default=5, help="passes of each, alternating")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="all-fives", choices=sorted(naive.RULES),
                        help="a rule set the naive reference knows")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one core")
    args = parser.parse_args(argv)

    core = None if args.no_pin else pin_one_core()
    rules = find_rule_set(args.rules)
    print(f"{rules.name}: generating {args.matches} random full matches (untimed, seed "
          f"{args.seed}) ...", flush=True)
    texts = [text for _, text in generate(args.matches, args.seed, rules)]
    agreed = check_agreement(texts)
    print(f"the engine and the naive reference print the same line for all {agreed:,} "
          f"records; timing {args.passes} alternating passes on core {core} ...", flush=True)
    times = {"engine": [], "naive": []}
    for _ in range(args.passes):
        times["engine"].append(one_pass(replay_json, texts))
        times["naive"].append(one_pass(naive_json, texts))
    cpu = {name: statistics.median(cpu for cpu, _ in runs) for name, runs in times.items()}
    wall = {name: statistics.median(wall for _, wall in runs) for name, runs in times.items()}
    ratio = cpu["naive"] / cpu["engine"]
    result = {
        "rules": rules.name, "matches": len(texts), "seed": args.seed, "passes": args.passes,
        "pinned_core": core, "records_agreeing": agreed,
        "cpu_seconds": {name: [round(c, 4) for c, _ in runs] for name, runs in times.items()},
        "wall_seconds": {name: [round(w, 4) for _, w in runs] for name, runs in times.items()},
        "matches_per_cpu_second": {name: round(len(texts) / cpu[name]) for name in cpu},
        "ratio_naive_over_engine": round(ratio, 2),
        "ratio_wall": round(wall["naive"] / wall["engine"], 2),
        "target_ratio": TARGET_RATIO, "meets_target": ratio >= TARGET_RATIO,
    }
    print_table(
        f"Replay, {rules.name}: `replay --json` of {len(texts):,} random full matches in one "
        f"process, the engine against a naive reference (median of {args.passes} passes each)",
        ["measure", "engine", "naive"],
        [["CPU s per pass", f"{cpu['engine']:.3f}", f"{cpu['naive']:.3f}"],
         ["wall s per pass", f"{wall['engine']:.3f}", f"{wall['naive']:.3f}"],
         ["matches per CPU second", result["matches_per_cpu_second"]["engine"],
          result["matches_per_cpu_second"]["naive"]],
         ["naive ÷ engine (CPU)", f"{ratio:.2f}×",
          f"target ≥ {TARGET_RATIO}×: " + ("met" if result["meets_target"] else "NOT met")]])
    write_results("replay", result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
