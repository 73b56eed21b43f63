"""The command line: `scorekeeper serve | replay | backup | prune | league-import`.

Each command is a click command, as Flask's own are; `create_app` registers them on the
app's `flask` command line too (`flask --app scorekeeper backup FILE`). A command is
imported only when it runs, so `replay` (pure rules) starts without loading the web app.
"""

import importlib
import sys

import click

from .console import catalogue

COMMANDS = {
    "serve": "serve:serve",
    "replay": "replay:replay",
    "backup": "storage:backup",
    "prune": "storage:prune",
    "league-import": "league:league_import",
}
"""Each command's name and where it is (module of this room : the command)."""
ON_THE_APP = ("serve", "backup", "prune", "league-import")
"""The commands that run on the app (its config and its store), made once they run."""


class NotStarted(click.ClickException):
    """The app cannot start (its store, its port): one line says why, in the console's
    language, and nothing was started."""

    exit_code = 2

    def show(self, file=None) -> None:
        said = catalogue().gettext("scorekeeper: not started: %(why)s") % {"why": self.message}
        click.echo(said, file=file or sys.stderr)


def command(name: str) -> click.Command:
    """The command called `name`, imported now."""
    module, _, attribute = COMMANDS[name].partition(":")
    return getattr(importlib.import_module(f"{__name__}.{module}"), attribute)


def all_commands() -> list[click.Command]:
    return [command(name) for name in COMMANDS]
