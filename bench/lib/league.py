"""League night over HTTP: the run (server, people, clock), its figures and its targets."""

import os
import random
import shutil
import tempfile
import threading
import time
from collections import Counter

from .clients import HttpClient
from .common import RESULTS, percentile, summary_ms
from .league_cards import CardScorer, PublicViewer, set_up_league
from .people import Floor, Recorder, Scorer, Viewer
from .server import cpu_seconds, start_server, stop_server

FLOOR = "/static/app.css"
FLOORS = (FLOOR, "/rules")
TARGET_MOVE_P99_MS = 50
TARGET_MOVE_OVER_FLOOR = 3


def run_night(args) -> dict:
    """Serve the app, set up the tables, run every client for warm-up + measured seconds.

    Returns what happened: the recorder, the people, the clock, CPU times, the server log.
    """
    folder = tempfile.mkdtemp(prefix="bench-league-")
    log_path = RESULTS / f"{args.name}.server.log"
    process, port, log, command = start_server(folder, args.threads, args.connection_limit,
                                               log_path, args.app, args.server,
                                               args.database_url)
    try:
        recorder = Recorder()
        rng = random.Random(args.seed)
        print(f"server: {' '.join(command[1:])} (pid {process.pid}); setting up "
              f"{args.tables} tables ...", flush=True)
        scorers, public = _people(args, port, recorder)
        for scorer in scorers:
            if not scorer.new_match(not args.fresh_start):
                raise SystemExit(f"setup failed: {scorer.errors[-1]}")
        viewers = [Viewer(s, HttpClient(port, args.timeout), recorder)
                   for s in scorers for _ in range(args.viewers)]
        viewers += public
        floors = [Floor(path, HttpClient(port, args.timeout), recorder) for path in FLOORS]
        log_length = [len(s.match.log) for s in scorers]
        print(f"running {args.warmup:g} s warm-up + {args.seconds:g} s measured: "
              f"{len(scorers)} scorers, {len(viewers)} viewers ({len(public)} of the public "
              f"league page), {len(floors)} floor clients "
              f"(log lengths at start: median {percentile(log_length, 0.5):.0f}, "
              f"max {max(log_length)}) ...", flush=True)
        cpu = {"generator_before": os.times()}
        timer = threading.Timer(args.warmup + 0.2,
                                lambda: cpu.update(server_before=cpu_seconds(process.pid)))
        timer.start()
        start, end, late = run_clients(scorers + viewers, floors, args, recorder, rng)
        cpu.update(server_after=cpu_seconds(process.pid), generator_after=os.times())
        timer.cancel()
    finally:
        stop_server(process, log)
        shutil.rmtree(folder, ignore_errors=True)
    return {"recorder": recorder, "scorers": scorers, "viewers": viewers, "floors": floors,
            "log_length": log_length, "measured": end - start, "late": late, "cpu": cpu,
            "command": command, "server_log": log_path.read_text()}


def _people(args, port: int, recorder) -> tuple[list, list]:
    """The tables' scorers (playing games of league cards with --league) and the people
    following the public league page."""
    if not args.league:
        return [Scorer(i, args.seed, HttpClient(port, args.timeout), recorder,
                       not args.fresh_start) for i in range(args.tables)], []
    league = set_up_league(HttpClient(port, args.timeout), recorder, args.tables)
    scorers = [CardScorer(game, i, args.seed, HttpClient(port, args.timeout), recorder, False)
               for i, game in enumerate(league["games"])]
    public = [PublicViewer(league["public"], HttpClient(port, args.timeout), recorder)
              for _ in range(args.public_viewers)]
    return scorers, public


def run_clients(people, floors, args, recorder, rng):
    """Each client ticks every ~interval (±10%) from a random phase, the floor clients every
    ~floor-interval; returns the measured window and how many ticks started late."""
    stop = threading.Event()
    late = Counter()
    begin = time.perf_counter() + 0.2
    recorder.window = (begin + args.warmup, begin + args.warmup + args.seconds)

    def loop(client, interval, phase, jitter):
        next_at = begin + phase
        while not stop.is_set():
            delay = next_at - time.perf_counter()
            if delay > 0 and stop.wait(delay):
                break
            try:
                client.tick()
            except Exception as error:  # a bug in the generator must not pass for a timing
                recorder.add("generator", type(error).__name__, time.perf_counter(), 0, 0,
                             repr(error))
            next_at += interval * jitter.uniform(0.9, 1.1)
            if next_at < time.perf_counter():
                late["late"] += 1
                next_at = time.perf_counter()

    plan = [(c, args.interval) for c in people] + [(c, args.floor_interval) for c in floors]
    threads = [threading.Thread(target=loop, daemon=True,
                                args=(client, interval, rng.uniform(0, interval),
                                      random.Random(rng.random())))
               for client, interval in plan]
    for thread in threads:
        thread.start()
    time.sleep(max(0.0, recorder.window[1] - time.perf_counter()))
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    return recorder.window[0], recorder.window[1], late["late"]


def figures(rows, category) -> dict:
    chosen = [row for row in rows if row[0] == category]
    good = [row[3] for row in chosen if row[5] is None]
    errors = [row for row in chosen if row[5] is not None or row[4] >= 400]
    result = summary_ms([row[3] for row in chosen])
    result["errors"] = len(errors)
    result["statuses"] = dict(Counter(str(row[4]) for row in chosen))
    if not good:
        result["count"] = len(chosen)
    return result
