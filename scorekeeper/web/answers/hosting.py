"""What a hosted app needs: a trusted proxy, https-only cookies and HSTS, a session that a
stepped clock cannot throw away, and logs without scoring keys."""

import logging
import re
from datetime import UTC, datetime, timedelta

from flask import has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature
from werkzeug.middleware.proxy_fix import ProxyFix

HSTS = "max-age=31536000"
COOKIE_LIFETIME = timedelta(days=400)
"""The longest a browser keeps a cookie; the first answer of each day renews it."""
COOKIE_RENEWAL = timedelta(days=1)
"""How old a session cookie may be before an answer signs and sends it again."""


class SteadySession(SecureCookieSessionInterface):
    """The session cookie is signed but its date is never checked.

    Flask refuses a cookie signed "in the future" (a server clock stepped back) or over
    31 days old, and with it the phone's scoring links and form token. The cookie itself
    lasts 400 days, and is sent over https only when the page came over https. An unchanged
    cookie is signed and sent again once a day, not with every tap and poll.
    """

    def get_signing_serializer(self, app):
        """Flask's serializer, made once per secret key rather than on every request."""
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        kept = getattr(self, "_serializer", None)
        if kept is None or kept[0] != keys:
            kept = self._serializer = (keys, super().get_signing_serializer(app))
        return kept[1]

    def open_session(self, app, request):
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        try:  # no max_age: no clock
            data, signed = serializer.loads(value, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        session = self.session_class(data)
        session.signed = signed
        return session

    def should_set_cookie(self, app, session) -> bool:
        if session.modified:
            return True
        if not (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            return False
        signed = getattr(session, "signed", None)  # None: a session new in this request
        return signed is None or abs(datetime.now(UTC) - signed) > COOKIE_RENEWAL

    def get_cookie_secure(self, app) -> bool:
        return super().get_cookie_secure(app) or (has_request_context() and request.is_secure)


KEYED_PATH = re.compile(r"(/(?:match|board)/[\w-]+/)[\w-]+")
"""A match's scoring or scoreboard path: the key follows the id."""


class KeyRedactor(logging.Filter):
    """No log line names a match's key: in every path the key becomes `<key>`, and so does
    the key of the request being served wherever else it appears."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cut = KEYED_PATH.sub(r"\1<key>", message)
        key = (request.view_args or {}).get("key") if has_request_context() else None
        if key:
            cut = cut.replace(str(key), "<key>")
        if cut != message:
            record.msg, record.args = cut, ()
        return True


REDACTOR = KeyRedactor()
LOGGERS = ("werkzeug", "_granian", "scorekeeper.serve")
"""Besides the app's own: the development server's access log, Granian's errors and the
server's busy count."""


def init_hosting(app) -> None:
    app.config.setdefault("PROXIES", 0)
    if app.config["PERMANENT_SESSION_LIFETIME"] == timedelta(days=31):  # Flask's default
        app.config["PERMANENT_SESSION_LIFETIME"] = COOKIE_LIFETIME
    proxies = int(app.config["PROXIES"])
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies,
                                x_host=proxies, x_port=proxies, x_prefix=proxies)
    app.session_interface = SteadySession()
    for logger in (app.logger, *map(logging.getLogger, LOGGERS)):
        logger.addFilter(REDACTOR)  # once: addFilter skips a filter it already has


def transport_headers(response) -> None:
    """HSTS on every answer sent over https (directly or through a trusted proxy)."""
    if request.is_secure:
        response.headers.setdefault("Strict-Transport-Security", HSTS)
