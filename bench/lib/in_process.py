"""League night's checks run in this process: the unchanged poll, and profiles of taps and polls."""

import os
import random
import shutil
import tempfile
from collections import Counter

from scorekeeper import create_app
from scorekeeper.rules import Match
from scorekeeper.services import matches
from scorekeeper.web.answers.work import unit_of_work

from .clients import TestClient
from .common import RESULTS, ROOT, default_table
from .people import BrowserTable, Recorder, Scorer, Viewer


def check_304_without_rebuild() -> dict:
    """An unchanged scoreboard poll: 304 with no rebuild and no template rendered."""
    from flask import template_rendered

    folder = tempfile.mkdtemp(prefix="bench-304-")
    try:
        app = create_app({"DATABASE": os.path.join(folder, "db.sqlite"),
                          "SECRET_KEY": "bench"})
        rng = random.Random(5)
        match = Match(default_table(rng))
        sim = BrowserTable(match, rng)
        for _ in range(60):
            sim.step()
        with app.app_context():
            stored = matches.create_match(unit_of_work(), match)
        client = app.test_client()
        path = f"/board/{stored.id}/{stored.view_key}"
        first = client.get(path, headers={"HX-Request": "true"})
        counts = Counter()
        rebuild = matches.rebuilt  # the use cases' one way to a match from its head

        def counting_rebuild(*args, **kwargs):
            counts["rebuilds"] += 1
            return rebuild(*args, **kwargs)

        def rendered(_app, template, context, **_extra):
            counts["templates"] += 1

        matches.rebuilt = counting_rebuild
        template_rendered.connect(rendered, app)
        try:
            again = client.get(path, headers={"HX-Request": "true",
                                              "If-None-Match": first.headers["ETag"]})
        finally:
            matches.rebuilt = rebuild
            template_rendered.disconnect(rendered, app)
        return {"first_status": first.status_code, "etag": first.headers.get("ETag"),
                "unchanged_status": again.status_code, "unchanged_bytes": len(again.data),
                "rebuilds": counts["rebuilds"], "templates_rendered": counts["templates"],
                "ok": again.status_code == 304 and not counts["rebuilds"]
                and not counts["templates"]}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def profile_in_process(tables: int, taps: int, seed: int) -> dict:
    """cProfile (CPU time) over the same taps and polls, through Flask's test client (no
    server), each phone asking for gzip as a browser on plain http does."""
    import cProfile
    import pstats
    import time

    folder = tempfile.mkdtemp(prefix="bench-profile-")
    try:
        app = create_app({"DATABASE": os.path.join(folder, "db.sqlite"),
                          "SECRET_KEY": "bench"})
        recorder = Recorder()
        scorers = [Scorer(i, seed, TestClient(app, "gzip"), recorder, True)
                   for i in range(tables)]
        for scorer in scorers:
            scorer.new_match(True)
        viewers = [Viewer(s, TestClient(app, "gzip"), recorder) for s in scorers
                   for _ in range(3)]
        profiles = {"moves": cProfile.Profile(time.process_time),
                    "polls": cProfile.Profile(time.process_time)}
        for _ in range(taps):  # a tap of every table, then its viewers' polls, as on the night
            for name, clients in (("moves", scorers), ("polls", viewers)):
                profiles[name].enable()
                for client in clients:
                    client.tick()
                profiles[name].disable()
        results = {}
        for name, profile in profiles.items():
            path = RESULTS / f"league_night.profile-{name}.txt"
            with open(path, "w") as out:
                stats = pstats.Stats(profile, stream=out).strip_dirs()
                stats.sort_stats("cumulative").print_stats(60)
                stats.sort_stats("tottime").print_stats(40)
            results[name] = str(path.relative_to(ROOT))
        errors = [e for s in scorers for e in s.errors]
        results["errors"] = errors[:5]
        return results
    finally:
        shutil.rmtree(folder, ignore_errors=True)
