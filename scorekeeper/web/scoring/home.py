"""Home (start or import a match, the matches on this server), new match, rules card."""

from datetime import UTC, datetime, timedelta

from flask import abort, flash, redirect, render_template, request, session, url_for
from flask_babel import format_timedelta

from ...rules import FIVES_AND_THREES, RULE_SETS, Match, RuleError
from ...rules.match.record import UnreadableRecord
from ...rules.setup.rulesets import side_by_side
from ...services import matches
from ...services.matches import Opened
from ..answers.area import IMPORTS, NEW_MATCHES, PHONES_OWN, PUBLIC, Area, Policy, ViewLimit
from ..answers.catalogue import gettext as _
from ..answers.pages import screen
from ..answers.work import unit_of_work
from . import view
from .forms import DeleteForm, ImportForm, NewMatchForm, picked_rules
from .screens import new_match_hints

bp = Area("home", __name__, Policy(
    PHONES_OWN, per_view={"new": ViewLimit(NEW_MATCHES, "POST"),
                          "import_record": ViewLimit(IMPORTS, "POST")},
    view_headers={"rules": PUBLIC}))
MY_MATCHES = 30


def remember(stored: Opened) -> None:
    """This browser created the match: keep its scoring link for the home page (in a
    400-day cookie whose signature, not its date, is checked)."""
    mine = [pair for pair in session.get("mine", []) if pair[0] != stored.id]
    session["mine"] = [[stored.id, stored.score_key], *mine][:MY_MATCHES]
    session.permanent = True


def _home(status: int = 200, **extra):
    """This browser's matches first (however many others exist), then the server's others."""
    mine = matches.my_matches(unit_of_work(), session.get("mine", []))
    ids = {item["id"] for item in mine}
    others = [item for item in matches.listing(unit_of_work()) if item["id"] not in ids]
    now = datetime.now(UTC)
    for item in [*mine, *others]:
        item["ago"] = _ago(item.get("updated", ""), now)
    extra.setdefault("import_form", ImportForm())
    extra.setdefault("leagues", session.get("leagues", []))
    return render_template("home/index.html", mine=mine, matches=others, **extra), status


@bp.get("/")
def index():
    return _home()


@bp.route("/mine/<match_id>/delete", methods=["GET", "POST"])
def delete(match_id: str):
    """The browser that created a match may delete it, after saying so once more."""
    key = dict(session.get("mine", [])).get(match_id)
    if key is None:
        abort(404)
    if request.method == "GET":
        found = matches.my_matches(unit_of_work(), [[match_id, key]])
        if not found:
            abort(404)
        return render_template("home/delete.html", match=found[0], form=DeleteForm())
    if not DeleteForm().validate_on_submit():
        abort(400)
    matches.delete_match(unit_of_work(), match_id, key)
    session["mine"] = [pair for pair in session.get("mine", []) if pair[0] != match_id]
    flash(_("The match was deleted."))
    return redirect(url_for("home.index"), 303)


def _ago(updated: str, now: datetime) -> str:
    """When a match was last played, as people say it ("5 minutes ago")."""
    try:
        when = datetime.strptime(updated, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    except ValueError:
        return ""
    if now - when < timedelta(minutes=1):
        return _("just now")
    return format_timedelta(when - now, granularity="minute", add_direction=True)


def _new_form(count: int, partnerships: bool, rules) -> NewMatchForm:
    form = NewMatchForm(count=str(count), rules=rules.name)
    if request.method == "GET":
        form.partnerships.data = partnerships
        form.target.data = rules.target(count, partnerships)
        form.hand_size.data = rules.hand_size(count)
        for number in range(1, 5):
            getattr(form, f"player{number}").data = request.args.get(f"player{number}", "")
    return form


@bp.route("/new", methods=["GET", "POST"])
def new():
    count = request.values.get("count", request.args.get("players", "2"))
    count = int(count) if count in ("2", "3", "4") else 2
    partnerships = count == 4 and request.values.get("partnerships") in ("y", "1", "on")
    rules = picked_rules(request.values.get("rules"))
    form = _new_form(count, partnerships, rules)
    if form.validate_on_submit():
        stored = matches.create_match(unit_of_work(), Match(form.table))
        remember(stored)
        return redirect(url_for("table.show", match_id=stored.id, key=stored.score_key), 303)
    status = 422 if request.method == "POST" else 200
    return screen("home/new.html", "home/_new_form.html", form=form, count=count, rules=rules,
                  hints=new_match_hints(rules), rule_sets=RULE_SETS,
                  partnerships=partnerships), status


@bp.post("/import")
def import_record():
    form = ImportForm()
    error = None
    if form.validate_on_submit():
        try:
            stored = matches.import_record(unit_of_work(), form.record.data.read())
        except (UnreadableRecord, RuleError) as problem:
            error = view.refusal(problem)
        else:
            remember(stored)
            return redirect(url_for("table.show", match_id=stored.id, key=stored.score_key),
                            303)
    else:
        error = _("Choose a match record file (.json) to import.")
    return _home(422, import_form=form, import_error=error)


@bp.get("/rules")
def rules():
    return render_template("rules.html", rule_sets=RULE_SETS, side_by_side=side_by_side,
                           fives_and_threes=FIVES_AND_THREES)
