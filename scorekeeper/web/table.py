"""The scoring screen of one match: every tap is a POST that names the revision it saw.

htmx requests get the `_table.html` fragment back; plain forms get 303 to the page.
A refused action answers 422 with the engine's reason; a stale one 409 with what
the other phone entered; a repeated one (double tap, retry) changes nothing.
"""

import json

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    get_flashed_messages,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _

from .. import store
from ..db import get_db, match_cache
from ..rules import (
    Draw,
    Lay,
    Pass,
    Remaining,
    RuleError,
    Start,
    normal,
    parse_move,
    parse_tile,
)
from ..rules.record import write_record
from . import view
from .forms import EndHandForm, LayForm, PositionForm, StartForm

bp = Blueprint("table", __name__, url_prefix="/match/<match_id>/<key>")


def load_or_404(match_id: str, key: str) -> store.Stored:
    stored = store.load(get_db(), match_id, key, scoring=True, cache=match_cache())
    if stored is None:
        abort(404)
    return stored


def render_table(stored: store.Stored, status: int = 200, error: str | None = None,
                 notice: str | None = None, preview=None, entered: dict | None = None,
                 confirm_undo: str | None = None):
    """The table as a fragment for htmx, or as the whole page for everything else.

    The pips typed and tiles ticked at the end of a hand stay as they were entered.
    """
    if notice is None and request.method == "GET":
        notice = next(iter(get_flashed_messages()), None)  # what a plain-form undo did
    if entered is None and request.endpoint == "table.end_hand":
        entered = view.entered_in_form(request.form, stored.match)
    template = "match/_table.html" if request.htmx else "match/table.html"
    return render_template(template, stored=stored, match=stored.match, view=view,
                           error=error, notice=notice, preview=preview, entered=entered,
                           confirm_undo=confirm_undo), status


@bp.get("")
def show(match_id: str, key: str):
    return render_table(load_or_404(match_id, key))


def _write(match_id: str, key: str, form, make_event, said=None, entered=None):
    """Validate the form, let the engine check the event, store it, answer the phone
    (with `said`, what it did, and `entered`, pips to show again)."""
    stored = load_or_404(match_id, key)
    if not form.validate_on_submit():
        field, messages = next(iter(form.errors.items()))
        if field == "pos":  # only a damaged or forged form lacks a good position
            return render_table(stored, 422, _("This page is out of date: here is the table "
                                               "now. Tap again."))
        return render_table(stored, 422, _("Not understood (%(field)s): %(why)s",
                                           field=field, why=messages[0]))
    event = None
    try:
        event = make_event(form, stored.match)
        stored = store.write(get_db(), stored, form.pos.data, event, match_cache())
    except store.StaleWrite:
        return _stale(match_id, key, form.pos.data, event)
    except RuleError as error:
        return render_table(stored, 422, view.refusal(error))
    if request.htmx:
        return render_table(stored, notice=said, entered=entered)
    if said:
        flash(said)
    return redirect(url_for("table.show", match_id=match_id, key=key), 303)


def _stale(match_id: str, key: str, seen: int, event):
    """A write against an old revision: a repeat of what is stored is a success, else 409."""
    stored = load_or_404(match_id, key)
    since = store.entries_since(get_db(), match_id, seen)
    if len(since) == 1 and _same(since[0], event):
        if request.htmx:
            return render_table(stored)
        return redirect(url_for("table.show", match_id=match_id, key=key), 303)
    if not since:  # a pos this match never reached: a restored backup, a forged form
        return render_table(stored, 409, notice=_("The table has changed. Here is the table now."))
    done = ", ".join(view.describe_entry(kind, entry, stored.match) for kind, entry in since)
    notice = _("The other phone entered %(what)s first. Here is the table now.", what=done)
    return render_table(stored, 409, notice=notice)


def _same(entry, event) -> bool:
    kind, stored_event = entry
    if event is None or kind == "undo":
        return kind == "undo" and event is None
    if isinstance(event, Lay) and isinstance(stored_event, Lay):
        return (normal(event.tile) == normal(stored_event.tile)
                and event.end in (None, stored_event.end))
    return event == stored_event


@bp.post("/start")
def start(match_id: str, key: str):
    return _write(match_id, key, StartForm(), lambda form, _m: Start(form.seat.data))


@bp.post("/lay")
def lay(match_id: str, key: str):
    return _write(match_id, key, LayForm(), lambda form, _m: parse_lay(form.move.data))


def parse_lay(text: str) -> Lay:
    move = parse_move(text)
    if not isinstance(move, Lay):
        raise RuleError(_("%(text)s is not a tile", text=text), kind="not_a_tile")
    return move


@bp.post("/draw")
def draw(match_id: str, key: str):
    return _write(match_id, key, PositionForm(), lambda _f, _m: Draw(1))


@bp.post("/pass")
def pass_turn(match_id: str, key: str):
    return _write(match_id, key, PositionForm(), lambda _f, _m: Pass())


@bp.post("/undo")
def undo(match_id: str, key: str):
    """Undo says what it took back; taking back a scored hand asks once, and keeps its pips
    in the form to be entered again."""
    stored, form = load_or_404(match_id, key), PositionForm()
    match = stored.match
    current = form.validate_on_submit() and form.pos.data == stored.revision
    if not (current and match.log):  # refused or stale: said as for any tap
        return _write(match_id, key, form, lambda _f, _m: None)
    if view.undo_crosses_a_score(match) and not request.form.get("confirm"):
        hand = next(hand for hand in reversed(match.hands) if hand.end is not None)
        question = _("Undo the score of hand %(number)s (%(score)s)? The pips entered are "
                     "kept.", number=hand.number, score=view.explained(hand.end, match))
        return render_table(stored, confirm_undo=question)
    last = match.log[-1]
    entered = view.entered_in_event(last) if isinstance(last, Remaining) else None
    return _write(match_id, key, form, lambda _f, _m: None, said=view.took_back(match),
                  entered=entered)


def held_from_request(match) -> dict:
    """pips_N (a number) or tiles_N (the tiles tapped) for each seat; the engine checks them.

    Read the same whatever the match's phase, so a repeated tap makes the same event.
    """
    held = {}
    for seat in range(len(match.table.players)):
        tiles = request.form.getlist(f"tiles_{seat}")
        pips = request.form.get(f"pips_{seat}", "").strip()
        if tiles and any(tiles):
            held[seat] = tuple(normal(parse_tile(text)) for text in tiles if text)
        elif pips:
            if not (pips.isascii() and pips.isdigit()) or len(pips) > 4:
                name = match.table.players[seat]
                raise RuleError(_("%(name)s's pips must be a whole number, not %(value)s",
                                  name=name, value=pips[:20]), kind="pips_not_number")
            held[seat] = int(pips)
    return held


@bp.post("/end")
def end_hand(match_id: str, key: str):
    def make_event(_form, match):
        held = held_from_request(match)
        if request.form.get("check"):
            raise _Preview(match.preview_end(held))
        return Remaining(tuple(sorted(held.items())))

    try:
        return _write(match_id, key, EndHandForm(), make_event)
    except _Preview as preview:
        stored = load_or_404(match_id, key)
        return render_table(stored, preview=view.explained(preview.score, stored.match))


class _Preview(Exception):
    """Carries the end-of-hand score out of _write when the user only asked to check it."""

    def __init__(self, score):
        super().__init__("preview")
        self.score = score


@bp.get("/sheet")
def sheet(match_id: str, key: str):
    stored = load_or_404(match_id, key)
    return render_template("match/sheet.html", stored=stored, match=stored.match, view=view)


@bp.get("/export")
def export(match_id: str, key: str):
    stored = load_or_404(match_id, key)
    body = json.dumps(write_record(stored.match), ensure_ascii=False, indent=2)
    return Response(body + "\n", mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="match-{stored.id}.json"'})
