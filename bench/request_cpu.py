"""CPU time the server spends on each kind of request a league night sends, in-process.

The app is called through its WSGI entry (Flask's test client, CSRF and the tap
limits on, as in production); only the time inside the app is counted
(`time.process_time` around `app.wsgi_app`), not the client's. Each round, every
table's scorer taps once (the simulation decides the tap, as in league_night.py),
its three viewers poll (the first renders the new scoreboard, the other two get
the kept render), poll again unchanged (304) twice, and the scorer's phone loads
the full table page. CPU time counts what a busy machine cannot hide: compare
runs of the same command, before and after a change.

    python bench/request_cpu.py [--tables 20] [--rounds 150] [--seed 1] [--gzip]

With --gzip every phone asks for gzip, as browsers on a pub's plain-http Wi-Fi do,
so answers are compressed too (Flask-Compress; the scoreboard once per revision).

With --workers 2 two app instances share the database, as two worker processes of
`scorekeeper serve` do, and each request goes to one of them picked at random: a
worker's kept match is then often behind the other's latest tap, and a scoreboard
revision may be rendered by both. With --postgres the database is PostgreSQL (a
throw-away cluster started for the run) instead of a SQLite file.

    python bench/request_cpu.py --workers 2 [--gzip] [--postgres]
"""

import argparse
import functools
import os
import random
import shutil
import statistics
import tempfile
import time
from collections import defaultdict

from flask import template_rendered
from lib.clients import TestClient
from lib.common import print_table, write_results
from lib.people import Recorder, Scorer, Viewer
from lib.server import throwaway_postgres
from werkzeug.test import Client

from scorekeeper import create_app

KINDS = ("tap", "poll unchanged (304)", "poll changed (renders)", "poll changed (kept)",
         "table page")


class CpuMeter:
    """WSGI middleware around each app: the process CPU time of every request, by kind."""

    def __init__(self, apps):
        self.samples: dict[str, list[float]] = defaultdict(list)
        self.rendered = 0
        for app in apps:
            app.wsgi_app = functools.partial(self._measure, app.wsgi_app)
            template_rendered.connect(self._count, app)

    def _count(self, *_args, **_kwargs) -> None:
        self.rendered += 1

    def _measure(self, inner, environ, start_response):
        answer = {}

        def starting(status, headers, exc_info=None):
            answer["status"] = int(status.split()[0])
            return start_response(status, headers, exc_info)

        rendered = self.rendered
        start = time.process_time()
        body = list(inner(environ, starting))
        seconds = time.process_time() - start
        self.samples[self._kind(environ, answer["status"], self.rendered > rendered)].append(
            seconds)
        return body

    @staticmethod
    def _kind(environ, status: int, rendered: bool) -> str:
        path, method = environ["PATH_INFO"], environ["REQUEST_METHOD"]
        if method == "POST" and path.startswith("/match/"):
            return "tap" if status == 200 else f"tap {status}"
        if path.startswith("/board/"):
            if status == 304:
                return "poll unchanged (304)"
            return "poll changed (renders)" if rendered else "poll changed (kept)"
        if path.startswith("/match/") and "HTTP_HX_REQUEST" not in environ:
            return "table page"
        return "setup"


class Workers:
    """Several app instances on one database, as worker processes: each request goes to one
    picked at random, as the server's accepting process would hand it on."""

    def __init__(self, apps, seed: int):
        self.apps = apps
        self.rng = random.Random(seed)

    def __call__(self, environ, start_response):
        return self.rng.choice(self.apps)(environ, start_response)

    def test_client(self) -> Client:
        """A browser on them (its cookies kept whichever instance answers)."""
        return Client(self)


def run(tables: int, rounds: int, seed: int, accept_encoding: str | None = None,
        workers: int = 1, database_url: str | None = None) -> dict:
    folder = tempfile.mkdtemp(prefix="bench-cpu-")
    try:
        # every table's phone is one test client here, all from one address, tapping as
        # fast as the CPU goes: the address's limit counts as it does, but never refuses
        config = {"DATABASE": os.path.join(folder, "db.sqlite"), "SECRET_KEY": "bench",
                  "DATABASE_URL": database_url, "WRITE_LIMIT": "100000 per second"}
        apps = [create_app(config) for _ in range(workers)]
        meter = CpuMeter(apps)
        served = apps[0] if workers == 1 else Workers(apps, seed)
        recorder = Recorder()
        scorers = [Scorer(i, seed, TestClient(served, accept_encoding), recorder, True)
                   for i in range(tables)]
        for scorer in scorers:
            scorer.new_match(True)
        viewers = [[Viewer(s, TestClient(served, accept_encoding), recorder)
                    for _ in range(3)] for s in scorers]
        for _ in range(rounds):
            for scorer, watching in zip(scorers, viewers, strict=True):
                scorer.tick()
                for _poll in range(3):
                    for viewer in watching:
                        viewer.tick()
                if scorer.page_url:
                    scorer.client.request("GET", scorer.page_url)
        errors = [error for scorer in scorers for error in scorer.errors]
        return {"samples": meter.samples, "errors": errors}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def summary(samples: dict[str, list[float]]) -> dict:
    """Figures per kind of request, and over them all ("every request": what a change that
    moves requests from one kind to another, rendering to kept, is judged by)."""
    kinds = {kind: seconds for kind, seconds in sorted(samples.items()) if kind != "setup"}
    kinds["every request"] = [second for seconds in kinds.values() for second in seconds]
    return {kind: {"count": len(seconds),
                   "mean_ms": round(statistics.fmean(seconds) * 1000, 3),
                   "median_ms": round(statistics.median(seconds) * 1000, 3)}
            for kind, seconds in kinds.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=150,
                        help="taps per table (the tap limit allows 240 a minute)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gzip", action="store_true", help="phones ask for gzip")
    parser.add_argument("--workers", type=int, choices=(1, 2), default=1,
                        help="app instances on the database, each request to one at random")
    parser.add_argument("--postgres", action="store_true",
                        help="store in a throw-away PostgreSQL cluster started for the run")
    parser.add_argument("--name", default="request_cpu", help="results file name")
    args = parser.parse_args(argv)
    if not (0 < args.tables <= 200 and 0 < args.rounds <= 200):
        parser.error("keep it bounded: tables ≤ 200, rounds ≤ 200")
    with throwaway_postgres(args.postgres) as url:
        result = run(args.tables, args.rounds, args.seed,
                     "gzip, deflate" if args.gzip else None, args.workers, url)
    figures = summary(result["samples"])
    print_table(f"CPU per request ({args.tables} tables, {args.rounds} rounds, "
                f"{args.workers} worker{'s' if args.workers > 1 else ''}"
                f"{', PostgreSQL' if args.postgres else ''}{', gzip' if args.gzip else ''})",
                ["request", "count", "mean ms", "median ms"],
                [[kind, row["count"], row["mean_ms"], row["median_ms"]]
                 for kind, row in figures.items()])
    for error in result["errors"][:5]:
        print("error:", error)
    write_results(args.name, {"tables": args.tables, "rounds": args.rounds, "seed": args.seed,
                              "gzip": args.gzip, "workers": args.workers,
                              "postgres": args.postgres,
                              "cpu_per_request": figures, "errors": result["errors"][:20]})
    return 1 if result["errors"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
