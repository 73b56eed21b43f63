"""`scorekeeper serve`: the app on the pub's network under waitress, guarded against slow
clients and against more requests than it can answer.

waitress reads requests without tying up a thread, but it keeps a fixed number of
connections and never closes one that trickles a byte now and then. Here a request
must arrive whole within REQUEST_SECONDS, one address may hold at most
CONNECTIONS_PER_ADDRESS connections (a phone needs a few; a proxy in front turns it
off), and bodies far over the app's limit are refused from their Content-Length.
Past its capacity the server does not let requests queue for seconds: once a request
would wait longer than SHED_AFTER for a thread (the queue ahead of it at the pace the
threads have been going, or the oldest one's wait so far), it is answered 503 with
Retry-After at once, from the network thread, without the app (reads give way first).
Several worker processes share the listening sockets (workers.py).
"""

import socket
import sys
import threading
import time
from types import SimpleNamespace

from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import WSGITask

from . import serve_loop
from .network import is_loopback, lan_addresses
from .workers import default_workers, run_workers

THREADS = 4
"""Threads per worker: the app is mostly CPU, so more would only wait for the interpreter
(and keep the network thread waiting); SQLite's writes wait on the disk without it."""
CONNECTION_LIMIT = 1000
"""Open connections per worker unless --connections says otherwise: every phone and TV
watching a scoreboard keeps one open."""
REQUEST_SECONDS = 20
IDLE_SECONDS = 60
BODY_CEILING = 1024 * 1024
"""Bodies up to this reach the app, which refuses those over its 256 KB in the reader's
language; larger ones waitress refuses from their Content-Length, before reading them."""
SHED_AFTER = {"read": 0.25, "write": 0.5}
"""Seconds the oldest queued request may have waited before a new one is turned away:
a poll or a page (read) sooner than a tap (write), so the taps get the threads."""
RETRY_AFTER = {"read": 5, "write": 2}
"""What a turned-away request is told: a scoreboard polls again later, a tap is sent
again by the phone's tap queue (table.js)."""
SWITCH_SECONDS = 0.001
"""How long a thread running the app may keep the interpreter while another waits for it
(Python's default is 5 ms): the network thread, which reads every request and answers
the busy page, waits for it several times per request."""
PACE_WEIGHT = 0.05
"""Each request's share in the moving average of the time a thread takes to serve one."""
SHED = "scorekeeper.shed"
"""The WSGI environ key carrying a turned-away request's Retry-After seconds."""


def _kind(method: str) -> str:
    return "read" if method in ("GET", "HEAD") else "write"


class KeepAliveTask(WSGITask):
    """waitress closes the connection after every 304 (it has no Content-Length to send);
    an unchanged scoreboard poll should keep its connection like any other answer."""

    def build_response_header(self):
        keep = (self.status.startswith("304") and self.version == "1.1"
                and self.request.headers.get("CONNECTION", "").lower() != "close")
        header = super().build_response_header()
        if keep and self.close_on_finish:
            self.close_on_finish = False
            header = header.replace(b"\r\nConnection: close", b"")
        return header


class GuardedTask(KeepAliveTask):
    """A request turned away carries its Retry-After into the environ, for `_shedding`."""

    def get_environment(self):
        environ = super().get_environment()
        retry_after = getattr(self.request, "retry_after", None)
        if retry_after:
            environ[SHED] = retry_after
        return environ


def _shedding(app, busy):
    """The app, but a request the server turned away gets the busy page instead."""

    def wsgi(environ, start_response):
        retry_after = environ.get(SHED)
        if retry_after:
            return busy(environ, start_response, retry_after)
        return app(environ, start_response)

    return wsgi


class GuardedChannel(HTTPChannel):
    """A connection that notes when its current request began, refuses to be one too many
    from its address, and answers a request the server turns away itself, at once."""

    task_class = GuardedTask
    request_began: float | None = None
    queued_at = 0.0
    reading_thread: int | None = None
    turned_away = False

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map)
        cap = server.per_address
        if cap:
            same = sum(1 for channel in server.active_channels.values()
                       if channel.addr and channel.addr[0] == addr[0])
            if same > cap:
                self.will_close = True

    def received(self, data):
        if self.request is None:
            self.request_began = time.monotonic()
        self.reading_thread = threading.get_ident()
        try:
            result = super().received(data)
        finally:
            self.reading_thread = None
        if self.request is None:
            self.request_began = None
        while self.turned_away:  # the busy page costs microseconds: no thread needed
            self.turned_away = False
            self.service()
        return result

    def service(self):
        """Serve the first request; a worker thread also times it, for the server's pace."""
        turned_away = getattr(self.requests[0], "retry_after", None)
        began = time.monotonic()
        super().service()
        if not turned_away:
            self.server.served(time.monotonic() - began)


STEADY_LOOP = SimpleNamespace(dispatcher=wasyncore.dispatcher, loop=serve_loop.loop)
"""What waitress's servers call their `asyncore`: its dispatcher, and the steady loop."""


class SteadyMultiSocketServer(MultiSocketServer):
    """waitress's server for several listening sockets, on the steady loop."""

    asyncore = STEADY_LOOP


class GuardedServer(TcpWSGIServer):
    """waitress's server, closing connections whose request has not arrived within the
    deadline (its own timeout only closes connections that send nothing at all)."""

    channel_class = GuardedChannel
    asyncore = STEADY_LOOP

    def __init__(self, *args, per_address: int = 0, request_seconds: float = REQUEST_SECONDS,
                 shed_after: dict = SHED_AFTER, **kwargs):
        self.per_address = per_address
        self.request_seconds = request_seconds
        self.shed_after = shed_after
        self.service_seconds = 0.0
        super().__init__(*args, **kwargs)

    def add_task(self, channel):
        """Queue the channel's next request for a thread, or turn it away if the queue is
        too old; only while the network thread reads it (it then answers it itself)."""
        request = channel.requests[0]
        kind = _kind(request.command)
        if (channel.reading_thread == threading.get_ident()
                and self.expected_wait() > self.shed_after[kind]):
            request.retry_after = RETRY_AFTER[kind]
            channel.turned_away = True
            return
        channel.queued_at = time.monotonic()
        super().add_task(channel)

    def served(self, seconds: float) -> None:
        """A request took this long in a thread: the moving average behind the pace."""
        self.service_seconds += (seconds - self.service_seconds) * PACE_WEIGHT

    def expected_wait(self) -> float:
        """How long a request queued now would wait for a thread: the queue ahead of it at
        the pace the threads take requests, or the oldest one's wait so far if longer."""
        queue = self.task_dispatcher.queue
        try:
            oldest = time.monotonic() - queue[0].queued_at
        except IndexError:
            return 0.0
        return max(oldest, len(queue) * self.service_seconds / self.adj.threads)

    def maintenance(self, now):
        super().maintenance(now)
        cutoff = time.monotonic() - self.request_seconds
        for channel in list(self.active_channels.values()):
            began = getattr(channel, "request_began", None)
            if began is not None and began < cutoff and not channel.requests:
                channel.will_close = True


def listening_sockets(host: str, port: int) -> list[socket.socket]:
    """The sockets the server listens on, opened before any worker starts: each worker then
    accepts connections from the same ones."""
    adj = Adjustments(listen=f"{host}:{port}")
    sockets = []
    for family, kind, proto, address in adj.listen:
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
        sock.listen(adj.backlog)
        sockets.append(sock)
    return sockets


def make_server(app, host: str = "127.0.0.1", port: int = 0, threads: int = THREADS,
                per_address: int = 32, request_seconds: float = REQUEST_SECONDS,
                sockets: list[socket.socket] | None = None, shed_after: dict = SHED_AFTER,
                connections: int = CONNECTION_LIMIT):
    """The waitress server for `app` on `sockets` (else on host:port), with the guards above."""
    from .web.busy import busy_pages

    sockets = sockets or listening_sockets(host, port)
    adj = Adjustments(
        sockets=sockets, threads=threads, connection_limit=connections,
        channel_timeout=IDLE_SECONDS, cleanup_interval=1, asyncore_use_poll=True,
        max_request_body_size=max(BODY_CEILING, app.config["MAX_CONTENT_LENGTH"]), ident="")
    _allow_open_files(connections + 100)
    wsgi = _shedding(app, busy_pages(app))
    socket_map: dict = {}
    servers = [GuardedServer(wsgi, socket_map, adj=adj, _sock=sock, bind_socket=False,
                             sockinfo=(sock.family, sock.type, sock.proto, sock.getsockname()),
                             per_address=per_address, request_seconds=request_seconds,
                             shed_after=shed_after)
               for sock in sockets]
    if len(servers) == 1:
        return servers[0]
    listening = [(server.effective_host, server.effective_port) for server in servers]
    return SteadyMultiSocketServer(socket_map, adj, listening, servers[0].task_dispatcher,
                                   servers[0].log_info)


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


def addresses_to_open(host: str, port: int) -> list[str]:
    """The addresses to print: every LAN address when listening on all of them."""
    if host in ("0.0.0.0", "::", ""):
        return [f"http://{address}:{port}" for address in lan_addresses()]
    return [f"http://{host}:{port}"]


def run(app, host: str, port: int, threads: int | None = None, workers: int | None = None,
        connections: int | None = None, out=sys.stdout) -> None:
    """Serve until interrupted, after saying plainly where the phones should go."""
    threads = threads or THREADS
    connections = connections or CONNECTION_LIMIT
    per_address = 0 if app.config["PROXIES"] else app.config["CONNECTIONS_PER_ADDRESS"]
    app.config["SHARE_LAN_ADDRESS"] = host in ("0.0.0.0", "::", "")
    sockets = listening_sockets(host, port)
    port = sockets[0].getsockname()[1]
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
    workers = default_workers() if workers is None else workers
    print(f"{workers} worker process{'es' if workers > 1 else ''} of {threads} threads. "
          "Stop it with Ctrl+C.", file=out, flush=True)

    def serve():
        sys.setswitchinterval(SWITCH_SECONDS)
        make_server(app, threads=threads, per_address=per_address, sockets=sockets,
                    connections=connections).run()

    run_workers(serve, workers)
