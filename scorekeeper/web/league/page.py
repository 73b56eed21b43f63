"""The league's pages: new league, the league page (secretary, captain or public, by the
link used: every division's standings), its teams and fixtures, the exports and the public
link's QR code. A fixture's card has its own blueprint (card.py).

A view is form → service → render: refusals answer 422 with the league's reason, a
link without the right 403; a done write 303.
"""

import io
import json
import threading
import time
from datetime import UTC, date, datetime
from typing import NoReturn

import segno
from flask import (
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

from ...league import LeagueError
from ...league.terms.calendar import local_day
from ...league.terms.formats import FORMATS
from ...league.terms.setup import PLAYABLE
from ...services.league import archive as league_archive
from ...services.league import fixture_corrections
from ...services.league import links as league_links
from ...services.league import people as league_people
from ...services.league import setup as leagues
from ...services.league import views as league_read
from ..answers.catalogue import gettext as _
from ..answers.pages import fragment_wanted
from ..answers.work import unit_of_work
from ..scoring import view
from .forms import DayForm, FixtureForm, FixturesForm, NameForm, TeamForm
from .setup_form import NewLeagueForm, picked_rules

MY_LEAGUES = 10


def new():
    """A new league: its rule set picked at the top, or a real league's format filling the
    whole form in."""
    format_ = FORMATS.get(request.args.get("format"))
    rules = picked_rules(format_.rules if format_ else request.values.get("rules"))
    form = NewLeagueForm(rules=rules.name)
    if request.method == "GET":  # the rule set's own targets and hand sizes, to change
        form.fill(rules, format_)
    if form.validate_on_submit():
        try:
            access = leagues.create_league(unit_of_work(), form.setup, form.team_lines)
        except LeagueError as error:
            form.refused_at(error)
        else:
            remember(access.league_id, access.key, form.setup.name)
            return redirect(url_for("league.show", league_id=access.league_id,
                                    key=access.key), 303)
    refusal = getattr(form, "refusal", None)
    if refusal:
        getattr(form, refusal[0]).errors = [view.refusal(refusal[1])]
    status = 422 if request.method == "POST" else 200
    return render_template("league/new.html", form=form, rules=rules, rule_sets=PLAYABLE,
                           formats=FORMATS.values(), format=format_), status


def remember(league_id: str, key: str, name: str) -> None:
    """This browser's leagues, as the home page lists them: this one first, by its link
    (a secretary's link given out again replaces the old one)."""
    mine = [item for item in session.get("leagues", []) if item[0] != league_id]
    session["leagues"] = [[league_id, key, name], *mine][:MY_LEAGUES]


def open_or_404(league_id: str, key: str) -> leagues.Access:
    """The league its link opens; a link withdrawn says so (410), any other key finds
    nothing (404). Read from the database on every request: no worker keeps a key."""
    access = leagues.open_league(unit_of_work(), league_id, key)
    if access is None:
        unopened(league_id, key)
    return access


def unopened(league_id: str, key: str) -> NoReturn:
    """A link that opens nothing: withdrawn (410), or never given out (404)."""
    abort(410 if league_links.withdrawn(unit_of_work(), league_id, key) else 404)


def today(access: leagues.Access) -> date:
    """Which day it is where the league plays (tonight's fixtures are that day's)."""
    return local_day(access.setup.time_zone, datetime.now(UTC))


def league_page(access: leagues.Access, status: int = 200, error: str | None = None,
                **forms):
    """The league page, with a refusal's `error` and the forms as they were sent."""
    found = league_read.overview(unit_of_work(), access, today(access))
    if fragment_wanted() and request.method == "GET":
        return render_template("league/_live.html", **found), status
    teams = [SelectChoice(team["id"], team["name"]) for team in found["teams"]]
    fixture = forms.pop("fixture_form", None) or FixtureForm()
    fixture.home.choices = fixture.away.choices = teams
    team_form = forms.pop("team_form", None) or TeamForm()
    team_form.division.choices = [SelectChoice(name, name) for name in access.setup.divisions]
    return render_template(
        "league/league.html", **found, error=error, fixture_form=fixture,
        changes=league_people.changes(unit_of_work(), access),
        team_form=team_form, fixtures_form=forms.pop("fixtures_form", None) or FixturesForm(),
        day_form=DayForm()), status


def show(league_id: str, key: str):
    access = open_or_404(league_id, key)
    if fragment_wanted() and access.role == leagues.PUBLIC:
        return _public_live(access)
    return league_page(access)


def _public_live(access: leagues.Access) -> str:
    """The public page's live part, rendered at most once every PUBLIC_PAGE_SECONDS and
    shared by everyone polling it: on match night a hundred phones and the TV follow it,
    and the tables change it with every tile. It holds no form and no key but its own:
    kept by that key, so a public link given out again never hands out the old one.

    One thread renders a stale part while the others answer with the one before.
    """
    kept, lock = current_app.extensions.setdefault("scorekeeper.league_pages",
                                                   ({}, threading.Lock()))
    cache_key = (access.league_id, access.key, str(get_locale()))
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
                               **league_read.overview(unit_of_work(), access, today(access)))
    finally:
        with lock:
            kept[cache_key] = (now, body, False) if body else (made, kept_body, False)
    return body


def _league_write(league_id: str, key: str, form, do, done: str | None = None, **forms):
    """Validate the form, ask the service, and answer with the league page (a done write
    goes on to `done`, if given)."""
    access = open_or_404(league_id, key)
    if not form.validate_on_submit():
        field, messages = next(iter(form.errors.items()))
        label = getattr(form, field).label.text
        return league_page(access, 422, f"{label}: {messages[0]}", **forms)
    try:
        do(access, form)
    except leagues.NotAllowed as error:
        return league_page(access, 403, view.refusal(error), **forms)
    except LeagueError as error:
        return league_page(access, 422, view.refusal(error), **forms)
    return redirect(done or url_for("league.show", league_id=league_id, key=key), 303)


def add_team(league_id: str, key: str):
    form = TeamForm()
    return _league_write(league_id, key, form, lambda access, f: leagues.add_team(
        unit_of_work(), access, f.name.data, f.division.data or ""), team_form=form)


def add_player(league_id: str, key: str, team_id: int):
    """A player joins a team, from the league page or (`back=team`) the team's own."""
    done = url_for("league.team", league_id=league_id, key=key, team_id=team_id) \
        if request.form.get("back") == "team" else None
    return _league_write(league_id, key, NameForm(), lambda access, f: leagues.add_player(
        unit_of_work(), access, team_id, f.name.data), done)


def make_fixtures(league_id: str, key: str):
    form = FixturesForm()
    return _league_write(league_id, key, form, lambda access, f: leagues.make_fixtures(
        unit_of_work(), access, f.first.data, f.every.data), fixtures_form=form)


def add_fixture(league_id: str, key: str):
    form = FixtureForm()
    form.home.choices = form.away.choices = [
        SelectChoice(team_id, name)
        for team_id, name in league_read.team_choices(unit_of_work(), league_id)]
    return _league_write(league_id, key, form, lambda access, f: fixture_corrections.add_fixture(
        unit_of_work(), access, f.home.data, f.away.data, f.day.data, f.play_off.data),
        fixture_form=form)


def download(body: str | bytes, mimetype: str, name: str) -> Response:
    """A file to save (the exports), named."""
    return Response(body, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


def csv_export(league_id: str, key: str, make, name: str) -> Response:
    """An export as a spreadsheet file, in the reader's language (`make`: the service)."""
    body = make(unit_of_work(), open_or_404(league_id, key), _)
    return download(body, "text/csv; charset=utf-8", f"{name}-{league_id}.csv")


def standings_csv(league_id: str, key: str):
    return csv_export(league_id, key, league_archive.standings_csv, "standings")


def results_csv(league_id: str, key: str):
    return csv_export(league_id, key, league_archive.results_csv, "results")


def season_json(league_id: str, key: str):
    access = open_or_404(league_id, key)
    if not access.secretary:
        abort(404)
    body = json.dumps(league_archive.archive(unit_of_work(), access), ensure_ascii=False,
                      indent=1)
    return download(body + "\n", "application/json", f"season-{league_id}.json")


def qr(league_id: str, key: str):
    """The public league page's link as a QR code, for the pub's wall (kept a day by the
    browser: the page asks for it with the public link's start, `v`, so a link given out
    again is a new image at once)."""
    access = open_or_404(league_id, key)
    link = url_for("league.show", league_id=league_id, key=access.public_key, _external=True)
    svg = io.BytesIO()
    segno.make(link, error="m").save(svg, kind="svg", xmldecl=False, scale=4, dark="#000",
                                     light="#fff")
    return Response(svg.getvalue(), mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=86400"})
