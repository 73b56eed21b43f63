"""Shared by every benchmark: setups, machine facts, printed tables and JSON results."""

import datetime
import json
import os
import platform
import random
import statistics
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results"
NAMES = ("Ann", "Bob", "Cat", "Dan")


def _loadavg() -> list[float] | None:
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:
        return None


LOAD_AT_START = _loadavg()
"""The machine's load average when the benchmark started: other work skews every figure."""


def default_table(rng: random.Random, rules=None):
    """A setup with the rule set's defaults: 2, 3 or 4 players, 4 sometimes as partnerships."""
    from scorekeeper.rules import ALL_FIVES, Table

    players = rng.choice((2, 3, 4))
    partnerships = players == 4 and rng.random() < 0.5
    return Table.create(list(NAMES[:players]), partnerships, rules=rules or ALL_FIVES)


def setup_name(table) -> str:
    """`2p`, `3p`, `4p` for players each on their own, `2v2` for partnerships."""
    return "2v2" if table.partnerships else f"{len(table.players)}p"


def machine() -> dict:
    """The facts that make a figure comparable: cores, CPU model, Python, commit."""
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as file:
            for line in file:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                capture_output=True, text=True, timeout=5).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT,
                               capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit, dirty = "", ""
    return {
        "nproc": os.cpu_count(),
        "cpu_model": model,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "commit": commit + ("+dirty" if dirty else ""),
        "loadavg_at_start": LOAD_AT_START,
        "loadavg_at_end": _loadavg(),
        "when": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def pin_one_core() -> int | None:
    """Run this process on one core only (the last one); returns it, or None if unsupported."""
    try:
        cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cores[-1]})
        return cores[-1]
    except (AttributeError, OSError):
        return None


def percentile(values, fraction: float) -> float:
    """Nearest-rank percentile (fraction 0-1) of a non-empty list."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, min(len(ordered), round(fraction * len(ordered) + 0.5)))
    return ordered[rank - 1]


def summary_ms(seconds: list[float]) -> dict:
    """count, p50, p95, p99, max and mean in milliseconds."""
    if not seconds:
        return {"count": 0}
    return {"count": len(seconds),
            "p50_ms": round(percentile(seconds, 0.50) * 1000, 2),
            "p95_ms": round(percentile(seconds, 0.95) * 1000, 2),
            "p99_ms": round(percentile(seconds, 0.99) * 1000, 2),
            "max_ms": round(max(seconds) * 1000, 2),
            "mean_ms": round(statistics.fmean(seconds) * 1000, 2)}


def print_table(title: str, headers: list[str], rows: list[list]) -> None:
    """A plain text table, right-aligned numbers, left-aligned words."""
    cells = [[_cell(value) for value in row] for row in rows]
    widths = [max(len(str(h)), *(len(row[i]) for row in cells)) if cells else len(str(h))
              for i, h in enumerate(headers)]
    print(f"\n{title}")
    print("  ".join(str(h).ljust(w) for h, w in zip(headers, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for row, raw in zip(cells, rows, strict=True):
        print("  ".join(cell.rjust(w) if isinstance(value, int | float) else cell.ljust(w)
                        for cell, w, value in zip(row, widths, raw, strict=True)))


def _cell(value) -> str:
    if isinstance(value, float):
        if value != value:
            return "-"
        return f"{value:,.2f}" if abs(value) < 100 else f"{value:,.0f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def write_results(name: str, data: dict) -> Path:
    """Write bench/results/NAME.json (git-ignored) and return its path."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    data = {"benchmark": name, "machine": machine(), **data}
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    print(f"\nwrote {path.relative_to(ROOT)} (load average at start {LOAD_AT_START}, "
          f"at end {data['machine']['loadavg_at_end']})")
    return path
