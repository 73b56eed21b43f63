"""Fixtures as in flaskr: an app on a temporary database, its test client and CLI runner.

Beside them, small helpers for the web tests: create a match through the form, read
the revision (`pos`) a page sends back, drive a match as the scorer's phone does, and
read what the database holds afterwards.
"""

import io
import itertools
import json
import os
import re
import shutil
from pathlib import Path

import pytest
import stores
from jinja2 import BytecodeCache
from postgresql import Cluster, Unavailable, missing
from werkzeug.routing import Rule

from scorekeeper import create_app
from scorekeeper.rules import default_hand_size, default_target
from scorekeeper.storage import connect, is_postgresql, location
from scorekeeper.storage.connection import upgrade
from scorekeeper.web.answers.work import STORE

HTMX = {"HX-Request": "true"}
"""The header htmx sends with every request it makes."""

_POS = re.compile(r'name="pos" value="(\d+)"')
_TEST_CONFIG = {"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test-secret"}


class _CompiledTemplates(BytecodeCache):
    """Jinja's compiled templates kept in memory for the whole session, keyed by source.

    Every test makes a new app, and so a new Jinja environment; without this each one
    compiles every template again, which is most of the suite's time.
    """

    def __init__(self):
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        code = self.compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


_TEMPLATES = _CompiledTemplates()


@pytest.fixture(scope="session", autouse=True)
def url_builders_compiled_once():
    """Werkzeug compiles, with Python's compiler, a function that builds the URLs of each
    rule, for every app: nine tenths of create_app's time, and a thousand tests make an app.
    The function depends only on the rule, so the suite compiles each rule's once and hands
    every app the same one (without the private method, a new Werkzeug compiles as before)."""
    if not hasattr(Rule, "_compile_builder"):
        yield
        return
    compile_builder = Rule._compile_builder
    compiled = {}

    def once(rule: Rule, append_unknown: bool = True):
        key = (rule.rule, tuple(rule._trace), repr(rule.defaults), append_unknown)
        if key not in compiled:
            compiled[key] = compile_builder(rule, append_unknown)
        return compiled[key]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Rule, "_compile_builder", once)
        yield


@pytest.fixture(scope="session", autouse=True)
def console_in_english():
    """The commands speak the language LANG names (commands/console.py): the suite asks for
    English, whatever the machine it runs on speaks; a test that wants another sets it."""
    with pytest.MonkeyPatch.context() as patch:
        for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            patch.delenv(name, raising=False)
        patch.setenv("LANG", "C.UTF-8")
        yield


@pytest.fixture(scope="session")
def empty_database(tmp_path_factory) -> str:
    """A database with the newest schema and no match, made once and copied for each app."""
    path = str(tmp_path_factory.mktemp("schema") / "empty.sqlite")
    conn = connect(path)
    try:
        upgrade(conn)
    finally:
        conn.close()
    return path


_OURS = ("scorekeeper", "bench", "browser",
         *sorted(path.stem for path in Path(__file__).parent.glob("*.py")))
"""The modules whose deprecation warnings fail the run: the package, the benchmarks and
every module of the suite (its tests and helpers, found here, so a new one is counted)."""

OUR_DEPRECATIONS = rf"({'|'.join(_OURS)})(\.|$)"
"""The module pattern of a warnings filter that matches our modules and no dependency's."""


def pytest_configure(config) -> None:
    """A deprecation raised by our own call into a library (the library's warning names our
    module as its caller) is an error, as every other warning is: pyproject.toml leaves a
    dependency's deprecations in its own code reported but not fatal."""
    for category in ("DeprecationWarning", "PendingDeprecationWarning", "FutureWarning"):
        config.addinivalue_line("filterwarnings", f"error::{category}:{OUR_DEPRECATIONS}")


_LEFT_OUT = pytest.StashKey[str]()


def pytest_collection_modifyitems(config, items) -> None:
    """Without PostgreSQL here its tests are left out, said in one line at the end; under
    CI=true they run, and fail saying what to install."""
    marked = [item for item in items if item.get_closest_marker("postgresql")]
    reason = missing() if marked and os.environ.get("CI") != "true" else None
    if reason:
        items[:] = [item for item in items if not item.get_closest_marker("postgresql")]
        config.hook.pytest_deselected(items=marked)
        config.stash[_LEFT_OUT] = f"{len(marked)} PostgreSQL tests not run: {reason}"
        if hasattr(config, "workeroutput"):  # a pytest-xdist worker: tell the controller
            config.workeroutput["left_out"] = config.stash[_LEFT_OUT]


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """Under pytest-xdist the workers collect: the controller prints what they left out."""
    if left_out := getattr(node, "workeroutput", {}).get("left_out"):
        node.config.stash[_LEFT_OUT] = left_out


def pytest_terminal_summary(terminalreporter, config) -> None:
    if _LEFT_OUT in config.stash:
        terminalreporter.write_line(config.stash[_LEFT_OUT])


@pytest.fixture(scope="session")
def postgresql_cluster():
    """A throw-away PostgreSQL cluster for the whole run, with an empty database at the
    newest schema to copy. Without PostgreSQL its tests are skipped, but fail under CI."""
    try:
        cluster = Cluster()
    except Unavailable as missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI runs the PostgreSQL tests: {missing}")
        pytest.skip(f"PostgreSQL tests: {missing}")
    cluster.start()
    conn = connect(cluster.create_database("empty"))
    try:
        upgrade(conn)
    finally:
        conn.close()
    yield cluster
    cluster.stop()


_DATABASE_NUMBERS = itertools.count(1)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def database(request, tmp_path, empty_database) -> str:
    """A new database at the newest schema, once on each backend: a SQLite file's path or
    a PostgreSQL database's URL (what SCOREKEEPER_DATABASE or _DATABASE_URL would say)."""
    if request.param == "sqlite":
        shutil.copyfile(empty_database, tmp_path / "scorekeeper.sqlite")
        return str(tmp_path / "scorekeeper.sqlite")
    return request.getfixturevalue("postgresql_database")


@pytest.fixture
def postgresql_database(postgresql_cluster) -> str:
    """The URL of a new PostgreSQL database at the newest schema."""
    return postgresql_cluster.create_database(f"test{next(_DATABASE_NUMBERS)}",
                                              template="empty")


@pytest.fixture
def app_factory(tmp_path, empty_database):
    """create_app on a new database in tmp_path (or on `database`, a path or a PostgreSQL
    URL), with the test settings and any others."""
    held, apps = [], []

    def make(name: str = "scorekeeper.sqlite", database: str | None = None, **config):
        if database is None:
            shutil.copyfile(empty_database, tmp_path / name)
            database = str(tmp_path / name)
        where = ({"DATABASE_URL": database} if is_postgresql(database)
                 else {"DATABASE": database})
        app = create_app({**_TEST_CONFIG, "DATABASE": str(tmp_path / name), **where,
                          **config})
        app.jinja_env.bytecode_cache = _TEMPLATES
        apps.append(app)
        # Kept open, as a running server would: the last connection to close checkpoints
        # the WAL to disk, and each request's connection would otherwise be the last.
        held.append(connect(location(app.config)))
        return app

    yield make
    for conn in held:
        conn.close()
    for app in apps:
        app.extensions[STORE].close()


@pytest.fixture
def app(app_factory):
    return app_factory()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def speaking(client):
    """The test client with the language chosen, as the language menu leaves it."""
    def choose(lang: str):
        client.set_cookie("lang", lang)
        return client
    return choose


def read_pos(html: str) -> int:
    """The revision every form of a table page or fragment sends back as `pos`."""
    found = set(_POS.findall(html))
    assert len(found) == 1, f"expected one pos on the page, found {sorted(found)}"
    return int(found.pop())


@pytest.fixture
def pos_of():
    return read_pos


def create_match(client, players=("Ann", "Bob"), partnerships=False, target=None,
                 hand_size=None) -> str:
    """Fill in the new-match form; returns the scoring URL the answer redirects to."""
    count = len(players)
    form = {"count": str(count),
            "target": str(target or default_target(count, partnerships)),
            "hand_size": str(hand_size or default_hand_size(count))}
    form.update({f"player{seat}": name for seat, name in enumerate(players, 1)})
    if partnerships:
        form["partnerships"] = "y"
    response = client.post("/new", data=form)
    assert response.status_code == 303, response.text
    return response.headers["Location"]


@pytest.fixture
def new_match(client):
    """create_match on the test client; pass client= to use another one."""

    def make(players=("Ann", "Bob"), partnerships=False, target=None, hand_size=None,
             client=client) -> str:
        return create_match(client, players, partnerships, target, hand_size)

    return make


class Phone:
    """The scorer's phone on one match: each action posts what the table page's form posts."""

    def __init__(self, client, url: str):
        self.client = client
        self.url = url
        _, _, self.match_id, self.key = url.split("/")
        self._seen = None  # the pos on the last table this phone was shown

    def page(self, htmx: bool = False):
        response = self.client.get(self.url, headers=HTMX if htmx else {})
        self._remember(response)
        return response

    def pos(self) -> int:
        """The pos of the table this phone shows now, as its forms would send it."""
        return self._seen if self._seen is not None else read_pos(self.page().text)

    def post(self, action: str, data=None, pos=None, htmx: bool = True):
        """POST to /<action> with the pos of the table on screen unless one is given."""
        fields = dict(data or {})
        fields["pos"] = self.pos() if pos is None else pos
        response = self.client.post(f"{self.url}/{action}", data=fields,
                                    headers=HTMX if htmx else {})
        self._remember(response)
        return response

    def _remember(self, response) -> None:
        found = _POS.findall(response.text) if response.status_code != 303 else []
        self._seen = int(found[0]) if found else None

    def start(self, seat: int, **kwargs):
        return self.post("start", {"seat": seat}, **kwargs)

    def lay(self, move: str, **kwargs):
        return self.post("lay", {"move": move}, **kwargs)

    def draw(self, **kwargs):
        return self.post("draw", **kwargs)

    def pass_turn(self, **kwargs):
        return self.post("pass", **kwargs)

    def undo(self, **kwargs):
        return self.post("undo", **kwargs)

    def end(self, fields, **kwargs):
        return self.post("end", fields, **kwargs)

    def play(self, *moves: str):
        """Lay, draw or pass each move in turn; every one must be accepted."""
        response = None
        for move in moves:
            if move == "draw":
                response = self.draw()
            elif move == "pass":
                response = self.pass_turn()
            else:
                response = self.lay(move)
            assert response.status_code == 200, (move, response.text)
        return response


@pytest.fixture
def phone(client, new_match):
    """A new match through the form, and a Phone scoring it (same arguments as new_match)."""

    def make(*args, client=client, **kwargs) -> Phone:
        return Phone(client, new_match(*args, client=client, **kwargs))

    return make


@pytest.fixture
def imported(client):
    """A match set up in one write by importing its record; returns a Phone scoring it.

    For tests whose subject is what comes after the setup: one transaction instead of one
    per move keeps the suite fast.
    """

    def make(players=("Ann", "Bob"), hands=(), client=client, **setup) -> Phone:
        record = {"format": "allfives-match/1", "players": list(players),
                  "hands": list(hands), **setup}
        response = client.post("/import", data={
            "record": (io.BytesIO(json.dumps(record).encode()), "setup.json")})
        assert response.status_code == 303, response.text
        return Phone(client, response.headers["Location"])

    return make


@pytest.fixture
def other_phone(app):
    """A second phone, with its own browser session, scoring the same match as `table`."""

    def make(table: Phone) -> Phone:
        return Phone(app.test_client(), table.url)

    return make


@pytest.fixture
def entries(app):
    """The entries stored for a match, as (kind, data) rows in order."""

    def read(match_id: str) -> list[tuple[str, str]]:
        conn = connect(location(app.config))
        try:
            return [tuple(row) for row in conn.execute(
                "SELECT kind, data FROM entries WHERE match_id = ? ORDER BY seq", (match_id,))]
        finally:
            conn.close()

    return read


@pytest.fixture
def match_count(app):
    """How many matches the database holds."""

    def count() -> int:
        conn = connect(location(app.config))
        try:
            return conn.execute("SELECT count(*) FROM matches").fetchone()[0]
        finally:
            conn.close()

    return count


@pytest.fixture
def stored(app):
    """The match as the store rebuilds it from its entries (None if the key does not open it)."""

    def load(match_id: str, key: str) -> stores.Stored | None:
        conn = connect(location(app.config))
        try:
            return stores.load(conn, match_id, key, scoring=True)
        finally:
            conn.close()

    return load


@pytest.fixture
def blank_store(request, tmp_path):
    """A blank store of a kind ("sqlite" or "postgresql"): a SQLite file not made yet, or a
    PostgreSQL database with no table (as createdb makes it)."""
    def make(kind: str, name: str = "store") -> str:
        if kind == "sqlite":
            return str(tmp_path / f"{name}{next(_DATABASE_NUMBERS)}.sqlite")
        cluster = request.getfixturevalue("postgresql_cluster")
        return cluster.create_database(f"{name}{next(_DATABASE_NUMBERS)}")
    return make


@pytest.fixture
def played_store(blank_store, app_factory):
    """A store of a kind holding a played season (tests/season.py), and the app that played it
    (with the write limits on, as a pub's, so the store holds their counts; off after it,
    for the tests' reading of every page)."""
    from season import play_season

    def make(kind: str):
        where = blank_store(kind, "season")
        app = app_factory(database=where, RATELIMIT_ENABLED=True)
        play_season(app.test_client())
        app.config["RATELIMIT_ENABLED"] = False
        return where, app
    return make
