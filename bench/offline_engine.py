"""How long a phone waits before it can score offline, and what a tap costs then.

Serves the app on loopback, opens a new match's table page in Debian's Chromium as a Pixel
7 with Chromium's CPU slowdown and a network profile (slow 3G: 400 ms, 50,000 B/s; fast 3G:
150 ms, 200,000 B/s down), and reports: the first screen's load, the bytes and time until
the offline table says it is ready (cold: an empty cache; warm: a reload, the service
worker's copies), and the time of a tap applied offline (the click to the new screen).

    python bench/offline_engine.py [--cpu 4] [--profiles slow,fast] [--taps 10]
"""

import argparse
import statistics
import sys
import tempfile
import threading
import time

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.rules import Match, Table
from scorekeeper.services import matches
from scorekeeper.web.answers.work import app_unit_of_work

PROFILES = {"slow": (400, 50_000, 50_000), "fast": (150, 200_000, 93_750)}


def served():
    folder = tempfile.mkdtemp(prefix="offline-bench-")
    app = create_app({"DATABASE": f"{folder}/db.sqlite", "SECRET_KEY": "bench"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return app, f"http://127.0.0.1:{server.server_port}"


def table_page(app, url: str) -> str:
    stored = matches.create_match(app_unit_of_work(app),
                                  Match(Table.create(["Ann", "Bob"], False, None, None)))
    return f"{url}/match/{stored.id}/{stored.score_key}"


def run(browser, devices, page_url: str, cpu: float, profile: str, taps: int) -> dict:
    latency, down, up = PROFILES[profile]
    context = browser.new_context(**devices)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    received = []
    cdp.on("Network.loadingFinished", lambda event: received.append(event["encodedDataLength"]))
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency,
             "downloadThroughput": down, "uploadThroughput": up})
    found = {}
    start = time.perf_counter()
    page.goto(page_url, wait_until="load", timeout=600_000)
    found["first screen s"] = time.perf_counter() - start
    found["first screen bytes"] = sum(received)
    engine = page.locator("#offline-engine")
    engine.and_(page.locator("[data-state=ready]")).wait_for(timeout=900_000)
    found["cold ready s"] = time.perf_counter() - start
    found["cold bytes"] = sum(received)
    start = time.perf_counter()
    page.reload(wait_until="load")
    engine.and_(page.locator("[data-state=ready]")).wait_for(timeout=900_000)
    found["warm ready s"] = time.perf_counter() - start
    context.set_offline(True)
    times = []
    for _ in range(taps):
        pos = page.locator("#table input[name=pos]").first.input_value()
        button = page.locator("#table button[name=move], #table button[name=seat]").first
        if not button.count():
            break
        start = time.perf_counter()
        button.dispatch_event("click")
        page.locator(f"#table input[name=pos]:not([value='{pos}'])").first.wait_for()
        times.append(time.perf_counter() - start)
    found["offline tap ms (median)"] = statistics.median(times) * 1000 if times else None
    context.close()
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cpu", type=float, default=4)
    parser.add_argument("--profiles", default="slow,fast")
    parser.add_argument("--taps", type=int, default=10)
    args = parser.parse_args(argv)
    app, url = served()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        devices = dict(playwright.devices["Pixel 7"])
        devices.pop("default_browser_type", None)
        for profile in args.profiles.split(","):
            found = run(browser, devices, table_page(app, url), args.cpu, profile, args.taps)
            print(f"CPU ×{args.cpu:g}, {profile} 3G: " + ", ".join(
                f"{name} {value:,.1f}" if isinstance(value, float) else f"{name} {value}"
                for name, value in found.items()), flush=True)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
