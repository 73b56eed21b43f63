"""The secretary's corrections from the league's pages: a fixture moved or rearranged,
postponed, swapped or deleted, and a link given out again. A deletion that would take
results away answers a page that lists them and asks first.

A view is form → service → render: a refusal shows the page it came from with its
reason (422, or 403 for a link without the right); a done write 303.
"""

from flask import redirect, render_template, request, url_for

from ...league import LeagueError
from ...services.league import fixture_corrections as league_fixtures
from ...services.league import links as league_links
from ...services.league import setup as leagues
from ...services.league.losses import AskFirst
from ..answers.work import unit_of_work
from ..scoring import view
from .card import card_page
from .forms import DayForm, SureForm
from .page import league_page, open_or_404, remember


def ask_first(asked: AskFirst, question: str, back: str):
    """The page that lists what a deletion takes away, with the form that confirms it:
    the same action, its fields, and the digest of what was shown."""
    fields = {name: value for name, value in request.form.items()
              if name not in ("csrf_token", "sure")}
    return render_template("league/ask_first.html", question=question, losses=asked.losses,
                           seen=asked.seen, fields=fields, action=request.path, back=back)


def correct(access, form, do, page, back: str, done: str | None = None):
    """A secretary's (or a captain's roster) correction: the form checked, the service
    asked, and the answer: `page(status, error)` with a refusal (the field named by its
    label), the asking-first page, or on to `done` (else `back`)."""
    if not form.validate_on_submit():
        field, messages = next(iter(form.errors.items()))
        label = getattr(form, field).label.text
        return page(422, f"{label}: {messages[0]}" if label else messages[0])
    try:
        do(access, form)
    except AskFirst as asked:
        return ask_first(asked, view.refusal(asked), back)
    except leagues.NotAllowed as error:
        return page(403, view.refusal(error))
    except LeagueError as error:
        return page(422, view.refusal(error))
    return redirect(done or back, 303)


def _fixture_write(league_id: str, key: str, fixture_id: int, do, form=None,
                   done: str | None = None):
    """A correction of a fixture, answered on its card page (its refusal beside it; a
    card gone answers 404)."""
    access = open_or_404(league_id, key)
    back = url_for("card.show", league_id=league_id, key=key, fixture_id=fixture_id)
    return correct(access, form or SureForm(), do,
                   lambda status, error: card_page(access, fixture_id, status, error), back, done)


def move_fixture(league_id: str, key: str, fixture_id: int):
    """Another date for the fixture (a postponed one is rearranged to it)."""
    return _fixture_write(league_id, key, fixture_id, lambda access, f:
                          league_fixtures.move_fixture(unit_of_work(), access, fixture_id,
                                                       f.day.data), DayForm())


def postpone_fixture(league_id: str, key: str, fixture_id: int):
    return _fixture_write(league_id, key, fixture_id, lambda access, f:
                          league_fixtures.postpone_fixture(unit_of_work(), access, fixture_id))


def swap_fixture(league_id: str, key: str, fixture_id: int):
    return _fixture_write(league_id, key, fixture_id, lambda access, f:
                          league_fixtures.swap_fixture(unit_of_work(), access, fixture_id))


def delete_fixture(league_id: str, key: str, fixture_id: int):
    return _fixture_write(league_id, key, fixture_id, lambda access, f:
                          league_fixtures.delete_fixture(unit_of_work(), access, fixture_id,
                                                         f.sure.data or None),
                          done=url_for("league.show", league_id=league_id, key=key))


def reissue_link(league_id: str, key: str, role: str):
    """The secretary's or the public page's link withdrawn and given out again: the
    secretary goes on from the new secretary's link."""
    access = open_or_404(league_id, key)
    try:
        new = league_links.reissue_link(unit_of_work(), access, role)
    except LeagueError as error:
        return league_page(access, 403, view.refusal(error))
    if role == leagues.SECRETARY:
        remember(league_id, new, access.setup.name)
        key = new
    return redirect(url_for("league.show", league_id=league_id, key=key) + "#links", 303)
