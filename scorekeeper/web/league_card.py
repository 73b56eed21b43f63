"""A fixture's match card: its page (live at the tables), and every write to it: players or
blind line-ups, games started, their next legs, paper scores, games given unplayed, a
walkover, confirmations, reopening and the secretary's corrections.

A view is form → service → render: refusals answer 422 with the league's reason, a link
without the right 403, a card changed by someone else first 409 with the card as it is
now; a done write 303 (htmx gets the card fragment back instead).
"""

from datetime import date

from flask import Blueprint, abort, redirect, request, url_for

from ..league import LeagueError
from ..services import league as leagues
from ..services import league_card as cards
from ..services import league_read
from . import league_words, view
from .catalogue import gettext as _
from .league import open_or_404
from .league_forms import CardForm, LineUpForm, PlayersForm, ScoreForm, SideForm
from .pages import fragment_wanted, screen
from .work import unit_of_work

bp = Blueprint("card", __name__, url_prefix="/league/<league_id>/<key>/card/<row:fixture_id>")
bp.context_processor(league_words.words)


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


@bp.get("")
def show(league_id: str, key: str, fixture_id: int):
    return _card(open_or_404(league_id, key), fixture_id)


def _card_write(league_id: str, key: str, fixture_id: int, form, do):
    """Validate the form, let the service change the card, answer the phone."""
    access = open_or_404(league_id, key)
    if not form.validate_on_submit():
        field, messages = next(iter(form.errors.items()))
        if field == "rev":
            return _card(access, fixture_id, 422, _("This card is out of date: here it is "
                                                    "now. Tap again."))
        label = getattr(form, field).label.text
        return _card(access, fixture_id, 422,
                     f"{label}: {messages[0]}" if label else messages[0])
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
    return redirect(url_for("card.show", league_id=league_id, key=key,
                            fixture_id=fixture_id), 303)


def _simple(use_case):
    """A write that carries the card's revision only (and the game's number, if routed)."""
    def view_function(league_id: str, key: str, fixture_id: int, **game):
        return _card_write(league_id, key, fixture_id, CardForm(), lambda access, f:
                           use_case(unit_of_work(), access, fixture_id, f.rev.data,
                                    *game.values()))
    view_function.__name__ = use_case.__name__
    view_function.__doc__ = use_case.__doc__
    return view_function


bp.post("/game/<row:number>/start")(_simple(cards.start_game))
bp.post("/game/<row:number>/next-leg")(_simple(cards.start_next_leg))
bp.post("/game/<row:number>/clear")(_simple(cards.clear_game))
bp.post("/confirm")(_simple(cards.confirm))
bp.post("/walkover/take-back")(_simple(cards.take_back_walkover))


@bp.post("/game/<row:number>/players")
def set_players(league_id: str, key: str, fixture_id: int, number: int):
    def do(access, form):
        cards.set_players(unit_of_work(), access, fixture_id, form.rev.data, number,
                          form.side("home"), form.side("away"))

    return _card_write(league_id, key, fixture_id, PlayersForm(), do)


@bp.post("/game/<row:number>/enter")
def enter_score(league_id: str, key: str, fixture_id: int, number: int):
    return _card_write(league_id, key, fixture_id, ScoreForm(), lambda access, f:
                       cards.enter_score(unit_of_work(), access, fixture_id, f.rev.data,
                                         number, f.legs()))


@bp.post("/game/<row:number>/award")
def award_game(league_id: str, key: str, fixture_id: int, number: int):
    """A game given unplayed to one team: the other cannot field it, or concedes it."""
    return _card_write(league_id, key, fixture_id, SideForm(), lambda access, f:
                       cards.award_game(unit_of_work(), access, fixture_id, f.rev.data,
                                        number, f.side.data))


@bp.post("/walkover")
def walkover(league_id: str, key: str, fixture_id: int):
    return _card_write(league_id, key, fixture_id, SideForm(), lambda access, f:
                       cards.record_walkover(unit_of_work(), access, fixture_id, f.rev.data,
                                             f.side.data))


@bp.post("/line-up")
def line_up(league_id: str, key: str, fixture_id: int):
    """A captain hands in the team's line-up blind (the secretary, for a side it names)."""
    return _card_write(league_id, key, fixture_id, LineUpForm(), lambda access, f:
                       cards.hand_in_line_up(unit_of_work(), access, fixture_id, f.rev.data,
                                             f.side.data,
                                             f.line_up(access.setup, request.form)))


@bp.post("/reopen")
def reopen(league_id: str, key: str, fixture_id: int):
    """The secretary reopens a card; a captain asks to, and with both asking it reopens."""
    return _card_write(league_id, key, fixture_id, CardForm(), lambda access, f:
                       (cards.reopen if access.secretary else cards.ask_reopen)(
                           unit_of_work(), access, fixture_id, f.rev.data))
