"""`scorekeeper move-store`: a played season moved from SQLite to PostgreSQL and back (and
between two of a kind) whole: every row the same, every link opening the same page, every
match rebuilt the same, the source untouched, and the target playing on from where the
source stopped. Refusals and failures are in test_move_store_refusals.py."""

import hashlib
import itertools
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from season import break_a_log, links, play_season, rows, shown

from scorekeeper.commands import command
from scorekeeper.storage import connect

NUMBERS = itertools.count(1)
KINDS = ("sqlite", "postgresql")
ON_POSTGRESQL = pytest.mark.postgresql


def way(source: str, target: str):
    marks = [ON_POSTGRESQL] if "postgresql" in (source, target) else []
    return pytest.param(source, target, marks=marks, id=f"{source}-to-{target}")


WAYS = [way(source, target) for source in KINDS for target in KINDS]


@pytest.fixture
def new_store(request, tmp_path):
    """A blank store of a kind: a SQLite file not made yet, or a PostgreSQL database with no
    table (as createdb makes it)."""
    def make(kind: str, name: str = "target") -> str:
        if kind == "sqlite":
            return str(tmp_path / f"{name}{next(NUMBERS)}.sqlite")
        cluster = request.getfixturevalue("postgresql_cluster")
        return cluster.create_database(f"move{os.getpid()}x{next(NUMBERS)}")
    return make


@pytest.fixture
def season(new_store, app_factory):
    """A store of a kind holding a played season, and the app that played it."""
    def make(kind: str):
        where = new_store(kind, "season")
        app = app_factory(database=where)
        play_season(app.test_client())
        return where, app
    return make


def move(*args: str):
    return CliRunner().invoke(command("move-store"), list(args))


def without_caches(found: dict) -> dict:
    return {table: found_rows for table, found_rows in found.items() if table != "boards"}


@pytest.mark.parametrize(("source_kind", "target_kind"), WAYS)
def test_a_season_moves_whole_and_every_link_opens_the_same_page(season, new_store,
                                                                 app_factory, source_kind,
                                                                 target_kind):
    source, app = season(source_kind)
    broken = break_a_log(source)
    before, target = rows(source), new_store(target_kind)
    named = f"sqlite://{source}" if source_kind == "sqlite" else source
    done = move("--from", named, "--to", target)
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0].startswith("Moved ") and "password" not in done.output
    assert re.search(rf"^  entries +{len(before['entries']):,} rows$", done.output, re.M)
    assert "  boards       not copied: each scoreboard is rendered again" in done.output
    assert lines[-1].startswith(f"Checked: every table read back the same, and "
                                f"{len(before['matches'])} matches rebuilt on both sides")
    after = rows(target)
    assert without_caches(after) == without_caches(before)
    assert before["boards"] and not after["boards"]
    assert {"reopened", "cleared", "entered"} <= {kind for (_, _, _, kind, _) in
                                                  after["corrections"]}
    assert rows(source) == before
    pages = links(source)
    moved_app = app_factory(database=target)
    assert shown(moved_app.test_client(), pages) == shown(app.test_client(), pages)
    table = next(page for page in pages if page.startswith(f"/match/{broken}/"))
    assert "hold one the rules refuse" in moved_app.test_client().get(table).text


def _one(where: str, query: str):
    conn = connect(where)
    try:
        return conn.execute(query).fetchone()
    finally:
        conn.close()


@pytest.mark.parametrize(("source_kind", "target_kind"), [way("sqlite", "postgresql"),
                                                          way("postgresql", "sqlite")])
def test_the_moved_season_plays_on_where_it_stopped(season, new_store, app_factory,
                                                    source_kind, target_kind):
    source, _ = season(source_kind)
    target = new_store(target_kind)
    assert move("--from", source, "--to", target).exit_code == 0
    client = app_factory(database=target).test_client()
    teams, corrections = _one(target, "SELECT max(id) FROM teams")[0], len(
        rows(target)["corrections"])
    league, secretary = _one(target, "SELECT id, secretary_key FROM leagues")
    link = f"/league/{league}/{secretary}"
    assert client.post(f"{link}/teams", data={"name": "Dock"}).status_code == 303
    assert _one(target, "SELECT id FROM teams WHERE name = 'Dock'")[0] == teams + 1
    fixture = re.search(r'/card/(\d+)">Anchor v Bell</a>', client.get(link).text).group(1)
    page = client.get(f"{link}/card/{fixture}").text
    revision = re.search(r'name="rev" value="(\d+)"', page).group(1)
    assert client.post(f"{link}/card/{fixture}/reopen", data={"rev": revision}).status_code \
        in (200, 303)
    numbers = sorted(row[0] for row in rows(target)["corrections"])
    assert len(numbers) == corrections + 1 and numbers[-1] == max(numbers[:-1]) + 1
    match_id, key, revision = _live(target)
    answer = client.post(f"/match/{match_id}/{key}/lay", data={"move": "6-6",
                                                                "pos": revision})
    assert answer.status_code == 303
    assert _one(target, f"SELECT revision FROM matches WHERE id = '{match_id}'")[0] == \
        revision + 1


def _live(where: str) -> tuple[str, str, int]:
    """The league game being played: its id, scoring key and revision."""
    return tuple(_one(where, "SELECT id, score_key, revision FROM matches "
                             "WHERE fixture_id IS NOT NULL ORDER BY revision LIMIT 1"))


def _hashes(where: str) -> dict[str, str]:
    folder, name = os.path.split(where)
    return {file: hashlib.sha256(Path(folder, file).read_bytes()).hexdigest()
            for file in sorted(os.listdir(folder))
            if file.startswith(name) and not file.endswith("-shm")}  # a readers' index


@pytest.mark.parametrize(("source_kind", "target_kind"), [way("sqlite", "postgresql"),
                                                          way("sqlite", "sqlite")])
def test_the_source_file_is_not_changed_by_a_byte(season, new_store, source_kind,
                                                   target_kind):
    source, _ = season(source_kind)
    files = _hashes(source)
    assert move("--from", source, "--to", new_store(target_kind)).exit_code == 0
    assert _hashes(source) == files
