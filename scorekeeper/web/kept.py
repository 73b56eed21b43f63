"""Pieces of a screen drawn once and kept: the macros of `_macros.html` whose output is a
pure function of their arguments and the reader's language. A table screen or a scoreboard
draws the same tiles, tile buttons and scores again on every tap and poll."""

import functools

from flask import current_app, session
from flask_wtf.csrf import generate_csrf

from .catalogue import locale_name
from .sheet import score_sheet
from .view import layout, rule_set_line, sides

KEPT = 4096
"""Pieces kept per macro (a few hundred bytes each): every tile button of every language,
and the scores of the tables playing at once."""


def kept_macro(env, name: str):
    """The macro `name` as a function whose outputs are kept by its (hashable) arguments and
    the locale; while templates are edited (auto_reload) it draws each time."""

    def drawn(_locale, *args):
        return getattr(env.get_template("_macros.html").module, name)(*args)

    kept = functools.lru_cache(maxsize=KEPT)(drawn)

    def draw(*args):
        return drawn(None, *args) if env.auto_reload else kept(locale_name(), *args)

    return draw


def install(env) -> None:
    """`tile`, `tile_button`, `scores`, `open_ends`, `score_sheet` and the macros'
    `csrf_token` for the templates."""
    sides_scores = kept_macro(env, "sides_scores")

    def scores(match):
        """The rule set's line and each side's name, score and bar."""
        return sides_scores(rule_set_line(match), sides(match), match.table.target)

    open_ends = kept_macro(env, "open_ends")
    env.globals.update(csrf_token=kept_token(), tile=kept_macro(env, "tile"),
                       tile_button=kept_macro(env, "tile_button"), scores=scores,
                       open_ends=lambda match: open_ends(layout(match)),
                       score_sheet=functools.partial(score_sheet, kept={}))


def kept_token():
    """Flask-WTF's form token, signed once per session token and kept: Flask-WTF signs it
    again with the time on every screen, and with no time limit (WTF_CSRF_TIME_LIMIT=None,
    the app's setting) that time is never read."""
    signed = functools.lru_cache(maxsize=KEPT)(lambda _raw, _secret: generate_csrf())

    def csrf_token() -> str:
        config = current_app.config
        raw = session.get(config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))
        if not isinstance(raw, str) or config["WTF_CSRF_TIME_LIMIT"] is not None:
            return generate_csrf()
        return signed(raw, config.get("WTF_CSRF_SECRET_KEY") or current_app.secret_key)

    return csrf_token
