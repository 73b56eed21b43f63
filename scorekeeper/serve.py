"""`scorekeeper serve`: the app on the pub's network under waitress, guarded against slow clients.

waitress reads requests without tying up a thread, but it keeps a fixed number of
connections and never closes one that trickles a byte now and then. Here a request
must arrive whole within REQUEST_SECONDS, one address may hold at most
CONNECTIONS_PER_ADDRESS connections (a phone needs a few; a proxy in front turns it
off), and bodies far over the app's limit are refused from their Content-Length.
"""

import resource
import sys
import time

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import WSGITask

from .network import is_loopback, lan_addresses

CONNECTION_LIMIT = 1000
REQUEST_SECONDS = 20
IDLE_SECONDS = 60
BODY_CEILING = 1024 * 1024
"""Bodies up to this reach the app, which refuses those over its 256 KB in the reader's
language; larger ones waitress refuses from their Content-Length, before reading them."""


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


class GuardedChannel(HTTPChannel):
    """A connection that notes when its current request began, and refuses to be one too many
    from its address."""

    task_class = KeepAliveTask
    request_began: float | None = None

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
        result = super().received(data)
        if self.request is None:
            self.request_began = None
        return result


class GuardedServer(TcpWSGIServer):
    """waitress's server, closing connections whose request has not arrived within the
    deadline (its own timeout only closes connections that send nothing at all)."""

    channel_class = GuardedChannel

    def __init__(self, *args, per_address: int = 0, request_seconds: float = REQUEST_SECONDS,
                 **kwargs):
        self.per_address = per_address
        self.request_seconds = request_seconds
        super().__init__(*args, **kwargs)

    def maintenance(self, now):
        super().maintenance(now)
        cutoff = time.monotonic() - self.request_seconds
        for channel in list(self.active_channels.values()):
            began = getattr(channel, "request_began", None)
            if began is not None and began < cutoff and not channel.requests:
                channel.will_close = True


def make_server(app, host: str, port: int, threads: int = 8, per_address: int = 32,
                request_seconds: float = REQUEST_SECONDS):
    """The waitress server for `app`, listening on host:port, with the guards above."""
    adj = Adjustments(
        listen=f"{host}:{port}", threads=threads, connection_limit=CONNECTION_LIMIT,
        channel_timeout=IDLE_SECONDS, cleanup_interval=1, asyncore_use_poll=True,
        max_request_body_size=max(BODY_CEILING, app.config["MAX_CONTENT_LENGTH"]), ident="")
    _allow_open_files(CONNECTION_LIMIT + 100)
    socket_map: dict = {}
    servers = [GuardedServer(app, socket_map, adj=adj, sockinfo=sockinfo,
                             per_address=per_address, request_seconds=request_seconds)
               for sockinfo in adj.listen]
    if len(servers) == 1:
        return servers[0]
    listening = [(server.effective_host, server.effective_port) for server in servers]
    return MultiSocketServer(socket_map, adj, listening, servers[0].task_dispatcher,
                             servers[0].log_info)


def _allow_open_files(wanted: int) -> None:
    """Each connection holds a file descriptor: raise the soft limit where the system lets us."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        ceiling = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))


def addresses_to_open(host: str, port: int) -> list[str]:
    """The addresses to print: every LAN address when listening on all of them."""
    if host in ("0.0.0.0", "::", ""):
        return [f"http://{address}:{port}" for address in lan_addresses()]
    return [f"http://{host}:{port}"]


def run(app, host: str, port: int, threads: int, out=sys.stdout) -> None:
    """Serve until interrupted, after saying plainly where the phones should go."""
    per_address = 0 if app.config["PROXIES"] else app.config["CONNECTIONS_PER_ADDRESS"]
    app.config["SHARE_LAN_ADDRESS"] = host in ("0.0.0.0", "::", "")
    server = make_server(app, host, port, threads, per_address)
    port = server.effective_port if hasattr(server, "effective_port") else port
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
    print("Stop it with Ctrl+C.", file=out, flush=True)
    server.run()
