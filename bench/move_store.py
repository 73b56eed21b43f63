"""How long `scorekeeper move-store` takes for a season of 100,000 matches, both ways.

It builds the season in a SQLite file first (untimed, a few minutes): a few hundred
simulated matches of every rule set, each stored many times under new ids and keys with
its whole log, and a league of ten teams with its double round robin and some corrections.
Then it times the move into a throw-away PostgreSQL database (tests/postgresql.py: a
cluster on a unix socket, fsync off) and back from it into a new SQLite file, each with its
whole check (every table read back, every match rebuilt on both sides and told the same),
stage by stage, as `scorekeeper move-store` runs it.

    python bench/move_store.py [--matches 100000] [--records 300] [--seed 5] [--keep DIR]
"""

import argparse
import contextlib
import json
import os
import random
import resource
import tempfile
import time
from datetime import date
from pathlib import Path

from lib.common import LOAD_AT_START, print_table, write_results
from lib.records import generate
from postgresql import Cluster

from scorekeeper.commands.told import summary_json
from scorekeeper.league import PRESETS, LeagueSetup
from scorekeeper.rules import RULE_SETS
from scorekeeper.rules.match.record import load_record, read_record
from scorekeeper.services.league import setup as league
from scorekeeper.services.unit_of_work import UnitOfWork
from scorekeeper.storage import connect, move_store, upgrade
from scorekeeper.storage.connection import transaction
from scorekeeper.storage.match_log import event_json, table_json
from scorekeeper.storage.match_log import summary_json as listed

TARGET_SECONDS = 600
"""A season moves in minutes, not hours: ten minutes each way at most."""


def templates(count: int, seed: int) -> list[tuple[str, str, list[str]]]:
    """(setup, summary, entries' data) of `count` simulated matches, every rule set alike."""
    found = []
    for number, rules in enumerate(RULE_SETS):
        for _, text in generate(count // len(RULE_SETS), seed + number, rules):
            match = read_record(load_record(text))
            found.append((table_json(match.table), listed(match),
                          [event_json(event) for event in match.log]))
    return found


def build(path: str, matches: int, records: int, seed: int) -> dict:
    """The season's SQLite store: `matches` matches made of the simulated ones, and a league."""
    made = templates(records, seed)
    rng = random.Random(seed)
    conn = connect(path)
    upgrade(conn)
    entries = 0
    with transaction(conn):
        for number in range(matches):
            setup, summary, log = made[number % len(made)]
            match_id = f"{number:08x}"
            keys = (f"{rng.getrandbits(96):024x}", f"{rng.getrandbits(96):024x}")
            conn.execute("INSERT INTO matches (id, score_key, view_key, setup, revision, "
                         "summary) VALUES (?, ?, ?, ?, ?, ?)",
                         (match_id, *keys, setup, len(log), summary))
            conn.executemany("INSERT INTO entries (match_id, seq, kind, data) "
                             "VALUES (?, ?, 'event', ?)",
                             [(match_id, seq, data) for seq, data in enumerate(log, 1)])
            entries += len(log)
    _league(conn)
    size = os.path.getsize(path)
    conn.close()
    return {"matches": matches, "entries": entries, "templates": len(made),
            "sqlite_bytes": size}


def _league(conn) -> None:
    """Ten teams, their double round robin (90 fixtures), and a few corrections."""
    setup = LeagueSetup.create("Bench League", "2026–27", "SSPP", PRESETS["two_plus_games"])
    access = league.create_league(UnitOfWork(conn), setup,
                                 [(f"Team {n}", "") for n in range(10)])
    league.make_fixtures(UnitOfWork(conn), access, date(2026, 9, 1))
    with transaction(conn):
        for fixture_id in range(1, 6):
            conn.execute("INSERT INTO corrections (fixture_id, kind, facts) VALUES (?, ?, ?)",
                         (fixture_id, "reopened", json.dumps({"by": "secretary"})))


class Stages:
    """A progress callback that times each stage of a move."""

    def __init__(self):
        self.seconds: dict[str, float] = {}

    @contextlib.contextmanager
    def __call__(self, label: str, total: int, **values):
        start = time.perf_counter()
        yield lambda done: None
        self.seconds[label % values] = time.perf_counter() - start


def _cpu() -> float:
    """CPU seconds of this process and of its helper processes that have ended (not of the
    PostgreSQL server, which a busy machine also slows)."""
    mine, helpers = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                           resource.RUSAGE_CHILDREN))
    return mine.ru_utime + mine.ru_stime + helpers.ru_utime + helpers.ru_stime


def timed_move(source: str, target: str) -> dict:
    stages = Stages()
    start, cpu = time.perf_counter(), _cpu()
    moved = move_store(source, target, told=summary_json, progress=stages)
    seconds, cpu = time.perf_counter() - start, _cpu() - cpu
    copying = sum(s for label, s in stages.seconds.items() if label.startswith("Copying"))
    reading = sum(s for label, s in stages.seconds.items()
                  if label.startswith("Checking") and label != "Checking every match")
    return {"seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1),
            "load_after": [round(value, 1) for value in os.getloadavg()],
            "copying": round(copying, 1),
            "reading_back": round(reading, 1),
            "matches_rebuilt": round(stages.seconds["Checking every match"], 1),
            "matches": moved.matches, "rows": sum(moved.tables.values()),
            "stages": {label: round(s, 2) for label, s in stages.seconds.items()}}


def _season(season: str, args) -> dict:
    """The season built (or, kept from an earlier run, found) and what it holds."""
    kept = os.path.join(os.path.dirname(season), "season.json")
    if args.keep and os.path.exists(kept) and os.path.exists(season):
        built = json.loads(Path(kept).read_text())
        print(f"moving the season kept in {season} ({built['matches']:,} matches)")
        return built
    with contextlib.suppress(FileNotFoundError):
        os.remove(season)
    start = time.perf_counter()
    built = build(season, args.matches, args.records, args.seed)
    built["seconds"] = round(time.perf_counter() - start, 1)
    Path(kept).write_text(json.dumps(built))
    print(f"built {built['matches']:,} matches, {built['entries']:,} entries "
          f"({built['sqlite_bytes'] / 1e9:.2f} GB) in {built['seconds']} s "
          f"(load average at start {LOAD_AT_START})", flush=True)
    return built


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--records", type=int, default=300,
                        help="simulated matches the season is made of (every rule set alike)")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--keep", help="build the season in this folder and keep it; a later "
                                           "run given the same folder moves it again")
    args = parser.parse_args()
    folder = args.keep or tempfile.mkdtemp(prefix="move-store-")
    season, back = os.path.join(folder, "season.sqlite"), os.path.join(folder, "back.sqlite")
    with contextlib.suppress(FileNotFoundError):
        os.remove(back)
    built = _season(season, args)
    cluster = Cluster().start()
    try:
        url = cluster.create_database("season")
        there = timed_move(season, url)
        again = timed_move(url, back)
    finally:
        cluster.stop()
        for leftover in (back,) if args.keep else (season, back):
            with contextlib.suppress(FileNotFoundError):
                os.remove(leftover)
    rows = [[way, moved["seconds"], moved["cpu_seconds"], moved["copying"],
             moved["reading_back"], moved["matches_rebuilt"], moved["rows"],
             moved["seconds"] <= TARGET_SECONDS]
            for way, moved in (("SQLite → PostgreSQL", there), ("PostgreSQL → SQLite", again))]
    print_table(f"move-store, {built['matches']:,} matches (seconds)",
                ["way", "wall", "CPU", "copying", "reading back", "matches rebuilt", "rows",
                 f"≤ {TARGET_SECONDS} s"], rows)
    write_results("move_store", {"season": built, "to_postgresql": there,
                                 "to_sqlite": again, "target_seconds": TARGET_SECONDS})


if __name__ == "__main__":
    main()
