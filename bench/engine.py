"""Engine benchmark: rebuild 1,000 random full matches of each rule set from their records.

The records are generated first (untimed) by the simulation with the rule set's
default setups; then each record's JSON text is parsed and read back into a
Match (json.loads + read_record), on one core. The app rebuilds a match from
its log on every request, so this is the floor under every page. Each rule set
the engine referees is measured on its own (all-fives first, as before).

Also timed: the app's own rebuild path, MatchRepository.load from SQLite (one SELECT for
the match, one for its entries, a json.loads per entry, then Match(table, events)).

    python bench/engine.py [--matches 1000] [--repeats 5] [--seed 1] [--rules NAME]
                           [--profile]
"""

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter

from lib.common import (
    ROOT,
    percentile,
    pin_one_core,
    print_table,
    setup_name,
    write_results,
)
from lib.records import generate

from scorekeeper.rules import RULE_SETS, find_rule_set
from scorekeeper.rules.match.record import load_record, read_record
from scorekeeper.services import matches
from scorekeeper.services.unit_of_work import UnitOfWork
from scorekeeper.storage import connect
from scorekeeper.storage.connection import upgrade

TARGET_PER_SECOND = 2000


def moves_in(doc: dict) -> int:
    return sum(len(hand["moves"]) for hand in doc["hands"])


def events_in(doc: dict) -> int:
    """Moves plus the starts and the end-of-hand entries: the length of the match's log."""
    return sum(len(h["moves"]) + ("starter" in h) + ("remaining" in h) for h in doc["hands"])


def time_passes(texts: list[str], docs: list[dict], repeats: int) -> dict:
    """Seconds per pass over all records: parse + read, parse alone, read alone."""
    full, parse, read = [], [], []
    clock = time.perf_counter
    for _ in range(repeats):
        start = clock()
        for text in texts:
            read_record(load_record(text))
        full.append(clock() - start)
        start = clock()
        for text in texts:
            load_record(text)
        parse.append(clock() - start)
        start = clock()
        for doc in docs:
            read_record(doc)
        read.append(clock() - start)
    return {"full": full, "parse": parse, "read": read}


def time_each(texts: list[str], repeats: int) -> list[float]:
    """Seconds to rebuild each match alone (json + read_record), best of `repeats`.

    The best of a few is kept so that a garbage collection or another process's
    time slice landing on one match does not pass for the cost of that match.
    """
    clock = time.perf_counter
    best = [float("inf")] * len(texts)
    for _ in range(repeats):
        for index, text in enumerate(texts):
            start = clock()
            read_record(load_record(text))
            best[index] = min(best[index], clock() - start)
    return best


def time_store(texts: list[str], repeats: int) -> list[float]:
    """Seconds per open_match (MatchRepository.load) of each match from a scratch SQLite
    file, no cache (best of repeats)."""
    with tempfile.TemporaryDirectory() as folder:
        conn = connect(os.path.join(folder, "bench.sqlite"))
        upgrade(conn)
        uow = UnitOfWork(conn)
        stored = [matches.create_match(uow, read_record(load_record(text))) for text in texts]
        best = [float("inf")] * len(stored)
        clock = time.perf_counter
        for _ in range(repeats):
            for index, item in enumerate(stored):
                start = clock()
                matches.open_match(uow, item.id, item.score_key)
                best[index] = min(best[index], clock() - start)
        conn.close()
    return best


def profile(texts: list[str], path) -> str:
    from pyinstrument import Profiler

    profiler = Profiler(interval=0.0002)
    profiler.start()
    for _ in range(3):
        for text in texts:
            read_record(load_record(text))
    profiler.stop()
    path.write_text(profiler.output_text(unicode=True, color=False, show_all=False))
    return str(path.relative_to(ROOT))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5, help="timed passes (median kept)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", action="append", metavar="NAME",
                        help="a rule set to measure (repeatable; default: every one played)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one core")
    parser.add_argument("--profile", action="store_true",
                        help="also profile read_record with pyinstrument (results/engine.prof.txt)")
    args = parser.parse_args(argv)

    core = None if args.no_pin else pin_one_core()
    chosen = ([find_rule_set(name) for name in args.rules] if args.rules
              else list(RULE_SETS))
    results = {rules.name: measure(rules, args, core) for rules in chosen}
    write_results("engine", {**results[chosen[0].name], "rule_sets": results})
    return 0


def measure(rules, args, core) -> dict:
    """Generate, time and print one rule set's matches; returns the figures."""
    print(f"{rules.name}: generating {args.matches} random full matches "
          f"(untimed, seed {args.seed}) ...", flush=True)
    start = time.perf_counter()
    records = generate(args.matches, args.seed, rules)
    generated_s = time.perf_counter() - start
    texts = [text for _, text in records]
    docs = [json.loads(text) for text in texts]
    moves = sum(moves_in(doc) for doc in docs)
    events = sum(events_in(doc) for doc in docs)
    hands = sum(len(doc["hands"]) for doc in docs)
    size = sum(len(text.encode()) for text in texts)
    setups = Counter(setup_name(table) for table, _ in records)

    print(f"timing {args.repeats} passes on core {core} ...", flush=True)
    gc.collect()
    passes = time_passes(texts, docs, args.repeats)
    each = time_each(texts, 3)
    loads = time_store(texts, 3)

    n = len(texts)
    full = statistics.median(passes["full"])
    # the split between JSON and the engine from each one's best pass (the least disturbed)
    parse = min(passes["parse"])
    read = min(passes["read"])
    per_second = n / full
    result = {
        "rules": rules.name, "matches": n, "seed": args.seed, "pinned_core": core,
        "repeats": args.repeats,
        "generate_seconds": round(generated_s, 2),
        "setups": dict(sorted(setups.items())),
        "hands": hands, "moves": moves, "log_events": events, "record_bytes": size,
        "moves_per_match": {"mean": round(moves / n, 1),
                            "max": max(moves_in(doc) for doc in docs)},
        "pass_seconds": {key: [round(v, 4) for v in values] for key, values in passes.items()},
        "matches_per_second": round(per_second),
        "matches_per_second_best": round(n / min(passes["full"])),
        "us_per_match": round(full / n * 1e6, 1),
        "us_per_move": round(full / moves * 1e6, 2),
        "us_per_log_event": round(full / events * 1e6, 2),
        "json_share": round(parse / (parse + read), 3),
        "us_per_match_json": round(parse / n * 1e6, 1),
        "us_per_match_read_record": round(read / n * 1e6, 1),
        "rebuild_us": {"p50": round(percentile(each, 0.5) * 1e6, 1),
                       "p95": round(percentile(each, 0.95) * 1e6, 1),
                       "p99": round(percentile(each, 0.99) * 1e6, 1),
                       "max": round(max(each) * 1e6, 1)},
        "store_load_us": {"p50": round(percentile(loads, 0.5) * 1e6, 1),
                          "p95": round(percentile(loads, 0.95) * 1e6, 1),
                          "p99": round(percentile(loads, 0.99) * 1e6, 1),
                          "max": round(max(loads) * 1e6, 1),
                          "mean": round(statistics.fmean(loads) * 1e6, 1)},
        "target_matches_per_second": TARGET_PER_SECOND,
        "meets_target": per_second >= TARGET_PER_SECOND,
    }

    print_table(
        f"Engine, {rules.name}: rebuild {n:,} random full matches from their records "
        f"(json.loads + read_record), one core",
        ["measure", "value"],
        [["matches (setups " + ", ".join(f"{k} {v}" for k, v in sorted(setups.items()))
          + ")", n],
         ["hands / moves / log events", f"{hands:,} / {moves:,} / {events:,}"],
         ["moves per match: mean / max",
          f"{moves / n:.1f} / {result['moves_per_match']['max']}"],
         ["matches per second (median of passes)", result["matches_per_second"]],
         ["matches per second (best pass)", result["matches_per_second_best"]],
         ["µs per match rebuild (mean)", result["us_per_match"]],
         ["µs per move", result["us_per_move"]],
         ["  json.loads alone, µs per match (best pass)", result["us_per_match_json"]],
         ["  read_record alone, µs per match (best pass)", result["us_per_match_read_record"]],
         ["rebuild µs per match p50 / p95 / p99 / max (best of 3)",
          " / ".join(f"{result['rebuild_us'][k]:,.0f}" for k in ("p50", "p95", "p99", "max"))],
         ["app store.load µs per match p50 / p99 / max (best of 3)",
          " / ".join(f"{result['store_load_us'][k]:,.0f}" for k in ("p50", "p99", "max"))],
         [f"target ≥ {TARGET_PER_SECOND:,} matches/s", "met" if result["meets_target"]
          else f"NOT met ({per_second / TARGET_PER_SECOND:.0%} of target)"]])
    if args.profile:
        name = f"engine.{rules.name}.prof.txt"
        result["profile"] = profile(texts, ROOT / "bench" / "results" / name)
        print(f"profile written to {result['profile']}")
    return result


if __name__ == "__main__":
    sys.exit(main())
