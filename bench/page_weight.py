"""Page weight: bytes on the wire for a first visit to the table screen and for one tap.

Measured through Flask's test client with CSRF on, as in production. A first
visit is the table page (GET /match/<id>/<key>) and every asset it loads: the
stylesheet, the script, the icon and the scoreboard's QR code (an <img> in a
closed <details>: browsers fetch it all the same, it is not loading=lazy).
A tap is the htmx POST a tile button sends and the fragment it gets back,
measured on every tap of whole random matches. Bodies are reported raw and
gzipped with gzip.compress(level 6), modelling a compressing proxy; headers
as Flask sends them (waitress adds about 60 bytes: Server, Date, Connection).

    python bench/page_weight.py [--matches 10] [--seed 1]
"""

import argparse
import gzip
import os
import random
import re
import shutil
import sys
import tempfile
from collections import defaultdict

from lib.clients import TestClient
from lib.common import default_table, percentile, print_table, write_results
from lib.people import BrowserTable, Recorder, Scorer

from scorekeeper import create_app
from scorekeeper.db import get_db
from scorekeeper.rules import Match
from scorekeeper.services import matches
from scorekeeper.services.unit_of_work import UnitOfWork

TARGET_FIRST_VISIT_GZIP = 30 * 1024
TARGET_TAP_GZIP = 4 * 1024
_ASSET = re.compile(r'<(?:link|script|img)\b[^>]*?\b(?:href|src)="(/[^"]+)"[^>]*>')


def gz(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=6))


def header_bytes(response) -> int:
    status = f"HTTP/1.1 {response.status}\r\n"
    lines = "".join(f"{name}: {value}\r\n" for name, value in response.headers.items())
    return len((status + lines + "\r\n").encode("latin-1"))


def weigh(response) -> dict:
    body = response.get_data()
    return {"status": response.status_code, "raw": len(body), "gzip": gz(body),
            "headers": header_bytes(response),
            "content_type": response.headers.get("Content-Type", ""),
            "cache_control": response.headers.get("Cache-Control", ""),
            "content_encoding": response.headers.get("Content-Encoding", "")}


def stored_at(app, rng: random.Random, phase: str, min_steps: int = 0):
    """A match stored part-way through, stopped at the first `phase` after min_steps events."""
    while True:
        match = Match(default_table(rng))
        sim = BrowserTable(match, rng)
        steps = 0
        while not match.is_over():
            if steps >= min_steps and match.phase == phase and (
                    phase != "play" or len(match.placements()) >= 2):
                with app.app_context():
                    return matches.create_match(UnitOfWork(get_db()), match)
            sim.step()
            steps += 1


def first_visit(app, stored) -> dict:
    client = app.test_client()
    headers = {"Accept-Encoding": "gzip, deflate, br"}
    page = client.get(f"/match/{stored.id}/{stored.score_key}", headers=headers)
    html = page.get_data(as_text=True)
    items = [("table page (HTML)", f"/match/{stored.id}/{stored.score_key}", weigh(page))]
    for path in dict.fromkeys(_ASSET.findall(html)):  # in page order, once each
        if path.startswith("/match/"):
            continue
        items.append((path.split("?")[0].rsplit("/", 1)[-1] if "/board/" not in path
                      else "qr.svg (scoreboard QR)", path, weigh(client.get(path,
                                                                           headers=headers))))
    return {"items": [{"what": what, "path": path, **weight} for what, path, weight in items],
            "raw": sum(w["raw"] for _, _, w in items),
            "gzip": sum(w["gzip"] for _, _, w in items),
            "headers": sum(w["headers"] for _, _, w in items),
            "compressed_by_app": any(w["content_encoding"] for _, _, w in items)}


def taps(app, matches: int, seed: int) -> dict:
    """Every tap of `matches` whole matches: request and response sizes, by kind of tap."""
    recorder = Recorder()
    by_kind = defaultdict(list)
    worst = None
    for index in range(matches):
        scorer = Scorer(index, seed, TestClient(app), recorder, False)
        if not scorer.new_match(False):
            raise SystemExit(scorer.errors[-1])
        while not (scorer.match.is_over() and not scorer.pending):
            scorer.tick()
            if scorer.broken:
                raise SystemExit(scorer.errors[-1])
            kind, _path, body = scorer.last_request
            reply = scorer.last_reply
            cookie = scorer.client.client.get_cookie("session")
            row = {"kind": kind, "raw": len(reply.body), "gzip": gz(reply.body),
                   "request_body": len(body),
                   "cookie": len(cookie.value) if cookie is not None else 0,
                   "phase_after": scorer.match.phase}
            by_kind[kind].append(row)
            if worst is None or row["gzip"] > worst["gzip"]:
                worst = row
    rows = [row for kind_rows in by_kind.values() for row in kind_rows]

    def stats(chosen):
        return {"count": len(chosen),
                "raw_p50": percentile([r["raw"] for r in chosen], 0.5),
                "raw_max": max(r["raw"] for r in chosen),
                "gzip_p50": percentile([r["gzip"] for r in chosen], 0.5),
                "gzip_p95": percentile([r["gzip"] for r in chosen], 0.95),
                "gzip_max": max(r["gzip"] for r in chosen),
                "request_body_p50": percentile([r["request_body"] for r in chosen], 0.5),
                "cookie_max": max(r["cookie"] for r in chosen)}

    return {"all": stats(rows), "by_kind": {k: stats(v) for k, v in sorted(by_kind.items())},
            "lay": stats(by_kind["lay"]), "worst": worst}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10, help="whole matches of taps")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    folder = tempfile.mkdtemp(prefix="bench-weight-")
    try:
        app = create_app({"DATABASE": os.path.join(folder, "db.sqlite"),
                          "SECRET_KEY": "bench-page-weight"})
        rng = random.Random(args.seed)
        visits = {"mid-hand (play)": first_visit(app, stored_at(app, rng, "play", 40)),
                  "lead (every tile offered)": first_visit(app, stored_at(app, rng, "lead", 1)),
                  "end of hand (pips form)": first_visit(app, stored_at(app, rng, "end")),
                  "new match (who leads)": first_visit(app, stored_at(app, rng, "start"))}
        tapped = taps(app, args.matches, args.seed)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    main_visit = visits["mid-hand (play)"]
    print_table("First visit to the table screen, mid-hand: every response it loads",
                ["response", "raw B", "gzip-6 B", "headers B", "Cache-Control"],
                [[item["what"], item["raw"], item["gzip"], item["headers"],
                  item["cache_control"] or "-"] for item in main_visit["items"]]
                + [["total", main_visit["raw"], main_visit["gzip"], main_visit["headers"], ""]])
    print_table("First visit, by state of the match (totals with every asset)",
                ["state", "HTML raw B", "HTML gzip B", "total raw B", "total gzip B"],
                [[state, v["items"][0]["raw"], v["items"][0]["gzip"], v["raw"], v["gzip"]]
                 for state, v in visits.items()])
    print_table(f"Response to one tap (htmx fragment), every tap of {args.matches} matches",
                ["tap", "count", "raw p50 B", "raw max B", "gzip p50 B", "gzip p95 B",
                 "gzip max B", "request body B"],
                [[kind, s["count"], s["raw_p50"], s["raw_max"], s["gzip_p50"], s["gzip_p95"],
                  s["gzip_max"], s["request_body_p50"]]
                 for kind, s in [("all taps", tapped["all"]), *tapped["by_kind"].items()]])
    worst_visit = max(v["gzip"] for v in visits.values())
    compressed = any(v["compressed_by_app"] for v in visits.values())
    result = {
        "matches": args.matches, "seed": args.seed, "first_visit": visits, "taps": tapped,
        "app_compresses": compressed,
        "targets": {
            "first_visit_gzip": {"value": main_visit["gzip"], "worst_state": worst_visit,
                                 "target": TARGET_FIRST_VISIT_GZIP,
                                 "met": worst_visit <= TARGET_FIRST_VISIT_GZIP},
            "tap_gzip": {"value_p50": tapped["lay"]["gzip_p50"],
                         "value_max": tapped["all"]["gzip_max"], "target": TARGET_TAP_GZIP,
                         "met": tapped["all"]["gzip_max"] <= TARGET_TAP_GZIP}},
    }
    print(f"\nthe app compresses responses (Content-Encoding with Accept-Encoding: gzip): "
          f"{'yes' if compressed else 'no'}")
    print(f"largest tap response: {tapped['worst']}")
    print_table("Targets", ["target", "value", "met"],
                [["first visit ≤ 30 KB gzipped (worst state)", worst_visit,
                  "yes" if result["targets"]["first_visit_gzip"]["met"] else "NO"],
                 ["a tap's response ≤ 4 KB gzipped (largest of all taps)",
                  tapped["all"]["gzip_max"],
                  "yes" if result["targets"]["tap_gzip"]["met"] else "NO"]])
    write_results("page_weight", result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
