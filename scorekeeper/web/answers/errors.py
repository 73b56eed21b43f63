"""The error pages: every refusal the app or the server makes that is not a screen's own,
in the reader's words, built one way (`pages.error_page`)."""

from flask import current_app, g, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from ...rules.errors import N_
from .catalogue import gettext as _
from .catalogue import ngettext
from .limits import retry_after
from .pages import error_page, fragment_wanted
from .work import is_storage_fault, storage_errors

ERROR_PAGES = {
    400: (N_("Not understood"), N_("The app could not read what was sent. Go back and try "
                                   "again.")),
    404: (N_("Not found"), N_("There is nothing here. A match link must be copied whole; "
                              "ask the scorer for it again.")),
    405: (N_("Not here"), N_("This address cannot be used that way. Go back and tap "
                             "again.")),
    410: (N_("Link withdrawn"), N_("The league secretary withdrew this link and gave out a "
                                   "new one: it no longer opens anything. Ask the secretary "
                                   "for the new link.")),
    413: (N_("File too large"), N_("That file is too large: a match record may be at most "
                                   "256 KB.")),
}
"""The title and the explanation of each error page, in catalogue words."""

SERVER_ERROR = (N_("Something went wrong"), N_("The server could not answer. Wait a moment "
                                               "and try again."))


def init_errors(app) -> None:
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(CSRFError, _csrf_error)
    for error in storage_errors(app):
        app.register_error_handler(error, _storage_fault)


def _http_error(error: HTTPException):
    if error.code == 429:
        seconds = retry_after()
        g.error_page = True
        page = error_page(429, _("Too many at once"), ngettext(
            "Too many in a short time from here: wait %(num)s second and try again.",
            "Too many in a short time from here: wait %(num)s seconds and try again.",
            seconds))
        return page, 429, {"Retry-After": str(seconds)}
    if error.code == 503:  # heavy.py: every slot of heavy work taken
        g.error_page = True
        page = error_page(503, _("Busy with a large file"), ngettext(
            "The server is busy restoring or exporting a season: wait %(num)s second and "
            "try again.",
            "The server is busy restoring or exporting a season: wait %(num)s seconds and "
            "try again.", retry_after()))
        return page, 503, {"Retry-After": str(retry_after())}
    return status_page(error.code), error.code


def status_page(code: int) -> str:
    """The error page of an HTTP status, in the reader's words: the app's own, and the
    server's 408 and 413 (server/pages.py)."""
    fallback = SERVER_ERROR if (code or 500) >= 500 else ERROR_PAGES[400]
    name, description = ERROR_PAGES.get(code, fallback)
    g.error_page = True  # a wrong address's page: the language menu links home (language.py)
    return error_page(code, _(name), _(description))


def _csrf_error(error: CSRFError):
    """A form from an expired session: htmx reloads the page for a fresh token."""
    if fragment_wanted():
        return "", 400, {"HX-Refresh": "true"}
    return error_page(400, _("Form expired"), _("This page was open too long or the server "
                                                "was reset. Reload the page and tap again.")), 400


def _storage_fault(error: Exception):
    """A full disk, a read-only file or a lost database server: say that nothing was stored
    (or, for a page, that it cannot be read just now), never a bare 500."""
    if not is_storage_fault(error):
        raise error
    current_app.logger.error("storage fault on %s: %s", request.endpoint, error)
    if request.method in ("GET", "HEAD"):
        body = error_page(503, _("Cannot be read just now"), _(
            "The server cannot read its scores just now: its disk or its database server "
            "has failed. Nothing was changed. Wait a moment and try again."))
    else:
        body = error_page(503, _("Not saved"), _(
            "The server could not store it: its disk is full or its database cannot be "
            "written. Nothing was changed. Tell whoever runs the server, then tap again."))
    return body, 503, {"Retry-After": "30"}
