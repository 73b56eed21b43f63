"""Which language a page speaks: `?lang=`, then the reader's remembered choice, then the
browser's Accept-Language. Each phone (and the pub's TV) chooses for itself."""

import functools
from datetime import date
from urllib.parse import urlencode

from babel import Locale
from flask import current_app, g, request, url_for
from flask_babel import format_date, get_locale
from werkzeug.datastructures import LanguageAccept
from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_accept_header

LANGUAGES = {"en": "English", "el": "Ελληνικά", "cs": "Čeština", "hu": "Magyar"}
"""The languages the app speaks, each named in itself, as the menu lists them."""

COOKIE = "lang"
COOKIE_SECONDS = 365 * 24 * 3600


def select_locale() -> Locale:
    """Flask-Babel's locale selector: the Locale of `locale_of`, parsed once per language."""
    return _parsed(locale_of(request))


@functools.lru_cache(maxsize=len(LANGUAGES))
def _parsed(code: str) -> Locale:
    return Locale.parse(code)


def locale_of(asked) -> str:
    """A `?lang=` link first, then the choice remembered in the cookie, then the browser;
    of any werkzeug request (also the busy server's, which answers without the app)."""
    for chosen in (asked.args.get("lang"), asked.cookies.get(COOKIE)):
        if chosen in LANGUAGES:
            return chosen
    return browser_language(asked.headers.get("Accept-Language", ""))


@functools.lru_cache(maxsize=256)
def browser_language(accept_language: str) -> str:
    """The language an Accept-Language header picks, worked out once per header (a pub's
    phones send a handful of different ones, with every poll)."""
    return parse_accept_header(accept_language, LanguageAccept).best_match(LANGUAGES) or "en"


def remember_choice(response):
    """A language chosen with `?lang=` (the menu, or a shared link) is kept for next time."""
    asked = request.args.get("lang")
    if asked in LANGUAGES and request.cookies.get(COOKIE) != asked:
        response.set_cookie(COOKIE, asked, max_age=COOKIE_SECONDS, httponly=True,
                            samesite="Lax", secure=request.is_secure)
    if response.mimetype == "text/html":
        _vary(response.headers, ("Accept-Language", "Cookie"))
    return response


def _vary(headers, names: tuple[str, ...]) -> None:
    """`names` added to the Vary header, as werkzeug's `response.vary.update` does, without
    parsing the header into a set and writing it back on every answer."""
    existing = headers.get("Vary")
    have = {part.strip().lower() for part in existing.split(",")} if existing else set()
    missing = [name for name in names if name.lower() not in have]
    if missing:
        headers["Vary"] = ", ".join([existing, *missing] if existing else missing)


def language_menu() -> list[dict]:
    """The menu's entries: each language in its own name, linking to this screen in it.

    On a page asked for with GET the link is only a query (`?lang=el`): the same address,
    so the page does not repeat its own address (a match's key) once more.
    """
    here = "" if request.method == "GET" else _this_screen()
    if request.method != "GET" and g.get("error_page"):
        here = url_for("home.index")  # the same for every wrong address: it tells nothing
    args = {key: value for key, value in request.args.items() if key != "lang"}
    current = str(get_locale())
    return [{"code": code, "name": name, "current": code == current,
             "href": here + "?" + urlencode({**args, "lang": code})}
            for code, name in LANGUAGES.items()]


def _this_screen() -> str:
    """The address that shows this screen again: the page itself, or for an answer to a
    form (a refused tap) the screen the form was on."""
    path = request.path
    try:
        current_app.url_map.bind("").match(path, method="GET")
        return path
    except HTTPException:  # also a redirect: the path is not a page of its own
        pass
    view_args = request.view_args or {}
    if "match_id" in view_args and "key" in view_args and request.blueprint == "table":
        return url_for("table.show", match_id=view_args["match_id"], key=view_args["key"])
    return url_for("home.index")


def day_words(day: date | str) -> str:
    """A day (a date or `2026-11-30`) as the reader's language writes it: `30. 11. 2026`."""
    return format_date(day if isinstance(day, date) else date.fromisoformat(day), "medium")
