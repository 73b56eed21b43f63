"""The capacity curve: league night at growing numbers of tables, on the production server.

Runs bench/league_night.py once per number of tables (3 viewers each, a tap or poll
every 2 s per client; any of its other options apply to every run) and prints, per
run: errors (503s included), move p50/p99, poll p50/p99, the polls answered a second
against those offered (fewer when the server told the scoreboards to poll less), the
static floor, how fast the 503s were answered, the server's CPU (all its processes) per
request and per table (CPU milliseconds a second that one table costs), the load
generator's CPU, the load average at the start and end of the run, and the share of time
the machine alone lost to its host's stalls just before it (bench/lib/stalls.py). The capacity
is the largest number of tables with 0 errors and move p99 ≤ 100 ms. Writes
bench/results/capacity.json and the curve as an SVG (docs/capacity.svg unless --plot).

    python bench/capacity.py --curve 50,100,200,400,800 [--seconds 60] [--workers 2]
"""

import argparse
import sys
import time

from league_night import measure, parse_args
from lib.common import ROOT, machine, print_table, write_results
from lib.plot import capacity_svg

TARGET_MOVE_P99_MS = 100
PAUSE_SECONDS = 5
"""Between runs, so one run's server and generators are gone before the next starts."""


def point(tables: int, result: dict) -> dict:
    """The figures of one run that the curve shows."""
    move, poll, busy = result["move"], result["poll"], result["busy_503"]
    floor = result["floors"]["/static/app.css"]
    return {"tables": tables, "errors": result["targets"]["errors"]["value"],
            "busy_503": busy.get("count", 0), "busy_p99_ms": busy.get("p99_ms"),
            "move_p50_ms": move.get("p50_ms"), "move_p99_ms": move.get("p99_ms"),
            "poll_p50_ms": poll.get("p50_ms"), "poll_p99_ms": poll.get("p99_ms"),
            "floor_p50_ms": floor.get("p50_ms"),
            "taps_per_s": result["achieved_per_s"]["moves"],
            "polls_per_s": result["achieved_per_s"]["polls"],
            "polls_offered_per_s": result["offered_per_s"]["polls"],
            "server_cpu_percent": result["server_cpu_percent"],
            "server_cpu_ms_per_request": result["server_cpu_ms_per_request"],
            "server_cpu_ms_per_s_per_table": round(10 * result["server_cpu_percent"] / tables, 2)
            if result["server_cpu_percent"] else None,
            "generator_cpu_percent": result["generator_cpu_percent"],
            "generator_processes": result["generator_processes"],
            "late_ticks": result["late_ticks"],
            "load_1min_start_end": result["load_1min_start_end"],
            "machine_stalls": result.get("machine_stalls")}


def holds(run: dict) -> bool:
    return (run["errors"] == 0 and run["move_p99_ms"] is not None
            and run["move_p99_ms"] <= TARGET_MOVE_P99_MS)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], add_help=False)
    parser.add_argument("--curve", default="50,100,200,400,800",
                        help="numbers of tables, comma-separated")
    parser.add_argument("--plot", default=str(ROOT / "docs" / "capacity.svg"))
    ours, rest = parser.parse_known_args(argv)
    curve = [int(n) for n in ours.curve.split(",")]
    runs = []
    for index, tables in enumerate(curve):
        if index:
            time.sleep(PAUSE_SECONDS)
        one = [*rest, "--tables", str(tables), "--name", f"capacity-{tables}"]
        print(f"\n=== {tables} tables ===", flush=True)
        runs.append(point(tables, measure(parse_args(one), one)))
    best = max((run["tables"] for run in runs if holds(run)), default=None)
    print_table("Capacity curve (3 viewers per table, a tap or poll every 2 s each)",
                ["tables", "errors", "503s", "503 p99 ms", "move p50", "move p99",
                 "poll p50", "poll p99", "polls/s (offered)", "floor p50", "server CPU %",
                 "CPU ms/request",
                 "CPU ms/s a table", "generator CPU %", "load start→end",
                 "machine alone: time lost %"],
                [[r["tables"], r["errors"], r["busy_503"], r["busy_p99_ms"] or float("nan"),
                  r["move_p50_ms"] or float("nan"), r["move_p99_ms"] or float("nan"),
                  r["poll_p50_ms"] or float("nan"), r["poll_p99_ms"] or float("nan"),
                  f"{r['polls_per_s']:g} ({r['polls_offered_per_s']:g})",
                  r["floor_p50_ms"] or float("nan"), r["server_cpu_percent"] or float("nan"),
                  r["server_cpu_ms_per_request"] or float("nan"),
                  r["server_cpu_ms_per_s_per_table"] or float("nan"),
                  r["generator_cpu_percent"],
                  "→".join(str(load) for load in r["load_1min_start_end"]),
                  (r["machine_stalls"] or {}).get("time_lost_percent", float("nan"))]
                 for r in runs])
    print(f"\ncapacity: {best if best else 'none of these'} tables hold 0 errors and "
          f"move p99 ≤ {TARGET_MOVE_P99_MS} ms")
    facts = machine()
    command = "python bench/capacity.py " + " ".join(argv if argv is not None else sys.argv[1:])
    loads = [load for run in runs for load in run["load_1min_start_end"]]
    lost = [run["machine_stalls"]["time_lost_percent"] for run in runs if run["machine_stalls"]]
    stalled = f", machine alone lost {min(lost):g}–{max(lost):g} % to stalls" if lost else ""
    with open(ours.plot, "w") as file:
        file.write(capacity_svg(runs, TARGET_MOVE_P99_MS, best,
                                f"{facts['when']} · commit {facts['commit']} · "
                                f"{facts['nproc']} cores, load average {min(loads):g}–"
                                f"{max(loads):g}{stalled} · {command}"))
    print(f"wrote {ours.plot}")
    write_results("capacity", {"command": command, "runs": runs, "capacity_tables": best,
                               "target_move_p99_ms": TARGET_MOVE_P99_MS})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
