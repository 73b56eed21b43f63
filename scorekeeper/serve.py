"""`scorekeeper serve`: the app on the pub's network under Granian, one worker process per
core, guarded against slow clients and against more requests than it can answer.

Granian's core is compiled (Rust): it holds every phone's kept-alive connection and
parses HTTP without the Python interpreter, which a pure-Python server spent nearly half
of its CPU on. A request's head must arrive within REQUEST_SECONDS; the rest, the body,
the thread and the busy page, is gateway.py's. Each worker is a process with its own
threads, caches and database connections (everything the app keeps per process is keyed
by a match's revision, so it stays right whichever worker a phone reaches); Granian
starts them, shares the listening socket between them and replaces one that dies.
"""

import functools
import os
import sys

from .gateway import REQUEST_SECONDS
from .network import is_loopback, lan_addresses

THREADS = 2
"""App threads per worker: the app is mostly CPU, so more only wait for the interpreter
(4 gave a worse p99 than 2 at 200 and 400 tables); a second one serves while the first
waits on the disk or the database."""
SWITCH_SECONDS = 0.001
"""How long a thread running the app may keep the interpreter while another waits for it
(Python's default is 5 ms): the event loop, which reads every request and answers the
busy page, waits for it several times per request."""
CONNECTIONS = 4000
"""Connections one worker serves at once: every phone and TV watching a scoreboard keeps
one open, and an idle one costs Granian a few kilobytes and no thread."""
BACKLOG = 2048
"""Connections the system may hold for the workers to accept (capped by its somaxconn)."""
STOP_SECONDS = 3
"""A stopped worker finishes the requests in hand within this, or is killed (a stop that
arrives while a worker is being started can miss it)."""
LOG_LEVEL = "warning"
"""Granian's own lines: its warnings and errors, not a line per worker started."""


def default_workers() -> int:
    """One worker per core (Granian serves from one process where it cannot start more)."""
    return os.cpu_count() or 1


def listens_everywhere(host: str) -> bool:
    return host in ("0.0.0.0", "::", "")


def addresses_to_open(host: str, port: int) -> list[str]:
    """The addresses to print: every LAN address when listening on all of them."""
    if listens_everywhere(host):
        return [f"http://{address}:{port}" for address in lan_addresses()]
    return [f"http://{host}:{port}"]


def gateway_for(app, threads: int = THREADS, **options):
    """The RSGI app Granian calls: `app` behind its gateway, with the busy page rendered."""
    from .gateway import Gateway
    from .web.busy import busy_pages

    return Gateway(app, busy_pages(app), threads, **options)


def worker_gateway(target: str, threads: int):
    """What each worker process serves: its own app (`target`, a factory) at its gate."""
    from granian._internal import load_target

    sys.setswitchinterval(SWITCH_SECONDS)
    return gateway_for(load_target(target, factory=True), threads)


def granian_server(host: str, port: int, threads: int, workers: int,
                   target: str = "scorekeeper:create_app"):
    """Granian, set for a pub: HTTP/1.1 (browsers speak it over plain http), no websockets,
    heads that must arrive in time, workers replaced when they die."""
    from granian.constants import HTTPModes, Interfaces
    from granian.http import HTTP1Settings
    from granian.server import Server

    _allow_open_files(workers * CONNECTIONS + 100)
    server = Server(target, address=host, port=port, interface=Interfaces.RSGI,
                    workers=workers, http=HTTPModes.http1, websockets=False,
                    backlog=BACKLOG, backpressure=CONNECTIONS,
                    http1_settings=HTTP1Settings(header_read_timeout=REQUEST_SECONDS * 1000),
                    respawn_failed_workers=True, respawn_interval=1.0,
                    workers_kill_timeout=STOP_SECONDS, log_level=LOG_LEVEL)
    loader = functools.partial(worker_gateway, threads=threads)
    return server, loader


def _allow_open_files(wanted: int) -> None:
    """Each connection holds a file descriptor: raise the soft limit where the system lets us
    (Windows has no such limit, nor the module)."""
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        ceiling = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))


def run(host: str, port: int, threads: int | None = None, workers: int | None = None,
        out=sys.stdout) -> None:
    """Serve until interrupted, after saying plainly where the phones should go."""
    threads = threads or THREADS
    workers = default_workers() if workers is None else workers
    # every worker's app reads its settings from the environment, as this one did
    os.environ["SCOREKEEPER_SHARE_LAN_ADDRESS"] = "true" if listens_everywhere(host) else "false"
    urls = addresses_to_open(host, port)
    if urls:
        print("All Fives scorekeeper is running. On the phones at the table, open:", file=out)
        for url in urls:
            print(f"    {url}", file=out)
    else:
        print("All Fives scorekeeper is running, but this machine has no network address: "
              "connect it to the Wi-Fi and start it again.", file=out)
    if not is_loopback(host):
        print(f"(On this machine itself: http://127.0.0.1:{port})", file=out)
    print(f"{workers} worker process{'es' if workers > 1 else ''} of {threads} threads. "
          "Stop it with Ctrl+C.", file=out, flush=True)
    server, loader = granian_server(host, port, threads, workers)
    server.serve(target_loader=loader)
