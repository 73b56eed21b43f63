"""What a crafted season archive costs to refuse: CPU milliseconds of reading it (as the
web restore, `league-import` and the preview do), and a legal one of the largest league to
accept, for comparison.

    python bench/archive_refusal.py [--code /path/to/an/older/checkout] [--skip NAME]

The crafted ones are those of issue 38: a 21 KB `.json.gz` of one team of 5,000 players
and a million former players (50 s of CPU before this bench's fix), one of a single
player and a million former players (restored whole before), and lists of a million
fixtures, games and changes, an unpacking bomb and a nesting bomb; and one refused only
once it has been read whole (junk where the setup should be, within every limit).
"""

import argparse
import gzip
import json
import statistics
import sys
import time

import lib  # noqa: F401 - puts the checkout on the path


def crafted(setup: dict) -> dict[str, bytes]:
    """Each crafted archive, of a legal league's setup, gzip-compressed as an upload
    would be."""
    def archive(**parts) -> bytes:
        doc = {"format": "allfives-league/1", "league": setup, "teams": [], "fixtures": []}
        doc.update(parts)
        return gzip.compress(json.dumps(doc).encode(), 9)

    million = ["Gone"] * 1_000_000
    return {
        "5,000 players, a million former": archive(teams=[{
            "name": "T", "players": [f"P{n}" for n in range(5000)], "former": million}]),
        "1 player, a million former": archive(teams=[{"name": "T", "players": ["P"],
                                                      "former": million}]),
        "a million fixtures": archive(fixtures=[{}] * 1_000_000),
        "a card of a million games": archive(fixtures=[{"card": {"games": [{}] * 1_000_000}}]),
        "a million changes": archive(changes=[{}] * 1_000_000),
        "32 MB of spaces": gzip.compress(b" " * (33 << 20), 9),
        "a million brackets": gzip.compress(b"[" * 1_000_000, 9),
        "4 million empty lists as its setup": archive(
            league=[[[]] * 4000 for _ in range(1000)]),
    }


def largest_legal() -> bytes:
    """30 teams of 30 players, their double round robin of 870 fixtures, cards of 21
    singles (blank): the largest league the limits allow (without its records), made
    through the app and exported as its secretary would."""
    import re
    import tempfile

    from scorekeeper import create_app
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False,
                          "RATELIMIT_ENABLED": False, "DATABASE": f"{folder}/l.sqlite",
                          "SECRET_KEY": "bench"})
        client = app.test_client()
        secretary = client.post("/league/new", data={
            "name": "Largest", "season": "1", "games": "S" * 21,
            "scheme": "two_plus_games", "target": "250", "singles_hand": "7",
            "pairs_hand": "5", "teams": "\n".join(f"Team {t}" for t in range(30)),
            "tie_break1": "game_difference"}).headers["Location"]
        for team in re.findall(r"/teams/(\d+)/players", client.get(secretary).text):
            for player in range(30):
                client.post(f"{secretary}/teams/{team}/players",
                            data={"name": f"Player {team}.{player}"})
        client.post(f"{secretary}/fixtures/make", data={"first": "2026-09-01", "every": "7"})
        return client.get(f"{secretary}/season.json.gz").data


def cpu_ms(read, data: bytes, runs: int) -> tuple[float, str]:
    """The median CPU milliseconds of reading `data`, and how it ended."""
    times, ended = [], "accepted"
    for _ in range(runs):
        began = time.process_time()
        try:
            read(data)
        except ValueError as error:
            ended = f"refused: {error}"
        times.append((time.process_time() - began) * 1000)
    return statistics.median(times), ended


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", help="measure this checkout's app instead")
    parser.add_argument("--skip", action="append", default=[],
                        help="leave out the archive of this name (one that takes minutes)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    if args.code:
        sys.path.insert(0, args.code)
    from scorekeeper.services.league.archive import read_season
    legal = largest_legal()
    setup = json.loads(gzip.decompress(legal))["league"]
    archives = {name: data for name, data in crafted(setup).items() if name not in args.skip}
    archives["the largest legal league"] = legal
    print(f"{'archive':36} {'gzip bytes':>10} {'CPU ms':>9}  how it ended")
    for name, data in archives.items():
        spent, ended = cpu_ms(read_season, data, args.runs)
        print(f"{name:36} {len(data):>10,} {spent:>9.1f}  {ended[:70]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
