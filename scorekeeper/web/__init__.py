"""The web layer: blueprints, extensions, error pages and the headers on every response."""

import functools
import hashlib
import os
import time

from flask import current_app, render_template, request
from flask_babel import Babel
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError, CSRFProtect
from htmx_flask import Htmx
from werkzeug.exceptions import HTTPException

from ..db import get_db
from ..services.unit_of_work import UnitOfWork
from ..store import MatchCache
from .hosting import transport_headers
from .sharing import lan_host, shared_url

csrf = CSRFProtect()

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'self'; base-uri 'none'; object-src 'none'; "
       "frame-ancestors 'none'")


def init_web(app) -> None:
    from . import board, home, install, league, sheet, table
    from .hosting import init_hosting
    from .limits import limiter

    init_hosting(app)
    app.extensions["scorekeeper.matches"] = MatchCache()  # shared by the server's threads
    Htmx(app)
    csrf.init_app(app)
    limiter.init_app(app)
    Babel(app, locale_selector=lambda: request.accept_languages.best_match(["en"]) or "en")
    app.register_blueprint(home.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(board.bp)
    app.register_blueprint(install.bp)
    app.add_template_global(sheet.score_sheet)
    app.add_template_global(sheet.hand_moves)
    app.register_blueprint(league.bp)
    app.url_defaults(_versioned_static)
    app.jinja_env.globals.update(shared_url=shared_url, lan_host=lan_host)
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


def _http_error(error: HTTPException):
    name, description = error.name, error.description
    if error.code == 413:
        description = _("That file is too large: a match record may be at most 256 KB.")
    if error.code == 429:
        name = _("Too many at once")
        description = _("Too many in a short time from here: wait %(seconds)s seconds and "
                        "try again.", seconds=_retry_after())
    template = "errors/_error.html" if request.htmx else "errors/error.html"
    return render_template(template, code=error.code, name=name,
                           description=description), error.code


def _retry_after() -> int:
    """The seconds until the breached limit lets this writer in again."""
    from .limits import limiter

    breached = limiter.current_limit
    return max(1, round(breached.reset_at - time.time())) if breached else 60


def _csrf_error(error: CSRFError):
    """A form from an expired session: htmx reloads the page for a fresh token."""
    response = render_template("errors/error.html", code=400, name=_("Form expired"),
                               description=_("This page was open too long or the server "
                                             "was reset. Reload the page and tap again.")), 400
    if request.htmx:
        return "", 400, {"HX-Refresh": "true"}
    return response


def _security_headers(response):
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CSP)
    headers.setdefault("X-Content-Type-Options", "nosniff")
    # same-origin: a match URL never leaves as a Referer, while the same-origin Referer
    # that Flask-WTF requires over https is kept.
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("X-Frame-Options", "DENY")
    transport_headers(response)
    area = (request.endpoint or "").split(".")[0]
    if area in ("table", "board", "league"):
        headers.setdefault("X-Robots-Tag", "noindex, nofollow")
        headers.setdefault("Cache-Control", "no-cache" if area == "board" else "no-store")
    elif area == "home" and request.endpoint != "home.rules":
        headers.setdefault("Cache-Control", "private, no-store")  # lists this phone's keys
    return response
