"""A team's page (its roster with each player's figures, former players, fixtures) and the
corrections made from it: the team renamed or deleted, a player renamed, deleted, moved to
another team or out of the league, the captain's link given out again. A team's captain
corrects their own roster; everything else is the secretary's.

A view is form → service → render: a refusal shows the team page with its reason (422,
or 403 for a link without the right), a deletion that takes results away asks first; a
done write 303.
"""

from flask import abort, render_template, url_for

from ...services.league import links as league_links
from ...services.league import people as league_people
from ...services.league import setup as leagues
from ...services.league import team_corrections as league_setup
from ..answers.work import unit_of_work
from .admin import correct
from .forms import AdjustmentForm, MoveForm, PlayerForm, PlayerNameForm, SureForm, TeamNameForm
from .page import open_or_404, today


def _team_page(access: leagues.Access, team_id: int, status: int = 200,
               error: str | None = None):
    team = league_people.team_view(unit_of_work(), access, team_id, today(access))
    if team is None:
        abort(404)
    return render_template("league/team.html", team=team, access=access, setup=access.setup,
                           error=error), status


def team(league_id: str, key: str, team_id: int):
    return _team_page(open_or_404(league_id, key), team_id)


def _team_write(league_id: str, key: str, team_id: int, form, do, done: str | None = None):
    """A correction from the team's page, answered there (its refusal beside it)."""
    access = open_or_404(league_id, key)
    back = url_for("league.team", league_id=league_id, key=key, team_id=team_id)
    return correct(access, form, do,
                   lambda status, error: _team_page(access, team_id, status, error), back, done)


def adjust_points(league_id: str, key: str, team_id: int):
    return _team_write(league_id, key, team_id, AdjustmentForm(), lambda access, f:
                       league_setup.adjust_points(unit_of_work(), access, team_id,
                                                  f.points.data, f.day.data, f.reason.data))


def rename_team(league_id: str, key: str, team_id: int):
    return _team_write(league_id, key, team_id, TeamNameForm(), lambda access, f:
                       league_setup.rename_team(unit_of_work(), access, team_id, f.name.data))


def delete_team(league_id: str, key: str, team_id: int):
    return _team_write(league_id, key, team_id, SureForm(), lambda access, f:
                       league_setup.delete_team(unit_of_work(), access, team_id,
                                                f.sure.data or None),
                       url_for("league.show", league_id=league_id, key=key))


def rename_player(league_id: str, key: str, team_id: int):
    return _team_write(league_id, key, team_id, PlayerNameForm(), lambda access, f:
                       league_setup.rename_player(unit_of_work(), access, team_id,
                                                  f.player.data, f.name.data))


def delete_player(league_id: str, key: str, team_id: int):
    return _team_write(league_id, key, team_id, PlayerForm(), lambda access, f:
                       league_setup.delete_player(unit_of_work(), access, team_id,
                                                  f.player.data, f.sure.data or None))


def move_player(league_id: str, key: str, team_id: int):
    """A player to another team, or (no team chosen) out of the league."""
    return _team_write(league_id, key, team_id, MoveForm(), lambda access, f:
                       league_setup.move_player(unit_of_work(), access, team_id,
                                                f.player.data, f.team()))


def reissue_captain_link(league_id: str, key: str, team_id: int):
    """The team's captain's link withdrawn (a captain who left) and given out again."""
    return _team_write(league_id, key, team_id, SureForm(), lambda access, f:
                       league_links.reissue_link(unit_of_work(), access, leagues.CAPTAIN,
                                                 team_id))


def player(league_id: str, key: str, team_id: int, name: str):
    """A player's season for a team: every counted game, and the figures."""
    access = open_or_404(league_id, key)
    found = league_people.player_view(unit_of_work(), access, team_id, name)
    if found is None:
        abort(404)
    return render_template("league/player.html", player=found, access=access,
                           setup=access.setup)

