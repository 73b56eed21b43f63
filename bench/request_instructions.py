"""Instructions the server executes per request of each kind, counted by callgrind: a figure
that other work on a shared machine cannot skew, unlike CPU time.

It runs bench/request_cpu.py (of each checkout given) under `valgrind --tool=callgrind`,
once per kind of request, with the requests of that kind called through
`operator.call` and only those counted (`--toggle-collect=_operator_call`). Polls are
counted together (a round's three polls that see a change and six unchanged ones).

    python bench/request_instructions.py [--before /path/to/old/checkout] [--gzip]
                                         [--tables 6] [--rounds 16] [--kinds tap poll page]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from lib.common import ROOT, print_table

DRIVER = """
import operator, os, sys
import request_cpu
kind = os.environ["REQUEST_KIND"]
measure = request_cpu.CpuMeter._measure
counted = 0

def wanted(environ):
    path, method = environ["PATH_INFO"], environ["REQUEST_METHOD"]
    if kind == "tap":
        return method == "POST" and path.startswith("/match/")
    if kind == "poll":
        return path.startswith("/board/") and not path.endswith("qr.svg")
    return method == "GET" and path.startswith("/match/") and "HTTP_HX_REQUEST" not in environ

def counting(self, inner, environ, start_response):
    global counted
    if wanted(environ):
        counted += 1
        return operator.call(measure, self, inner, environ, start_response)
    return measure(self, inner, environ, start_response)

request_cpu.CpuMeter._measure = counting
request_cpu.run(int(sys.argv[1]), int(sys.argv[2]), 1, sys.argv[3] or None)
print("counted", counted)
"""
KINDS = {"tap": "tap", "poll": "scoreboard poll (any)", "page": "full table page"}


def instructions(checkout: Path, kind: str, tables: int, rounds: int, encoding: str,
                 folder: Path) -> float:
    """Instructions per request of `kind` in `checkout` (phones asking for `encoding`)."""
    out = folder / f"callgrind-{kind}-{abs(hash(str(checkout)))}"
    env = dict(os.environ, PYTHONPATH=f"{checkout}{os.pathsep}{checkout / 'bench'}",
               REQUEST_KIND=kind)
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--toggle-collect=_operator_call",
         f"--callgrind-out-file={out}", sys.executable, "-c", DRIVER, str(tables),
         str(rounds), encoding], env=env, cwd=folder, capture_output=True, text=True, check=True)
    counted = int(re.search(r"^counted (\d+)", run.stdout, re.M).group(1))
    total = int(re.search(r"^(?:totals|summary): (\d+)", out.read_text(), re.M).group(1))
    return total / counted


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, help="another checkout, counted the same way")
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=16)
    parser.add_argument("--kinds", nargs="+", choices=sorted(KINDS), default=list(KINDS))
    parser.add_argument("--gzip", action="store_true", help="phones ask for gzip")
    args = parser.parse_args(argv)
    checkouts = ([args.before.resolve()] if args.before else []) + [ROOT]
    with tempfile.TemporaryDirectory() as name:
        encoding = "gzip, deflate" if args.gzip else ""
        counts = {kind: [instructions(checkout, kind, args.tables, args.rounds, encoding,
                                      Path(name)) for checkout in checkouts]
                  for kind in args.kinds}
    heads = (["request", "before M", "this checkout M", "change"] if args.before
             else ["request", "instructions M"])
    rows = [[KINDS[kind]] + [f"{each / 1e6:.2f}" for each in found]
            + ([f"{found[1] / found[0] - 1:+.0%}"] if args.before else [])
            for kind, found in counts.items()]
    print_table(f"Instructions per request ({args.tables} tables, {args.rounds} rounds"
                f"{', gzip' if args.gzip else ''})",
                heads, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
