"""`scorekeeper league-import FILE`: a season archive restored as a new league."""

import click
from flask import current_app
from flask.cli import with_appcontext

from ..league import ArchiveError
from ..services.league.archive import read_upload, restore
from ..web.answers.work import app_unit_of_work
from .console import catalogue, worded


@click.command("league-import")
@click.argument("archive", type=click.File("rb"))
@with_appcontext
def league_import(archive) -> None:
    """Restore the league season archive ARCHIVE (a season.json file) as a new league."""
    words = catalogue()
    uow = app_unit_of_work(current_app)
    try:
        access = restore(uow, read_upload(archive))
    except ArchiveError as error:
        raise click.ClickException(f"{archive.name}: {worded(error, words)}") from None
    finally:
        uow.close()
    click.echo(words.gettext("Restored %(league)s (%(season)s).") % {
        "league": access.setup.name, "season": access.setup.season})
    click.echo(words.gettext("Secretary's link: %(address)s") % {
        "address": f"/league/{access.league_id}/{access.key}"})
    click.echo(words.gettext("Public page: %(address)s") % {
        "address": f"/league/{access.league_id}/{access.public_key}"})
    click.echo(words.gettext("Open them on this server; captains' links are on the "
                             "secretary's page."))
