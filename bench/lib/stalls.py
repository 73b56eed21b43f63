"""How much the machine itself stalls: the same small piece of pure-Python work, timed over
and over with nothing else running.

On a shared virtual machine the host takes the cores away now and then: on this project's
2-core machine, with nothing else running, every second or two, for 50-100 ms, the piece
took 4-10 times its usual time (timed on one core here; two probes, one pinned to each
core with taskset, stalled at the same moments). A request in hand then takes as
long, and the requests that arrive meanwhile queue behind it, whatever the app does; a
99th percentile of a few tens of milliseconds is made of such moments. Measured before
each run, so that a figure can be read against the machine it came from.

    python bench/lib/stalls.py [--seconds 10]
"""

import argparse
import statistics
import time

PIECE = 20_000
"""Loop turns in one piece of work: about 1.5 ms of one core here."""
REST = 0.003
"""Seconds between two pieces, so that the probe itself is not what keeps a core busy."""
SLOW = 3
"""A piece taking this many times the median is counted as a stall."""


def _piece() -> int:
    total = 0
    for turn in range(PIECE):
        total += turn * turn
    return total


def machine_stalls(seconds: float = 5.0) -> dict:
    """The piece's median, 99th percentile and worst time, how often it stalled, and the
    share of the time lost to the stalls."""
    taken, started = [], time.perf_counter()
    while time.perf_counter() - started < seconds:
        begin = time.perf_counter()
        _piece()
        taken.append(time.perf_counter() - begin)
        time.sleep(REST)
    elapsed = time.perf_counter() - started
    median = statistics.median(taken)
    ordered = sorted(taken)
    slow = [t for t in taken if t > SLOW * median]
    return {"seconds": round(elapsed, 1), "pieces": len(taken),
            "piece_median_ms": round(median * 1000, 2),
            "piece_p99_ms": round(ordered[int(0.99 * (len(ordered) - 1))] * 1000, 2),
            "piece_max_ms": round(ordered[-1] * 1000, 2),
            "stalled_pieces_per_s": round(len(slow) / elapsed, 1),
            "time_lost_percent": round(100 * sum(t - median for t in slow) / elapsed, 1)}


def describe(stalls: dict) -> str:
    return (f"machine alone, {stalls['seconds']:g} s: a {stalls['piece_median_ms']:g} ms piece of "
            f"work took {stalls['piece_p99_ms']:g} ms at the 99th percentile and "
            f"{stalls['piece_max_ms']:g} ms at worst; {stalls['stalled_pieces_per_s']:g} "
            f"pieces a second over {SLOW}× the median, {stalls['time_lost_percent']:g} % of "
            "the time lost")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    print(describe(machine_stalls(parser.parse_args(argv).seconds)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
