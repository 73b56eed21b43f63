"""The README's screenshots of the table, the replay and a league card in every language the
app speaks, as a 412 px phone shows them (headless Chromium through Playwright).

It serves the app on 127.0.0.1 with a scratch store, sets up a league night (bench's own
league set-up), plays a few taps of its first game at a table, and saves
docs/screenshots/language-{table,replay,card}-{code}.png for each code of the language
menu. Run it again after a screen changes:

    python bench/language_screenshots.py [--chromium /usr/bin/chromium]
"""

import argparse
import tempfile
import time
from pathlib import Path

from lib.clients import HttpClient
from lib.league_cards import CardScorer, set_up_league
from lib.people import Recorder
from lib.server import HOST, start_server, stop_server
from playwright.sync_api import sync_playwright

from scorekeeper.web.answers.language import LANGUAGES

SHOTS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
PHONE = {"width": 412, "height": 780}
TAPS = 8


def league_night(port: int) -> dict:
    """A league night with its first game's table a few tiles in: the three addresses."""
    client = HttpClient(port, 10)
    league = set_up_league(client, Recorder(), 9)
    scorer = CardScorer(league["games"][0], 0, 4, client, Recorder(), False)
    if not scorer.new_match(False):
        raise SystemExit(f"the league game did not open: {scorer.errors}")
    deadline = time.monotonic() + 30
    while scorer.kinds.total() < TAPS and time.monotonic() < deadline:
        scorer.tick()
        time.sleep(0.01)
    return {"table": scorer.page_url, "replay": f"{scorer.board_path}/replay",
            "card": f"{league['public']}/card/1"}


def shoot(port: int, screens: dict, chromium: str | None) -> list[Path]:
    saved = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium)
        page = browser.new_page(viewport=PHONE, device_scale_factor=1, is_mobile=True,
                                has_touch=True)
        for code in LANGUAGES:
            for name, path in screens.items():
                page.goto(f"http://{HOST}:{port}{path}?lang={code}")
                page.wait_for_load_state("networkidle")
                saved.append(SHOTS / f"language-{name}-{code}.png")
                page.screenshot(path=saved[-1], animations="disabled")
        browser.close()
    return saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium",
                        help="the Chromium to drive (empty: Playwright's own)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="screenshots-")
    process, port, log, _command = start_server(folder, 4, None, Path(folder) / "server.log")
    try:
        for path in shoot(port, league_night(port), args.chromium or None):
            print(f"{path.relative_to(SHOTS.parents[1])}  {path.stat().st_size // 1024} KB")
    finally:
        stop_server(process, log)


if __name__ == "__main__":
    main()
