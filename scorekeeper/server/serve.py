"""`scorekeeper serve`: the app on the pub's network under Granian, one worker process per
core, guarded against slow clients and against more requests than it can answer.

Granian's core is compiled (Rust): it holds every phone's kept-alive connection and
parses HTTP without the Python interpreter, which a pure-Python server spent nearly half
of its CPU on. A request's head must arrive within REQUEST_SECONDS; the rest, the body,
the queue and the busy page, is gateway.py's. Each worker is a process serving one
request at a time, with its own caches and database connection (everything the app keeps
per process is keyed by a match's revision, so it stays right whichever worker a phone
reaches); Granian starts them, shares the listening socket between them and replaces one
that dies.
"""

import functools
import gc
import gettext
import importlib
import logging
import os
import sys

from ..web.network import is_loopback, lan_addresses
from .gateway import REQUEST_SECONDS

SWITCH_SECONDS = 0.001
"""How long the app may keep the interpreter while Granian's own thread waits for it to
hand over a request that has arrived (Python's default is 5 ms): the queue, and who is
turned away, are then decided on time."""
CONNECTIONS = 4000
"""Connections one worker serves at once: every phone and TV watching a scoreboard keeps
one open, and an idle one costs Granian a few kilobytes and no thread."""
BACKLOG = 2048
"""Connections the system may hold for the workers to accept (capped by its somaxconn)."""
STOP_SECONDS = 3
"""A stopped worker finishes the requests in hand within this, or is killed (a stop that
arrives while a worker is being started can miss it)."""
ENGLISH = gettext.NullTranslations()
LOG_LEVEL = "warning"
"""Granian's own lines: its warnings and errors, not a line per worker started."""


def default_workers() -> int:
    """One worker more than the cores: each serves one request at a time, and while one
    waits on the disk or the database another has the core (docs/PERFORMANCE.md §5)."""
    return (os.cpu_count() or 1) + 1


def listens_everywhere(host: str) -> bool:
    return host in ("0.0.0.0", "::", "")


def addresses_to_open(host: str, port: int) -> list[str]:
    """The addresses to print: every LAN address when listening on all of them."""
    if listens_everywhere(host):
        return [f"http://{address}:{port}" for address in lan_addresses()]
    return [f"http://{host}:{port}"]


def gateway_for(app, **options):
    """The RSGI app Granian calls: `app` behind its gateway, with the server's own pages
    (busy, too slow, too large) rendered."""
    from .gateway import Gateway
    from .pages import server_pages

    return Gateway(app, server_pages(app), **options)


def load_factory(target: str):
    """The app factory a target names (`package.module:function`), imported in the worker."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def worker_gateway(target: str, workers: int):
    """What each worker process serves: its own app (`target`, a factory) at its gate, its
    share of the busy target being the cores it has among the workers."""
    from .admission import BUSY_TARGET, Admission

    sys.setswitchinterval(SWITCH_SECONDS)
    share = BUSY_TARGET * min(1.0, (os.cpu_count() or 1) / workers)
    gateway = gateway_for(load_factory(target)(), admission=Admission(share))
    # What the app set up at start lives as long as the worker: the collector need not
    # look through it again, and its full collections take a third of the time.
    gc.collect()
    gc.freeze()
    return gateway


def granian_server(host: str, port: int, workers: int,
                   target: str = "scorekeeper:create_app"):
    """Granian, set for a pub: HTTP/1.1 (browsers speak it over plain http), no websockets,
    heads that must arrive in time, workers replaced when they die."""
    from granian.constants import HTTPModes, Interfaces
    from granian.http import HTTP1Settings
    from granian.server import Server

    _allow_open_files(workers * CONNECTIONS + 100)
    logging.getLogger("_granian").addFilter(_not_more_workers_than_cores_advice)
    server = Server(target, address=host, port=port, interface=Interfaces.RSGI,
                    workers=workers, http=HTTPModes.http1, websockets=False,
                    backlog=BACKLOG, backpressure=CONNECTIONS,
                    http1_settings=HTTP1Settings(header_read_timeout=REQUEST_SECONDS * 1000),
                    respawn_failed_workers=True, respawn_interval=1.0,
                    workers_kill_timeout=STOP_SECONDS, log_level=LOG_LEVEL)
    loader = functools.partial(worker_gateway, workers=workers)
    return server, loader


def _not_more_workers_than_cores_advice(record: logging.LogRecord) -> bool:
    """Granian advises threads rather than more workers than cores at every start; here a
    worker serves one request at a time, and the one more is deliberate."""
    return not record.getMessage().startswith("Configured number of workers appears")


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


def run(host: str, port: int, workers: int | None = None, out=sys.stdout,
        words: gettext.NullTranslations = ENGLISH) -> None:
    """Serve until interrupted, after saying plainly where the phones should go, in the
    words of `words` (the console's catalogue, commands/console.py)."""
    workers = default_workers() if workers is None else workers
    # every worker's app reads its settings from the environment, as this one did
    os.environ["SCOREKEEPER_SHARE_LAN_ADDRESS"] = "true" if listens_everywhere(host) else "false"
    for line in where_to_go(host, port, workers, words):
        print(line, file=out)
    out.flush()
    server, loader = granian_server(host, port, workers)
    server.serve(target_loader=loader)


def where_to_go(host: str, port: int, workers: int, words=ENGLISH) -> list[str]:
    """What the server says when it starts: the addresses the phones open, and how to stop."""
    urls = addresses_to_open(host, port)
    if urls:
        lines = [words.gettext("All Fives scorekeeper is running. On the phones at the table, "
                               "open:"), *(f"    {url}" for url in urls)]
    else:
        lines = [words.gettext("All Fives scorekeeper is running, but this machine has no "
                               "network address: connect it to the Wi-Fi and start it again.")]
    if not is_loopback(host):
        lines.append(words.gettext("(On this machine itself: %(address)s)") % {
            "address": f"http://127.0.0.1:{port}"})
    lines.append(words.ngettext("%(num)s worker process. Stop it with Ctrl+C.",
                                "%(num)s worker processes. Stop it with Ctrl+C.",
                                workers) % {"num": workers})
    return lines
