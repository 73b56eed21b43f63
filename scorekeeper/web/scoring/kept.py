"""Pieces of a screen drawn once and kept: the macros of `_macros.html` whose output is a
pure function of their arguments and the reader's language. A table screen or a scoreboard
draws the same tiles, tile buttons and scores again on every tap and poll."""

import functools

from flask import current_app, has_request_context, request, session
from flask_wtf.csrf import generate_csrf

from ..answers.catalogue import locale_name
from .sheet import score_sheet
from .view import layout, rule_set_line, sides

KEPT = 4096
"""Pieces kept per macro (a few hundred bytes each): every tile button of every language,
and the scores of the tables playing at once."""


def kept_macro(env, name: str):
    """The macro `name` as a function whose outputs are kept by its (hashable) arguments and
    the locale; while templates are edited (auto_reload) it draws each time."""

    def drawn(_locale, *args):
        return getattr(_macros(env), name)(*args)

    kept = functools.lru_cache(maxsize=KEPT)(drawn)

    def draw(*args):
        return drawn(None, *args) if env.auto_reload else kept(locale_name(), *args)

    return draw


def _macros(env):
    """The macros of `_macros.html`, from the module Jinja keeps: a template's `{% from …
    import %}` makes it again, scanning every global, on each render."""
    return env.get_template("_macros.html").module


def install(env) -> None:
    """`tile`, `tile_button`, `scores`, `open_ends`, `score_sheet` and the macros'
    `csrf_token` for the templates."""
    sides_scores = kept_macro(env, "sides_scores")

    def scores(match):
        """The rule set's line and each side's name, score and bar."""
        return sides_scores(rule_set_line(match), sides(match), match.table.target)

    open_ends = kept_macro(env, "open_ends")
    env.globals.update(hidden=lambda stored: _macros(env).hidden(stored), url_for=kept_url())
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


def kept_url():
    """Flask's `url_for` for the templates, each address built once per endpoint, values and
    script root and kept: a table screen builds the same seven addresses on every tap.
    Addresses with `_external`, `_anchor` and the like, relative endpoints, and any outside
    a request are built each time."""
    built = functools.lru_cache(maxsize=KEPT)(
        lambda endpoint, values, _root: current_app.url_for(endpoint, **dict(values)))

    def url_for(endpoint: str, **values) -> str:
        if (endpoint.startswith(".") or any(name.startswith("_") for name in values)
                or not has_request_context()):
            return current_app.url_for(endpoint, **values)
        try:
            return built(endpoint, tuple(sorted(values.items())), request.script_root)
        except TypeError:  # a value that is not hashable (a list): built each time
            return current_app.url_for(endpoint, **values)

    return url_for
