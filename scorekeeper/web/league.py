"""The league's pages: new league, the league page (secretary, captain or public, by the
link used), a fixture's match card, the exports and the public link's QR code.

A view is form → service → render: refusals answer 422 with the league's reason, a
link without the right 403, a card changed by someone else first 409 with the card
as it is now; a done write 303 (htmx gets the card fragment back instead).
"""

import io
import json
import threading
import time
from datetime import date

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_locale
from wtforms.fields.choices import SelectChoice

from ..league import LeagueError
from ..league.setup import PLAYABLE
from ..services import league as leagues
from ..services import league_archive, league_read
from . import league_words, view
from .catalogue import gettext as _
from .league_forms import (
    CardForm,
    DayForm,
    FixtureForm,
    FixturesForm,
    NameForm,
    NewLeagueForm,
    PlayersForm,
    ScoreForm,
    TeamForm,
    picked_rules,
)
from .pages import fragment_wanted, screen
from .work import unit_of_work

bp = Blueprint("league", __name__, url_prefix="/league")
MY_LEAGUES = 10
bp.context_processor(league_words.words)


@bp.route("/new", methods=["GET", "POST"])
def new():
    rules = picked_rules(request.values.get("rules"))
    form = NewLeagueForm(rules=rules.name)
    if request.method == "GET":  # the rule set's own target and hand sizes, to change
        form.target.data = rules.target(2, False)
        form.singles_hand.data, form.pairs_hand.data = rules.hand_size(2), rules.hand_size(4)
    if form.validate_on_submit():
        try:
            access = leagues.create_league(unit_of_work(), form.setup, form.team_names())
        except LeagueError as error:
            form.refused_at(error)
        else:
            mine = [item for item in session.get("leagues", []) if item[0] != access.league_id]
            session["leagues"] = [[access.league_id, access.key, form.setup.name],
                                  *mine][:MY_LEAGUES]
            return redirect(url_for("league.show", league_id=access.league_id,
                                    key=access.key), 303)
    refusal = getattr(form, "refusal", None)
    if refusal:
        getattr(form, refusal[0]).errors = [view.refusal(refusal[1])]
    status = 422 if request.method == "POST" else 200
    return render_template("league/new.html", form=form, rules=rules, rule_sets=PLAYABLE), status


def _open(league_id: str, key: str) -> leagues.Access:
    access = leagues.open_league(unit_of_work(), league_id, key)
    if access is None:
        abort(404)
    return access


def _page(access: leagues.Access, status: int = 200, error: str | None = None, **forms):
    found = league_read.overview(unit_of_work(), access, date.today())
    if fragment_wanted() and request.method == "GET":
        return render_template("league/_live.html", **found), status
    teams = [SelectChoice(team["id"], team["name"]) for team in found["teams"]]
    fixture = forms.pop("fixture_form", None) or FixtureForm()
    fixture.home.choices = fixture.away.choices = teams
    return render_template(
        "league/league.html", **found, error=error, fixture_form=fixture,
        team_form=forms.pop("team_form", None) or TeamForm(),
        fixtures_form=forms.pop("fixtures_form", None) or FixturesForm(),
        day_form=DayForm()), status


@bp.get("/<league_id>/<key>")
def show(league_id: str, key: str):
    access = _open(league_id, key)
    if fragment_wanted() and access.role == leagues.PUBLIC:
        return _public_live(access)
    return _page(access)


def _public_live(access: leagues.Access) -> str:
    """The public page's live part, rendered at most once every PUBLIC_PAGE_SECONDS and
    shared by everyone polling it: on match night a hundred phones and the TV follow it,
    and the tables change it with every tile. It holds no form and no key but its own.

    One thread renders a stale part while the others answer with the one before.
    """
    kept, lock = current_app.extensions.setdefault("scorekeeper.league_pages",
                                                   ({}, threading.Lock()))
    cache_key = (access.league_id, str(get_locale()))
    now = time.monotonic()
    with lock:
        made, kept_body, rendering = kept.get(cache_key, (0.0, None, False))
        fresh = now - made < current_app.config["PUBLIC_PAGE_SECONDS"]
        if kept_body is not None and (fresh or rendering):
            return kept_body
        kept[cache_key] = (made, kept_body, True)
    body = None
    try:
        body = render_template("league/_live.html",
                               **league_read.overview(unit_of_work(), access, date.today()))
    finally:
        with lock:
            kept[cache_key] = (now, body, False) if body else (made, kept_body, False)
    return body


def _league_write(league_id: str, key: str, form, do, **forms):
    """Validate the form, ask the service, and answer with the league page."""
    access = _open(league_id, key)
    if not form.validate_on_submit():
        field, messages = next(iter(form.errors.items()))
        return _page(access, 422, f"{getattr(form, field).label.text}: {messages[0]}", **forms)
    try:
        do(access, form)
    except leagues.NotAllowed as error:
        return _page(access, 403, view.refusal(error), **forms)
    except LeagueError as error:
        return _page(access, 422, view.refusal(error), **forms)
    return redirect(url_for("league.show", league_id=league_id, key=key), 303)


@bp.post("/<league_id>/<key>/teams")
def add_team(league_id: str, key: str):
    form = TeamForm()
    return _league_write(league_id, key, form, lambda access, f: leagues.add_team(
        unit_of_work(), access, f.name.data), team_form=form)


@bp.post("/<league_id>/<key>/teams/<row:team_id>/players")
def add_player(league_id: str, key: str, team_id: int):
    return _league_write(league_id, key, NameForm(), lambda access, f: leagues.add_player(
        unit_of_work(), access, team_id, f.name.data))


@bp.post("/<league_id>/<key>/fixtures/make")
def make_fixtures(league_id: str, key: str):
    form = FixturesForm()
    return _league_write(league_id, key, form, lambda access, f: leagues.make_fixtures(
        unit_of_work(), access, f.first.data, f.every.data), fixtures_form=form)


@bp.post("/<league_id>/<key>/fixtures")
def add_fixture(league_id: str, key: str):
    form = FixtureForm()
    form.home.choices = form.away.choices = [
        SelectChoice(team_id, name)
        for team_id, name in league_read.team_choices(unit_of_work(), league_id)]
    return _league_write(league_id, key, form, lambda access, f: leagues.add_fixture(
        unit_of_work(), access, f.home.data, f.away.data, f.day.data), fixture_form=form)


@bp.post("/<league_id>/<key>/fixtures/<row:fixture_id>/day")
def move_fixture(league_id: str, key: str, fixture_id: int):
    return _league_write(league_id, key, DayForm(), lambda access, f: leagues.move_fixture(
        unit_of_work(), access, fixture_id, f.day.data))


def _card(access: leagues.Access, fixture_id: int, status: int = 200,
          error: str | None = None, notice: str | None = None):
    """The card as a fragment for htmx, or as the whole page for everything else."""
    card = league_read.card_view(unit_of_work(), access, fixture_id, date.today())
    if card is None:
        abort(404)
    live = request.method == "GET" and request.args.get("part") == "live"
    return screen("league/card.html", "league/_card_live.html" if live else "league/_card.html",
                  card=card, access=access, setup=access.setup, error=error,
                  notice=notice), status


@bp.get("/<league_id>/<key>/card/<row:fixture_id>")
def card(league_id: str, key: str, fixture_id: int):
    return _card(_open(league_id, key), fixture_id)


def _card_write(league_id: str, key: str, fixture_id: int, form, do):
    """Validate the form, let the service change the card, answer the phone."""
    access = _open(league_id, key)
    if not form.validate_on_submit():
        field, messages = next(iter(form.errors.items()))
        if field == "rev":
            return _card(access, fixture_id, 422, _("This card is out of date: here it is "
                                                    "now. Tap again."))
        return _card(access, fixture_id, 422, f"{getattr(form, field).label.text}: "
                                              f"{messages[0]}")
    try:
        do(access, form)
    except leagues.CardChanged as changed:
        return _card(access, fixture_id, 409, notice=view.refusal(changed))
    except leagues.NoSuchFixture:
        abort(404)
    except leagues.NotAllowed as error:
        return _card(access, fixture_id, 403, view.refusal(error))
    except LeagueError as error:
        return _card(access, fixture_id, 422, view.refusal(error))
    if fragment_wanted():
        return _card(access, fixture_id)
    return redirect(url_for("league.card", league_id=league_id, key=key,
                            fixture_id=fixture_id), 303)


@bp.post("/<league_id>/<key>/card/<row:fixture_id>/game/<row:number>/players")
def set_players(league_id: str, key: str, fixture_id: int, number: int):
    def do(access, form):
        leagues.set_players(unit_of_work(), access, fixture_id, form.rev.data, number,
                            form.side("home"), form.side("away"))

    return _card_write(league_id, key, fixture_id, PlayersForm(), do)


@bp.post("/<league_id>/<key>/card/<row:fixture_id>/game/<row:number>/start")
def start_game(league_id: str, key: str, fixture_id: int, number: int):
    return _card_write(league_id, key, fixture_id, CardForm(), lambda access, f:
                       leagues.start_game(unit_of_work(), access, fixture_id, f.rev.data,
                                          number))


@bp.post("/<league_id>/<key>/card/<row:fixture_id>/game/<row:number>/enter")
def enter_score(league_id: str, key: str, fixture_id: int, number: int):
    return _card_write(league_id, key, fixture_id, ScoreForm(), lambda access, f:
                       leagues.enter_score(unit_of_work(), access, fixture_id, f.rev.data,
                                           number, f.home.data, f.away.data))


@bp.post("/<league_id>/<key>/card/<row:fixture_id>/game/<row:number>/clear")
def clear_game(league_id: str, key: str, fixture_id: int, number: int):
    return _card_write(league_id, key, fixture_id, CardForm(), lambda access, f:
                       leagues.clear_game(unit_of_work(), access, fixture_id, f.rev.data,
                                          number))


@bp.post("/<league_id>/<key>/card/<row:fixture_id>/confirm")
def confirm(league_id: str, key: str, fixture_id: int):
    return _card_write(league_id, key, fixture_id, CardForm(), lambda access, f:
                       leagues.confirm(unit_of_work(), access, fixture_id, f.rev.data))


@bp.post("/<league_id>/<key>/card/<row:fixture_id>/reopen")
def reopen(league_id: str, key: str, fixture_id: int):
    """The secretary reopens a card; a captain asks to, and with both asking it reopens."""
    return _card_write(league_id, key, fixture_id, CardForm(), lambda access, f:
                       (leagues.reopen if access.secretary else leagues.ask_reopen)(
                           unit_of_work(), access, fixture_id, f.rev.data))


def _download(body: str, mimetype: str, name: str) -> Response:
    return Response(body, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/<league_id>/<key>/standings.csv")
def standings_csv(league_id: str, key: str):
    body = league_archive.standings_csv(unit_of_work(), _open(league_id, key), _)
    return _download(body, "text/csv; charset=utf-8", f"standings-{league_id}.csv")


@bp.get("/<league_id>/<key>/results.csv")
def results_csv(league_id: str, key: str):
    body = league_archive.results_csv(unit_of_work(), _open(league_id, key), _)
    return _download(body, "text/csv; charset=utf-8", f"results-{league_id}.csv")


@bp.get("/<league_id>/<key>/season.json")
def season_json(league_id: str, key: str):
    access = _open(league_id, key)
    if not access.secretary:
        abort(404)
    body = json.dumps(league_archive.archive(unit_of_work(), access), ensure_ascii=False,
                      indent=1)
    return _download(body + "\n", "application/json", f"season-{league_id}.json")


@bp.get("/<league_id>/<key>/qr.svg")
def qr(league_id: str, key: str):
    """The public league page's link as a QR code, for the pub's wall."""
    access = _open(league_id, key)
    link = url_for("league.show", league_id=league_id, key=access.public_key, _external=True)
    svg = io.BytesIO()
    segno.make(link, error="m").save(svg, kind="svg", xmldecl=False, scale=4, dark="#000",
                                     light="#fff")
    return Response(svg.getvalue(), mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=86400"})
