"""The `scorekeeper` console script: the commands of `commands/`, and the app factory
that the commands that need an app run on."""

import sys

import click

from .commands import COMMANDS, ON_THE_APP, NotStarted, command
from .commands.console import catalogue, worded
from .commands.spoken import speak, spoken
from .rules.words import N_


def _checked_app():
    """The app made by `create_app`, or NotStarted when its storage refuses it."""
    from . import create_app
    from .storage import StorageRefused

    try:
        return create_app()
    except StorageRefused as error:
        raise NotStarted(worded(error, catalogue())) from None


class Commands(click.Group):
    """The commands, each imported when it runs: `replay` loads no Flask."""

    def list_commands(self, context: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, context: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        if name in ON_THE_APP and context.obj is None:
            from flask.cli import ScriptInfo

            context.obj = ScriptInfo(create_app=_checked_app, set_debug_flag=False)
        return spoken(command(name), catalogue())


commands = Commands("scorekeeper", help=N_("All Fives (Muggins) scorekeeper tools."))


def main(argv=None) -> int:
    """Run one command in the reader's language, its help and click's words included; its
    exit status (the console script exits with it)."""
    words = catalogue()
    speak(words)
    try:
        done = spoken(commands, words).main(args=argv, prog_name="scorekeeper",
                                            standalone_mode=False)
    except click.ClickException as error:
        error.show()
        return error.exit_code
    except click.Abort:
        click.echo(words.gettext("Aborted!"), err=True)
        return 1
    return done if isinstance(done, int) else 0


if __name__ == "__main__":
    sys.exit(main())
