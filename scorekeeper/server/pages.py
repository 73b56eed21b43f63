"""The server's own answers, given without the app: 503 busy (past its capacity), 408 (a
body too slow), 413 (a chunked body too large) and 500 (the app failed before it could
give its own answer).

They must cost next to nothing, so each is rendered in every language, as a page and as
an htmx fragment, when the server starts, by the app's own error page; only the language
is chosen per request, as every page chooses it.
"""

from dataclasses import dataclass

from flask_babel import force_locale
from flask_babel import gettext as _
from werkzeug.wrappers import Request

from ..web.answers.errors import status_page
from ..web.answers.headers import SECURITY_HEADERS
from ..web.answers.language import LANGUAGES, locale_of
from ..web.answers.pages import error_page

BUSY_HEADER = "Scorekeeper-Busy"
"""Marks the server's own 503 (nothing reached the app: send it again) apart from the app's
503 for a storage fault (not saved: the scorer must know)."""
BUSY, TOO_SLOW, TOO_LARGE, FAILED = 503, 408, 413, 500


@dataclass(frozen=True)
class ServerPages:
    """Each answer in every language, whole and as an htmx fragment, with its headers."""

    bodies: dict[tuple[int, str, bool], bytes]
    headers: list[tuple[str, str]]

    def answer(self, environ, code: int, extra: tuple = ()) -> tuple[int, list, bytes]:
        """The answer `code` in the reader's language: (status, headers, body)."""
        asked = Request({**environ, "PATH_INFO": "/"})  # the language is in the head
        body = self.bodies[code, locale_of(asked), asked.headers.get("HX-Request") == "true"]
        headers = [*self.headers, *extra, ("Content-Length", str(len(body)))]
        if code == BUSY:
            headers.append((BUSY_HEADER, "1"))
        return code, headers, body

    def busy(self, environ, retry_after: int) -> tuple[int, list, bytes]:
        """The 503 itself: nothing reached the app; come back in `retry_after` seconds."""
        return self.answer(environ, BUSY, (("Retry-After", str(retry_after)),))


def server_pages(app) -> ServerPages:
    """Rendered once, when the server starts."""
    bodies = {}
    for code in LANGUAGES:
        for fragment in (False, True):
            headers = {"HX-Request": "true"} if fragment else {}
            with app.test_request_context("/", headers=headers), force_locale(code):
                bodies[BUSY, code, fragment] = error_page(
                    BUSY, _("Server busy"), _("The server has too many requests at once. "
                                              "Nothing was changed: wait a few seconds and "
                                              "try again.")).encode()
            for status in (TOO_SLOW, TOO_LARGE, FAILED):  # the answers to a form's body
                with app.test_request_context("/", method="POST", headers=headers), \
                        force_locale(code):
                    bodies[status, code, fragment] = status_page(status).encode()
    headers = [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
               ("Vary", "Accept-Language, Cookie"), *SECURITY_HEADERS]
    return ServerPages(bodies, headers)
