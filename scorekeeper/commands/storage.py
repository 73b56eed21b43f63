"""The store from the command line: `backup` the SQLite file, `prune` old matches."""

import os
import re
import sqlite3

import click
from flask import current_app
from flask.cli import with_appcontext

from ..services import matches
from ..storage import backup as backup_file
from ..web.work import app_unit_of_work

_AGE = re.compile(r"(\d{1,5})d")


@click.command("backup")
@click.argument("target", type=click.Path(dir_okay=False, writable=True))
@with_appcontext
def backup(target: str) -> None:
    """Write a consistent copy of the SQLite match database to TARGET (safe while serving)."""
    if current_app.config.get("DATABASE_URL"):
        raise click.ClickException("backup copies the SQLite file; these matches are in "
                                   "PostgreSQL: back them up with pg_dump (docs/DEPLOY.md)")
    if os.path.exists(target):
        raise click.ClickException(f"{target} exists: choose a new file name")
    try:
        backup_file(current_app.config["DATABASE"], target)
    except sqlite3.Error as error:
        raise click.ClickException(f"cannot write {target}: {error}") from None
    click.echo(f"Backed up {current_app.config['DATABASE']} to {target}")


@click.command("prune")
@click.option("--older-than", "age", required=True, metavar="DAYSd",
              help="delete matches last played more than this many days ago, e.g. 90d")
@with_appcontext
def prune(age: str) -> None:
    """Delete every match (and its log) not played for the given number of days."""
    found = _AGE.fullmatch(age.strip())
    if found is None:
        raise click.BadParameter("give a number of days, like 90d", param_hint="--older-than")
    uow = app_unit_of_work(current_app)
    try:
        count = matches.prune(uow, int(found.group(1)))
    finally:
        uow.close()
    click.echo(f"Deleted {count} match{'es' if count != 1 else ''} not played for "
               f"{found.group(1)} days.")
