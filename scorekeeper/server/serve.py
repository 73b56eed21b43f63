"""`scorekeeper serve`: the app on the pub's network, one worker process per core and one
more, guarded against slow clients and against more requests than it can answer.

Each worker serves with Granian's compiled (Rust) HTTP core, embedded in its event loop:
it holds every phone's kept-alive connection and parses HTTP without the Python
interpreter, which a pure-Python server spent nearly half of its CPU on. A request's
head must arrive within REQUEST_SECONDS; the rest, the body, the queue and the busy
page, is gateway.py's. A worker serves one request at a time, with its own caches and
database connection (everything the app keeps per process is keyed by a match's
revision, so it stays right whichever worker a phone reaches), and listens on the port
with a socket of its own (SO_REUSEPORT: the system shares the connections out). The
first process starts them, starts again one that ends and stops them (supervise.py).
"""

import asyncio
import contextlib
import functools
import gc
import gettext
import importlib
import logging
import os
import signal
import socket
import sys

from ..rules.errors import Refusal
from ..rules.words import N_
from ..web.answers.network import is_loopback, lan_addresses
from .gateway import REQUEST_SECONDS
from .memory import JEMALLOC
from .supervise import Supervisor

SWITCH_SECONDS = 0.001
"""How long the app may keep the interpreter while Granian's own thread waits for it to
hand over a request that has arrived (Python's default is 5 ms): the queue, and who is
turned away, are then decided on time."""
CONNECTIONS = 4000
"""Connections one worker serves at once: every phone and TV watching a scoreboard keeps
one open, and an idle one costs Granian a few kilobytes and no thread."""
BACKLOG = 2048
"""Connections the system may hold for the workers to accept (capped by its somaxconn)."""
ENGLISH = gettext.NullTranslations()
LOG_LEVEL = "warning"
"""Granian's own lines: its warnings and errors, not a line per worker started."""


def default_workers() -> int:
    """One worker more than the cores: each serves one request at a time, and while one
    waits on the disk or the database another has the core (docs/PERFORMANCE.md §5).
    Only Linux shares a port's connections out between the workers' sockets: elsewhere
    (a pub's Windows or macOS laptop) one worker, which holds a pub's night."""
    if not sys.platform.startswith("linux"):
        return 1
    return (os.cpu_count() or 1) + 1


def listens_everywhere(host: str) -> bool:
    return host in ("0.0.0.0", "::", "")


def addresses_to_open(host: str, port: int) -> list[str]:
    """The addresses to print: every LAN address when listening on all of them."""
    if listens_everywhere(host):
        return [f"http://{address}:{port}" for address in lan_addresses()]
    bare = host.strip("[]")
    return [f"http://[{bare}]:{port}" if ":" in bare else f"http://{bare}:{port}"]


def gateway_for(app, **options):
    """The RSGI app Granian calls: `app` behind its gateway, with the server's own pages
    (busy, too slow, too large) rendered; no body read past the app's own limit; its heavy
    work served on a thread."""
    from ..web.answers.heavy import is_heavy
    from .gateway import BODY_CEILING, Gateway
    from .pages import server_pages

    options.setdefault("body_ceiling", app.config.get("MAX_CONTENT_LENGTH") or BODY_CEILING)
    return Gateway(app, server_pages(app), heavy=functools.partial(is_heavy, app), **options)


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


def serve_worker(number: int, host: str, port: int, workers: int,
                 target: str = "scorekeeper:create_app") -> None:
    """One worker process: its own app at its gate, served by Granian's embedded server on
    this process's event loop, until it is told to stop (SIGTERM, or Ctrl+C's SIGINT)."""
    for told in (signal.SIGINT, signal.SIGTERM):  # while the app loads, nothing is served:
        signal.signal(told, lambda *_: os._exit(0))  # stopping is ending, at once
    logging.getLogger("_granian").addFilter(_known_advice)
    gateway = worker_gateway(target, workers)
    asyncio.run(_serve(gateway, host, port))


async def _serve(gateway, host: str, port: int) -> None:
    """HTTP/1.1 (browsers speak it over plain http), no websockets, heads that must arrive
    in time; a stop lets the requests in hand finish."""
    from granian.constants import HTTPModes, Interfaces
    from granian.http import HTTP1Settings
    from granian.server.embed import Server

    server = Server(gateway, address=host, port=port, interface=Interfaces.RSGI,
                    http=HTTPModes.http1, websockets=False, backlog=BACKLOG,
                    backpressure=CONNECTIONS, log_level=LOG_LEVEL,
                    http1_settings=HTTP1Settings(header_read_timeout=REQUEST_SECONDS * 1000))
    loop = asyncio.get_running_loop()
    for told in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(told, server.stop)
        except NotImplementedError:  # Windows' event loop
            signal.signal(told, lambda *_: loop.call_soon_threadsafe(server.stop))
    await server.serve()
    _second_signal_ends(loop)


def _second_signal_ends(loop) -> None:
    """Once serving has stopped, another stop signal ends the process at once. Ctrl+C
    reaches the whole process group and the supervisor passes a stop on too: a second
    signal used to reach the event loop's wake-up pipe as the loop closed it ("Exception
    ignored when trying to write to the signal wakeup fd")."""
    told = {signal.SIGINT, signal.SIGTERM}
    masking = hasattr(signal, "pthread_sigmask")  # not on Windows
    if masking:
        signal.pthread_sigmask(signal.SIG_BLOCK, told)
    for each in told:
        with contextlib.suppress(NotImplementedError):  # Windows' event loop
            loop.remove_signal_handler(each)
        signal.signal(each, lambda *_: os._exit(0))
    if masking:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, told)


def _known_advice(record: logging.LogRecord) -> bool:
    """Granian calls its embedded server experimental at every worker's start: it is what
    its documentation offers a project that manages its own processes (ours: supervise.py),
    and tests/test_serve_workers.py holds it to what the server needs."""
    return not record.getMessage().startswith("Embedded server is experimental")


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
    if sys.platform == "win32" and workers > 1:  # no SO_REUSEPORT: one socket, one worker
        print(words.gettext("Windows serves with one worker process."), file=out)
        workers = 1
    port = claim(host, port)
    # every worker's app reads its settings from the environment, as this one did
    os.environ["SCOREKEEPER_SHARE_LAN_ADDRESS"] = "true" if listens_everywhere(host) else "false"
    for line in where_to_go(host, port, workers, words):
        print(line, file=out)
    out.flush()
    _allow_open_files(workers * CONNECTIONS + 100)
    os.environ.setdefault("_RJEM_MALLOC_CONF", JEMALLOC)  # read by each worker's Granian
    Supervisor(functools.partial(serve_worker, host=host, port=port, workers=workers),
               workers).run()
    print(words.gettext("All Fives scorekeeper has stopped."), file=out, flush=True)


def where_to_go(host: str, port: int, workers: int, words=ENGLISH) -> list[str]:
    """What the server says when it starts: the addresses the phones open, and how to stop."""
    urls = [f"    {url}" for url in addresses_to_open(host, port)]
    if is_loopback(host):
        lines = [words.gettext("All Fives scorekeeper is running for this machine only; the "
                               "phones at the table cannot reach it. On this machine, open:"),
                 *urls,
                 words.gettext("For the phones, start it with --host 0.0.0.0 (the default), or "
                               "put a web server on this machine in front of it "
                               "(docs/DEPLOY.md).")]
    elif urls:
        lines = [words.gettext("All Fives scorekeeper is running. On the phones at the table, "
                               "open:"), *urls]
    else:
        lines = [words.gettext("All Fives scorekeeper is running, but this machine has no "
                               "network address: connect it to the Wi-Fi and start it again.")]
    if listens_everywhere(host):
        lines.append(words.gettext("(On this machine itself: %(address)s)") % {
            "address": f"http://127.0.0.1:{port}"})
    lines.append(words.ngettext("%(num)s worker process. Stop it with Ctrl+C.",
                                "%(num)s worker processes. Stop it with Ctrl+C.",
                                workers) % {"num": workers})
    return lines


class PortTaken(Refusal):
    """Another program, or another scorekeeper, listens on the port."""

    kind = "port_taken"


def claim(host: str, port: int) -> int:
    """The port the workers will share, once no one else listens on it (they would share
    its connections with whoever does); a free one for port 0."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            raise PortTaken.worded(N_("cannot listen on %(host)s port %(port)s (%(why)s): "
                                      "another program uses it; stop it, or choose another "
                                      "with --port"), "port_taken", host=host, port=port,
                                   why=error.strerror) from None
        return probe.getsockname()[1]
