"""A fixture's match card: its page (live at the tables), and every write to it: players or
blind line-ups, games started, their next legs, paper scores, games given unplayed, a
walkover, confirmations, reopening and the secretary's corrections.

A view is form → service → render: refusals answer 422 with the league's reason, a link
without the right 403, a card changed by someone else first 409 with the card as it is
now; a done write 303. htmx gets the card fragment back instead, or for a write to one
game that game's own part (with the parts of the card it changes, out of band): the
other games' forms keep what is typed in them, and the page stays where it was.
"""

from datetime import UTC, datetime

from flask import abort, redirect, request, url_for

from ...league import LeagueError
from ...services.league import card as cards
from ...services.league import setup as leagues
from ...services.league import views as league_read
from ..answers.catalogue import gettext as _
from ..answers.pages import fragment_wanted, screen
from ..answers.work import unit_of_work
from ..scoring import view
from .forms import CardForm, LineUpForm, PlayersForm, ScoreForm, SideForm
from .page import open_or_404, today, unopened


def card_page(access: leagues.Access, fixture_id: int, status: int = 200,
          error: str | None = None, notice: str | None = None, answered: int | None = None,
          typed: dict | None = None, card: dict | None = None):
    """The card as a fragment for htmx (a game's own part, when `answered` names the game
    a write was to), or as the whole page for everything else; `card` if already read."""
    card = card or league_read.card_view(unit_of_work(), access, fixture_id, today(access))
    if card is None:
        abort(404)
    live = request.method == "GET" and request.args.get("part") == "live"
    fragment = "league/_card_live.html" if live else "league/_card.html"
    if answered is not None and 1 <= answered <= len(card["games"]):
        fragment = "league/_card_game_answer.html"
    else:
        answered = None
    return screen("league/card.html", fragment, card=card, access=access, setup=access.setup,
                  error=error, notice=notice, answered=answered, typed=typed or {}), status


def show(league_id: str, key: str, fixture_id: int):
    return card_page(open_or_404(league_id, key), fixture_id)


def _card_write(league_id: str, key: str, fixture_id: int, form, do, number=None):
    """Validate the form, let the service change the card, answer the phone; a write to
    game `number` is answered with that game's part, what was typed kept on a refusal."""
    access = open_or_404(league_id, key)
    typed = form.typed() if hasattr(form, "typed") else None
    answer = {"answered": number, "typed": typed}
    if not form.validate_on_submit():
        return _form_refused(access, fixture_id, form, answer)
    try:
        do(access, form)
    except LeagueError as error:
        return _refused(access, fixture_id, error, answer)
    return _done(access, fixture_id, number)


def _form_refused(access: leagues.Access, fixture_id: int, form, answer: dict,
                  card: dict | None = None):
    """The card with the form's first refusal: its field named, or the card out of date."""
    field, messages = next(iter(form.errors.items()))
    if field == "rev":
        return card_page(access, fixture_id, 422, _("This card is out of date: here it is "
                                                "now. Tap again."), card=card)
    label = getattr(form, field).label.text
    return card_page(access, fixture_id, 422,
                 f"{label}: {messages[0]}" if label else messages[0], **answer, card=card)


def _refused(access: leagues.Access, fixture_id: int, error: LeagueError, answer: dict,
             card: dict | None = None):
    """The card with the league's refusal: changed by someone else first 409, a link
    without the right 403, no such fixture 404, any other reason 422."""
    if isinstance(error, leagues.CardChanged):
        return card_page(access, fixture_id, 409, notice=view.refusal(error), **answer, card=card)
    if isinstance(error, leagues.NoSuchFixture):
        abort(404)
    status = 403 if isinstance(error, leagues.NotAllowed) else 422
    return card_page(access, fixture_id, status, view.refusal(error), **answer, card=card)


def _done(access: leagues.Access, fixture_id: int, number=None, card: dict | None = None):
    """A write made: htmx gets the card (or the game's part) back, a plain form a 303."""
    if fragment_wanted():
        return card_page(access, fixture_id, answered=number, card=card)
    return redirect(url_for("card.show", league_id=access.league_id, key=access.key,
                            fixture_id=fixture_id), 303)


def _simple(use_case, seen: bool = False):
    """A write that carries the card's revision only (and the game's number, if routed;
    and what it saw of the card, if `seen`)."""
    def view_function(league_id: str, key: str, fixture_id: int, **game):
        def do(access, f):
            extra = {"seen": f.seen.data or None} if seen or game else {}
            use_case(unit_of_work(), access, fixture_id, f.rev.data, *game.values(), **extra)

        return _card_write(league_id, key, fixture_id, CardForm(), do, game.get("number"))
    view_function.__name__ = use_case.__name__
    view_function.__doc__ = use_case.__doc__
    return view_function


start_game = _simple(cards.start_game)
start_next_leg = _simple(cards.start_next_leg)
clear_game = _simple(cards.clear_game)
confirm = _simple(cards.confirm, seen=True)
take_back_walkover = _simple(cards.take_back_walkover)


def set_players(league_id: str, key: str, fixture_id: int, number: int):
    def do(access, form):
        cards.set_players(unit_of_work(), access, fixture_id, form.rev.data, number,
                          form.side("home"), form.side("away"), form.seen.data or None)

    return _card_write(league_id, key, fixture_id, PlayersForm(), do, number)


def enter_score(league_id: str, key: str, fixture_id: int, number: int):
    """A paper score: each field named, and checked, as the card shows it (the team's
    name, the game's ceiling), written and the card read back in one use case."""
    form = ScoreForm()

    def checked(home: str, away: str, target: int):
        if form.for_game(home, away, target).validate_on_submit():
            return form.rev.data, form.legs(), form.seen.data or None
        return None

    found = cards.score_on_paper(unit_of_work(), league_id, key, fixture_id, number, checked,
                                 datetime.now(UTC))
    if found is None:
        unopened(league_id, key)
    if found.card is None:
        abort(404)
    answer = {"answered": number, "typed": form.typed()}
    if form.errors:
        return _form_refused(found.access, fixture_id, form, answer, found.card)
    if found.refused is not None:
        return _refused(found.access, fixture_id, found.refused, answer, found.card)
    return _done(found.access, fixture_id, number, found.card)


def award_game(league_id: str, key: str, fixture_id: int, number: int):
    """A game given unplayed to one team: the other cannot field it, or concedes it."""
    return _card_write(league_id, key, fixture_id, SideForm(), lambda access, f:
                       cards.award_game(unit_of_work(), access, fixture_id, f.rev.data,
                                        number, f.side.data, f.seen.data or None), number)


def walkover(league_id: str, key: str, fixture_id: int):
    return _card_write(league_id, key, fixture_id, SideForm(), lambda access, f:
                       cards.record_walkover(unit_of_work(), access, fixture_id, f.rev.data,
                                             f.side.data))


def line_up(league_id: str, key: str, fixture_id: int):
    """A captain hands in the team's line-up blind (the secretary, for a side it names)."""
    return _card_write(league_id, key, fixture_id, LineUpForm(), lambda access, f:
                       cards.hand_in_line_up(unit_of_work(), access, fixture_id, f.rev.data,
                                             f.side.data,
                                             f.line_up(access.setup, request.form),
                                             f.seen.data or None))


def reopen(league_id: str, key: str, fixture_id: int):
    """The secretary reopens a card; a captain asks to, and with both asking it reopens."""
    def do(access, f):
        if access.secretary:
            cards.reopen(unit_of_work(), access, fixture_id, f.rev.data)
        else:
            cards.ask_reopen(unit_of_work(), access, fixture_id, f.rev.data, f.seen.data or None)

    return _card_write(league_id, key, fixture_id, CardForm(), do)
