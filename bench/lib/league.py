"""League night over HTTP: the run (server, people, clock), its figures and its targets."""

import gc
import os
import pickle
import random
import shutil
import tempfile
import threading
import time
import traceback
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
                                               args.database_url,
                                               getattr(args, "workers", None))
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
        load_before = os.getloadavg()
        begin = time.perf_counter() + 0.5
        recorder.window = (begin + args.warmup, begin + args.warmup + args.seconds)
        cpu = {}
        timer = threading.Timer(begin + args.warmup - time.perf_counter(),
                                lambda: cpu.update(server_before=cpu_seconds(process.pid)))
        timer.start()
        groups = _groups(scorers, viewers, floors, getattr(args, "generators", 1))
        late, cpu["generator"] = run_generators(groups, args, recorder, rng, begin)
        cpu.update(server_after=cpu_seconds(process.pid))
        timer.cancel()
        load = [round(value, 2) for value in (*load_before[:1], os.getloadavg()[0])]
    finally:
        stop_server(process, log)
        shutil.rmtree(folder, ignore_errors=True)
    return {"recorder": recorder, "scorers": scorers, "viewers": viewers, "floors": floors,
            "log_length": log_length, "measured": args.seconds, "late": late, "cpu": cpu,
            "load_1min_start_end": load, "generators": len(groups),
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


def _groups(scorers, viewers, floors, count: int) -> list[list]:
    """The clients split into `count` groups for as many generator processes: a table's
    scorer with its viewers (they follow its board), the floor clients in the first."""
    count = max(1, min(count, len(scorers)))
    groups: list[list] = [[] for _ in range(count)]
    place = {id(scorer): index % count for index, scorer in enumerate(scorers)}
    for index, scorer in enumerate(scorers):
        groups[index % count].append((scorer, None))
    for index, viewer in enumerate(viewers):
        home = place.get(id(getattr(viewer, "scorer", None)), index % count)
        groups[home].append((viewer, None))
    groups[0] += [(floor, "floor") for floor in floors]
    return groups


def run_generators(groups, args, recorder, rng, begin: float) -> tuple[int, float]:
    """Run each group of clients in a process of its own (forked: they are set up already),
    or in this one for a single group; returns late ticks and the generators' CPU seconds."""
    if len(groups) == 1:
        before = os.times()
        late = run_clients(groups[0], args, recorder, rng, begin)
        after = os.times()
        return late, after.user + after.system - before.user - before.system
    children = []
    for index, group in enumerate(groups):
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:  # a generator: run its clients, send back what it saw, and exit
            os.close(reader)
            _generate(group, args, random.Random(rng.random() + index), begin, writer)
        os.close(writer)
        children.append((pid, reader, group))
    late, generator_cpu = 0, 0.0
    for pid, reader, group in children:
        with os.fdopen(reader, "rb") as pipe:
            seen = pickle.load(pipe)
        os.waitpid(pid, 0)
        recorder.rows.extend(seen["rows"])
        for (person, _kind), errors, retries in zip(group, seen["errors"], seen["retries"],
                                                    strict=True):
            if errors is not None:
                person.errors[:] = errors
            person.client.retries = retries
        late += seen["late"]
        generator_cpu += seen["cpu"]
    return late, generator_cpu


def _generate(group, args, rng, begin: float, writer: int) -> None:
    status = 0
    gc.freeze()  # the tables set up before the fork: never scanned again (no 100 ms pauses)
    try:
        recorder = Recorder()
        recorder.window = (begin + args.warmup, begin + args.warmup + args.seconds)
        for person, _kind in group:
            person.recorder = recorder
            if hasattr(person, "scorer"):
                person.scorer.recorder = recorder
        before = os.times()
        late = run_clients(group, args, recorder, rng, begin)
        after = os.times()
        seen = {"rows": recorder.rows, "late": late,
                "cpu": after.user + after.system - before.user - before.system,
                "errors": [getattr(person, "errors", None) for person, _ in group],
                "retries": [person.client.retries for person, _ in group]}
        with os.fdopen(writer, "wb") as pipe:
            pickle.dump(seen, pipe)
    except BaseException:
        traceback.print_exc()
        status = 1
    finally:
        os._exit(status)


def run_clients(group, args, recorder, rng, begin: float) -> int:
    """Each client ticks every ~interval (±10%) from a random phase, the floor clients every
    ~floor-interval, until the measured window ends; returns how many ticks started late."""
    stop = threading.Event()
    late = Counter()

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

    plan = [(client, args.floor_interval if kind == "floor" else args.interval)
            for client, kind in group]
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
    return late["late"]


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
