"""A season archive restored from the web, as `scorekeeper league-import` does: uploaded,
read with every check the command makes and shown (its league, teams, fixtures, results
and standings), then restored as a new league once the secretary confirms it.

Nothing is kept between the two steps: the preview carries the archive, compressed, to
the confirmation, which reads and checks it again. A hostile or inconsistent archive is
refused whole with its reason, and nothing is written. An upload is bounded as every
request is (MAX_CONTENT_LENGTH, the server's body ceiling too): a large season is
uploaded compressed (season.json.gz).
"""

import base64
import binascii

from flask import redirect, render_template, request, url_for

from ...league import LeagueError
from ...services.league import archive as league_archive
from ..answers.work import unit_of_work
from ..scoring import view
from .forms import ArchiveForm, RestoreForm
from .page import remember


def _form_page(form, status: int = 200, error: str | None = None):
    return render_template("league/restore.html", form=form, error=error), status


def restore():
    """The archive uploaded and read: what it holds, to confirm."""
    form = ArchiveForm()
    if request.method == "GET":
        return _form_page(form)
    if not form.validate_on_submit():
        return _form_page(form, 422, next(iter(form.errors.values()))[0])
    try:
        data = league_archive.read_upload(form.archive.data)
        found = league_archive.read_season(data)
    except LeagueError as error:
        return _form_page(form, 422, view.refusal(error))
    carried = base64.b64encode(league_archive.packed(data)).decode()
    return render_template("league/restore_preview.html", found=league_archive.preview(found),
                           setup=found.setup,
                           confirm=RestoreForm(formdata=None, archive=carried))


def restore_confirm():
    """The archive the preview showed, read and checked again, restored as a new league."""
    form = RestoreForm()
    refused = None
    if form.validate_on_submit():
        try:
            data = base64.b64decode(form.archive.data, validate=True)
            access = league_archive.restore(unit_of_work(), data)
        except binascii.Error:
            refused = view.refusal(league_archive.not_an_archive())
        except LeagueError as error:
            refused = view.refusal(error)
        else:
            remember(access.league_id, access.key, access.setup.name)
            return redirect(url_for("league.show", league_id=access.league_id,
                                    key=access.key), 303)
    else:
        refused = next(iter(form.errors.values()))[0]
    return _form_page(ArchiveForm(formdata=None), 422, refused)
