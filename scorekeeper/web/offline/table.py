"""The table screen in the phone's browser while the connection is down.

Pyodide runs this module with the same `scorekeeper.rules`, the same view-model
(`web/scoring/view.py`, `screens.py`) and the same `match/_table.html` as the server, so
a tap entered offline changes the screen exactly as the server's answer would: the
tiles that fit with their points, the announcement and its arithmetic, the scores, the
end of a hand, Undo. The server stays the authority: each tap made here is kept by the
page and sent when the connection is back, against the revision it was made on.

`web/scoring/table.py` is the server's side of the same taps; `tests/test_offline_table.py`
holds the two to the same bytes over random matches of every rule set and language.
"""

from dataclasses import dataclass

from flask import Flask, render_template, request
from flask_babel import Babel, get_locale
from werkzeug.datastructures import MultiDict
from werkzeug.routing import Rule

from ...rules import Draw, Remaining, RuleError, Start
from ...rules.match.record import read_record, write_record
from ...rules.notation.events import PASS, UNDO, lay_from_button
from ..answers.catalogue import gettext as _
from ..answers.catalogue import install as install_catalogue
from ..scoring import kept, view
from ..scoring.forms import PIPS_DIGITS, held_in
from ..scoring.pictures import current_picture
from ..scoring.screens import table_screen


@dataclass(frozen=True)
class Keys:
    """What the screen's links and forms name: the match, its two keys, its revision, and
    whether its league card holds it (the `stored` the templates are given)."""

    id: str
    score_key: str
    view_key: str
    revision: int
    held: bool
    broken: None = None


def offline_app(root: str, urls: dict[str, list], locale: str) -> Flask:
    """A Flask app that draws only the table: the server's templates, catalogue and
    template globals, and the addresses of its table and replay (`urls`: endpoint →
    [rule, methods], as the server's own map has them), so every link is the server's."""
    app = Flask(__name__, template_folder=f"{root}/templates")
    app.config.update(BABEL_TRANSLATION_DIRECTORIES=f"{root}/translations",
                      BABEL_DEFAULT_LOCALE="en", WTF_CSRF_ENABLED=False,
                      SECRET_KEY="drawn in the browser: nothing is signed here")
    Babel(app, locale_selector=lambda: locale)
    install_catalogue(app)
    app.jinja_env.globals.update(get_locale=get_locale, layout_picture=current_picture)
    kept.install(app.jinja_env)
    for endpoint, (rule, methods) in urls.items():
        app.url_map.add(Rule(rule, endpoint=endpoint, methods=methods))
    return app


class OfflineTable:
    """One match's table, from the state the server handed (`engine-state`): taps change
    it as the server would, and each answer is the `_table.html` fragment the server
    would have sent."""

    def __init__(self, state: dict, root: str, token: str):
        self.keys = Keys(state["id"], state["score_key"], state["view_key"],
                         state["revision"], state["held"])
        self.match = read_record(state["record"], pending_pips=True)
        self.card = state["card"]
        self.state = state
        self.token = token
        self.app = offline_app(root, state["urls"], state["locale"])
        self.app.jinja_env.globals["csrf_token"] = lambda: self.token
        self.base = self.app.url_map.bind("").build(
            "table.show", {"match_id": self.keys.id, "key": self.keys.score_key})

    @property
    def revision(self) -> int:
        return self.keys.revision

    def saved(self) -> dict:
        """The state as the server hands it, at this table's revision: the page keeps it,
        so that a reload with no connection starts from here."""
        return {**self.state, "revision": self.revision, "record": write_record(self.match)}

    def screen(self, status: int = 200, **shown) -> dict:
        """The table as the server draws a tap's answer (`shown`: error, notice, preview,
        confirm_undo, entered)."""
        entered = shown.pop("entered", None)
        if entered is None and request.endpoint == "table.end_hand":
            entered = view.entered_in_form(request.form, self.match)
        context = {"error": None, "notice": None, "preview": None, "confirm_undo": None,
                   **shown}
        html = render_template("match/_table.html", stored=self.keys, match=self.match,
                               screen=table_screen(self.match, entered, False),
                               pips_digits=PIPS_DIGITS, card=self.card, broken=None,
                               **context)
        return {"html": html, "status": status, "revision": self.revision}

    def show(self) -> dict:
        with self.app.test_request_context(self.base):
            return self.screen()

    def tap(self, action: str, fields: list) -> dict:
        """Apply one tap as the form `action` (start, lay, draw, pass, undo, end) with its
        `fields` would on the server: 200 and the new table, or 422 and why not."""
        with self.app.test_request_context(f"{self.base}/{action}", method="POST",
                                           data=MultiDict(fields)):
            try:
                return self._tapped(action, request.form)
            except RuleError as error:
                return self.screen(422, error=view.refusal(error))

    def _tapped(self, action: str, form) -> dict:
        match = self.match
        if action == "undo":
            return self._undo(bool(form.get("confirm")))
        if action == "end":
            held = held_in(match.table.players, form)
            if form.get("check"):
                return self.screen(preview=view.explained(match.preview_end(held), match))
            return self._write(Remaining.of(held))
        if action == "start":
            return self._write(Start(int(form["seat"])))
        if action == "lay":
            return self._write(lay_from_button(form["move"]))
        if action == "draw":
            return self._write(Draw(1))
        if action == "pass":
            return self._write(PASS)
        raise ValueError(f"no such tap: {action}")

    def _undo(self, confirmed: bool) -> dict:
        """As `scoring/table.undo`: a scored hand's undo asks first; the notice says what
        was taken back, worded on the match before it."""
        match = self.match
        if self.keys.held:
            return self.screen(422, error=_(view.HELD_BY_CARD))
        if not confirmed and isinstance(match.peek(), Remaining):
            hand = next(hand for hand in reversed(match.hands) if hand.end is not None)
            return self.screen(confirm_undo=_(
                "Undo the score of hand %(number)s (%(score)s)? The pips entered are kept.",
                number=hand.number, score=view.explained(hand.end, match)))
        last = match.peek()
        said = view.took_back(match) if last else None
        entered = view.entered_in_event(last) if isinstance(last, Remaining) else None
        self._write(UNDO)
        return self.screen(notice=said, entered=entered)

    def _write(self, entry) -> dict:
        """The entry applied to a copy, kept if the rules take it; the revision counts the
        entries the server would store (an undo of one drawn tile stores two)."""
        if self.keys.held:
            return self.screen(422, error=_(view.HELD_BY_CARD))
        match = self.match.copy()
        entries = match.undo() if entry is UNDO else [match.push(entry)]
        self.match = match
        keys = self.keys
        self.keys = Keys(keys.id, keys.score_key, keys.view_key,
                         keys.revision + len(entries), keys.held)
        return self.screen()
