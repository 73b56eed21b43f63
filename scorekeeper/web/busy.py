"""The answer of a server past its capacity: 503 with Retry-After, at once and without the app.

`scorekeeper serve` gives it from its event loop when a request would wait too long for
its worker (gateway.py), so it must cost next to nothing: the page is rendered
in each language when the server starts, and only the language is chosen per request.
"""

from dataclasses import dataclass

from flask import render_template
from flask_babel import force_locale
from flask_babel import gettext as _
from werkzeug.wrappers import Request

from .language import LANGUAGES, locale_of

BUSY_HEADER = "Scorekeeper-Busy"
"""Marks the server's own 503 (nothing reached the app: send it again) apart from the app's
503 for a storage fault (not saved: the scorer must know)."""


@dataclass(frozen=True)
class BusyPages:
    """The busy page in every language, whole and as an htmx fragment, with its headers."""

    bodies: dict[tuple[str, bool], bytes]
    headers: list[tuple[str, str]]

    def __call__(self, environ, start_response, retry_after: int):
        """The 503 itself, a WSGI answer in the reader's language (as every page chooses)."""
        asked = Request(environ)
        body = self.bodies[locale_of(asked), asked.headers.get("HX-Request") == "true"]
        start_response("503 Service Unavailable",
                       [*self.headers, ("Retry-After", str(retry_after)),
                        ("Content-Length", str(len(body)))])
        return [body]


def busy_pages(app) -> BusyPages:
    """Rendered once, when the server starts."""
    from . import SECURITY_HEADERS

    bodies = {}
    for code in LANGUAGES:
        for fragment in (False, True):
            with app.test_request_context("/"), force_locale(code):
                template = "errors/_error.html" if fragment else "errors/error.html"
                bodies[code, fragment] = render_template(
                    template, code=503, name=_("Server busy"),
                    description=_("The server has too many requests at once. Nothing was "
                                  "changed: wait a few seconds and try again.")).encode()
    headers = [("Content-Type", "text/html; charset=utf-8"), (BUSY_HEADER, "1"),
               ("Cache-Control", "no-store"), ("Vary", "Accept-Language, Cookie"),
               *SECURITY_HEADERS]
    return BusyPages(bodies, headers)
