"""`flask --app scorekeeper league-import FILE`: a season archive restored as a new league."""

import click
from flask import current_app
from flask.cli import with_appcontext

from .db import connect, location
from .league import ArchiveError
from .services.league_archive import restore
from .services.unit_of_work import UnitOfWork


@click.command("league-import")
@click.argument("archive", type=click.File("rb"))
@with_appcontext
def league_import_command(archive) -> None:
    """Restore the league season archive ARCHIVE (a season.json file) as a new league."""
    conn = connect(location(current_app.config))
    try:
        access = restore(UnitOfWork(conn), archive.read())
    except ArchiveError as error:
        raise click.ClickException(f"{archive.name}: {error}") from None
    finally:
        conn.close()
    click.echo(f"Restored {access.setup.name} ({access.setup.season}).")
    click.echo(f"Secretary's link: /league/{access.league_id}/{access.key}")
    click.echo(f"Public page:      /league/{access.league_id}/{access.public_key}")
    click.echo("Open them on this server; captains' links are on the secretary's page.")
