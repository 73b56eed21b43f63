"""scorekeeper: score All Fives (Muggins) dominoes at the table, one tap per tile."""

import contextlib
import os
import secrets
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config=None) -> "Flask":
    """The app: defaults, then instance/config.py, then SCOREKEEPER_* variables, then tests.

    The composition root: the store is opened (checked, upgraded) and handed to the web
    layer, and the command line's commands are registered on `flask --app scorekeeper`.
    Flask is imported here, not with the package, so `scorekeeper replay` starts without it.
    """
    from flask import Flask

    app = Flask(__name__, instance_relative_config=True, template_folder=_templates())
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "scorekeeper.sqlite"),
        MAX_CONTENT_LENGTH=256 * 1024,
        WTF_CSRF_TIME_LIMIT=None,  # a match lasts all evening; the token lives with the session
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        BABEL_DEFAULT_LOCALE="en",
        POLL_SECONDS=3,
        PUBLIC_PAGE_SECONDS=2,  # the public league page's live part may be this old
        SEND_FILE_MAX_AGE_DEFAULT=365 * 24 * 3600,  # static URLs carry a hash of the file
    )
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env("SCOREKEEPER")
    if test_config is not None:
        app.config.from_mapping(test_config)
    from .commands import all_commands
    from .rules.words import N_
    from .storage import StorageRefused, open_store

    with contextlib.suppress(OSError):  # what needs the folder says so below, in one line
        os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        try:
            app.config["SECRET_KEY"] = _instance_secret(app.instance_path)
        except OSError as error:
            raise StorageRefused.worded(
                N_("cannot keep the secret key in %(folder)s (%(why)s): let this user write "
                   "that folder, or set SCOREKEEPER_SECRET_KEY"), "no_secret_key",
                folder=app.instance_path, why=error.strerror) from None
    from .web import init_web

    init_web(app, open_store(app.config))
    for command in all_commands():
        app.cli.add_command(command)
    return app


def _templates() -> str:
    """The pages: inside the package once installed from a wheel, else the checkout's
    top-level templates/ beside the package."""
    installed = os.path.join(os.path.dirname(__file__), "templates")
    return "templates" if os.path.isdir(installed) else "../templates"


def _instance_secret(instance_path: str) -> str:
    """A random key made on first start and kept in instance/secret_key (git-ignored)."""
    path = os.path.join(instance_path, "secret_key")
    try:
        with open(path) as file:
            key = file.read().strip()
        if key:
            return key
    except FileNotFoundError:
        pass
    key = secrets.token_hex(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another worker made it first: use theirs
        return _instance_secret(instance_path)
    with os.fdopen(fd, "w") as file:
        file.write(key)
    return key
