"""The web layer: blueprints, extensions, error pages and the headers on every response."""

import functools
import hashlib
import os
import time

from flask import current_app, g, render_template, request
from flask_babel import Babel, get_locale
from flask_wtf.csrf import CSRFError, CSRFProtect
from htmx_flask import Htmx
from werkzeug.exceptions import HTTPException

from ..db import get_db
from ..rules.errors import N_
from ..services.unit_of_work import UnitOfWork
from ..store import MatchCache
from . import catalogue, kept
from .catalogue import gettext as _
from .catalogue import ngettext
from .compression import init_compression
from .hosting import init_hosting, transport_headers
from .language import day_words, language_menu, remember_choice, select_locale
from .limits import limiter, retry_at
from .sharing import lan_host, shared_url

csrf = CSRFProtect()

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'self'; base-uri 'none'; object-src 'none'; "
       "frame-ancestors 'none'")
SECURITY_HEADERS = (
    ("Content-Security-Policy", CSP), ("X-Content-Type-Options", "nosniff"),
    # same-origin: a match URL never leaves as a Referer, while the same-origin Referer
    # that Flask-WTF requires over https is kept.
    ("Referrer-Policy", "same-origin"), ("X-Frame-Options", "DENY"))
"""On every answer, the app's and the server's own busy page alike."""
PRIVATE_AREA_HEADERS = {
    cache: (*SECURITY_HEADERS, ("X-Robots-Tag", "noindex, nofollow"), ("Cache-Control", cache))
    for cache in ("no-cache", "no-store")}
"""A match's, a scoreboard's or a league's answers: kept out of search engines and caches."""
HOME_HEADERS = (*SECURITY_HEADERS, ("Cache-Control", "private, no-store"))


def init_web(app) -> None:
    from . import board, home, install, league, sheet, table

    init_compression(app)  # first: its after_request runs last, on the final answer
    init_hosting(app)
    app.extensions["scorekeeper.matches"] = MatchCache()  # shared by the server's threads
    Htmx(app)
    csrf.init_app(app)
    limiter.init_app(app)
    Babel(app, locale_selector=select_locale)
    catalogue.install(app)
    app.jinja_env.globals.update(get_locale=get_locale, language_menu=language_menu)
    app.add_template_filter(day_words, "day")
    app.after_request(remember_choice)
    app.register_blueprint(home.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(board.bp)
    app.register_blueprint(install.bp)
    app.add_template_global(sheet.hand_moves)
    app.register_blueprint(league.bp)
    app.url_defaults(_versioned_static)
    app.jinja_env.globals.update(shared_url=shared_url, lan_host=lan_host)
    kept.install(app.jinja_env)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(CSRFError, _csrf_error)
    app.after_request(_security_headers)


def unit_of_work() -> UnitOfWork:
    """This request's connection and the app's cache of rebuilt matches, for the services."""
    return UnitOfWork(get_db(), current_app.extensions["scorekeeper.matches"])


def _versioned_static(endpoint: str, values: dict) -> None:
    """Static URLs carry a hash of the file, so phones may keep the file for a year.

    A new htmx or stylesheet gets a new URL; nothing is revalidated on each page.
    """
    if endpoint == "static" and "filename" in values:
        values["v"] = _file_version(current_app.static_folder, values["filename"])


@functools.lru_cache(maxsize=64)
def _file_version(folder: str, filename: str) -> str:
    try:
        with open(os.path.join(folder, filename), "rb") as file:
            return hashlib.sha256(file.read()).hexdigest()[:12]
    except OSError:
        return "0"


ERROR_PAGES = {
    400: (N_("Not understood"), N_("The app could not read what was sent. Go back and try "
                                   "again.")),
    404: (N_("Not found"), N_("There is nothing here. A match link must be copied whole; "
                              "ask the scorer for it again.")),
    405: (N_("Not here"), N_("This address cannot be used that way. Go back and tap "
                             "again.")),
    413: (N_("File too large"), N_("That file is too large: a match record may be at most "
                                   "256 KB.")),
}
"""The title and the explanation of each error page, in catalogue words."""

SERVER_ERROR = (N_("Something went wrong"), N_("The server could not answer. Wait a moment "
                                               "and try again."))


def _http_error(error: HTTPException):
    fallback = SERVER_ERROR if (error.code or 500) >= 500 else ERROR_PAGES[400]
    name, description = ERROR_PAGES.get(error.code, fallback)
    description = _(description)
    if error.code == 429:
        name, seconds = N_("Too many at once"), _retry_after()
        description = ngettext("Too many in a short time from here: wait %(num)s second and "
                               "try again.", "Too many in a short time from here: wait "
                               "%(num)s seconds and try again.", seconds)
    g.error_page = True
    template = "errors/_error.html" if request.htmx else "errors/error.html"
    page = render_template(template, code=error.code, name=_(name), description=description)
    if error.code == 429:
        return page, 429, {"Retry-After": str(seconds)}
    return page, error.code


def _retry_after() -> int:
    """The seconds until the breached limit lets this writer in again."""
    again = retry_at()
    return max(1, round(again - time.time())) if again else 60


def _csrf_error(error: CSRFError):
    """A form from an expired session: htmx reloads the page for a fresh token."""
    response = render_template("errors/error.html", code=400, name=_("Form expired"),
                               description=_("This page was open too long or the server "
                                             "was reset. Reload the page and tap again.")), 400
    if request.htmx:
        return "", 400, {"HX-Refresh": "true"}
    return response


def _security_headers(response):
    endpoint = request.endpoint or ""
    area = endpoint.split(".")[0]
    if area in ("table", "board", "league"):
        wanted = PRIVATE_AREA_HEADERS["no-cache" if area == "board" else "no-store"]
    elif area == "home" and endpoint != "home.rules":
        wanted = HOME_HEADERS  # lists this phone's keys
    else:
        wanted = SECURITY_HEADERS
    headers = response.headers
    present = {name.lower() for name in headers.keys()}  # one pass, not one per header
    headers.extend([(name, value) for name, value in wanted if name.lower() not in present])
    transport_headers(response)
    return response
