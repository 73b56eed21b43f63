"""The web layer: blueprints, forms and the screens, over the use cases of `services/`.

`init_web` sets the app up: its extensions, the error pages, the headers on every answer
and one blueprint per area. A view is form → service → render (`pages.screen`).
"""

from flask_babel import Babel, get_locale
from flask_wtf.csrf import CSRFProtect
from htmx_flask import Htmx

from . import (
    board,
    home,
    install,
    kept,
    league,
    league_admin,  # noqa: F401 (its routes are the league blueprint's)
    league_card,
    league_papers,  # noqa: F401 (its routes are the league blueprint's)
    league_restore,  # noqa: F401 (its routes are the league blueprint's)
    league_team,  # noqa: F401 (its routes are the league blueprint's)
    referee,
    replay,
    table,
)
from .assets import versioned_static
from .catalogue import install as install_catalogue
from .compression import init_compression
from .errors import init_errors
from .forms import RowNumber
from .headers import security_headers
from .hosting import init_hosting
from .language import day_words, language_menu, remember_choice, select_locale
from .limits import init_limits
from .pictures import current_picture
from .sharing import lan_host, shared_url
from .sheet import hand_moves
from .work import STORE, close_unit_of_work

csrf = CSRFProtect()


def init_web(app, store) -> None:
    """The web app over `store` (the database `create_app` opened)."""
    app.extensions[STORE] = store
    app.teardown_appcontext(close_unit_of_work)
    init_compression(app)  # first: its after_request runs last, on the final answer
    init_hosting(app)
    Htmx(app)
    csrf.init_app(app)
    init_limits(app)
    Babel(app, locale_selector=select_locale)
    install_catalogue(app)
    app.jinja_env.globals.update(get_locale=get_locale, language_menu=language_menu)
    app.add_template_filter(day_words, "day")
    app.after_request(remember_choice)
    app.url_map.converters["row"] = RowNumber  # before the blueprints that name it
    app.register_blueprint(home.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(board.bp)
    app.register_blueprint(replay.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(install.bp)
    app.add_template_global(hand_moves)
    app.register_blueprint(league.bp)
    app.register_blueprint(league_card.bp)
    app.url_defaults(versioned_static)
    app.jinja_env.globals.update(shared_url=shared_url, lan_host=lan_host,
                                 layout_picture=current_picture)
    kept.install(app.jinja_env)
    init_errors(app)
    app.after_request(security_headers)
