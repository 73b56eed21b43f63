"""`flask --app scorekeeper prune --older-than 90d`: matches nobody has played for a while go."""

import re

import click
from flask import current_app
from flask.cli import with_appcontext

from .db import connect, location
from .services import matches
from .services.unit_of_work import UnitOfWork

_AGE = re.compile(r"(\d{1,5})d")


@click.command("prune")
@click.option("--older-than", "age", required=True, metavar="DAYSd",
              help="delete matches last played more than this many days ago, e.g. 90d")
@with_appcontext
def prune_command(age: str) -> None:
    """Delete every match (and its log) not played for the given number of days."""
    found = _AGE.fullmatch(age.strip())
    if found is None:
        raise click.BadParameter("give a number of days, like 90d", param_hint="--older-than")
    conn = connect(location(current_app.config))
    try:
        count = matches.prune(UnitOfWork(conn), int(found.group(1)))
    finally:
        conn.close()
    click.echo(f"Deleted {count} match{'es' if count != 1 else ''} not played for "
               f"{found.group(1)} days.")
