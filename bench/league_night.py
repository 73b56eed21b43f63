"""League night over HTTP: 50 tables scoring at once against the production server.

The app runs in a subprocess on 127.0.0.1 under the README's command,
`scorekeeper serve` (or, with `--server waitress`, plain `waitress-serve
--threads=8 --connection-limit=500 --call scorekeeper:create_app`), with a
scratch database; this process is the load generator. Each phone connects from
its own loopback address (127.1.x.y), as each phone on a pub's Wi-Fi has its own. For each table:

* one scorer makes one tap every ~2 s with the requests the browser sends: an
  htmx POST (HX-Request: true) of csrf_token, pos and the button's field
  (move=6-3@L, seat=N, pips_N, or nothing for Draw/Pass). The tap is decided by
  the simulation (a RandomTable per table, on this side, holding the real
  hidden tiles); the lay is checked to be one of the buttons the last response
  offered, and every answer must be 200 with pos one higher than before;
* 3 scoreboard viewers poll GET /board/<id>/<view_key> every 2 s with
  HX-Request: true and If-None-Match from the last ETag, as htmx polling does.

Tables start part-way through a match (imported from a record the simulation
played, untimed), so logs have a league night's lengths; a table whose match
ends starts a new one. In the same run two floor clients fetch trivial
endpoints: GET /static/app.css (the floor the targets compare with) and
GET /rules (a template render without the database).

With --league, every table instead plays one game of tonight's cards of a league set
up over HTTP (teams, rosters, fixtures; each game lined up and started from its card,
then scored through the card's scoring link), and --public-viewers people (150) poll
the public league page's live part every ~2 s with HX-Request: true (the page itself
polls every 15 s: a stricter load).

A scorer or viewer that the busy server turns away (503, Retry-After) waits as the
phone would (table.js, app.js) and sends again; every 503 counts as an error, and the
report gives how fast they were answered. With more than 200 tables the clients run in
several forked processes (--generators), so that the load generator is not the
bottleneck; its CPU is reported beside the server's (all worker processes).

Before the run, with nothing else running, the machine alone is timed for 5 s
(bench/lib/stalls.py, --stall-seconds): a shared virtual machine whose host takes its cores
away now and then makes every request in hand that much slower, and its 99th
percentiles with it; the report gives that figure beside the night's.

With --postgres the served app stores the night in PostgreSQL (a throw-away cluster started
for the run, as the tests start it); --database-url URL names one of your own instead.

    python bench/league_night.py [--seconds 60] [--tables 50] [--workers N] [--league]
                                 [--profile] [--postgres | --database-url postgresql://...]
"""

import argparse
import json

from lib.common import RESULTS, write_results
from lib.in_process import check_304_without_rebuild, profile_in_process
from lib.league import run_night
from lib.league_report import night_result, print_night
from lib.server import throwaway_postgres
from lib.stalls import describe as describe_stalls
from lib.stalls import machine_stalls

MAX_TABLES = 800
TABLES_PER_GENERATOR = 200
"""One Python process drives about this many tables (800 clients) without falling behind."""


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60, help="measured time (default 60)")
    parser.add_argument("--warmup", type=float, default=5, help="unmeasured start (default 5)")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--viewers", type=int, default=3, help="scoreboard viewers per table")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between taps/polls")
    parser.add_argument("--floor-interval", type=float, default=0.5)
    parser.add_argument("--server", choices=("serve", "waitress"), default="serve",
                        help="`scorekeeper serve` (the README's) or plain waitress-serve")
    parser.add_argument("--threads", type=int, default=None,
                        help="--server waitress: its threads (default 8)")
    parser.add_argument("--workers", type=int, default=None,
                        help="`scorekeeper serve --workers` (default: its own, one more "
                             "than the cores)")
    parser.add_argument("--generators", type=int, default=None,
                        help="load generator processes (default: one per 200 tables)")
    parser.add_argument("--connection-limit", type=int, default=500,
                        help="--server waitress: --connection-limit (waitress's own "
                             "default, 100, is too few for 200 polling phones)")
    parser.add_argument("--fresh-start", action="store_true",
                        help="start every table at a new match instead of part-way through")
    parser.add_argument("--stall-seconds", type=float, default=5,
                        help="first time how much the machine alone stalls, for this long "
                             "(bench/lib/stalls.py; 0: not at all)")
    parser.add_argument("--timeout", type=float, default=15, help="client socket timeout")
    parser.add_argument("--league", action="store_true",
                        help="every table plays a game of tonight's league cards, started "
                             "from its card; people also follow the public league page")
    parser.add_argument("--public-viewers", type=int, default=150,
                        help="with --league: people polling the public league page")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true",
                        help="only profile taps and polls in-process (cProfile, CPU time)")
    parser.add_argument("--app", default="scorekeeper:create_app",
                        help="--server waitress: the app factory it calls (A/B experiments)")
    parser.add_argument("--name", default="league_night", help="results file name")
    store = parser.add_mutually_exclusive_group()
    store.add_argument("--postgres", action="store_true",
                       help="store in a throw-away PostgreSQL cluster started for the run")
    store.add_argument("--database-url", metavar="URL",
                       help="store in this PostgreSQL database (SCOREKEEPER_DATABASE_URL)")
    args = parser.parse_args(argv)
    if not (0 < args.seconds <= 3600 and 0 < args.tables <= MAX_TABLES
            and 0 <= args.viewers <= 10 and 0 <= args.public_viewers <= 500
            and args.interval >= 0.1 and args.floor_interval >= 0.05):
        parser.error(f"keep it bounded: seconds ≤ 3600, tables ≤ {MAX_TABLES}, viewers ≤ 10, "
                     "public viewers ≤ 500, interval ≥ 0.1 s")
    if args.generators is None:
        args.generators = -(-args.tables // TABLES_PER_GENERATOR)
    return args


def measure(args, argv=None) -> dict:
    """One night: the unchanged-poll check, the run, its printed report and JSON file."""
    stalls = machine_stalls(args.stall_seconds) if args.stall_seconds else None
    if stalls:
        print(describe_stalls(stalls))
    check = check_304_without_rebuild()
    print(f"unchanged poll: status {check['unchanged_status']}, rebuilds {check['rebuilds']}, "
          f"templates rendered {check['templates_rendered']}")
    with throwaway_postgres(args.postgres) as url:
        args.database_url = args.database_url or url
        result = night_result(args, run_night(args), check, argv)
    result["machine_stalls"] = stalls
    print_night(args, result)
    write_results(args.name, result)
    return result


def main(argv=None) -> int:
    args = parse_args(argv)
    RESULTS.mkdir(parents=True, exist_ok=True)
    if args.profile:
        print(json.dumps(profile_in_process(min(args.tables, 10), 30, args.seed), indent=2))
        return 0
    measure(args, argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
