"""`scorekeeper league-import FILE`: a season archive restored as a new league."""

import io

import click
from flask import current_app
from flask.cli import with_appcontext

from ..league import ArchiveError
from ..rules.words import N_
from ..services.league.archive import UNPACKED_MOST, read_upload, restore
from ..web.answers.work import app_unit_of_work
from .console import CannotRead, catalogue, read_file, worded


@click.command("league-import", help=N_("Restore the league season archive FILE (a "
                                        "season.json file) as a new league."),
               short_help=N_("restore a league's season archive as a new league"))
@click.argument("archive", metavar=N_("FILE"))
@with_appcontext
def league_import(archive: str) -> None:
    words = catalogue()
    try:
        text = read_file(archive, most=UNPACKED_MOST + 1)  # no further than an archive may be
    except CannotRead as error:
        raise click.ClickException(worded(error, words)) from None
    uow = app_unit_of_work(current_app)
    try:
        access = restore(uow, read_upload(io.BytesIO(text)))
    except ArchiveError as error:
        raise click.ClickException(f"{archive}: {worded(error, words)}") from None
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
