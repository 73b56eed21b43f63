"""`scorekeeper serve`: the app for the phones on this network, under the production
server (server/serve.py)."""

import click
from flask.cli import with_appcontext

from ..rules.words import N_
from ..server.serve import PortTaken, run
from . import NotStarted
from .console import catalogue, worded


@click.command("serve", help=N_("Serve the app with Granian on every network address of this "
                                "machine and print the addresses the phones should open. "
                                "Creates the instance folder (database, secret key) on first "
                                "start."),
               short_help=N_("serve the app to the phones on this network"))
@click.option("--host", default="0.0.0.0", show_default=True, metavar=N_("ADDRESS"),
              help=N_("address to listen on (0.0.0.0: all)"))
@click.option("--port", type=int, default=8080, show_default=True, metavar=N_("PORT"),
              help=N_("port to listen on"))
@click.option("--workers", type=int, default=None, metavar=N_("NUMBER"),
              help=N_("worker processes, each serving one request at a time (default: one "
                      "more than the cores on Linux; one elsewhere)"))
@with_appcontext  # the app made once here: a store it cannot use is refused in one line
def serve(host: str, port: int, workers: int | None) -> int:
    words = catalogue()
    try:
        run(host, port, workers, words=words)
    except PortTaken as taken:
        raise NotStarted(worded(taken, words)) from None
    return 0
