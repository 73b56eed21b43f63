"""The league's words for states, kinds, sides, roles and corrections, in the reader's
language: what the league templates show instead of the domain's names."""

from flask_babel import lazy_gettext as _l

from ..league import AWAY, ENTERED, HOME, PAIRS, PLAYING, SCORED, SINGLES, WAITING
from ..services.league import CAPTAIN, PUBLIC, SECRETARY
from .catalogue import gettext as _
from .league_forms import TIE_BREAK_WORDS

STATE_WORDS = {WAITING: _l("not started"), PLAYING: _l("being scored at a table"),
               SCORED: _l("scored"), ENTERED: _l("entered from paper")}
KIND_WORDS = {SINGLES: _l("singles"), PAIRS: _l("pairs")}
SIDE_WORDS = {HOME: _l("home"), AWAY: _l("away")}
ROLE_WORDS = {SECRETARY: _l("Secretary's page"), CAPTAIN: _l("Captain's page"),
              PUBLIC: _l("League page")}


def correction_words(correction: dict) -> str:
    """What a correction changed, in the reader's language."""
    kind, facts = correction["kind"], correction
    if kind == "players":
        return _("Game %(game)s: players set to %(home)s v %(away)s", game=facts["game"],
                 home=" & ".join(facts["home"]), away=" & ".join(facts["away"]))
    if kind == "started":
        return _("Game %(game)s started at a table", game=facts["game"])
    if kind == "entered":
        return _("Game %(game)s: paper score %(home)s–%(away)s entered", game=facts["game"],
                 home=facts["home"], away=facts["away"])
    if kind == "cleared":
        taken = facts.get("taken_off")
        if taken and taken.get("state") in ("scored", "entered"):
            return _("Game %(game)s: result %(home)s–%(away)s taken off the card",
                     game=facts["game"], home=taken["home"], away=taken["away"])
        if taken:
            return _("Game %(game)s: taken off the card at %(home)s–%(away)s, unfinished",
                     game=facts["game"], home=taken["home"], away=taken["away"])
        return _("Game %(game)s: result taken off the card", game=facts["game"])
    if facts.get("by") == CAPTAIN:
        return _("Card reopened by both captains")
    return _("Card reopened by the secretary")


def words() -> dict:
    return {"state_words": STATE_WORDS, "kind_words": KIND_WORDS, "side_words": SIDE_WORDS,
            "role_words": ROLE_WORDS, "tie_break_words": TIE_BREAK_WORDS,
            "correction_words": correction_words}
