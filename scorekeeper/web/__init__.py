"""The web layer: blueprints, forms and the screens, over the use cases of `services/`.

`init_web` sets the app up: its extensions, the error pages, the headers on every answer
and one blueprint per area, each with its policy (`answers/area.py`). A view is form →
service → render (`answers/pages.screen`).

- `answers/`: what every answer needs (headers, limits, errors, language, compression,
  hosting, the unit of work, page or fragment);
- `scoring/`: the home pages and the scoring screen, its scoreboard, sheet and pictures;
- `explain/`: the replay of a match and the referee, each move told in words;
- `league/`: the league's pages and its match cards.
"""

from flask_babel import Babel, get_locale
from flask_wtf.csrf import CSRFProtect
from htmx_flask import Htmx

from . import league
from .answers.assets import versioned_static
from .answers.catalogue import install as install_catalogue
from .answers.compression import init_compression
from .answers.errors import init_errors
from .answers.headers import security_headers
from .answers.hosting import init_hosting
from .answers.language import day_words, language_menu, remember_choice, select_locale
from .answers.limits import init_limits, pace_ms
from .answers.sharing import lan_host, shared_url
from .answers.work import STORE, close_unit_of_work
from .explain import referee, replay
from .scoring import board, home, install, kept, table
from .scoring.forms import RowNumber
from .scoring.pictures import current_picture
from .scoring.sheet import hand_moves

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
    app.register_blueprint(league.card_bp)
    app.url_defaults(versioned_static)
    app.jinja_env.globals.update(shared_url=shared_url, lan_host=lan_host,
                                 layout_picture=current_picture,
                                 engine_address=install.engine_address, pace_ms=pace_ms)
    kept.install(app.jinja_env)
    init_errors(app)
    app.after_request(security_headers)
    app.wsgi_app = board.RepeatedPolls(app)
