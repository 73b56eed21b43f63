"""Home (start or import a match, the matches on this server), new match, rules card."""

from flask import Blueprint, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from ..rules import Match, RuleError, default_hand_size, default_target
from ..rules.record import UnreadableRecord
from ..services import matches
from ..store import Stored
from . import unit_of_work
from .forms import ImportForm, NewMatchForm

bp = Blueprint("home", __name__)
MY_MATCHES = 30


def remember(stored: Stored) -> None:
    """This browser created the match: keep its scoring link for the home page."""
    mine = [pair for pair in session.get("mine", []) if pair[0] != stored.id]
    session["mine"] = [[stored.id, stored.score_key], *mine][:MY_MATCHES]


@bp.get("/")
def index():
    listed = matches.listing(unit_of_work())
    keys = dict(session.get("mine", []))
    for item in listed:
        item["score_key"] = keys.get(item["id"])
    return render_template("home/index.html", matches=listed, import_form=ImportForm())


def _new_form(count: int, partnerships: bool) -> NewMatchForm:
    form = NewMatchForm(count=str(count))
    if request.method == "GET":
        form.partnerships.data = partnerships
        form.target.data = default_target(count, partnerships)
        form.hand_size.data = default_hand_size(count)
        for number in range(1, 5):
            getattr(form, f"player{number}").data = request.args.get(f"player{number}", "")
    return form


@bp.route("/new", methods=["GET", "POST"])
def new():
    count = request.values.get("count", request.args.get("players", "2"))
    count = int(count) if count in ("2", "3", "4") else 2
    partnerships = count == 4 and request.values.get("partnerships") in ("y", "1", "on")
    form = _new_form(count, partnerships)
    if form.validate_on_submit():
        stored = matches.create_match(unit_of_work(), Match(form.table))
        remember(stored)
        return redirect(url_for("table.show", match_id=stored.id, key=stored.score_key), 303)
    status = 422 if request.method == "POST" else 200
    template = "home/_new_form.html" if request.htmx else "home/new.html"
    return render_template(template, form=form, count=count), status


@bp.post("/import")
def import_record():
    form = ImportForm()
    error = None
    if form.validate_on_submit():
        try:
            stored = matches.import_record(unit_of_work(), form.record.data.read())
        except (UnreadableRecord, RuleError) as problem:
            error = str(problem)
        else:
            remember(stored)
            return redirect(url_for("table.show", match_id=stored.id, key=stored.score_key),
                            303)
    else:
        error = _("Choose a match record file (.json) to import.")
    return render_template("home/index.html", matches=matches.listing(unit_of_work()),
                           import_form=form, import_error=error), 422


@bp.get("/rules")
def rules():
    return render_template("rules.html")
