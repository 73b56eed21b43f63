"""Page weight: bytes on the wire for a first visit to the table screen and for one tap.

Measured through Flask's test client with CSRF on, as in production, asking for
compressed answers as a browser does: over plain http (a pub's LAN) Chrome asks
for gzip and deflate, over https for brotli too. A first visit is the table page
(GET /match/<id>/<key>), every asset it loads (the stylesheet, the scripts, the
icons, the manifest, the scoreboard's QR code: an <img> in a closed <details> is
fetched all the same) and what the service worker fetches when it installs
(/sw.js and the offline page). A tap is the htmx POST a tile button sends and the
fragment it gets back, measured on every tap of whole random matches. Bodies as
sent (compressed by the app) and unpacked; headers as Flask sends them (waitress
adds about 60 bytes: Server, Date, Connection).

    python bench/page_weight.py [--matches 10] [--seed 1]
"""

import argparse
import os
import random
import re
import shutil
import sys
import tempfile
from collections import defaultdict

from lib.clients import TestClient, unpacked
from lib.common import default_table, percentile, print_table, write_results
from lib.people import BrowserTable, Recorder, Scorer

from scorekeeper import create_app
from scorekeeper.rules import Match
from scorekeeper.services import matches
from scorekeeper.web.answers.work import unit_of_work

TARGET_FIRST_VISIT = 30 * 1024
TARGET_TAP = 2 * 1024
BROWSERS = {"http (gzip)": "gzip, deflate", "https (br)": "gzip, deflate, br, zstd"}
"""What Chrome asks for: brotli and zstd only over https."""
_ASSET = re.compile(r'<(?:link|script|img)\b[^>]*?\b(?:href|src)="(/[^"]+)"[^>]*>')
SERVICE_WORKER = ("/sw.js", "/offline")
"""Fetched once the page has loaded: the worker, and the page it keeps for offline."""


def header_bytes(response) -> int:
    status = f"HTTP/1.1 {response.status}\r\n"
    lines = "".join(f"{name}: {value}\r\n" for name, value in response.headers.items())
    return len((status + lines + "\r\n").encode("latin-1"))


def weigh(response) -> dict:
    sent = response.get_data()
    encoding = response.headers.get("Content-Encoding", "")
    return {"status": response.status_code, "raw": len(unpacked(sent, encoding or None)),
            "wire": len(sent), "headers": header_bytes(response),
            "content_type": response.headers.get("Content-Type", ""),
            "cache_control": response.headers.get("Cache-Control", ""),
            "content_encoding": encoding}


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
                    return matches.create_match(unit_of_work(), match)
            sim.step()
            steps += 1


def first_visit(app, stored, accept: str) -> dict:
    client = app.test_client()
    headers = {"Accept-Encoding": accept}
    page = client.get(f"/match/{stored.id}/{stored.score_key}", headers=headers)
    html = unpacked(page.get_data(), page.headers.get("Content-Encoding")).decode()
    items = [("table page (HTML)", f"/match/{stored.id}/{stored.score_key}", weigh(page))]
    assets = [path for path in dict.fromkeys(_ASSET.findall(html))  # in page order, once
              if not path.startswith("/match/")]
    for path in [*assets, *SERVICE_WORKER]:
        response = client.get(path, headers=headers)
        name = ("qr.svg (scoreboard QR)" if "/board/" in path
                else path.split("?")[0].rsplit("/", 1)[-1])
        items.append((name, path, weigh(response)))
        response.close()
    return {"items": [{"what": what, "path": path, **weight} for what, path, weight in items],
            "raw": sum(w["raw"] for _, _, w in items),
            "wire": sum(w["wire"] for _, _, w in items),
            "headers": sum(w["headers"] for _, _, w in items),
            "total": sum(w["wire"] + w["headers"] for _, _, w in items)}


def taps(app, matches: int, seed: int, accept: str) -> dict:
    """Every tap of `matches` whole matches: request and response sizes, by kind of tap."""
    recorder = Recorder()
    by_kind = defaultdict(list)
    worst = None
    for index in range(matches):
        scorer = Scorer(index, seed, TestClient(app, accept), recorder, False)
        if not scorer.new_match(False):
            raise SystemExit(scorer.errors[-1])
        while not (scorer.match.is_over() and not scorer.pending):
            scorer.tick()
            if scorer.broken:
                raise SystemExit(scorer.errors[-1])
            kind, _path, body = scorer.last_request
            reply = scorer.last_reply
            row = {"kind": kind, "raw": len(reply.body), "wire": reply.wire,
                   "request_body": len(body), "phase_after": scorer.match.phase}
            by_kind[kind].append(row)
            if worst is None or row["wire"] > worst["wire"]:
                worst = row
    rows = [row for kind_rows in by_kind.values() for row in kind_rows]

    def stats(chosen):
        return {"count": len(chosen),
                "raw_p50": percentile([r["raw"] for r in chosen], 0.5),
                "raw_max": max(r["raw"] for r in chosen),
                "wire_p50": percentile([r["wire"] for r in chosen], 0.5),
                "wire_p95": percentile([r["wire"] for r in chosen], 0.95),
                "wire_max": max(r["wire"] for r in chosen),
                "request_body_p50": percentile([r["request_body"] for r in chosen], 0.5)}

    return {"all": stats(rows), "by_kind": {k: stats(v) for k, v in sorted(by_kind.items())},
            "lay": stats(by_kind["lay"]), "worst": worst}


def measure(app, seed: int, matches_tapped: int) -> dict:
    """First visits in four states of a match and every tap, for each browser."""
    measured = {}
    for browser, accept in BROWSERS.items():
        rng = random.Random(seed)
        visits = {"mid-hand (play)": stored_at(app, rng, "play", 40),
                  "lead (every tile offered)": stored_at(app, rng, "lead", 1),
                  "end of hand (pips form)": stored_at(app, rng, "end"),
                  "new match (who leads)": stored_at(app, rng, "start")}
        measured[browser] = {
            "first_visit": {state: first_visit(app, stored, accept)
                            for state, stored in visits.items()},
            "taps": taps(app, matches_tapped, seed, accept)}
    return measured


def report(browser: str, measured: dict, matches_tapped: int) -> None:
    visits, tapped = measured["first_visit"], measured["taps"]
    main_visit = visits["mid-hand (play)"]
    print_table(f"{browser}: first visit to the table screen, mid-hand, every response",
                ["response", "raw B", "sent B", "encoding", "headers B", "Cache-Control"],
                [[item["what"], item["raw"], item["wire"], item["content_encoding"] or "-",
                  item["headers"], item["cache_control"] or "-"]
                 for item in main_visit["items"]]
                + [["total", main_visit["raw"], main_visit["wire"], "", main_visit["headers"],
                    ""]])
    print_table(f"{browser}: first visit by state of the match (every asset, headers too)",
                ["state", "HTML raw B", "HTML sent B", "total raw B", "total on the wire B"],
                [[state, v["items"][0]["raw"], v["items"][0]["wire"], v["raw"], v["total"]]
                 for state, v in visits.items()])
    print_table(f"{browser}: the answer to one tap, every tap of {matches_tapped} matches",
                ["tap", "count", "raw p50 B", "raw max B", "sent p50 B", "sent p95 B",
                 "sent max B", "request body B"],
                [[kind, s["count"], s["raw_p50"], s["raw_max"], s["wire_p50"], s["wire_p95"],
                  s["wire_max"], s["request_body_p50"]]
                 for kind, s in [("all taps", tapped["all"]), *tapped["by_kind"].items()]])


def targets(measured: dict) -> dict:
    """The worst browser and state against each target."""
    visit = max(v["total"] for m in measured.values() for v in m["first_visit"].values())
    tap = max(m["taps"]["all"]["wire_max"] for m in measured.values())
    return {"first_visit": {"value": visit, "target": TARGET_FIRST_VISIT,
                            "met": visit <= TARGET_FIRST_VISIT},
            "tap": {"value": tap, "target": TARGET_TAP, "met": tap <= TARGET_TAP}}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10, help="whole matches of taps")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    folder = tempfile.mkdtemp(prefix="bench-weight-")
    try:
        app = create_app({"DATABASE": os.path.join(folder, "db.sqlite"),
                          "SECRET_KEY": "bench-page-weight", "RATELIMIT_ENABLED": False})
        measured = measure(app, args.seed, args.matches)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    for browser, figures in measured.items():
        report(browser, figures, args.matches)
    met = targets(measured)
    print_table("Targets (the worst browser and state)", ["target", "value B", "met"],
                [["a first visit ≤ 30 KB on the wire, headers included",
                  met["first_visit"]["value"], "yes" if met["first_visit"]["met"] else "NO"],
                 ["a tap's answer ≤ 2 KB on the wire (body, largest of all taps)",
                  met["tap"]["value"], "yes" if met["tap"]["met"] else "NO"]])
    write_results("page_weight", {"matches": args.matches, "seed": args.seed,
                                  "browsers": BROWSERS, "measured": measured, "targets": met})
    return 0


if __name__ == "__main__":
    sys.exit(main())
