"""The store from the command line: `backup` the SQLite file, `prune` old matches."""

import os
import re
import sqlite3

import click
from flask import current_app
from flask.cli import with_appcontext

from ..rules.words import N_
from ..services import matches
from ..storage import backup as backup_file
from ..web.answers.work import app_unit_of_work
from .console import catalogue

_AGE = re.compile(r"(\d{1,5})d")


@click.command("backup", help=N_("Write a consistent copy of the SQLite match database to "
                                 "FILE (safe while serving)."),
               short_help=N_("copy the SQLite match database to a file"))
@click.argument("target", metavar=N_("FILE"), type=click.Path(dir_okay=False, writable=True))
@with_appcontext
def backup(target: str) -> None:
    words = catalogue()
    if current_app.config.get("DATABASE_URL"):
        raise click.ClickException(words.gettext(
            "backup copies the SQLite file; these matches are in PostgreSQL: back them up "
            "with pg_dump (docs/DEPLOY.md)"))
    if os.path.exists(target):
        raise click.ClickException(words.gettext("%(file)s exists: choose a new file name")
                                   % {"file": target})
    try:
        backup_file(current_app.config["DATABASE"], target)
    except sqlite3.Error as error:
        raise click.ClickException(words.gettext("cannot write %(file)s: %(why)s") % {
            "file": target, "why": error}) from None
    click.echo(words.gettext("Backed up %(database)s to %(file)s") % {
        "database": current_app.config["DATABASE"], "file": target})


@click.command("prune", help=N_("Delete every match (and its log) not played for the given "
                                "number of days."),
               short_help=N_("delete the matches not played for some days"))
@click.option("--older-than", "age", required=True, metavar=N_("DAYSd"),
              help=N_("delete matches last played more than this many days ago, e.g. 90d"))
@with_appcontext
def prune(age: str) -> None:
    words = catalogue()
    found = _AGE.fullmatch(age.strip())
    if found is None:
        raise click.BadParameter(words.gettext("give a number of days, like 90d"),
                                 param_hint="--older-than")
    days = int(found.group(1))
    uow = app_unit_of_work(current_app)
    try:
        count = matches.prune(uow, days)
    finally:
        uow.close()
    not_played = words.ngettext("not played for %(num)s day", "not played for %(num)s days",
                                days) % {"num": days}
    click.echo(words.ngettext("Deleted %(num)s match %(not_played)s.",
                              "Deleted %(num)s matches %(not_played)s.", count)
               % {"num": count, "not_played": not_played})
