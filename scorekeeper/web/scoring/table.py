"""The scoring screen of one match: every tap is a POST that names the revision it saw.

Each view reads its form, calls one use case of services.matches and renders the
value it answers: htmx requests get the `_table.html` fragment back, plain forms
a 303 to the page. Refused answers 422 with the engine's reason; stale 409 with
what the other phone entered; a repeated tap (double tap, retry) changes nothing.
"""

import json

from flask import (
    Response,
    abort,
    current_app,
    flash,
    get_flashed_messages,
    redirect,
    render_template,
    request,
    url_for,
)

from ...league import LeagueError
from ...rules import Remaining, RuleError, Start
from ...rules.match.record import write_record
from ...services import matches
from ...services.league import at_tables as league_table
from ...services.matches import Opened
from ..answers.area import SCORING_PAGES, TAPS, Area, Policy
from ..answers.catalogue import gettext as _
from ..answers.catalogue import locale_name, ngettext
from ..answers.pages import fragment_wanted, screen
from ..answers.work import unit_of_work
from . import view
from .engine import table_urls
from .forms import PIPS_DIGITS, EndHandForm, LayForm, PositionForm, StartForm, held_in
from .screens import sheet_screen, table_screen

bp = Area("table", __name__, Policy(SCORING_PAGES, per_link=TAPS),
          url_prefix="/match/<match_id>/<key>")


def load_or_404(match_id: str, key: str) -> Opened:
    stored = matches.open_match(unit_of_work(), match_id, key)
    if stored is None:
        abort(404)
    return stored


def render_table(stored: Opened, status: int = 200, error: str | None = None,
                 notice: str | None = None, preview=None, entered: dict | None = None,
                 confirm_undo: str | None = None, as_fragment: bool | None = None):
    """The table as a fragment for htmx, or as the whole page for everything else
    (`as_fragment` if the view has asked already).

    The pips typed and tiles ticked at the end of a hand stay as they were entered.
    """
    if notice is None and request.method == "GET":
        notice = next(iter(get_flashed_messages()), None)  # what a plain-form undo did
    if entered is None and request.endpoint == "table.end_hand":
        entered = view.entered_in_form(request.form, stored.match)
    card = matches.card_of(unit_of_work(), stored)
    broken = view.refusal(matches.broken_log(stored)) if stored.broken else None
    if as_fragment is None:
        as_fragment = fragment_wanted()
    return screen("match/table.html", "match/_table.html", as_fragment, stored=stored,
                  match=stored.match, screen=table_screen(stored.match, entered, not as_fragment),
                  error=error, notice=notice, preview=preview, confirm_undo=confirm_undo,
                  pips_digits=PIPS_DIGITS, card=view.card_words(card), broken=broken), status


@bp.get("")
def show(match_id: str, key: str):
    return render_table(load_or_404(match_id, key))


def answer(tapped: matches.Tapped | matches.Previewed, said: str | None = None,
           entered: dict | None = None):
    """The phone's answer to what a use case did (with `said`, what a written tap did, and
    `entered`, pips to show again)."""
    if isinstance(tapped, matches.Gone):
        abort(404)  # deleted after this request loaded it, as if it had been before
    stored = tapped.stored
    if isinstance(tapped, matches.Refused):
        return render_table(stored, 422, view.refusal(tapped.error))
    if isinstance(tapped, matches.Held):
        return render_table(stored, 422, _(view.HELD_BY_CARD))
    if isinstance(tapped, matches.Stale):
        return render_table(stored, 409, notice=_stale_notice(tapped))
    if isinstance(tapped, matches.Previewed):
        return render_table(stored, preview=view.explained(tapped.score, stored.match))
    if isinstance(tapped, matches.Repeated) and tapped.later:
        said = _("This tap was entered already; after it came %(what)s. Here is the table "
                 "now.", what=", ".join(view.describe_entry(entry, stored.match)
                                        for entry in tapped.later))
        entered = None
    elif not isinstance(tapped, matches.Written):
        said = entered = None  # a repeated tap: what it did was said the first time
    if fragment_wanted():
        return render_table(stored, notice=said, entered=entered, as_fragment=True)
    if said:
        flash(said)
    return redirect(url_for("table.show", match_id=stored.id, key=stored.score_key), 303)


def _stale_notice(stale: matches.Stale) -> str:
    if not stale.entered:  # a pos this match never reached: a restored backup, a forged form
        return _("The table has changed. Here is the table now.")
    done = ", ".join(view.describe_entry(entry, stale.stored.match) for entry in stale.entered)
    return _("The other phone entered %(what)s first. Here is the table now.", what=done)


def _form_refused(stored: Opened, form):
    """A form the fields refuse: a damaged position means a page older than the table."""
    field, messages = next(iter(form.errors.items()))
    if field == "pos":  # only a damaged or forged form lacks a good position
        return render_table(stored, 422, _("This page is out of date: here is the table "
                                           "now. Tap again."))
    return render_table(stored, 422, _("Not understood (%(field)s): %(why)s",
                                       field=field, why=messages[0]))


@bp.post("/start")
def start(match_id: str, key: str):
    stored, form = load_or_404(match_id, key), StartForm()
    if not form.validate_on_submit():
        return _form_refused(stored, form)
    return answer(matches.tap(unit_of_work(), stored, form.pos.data, Start(form.seat.data)))


@bp.post("/lay")
def lay(match_id: str, key: str):
    stored, form = load_or_404(match_id, key), LayForm()
    if not form.validate_on_submit():
        return _form_refused(stored, form)
    return answer(matches.lay(unit_of_work(), stored, form.pos.data, form.move.data))


@bp.post("/draw")
def draw(match_id: str, key: str):
    return _move(match_id, key, matches.draw)


@bp.post("/pass")
def pass_turn(match_id: str, key: str):
    return _move(match_id, key, matches.pass_turn)


@bp.post("/undo")
def undo(match_id: str, key: str):
    """Undo says what it took back; taking back a scored hand asks once, and keeps its pips
    in the form to be entered again."""
    stored, form = load_or_404(match_id, key), PositionForm()
    if not form.validate_on_submit():
        return _form_refused(stored, form)
    tapped = matches.undo(unit_of_work(), stored, form.pos.data,
                          confirmed=bool(request.form.get("confirm")))
    match = stored.match  # as opened: the write changed a copy
    if isinstance(tapped, matches.AskFirst):
        question = _("Undo the score of hand %(number)s (%(score)s)? The pips entered are "
                     "kept.", number=tapped.hand.number,
                     score=view.explained(tapped.hand.end, match))
        return render_table(stored, confirm_undo=question)
    last = match.peek()
    said = view.took_back(match) if last else None
    entered = view.entered_in_event(last) if isinstance(last, Remaining) else None
    return answer(tapped, said=said, entered=entered)


def _move(match_id: str, key: str, use_case):
    """A tap that carries nothing but the revision it saw."""
    stored, form = load_or_404(match_id, key), PositionForm()
    if not form.validate_on_submit():
        return _form_refused(stored, form)
    return answer(use_case(unit_of_work(), stored, form.pos.data))


@bp.post("/take-back")
def take_back(match_id: str, key: str):
    """A log the rules refuse from one move on, taken back to the last move they allow."""
    stored, form = load_or_404(match_id, key), PositionForm()
    if not form.validate_on_submit():
        return _form_refused(stored, form)
    later = stored.broken.later if stored.broken else 0
    said = None if not stored.broken else ngettext(
        "Took back the move the rules refuse and %(num)s move after it.",
        "Took back the move the rules refuse and %(num)s moves after it.",
        later) if later else _("Took back the move the rules refuse.")
    return answer(matches.take_back_to_legal(unit_of_work(), stored, form.pos.data), said=said)


@bp.post("/end")
def end_hand(match_id: str, key: str):
    """Check (preview) or enter what players still hold at the end of a hand."""
    stored, form = load_or_404(match_id, key), EndHandForm()
    if not form.validate_on_submit():
        return _form_refused(stored, form)
    try:
        held = held_in(stored.match.table.players, request.form)
    except RuleError as error:
        return render_table(stored, 422, view.refusal(error))
    if form.check.data:
        return answer(matches.preview_end(stored, held))
    return answer(matches.end_hand(unit_of_work(), stored, form.pos.data, held))


@bp.post("/next-leg")
def next_leg(match_id: str, key: str):
    """The table that scored a leg of a best-of game starts its next leg, and scores it."""
    stored = load_or_404(match_id, key)
    try:
        new = league_table.next_leg_at_table(unit_of_work(), stored)
    except LeagueError as error:
        return render_table(stored, 422, view.refusal(error))
    return redirect(url_for("table.show", match_id=new.id, key=new.score_key), 303)


@bp.get("/engine-state")
def engine_state(match_id: str, key: str):
    """What the offline table (`offline/table.py`) starts from: the match's record at its
    revision, its keys, what its league card says, the table's addresses and the reader's
    language; the page keeps it on the phone for when the connection goes."""
    stored = load_or_404(match_id, key)
    card = view.card_words(matches.card_of(unit_of_work(), stored))
    return {"id": stored.id, "score_key": stored.score_key, "view_key": stored.view_key,
            "revision": stored.revision, "held": stored.held, "broken": bool(stored.broken),
            "record": write_record(stored.match), "card": card,
            "urls": table_urls(current_app.url_map), "locale": locale_name()}


@bp.get("/sheet")
def sheet(match_id: str, key: str):
    stored = load_or_404(match_id, key)
    return render_template("match/sheet.html", stored=stored, match=stored.match,
                           screen=sheet_screen(stored.match))


@bp.get("/export")
def export(match_id: str, key: str):
    stored = load_or_404(match_id, key)
    body = json.dumps(write_record(stored.match), ensure_ascii=False, indent=2)
    return Response(body + "\n", mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="match-{stored.id}.json"'})
