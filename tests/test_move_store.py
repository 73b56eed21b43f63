"""`scorekeeper move-store`: a played season moved from SQLite to PostgreSQL and back (and
between two of a kind) whole: every row the same, every link opening the same page, every
match rebuilt the same, the source untouched, and the target playing on from where the
source stopped. Refusals and failures are in test_move_store_refusals.py."""

import hashlib
import io
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from season import as_found, break_a_log, links, rows, shown, small_store

from scorekeeper import cli
from scorekeeper.commands import command
from scorekeeper.commands.console import ENGLISH
from scorekeeper.commands.move import _progress
from scorekeeper.storage import (
    HitLog,
    MoveFailed,
    connect,
    connection,
    move_store,
    upgrade,
)
from scorekeeper.storage.transfer import opening as transfer_open
from scorekeeper.storage.transfer import tables
from scorekeeper.storage.transfer.move import quiet

KINDS = ("sqlite", "postgresql")
ON_POSTGRESQL = pytest.mark.postgresql


def way(source: str, target: str):
    marks = [ON_POSTGRESQL] if "postgresql" in (source, target) else []
    return pytest.param(source, target, marks=marks, id=f"{source}-to-{target}")


WAYS = [way(source, target) for source in KINDS for target in KINDS]


def move(*args: str):
    return CliRunner().invoke(command("move-store"), list(args))


def without_caches(found: dict) -> dict:
    """Every table but those a move leaves out (the kept scoreboards, the write limits)."""
    return {table: found_rows for table, found_rows in found.items()
            if table not in tables.NOT_MOVED}


@pytest.mark.parametrize(("source_kind", "target_kind"), WAYS)
def test_a_season_moves_whole_and_every_link_opens_the_same_page(played_store, blank_store,
                                                                 app_factory, source_kind,
                                                                 target_kind):
    source, app = played_store(source_kind)
    broken = break_a_log(source)
    before, target = rows(source), blank_store(target_kind)
    named = f"sqlite://{source}" if source_kind == "sqlite" else source
    done = move("--from", named, "--to", target)
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0].startswith("Moved ") and "password" not in done.output
    assert re.search(rf"^  entries +{len(before['entries']):,} rows$", done.output, re.M)
    assert re.search(r"^  boards +not copied: each scoreboard is rendered again", done.output,
                     re.M)
    assert re.search(r"^  write_hits +not copied: the write limits count afresh", done.output,
                     re.M)
    assert lines[-1].startswith(f"Checked: every table read back the same, and "
                                f"{len(before['matches'])} matches rebuilt on both sides")
    after = rows(target)
    assert without_caches(after) == without_caches(before)
    assert before["boards"] and not after["boards"]
    assert before["write_hits"] and not after["write_hits"]
    assert {"A", "B"} <= {row[5] for row in after["teams"]}  # version 5: divisions
    assert after["league_changes"] and after["withdrawn_links"]  # version 7
    assert 1 in {row[7] for row in after["fixtures"]}  # and a play-off
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
def test_the_moved_season_plays_on_where_it_stopped(played_store, blank_store, app_factory,
                                                    source_kind, target_kind):
    source, _ = played_store(source_kind)
    target = blank_store(target_kind)
    assert move("--from", source, "--to", target).exit_code == 0
    client = app_factory(database=target, RATELIMIT_ENABLED=True).test_client()
    teams, corrections = _one(target, "SELECT max(id) FROM teams")[0], len(
        rows(target)["corrections"])
    league, secretary = _one(target, "SELECT id, secretary_key FROM leagues WHERE setup "
                                     "LIKE '%Fives League%'")
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
    assert _one(target, "SELECT count(*) FROM write_hits")[0]  # counted (PostgreSQL: by the
    # write_admit function the move made with the schema)


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
def test_the_source_file_is_not_changed_by_a_byte(played_store, blank_store, source_kind,
                                                   target_kind):
    source, _ = played_store(source_kind)
    files = _hashes(source)
    assert move("--from", source, "--to", blank_store(target_kind)).exit_code == 0
    assert _hashes(source) == files


_NUMBERED = re.compile(r'(/card/|/teams/|/player/|player-|fixtures/|<option value=")\d+')
_SEEN = re.compile(r'(name="seen" value=")\w+')
"""What a card's form saw: a digest with the fixture's team numbers, which adding moves."""


def _without_numbers(answers: list[tuple[str, int, str]]) -> list[tuple[int, str]]:
    """Pages with the numbers of teams and fixtures (and the digests holding them) left
    out: adding to a store moves them."""
    return [(status, _SEEN.sub(r"\1#", _NUMBERED.sub(r"\1#", text)))
            for _, status, text in answers]


@pytest.mark.parametrize("kind", [pytest.param("sqlite"),
                                  pytest.param("postgresql", marks=ON_POSTGRESQL)])
def test_two_pubs_seasons_added_into_one_store_keep_their_links(played_store, blank_store,
                                                                app_factory, kind):
    target = blank_store(kind)
    pubs = [played_store("sqlite"), played_store("sqlite")]
    assert move("--from", pubs[0][0], "--to", target).exit_code == 0
    done = move("--from", pubs[1][0], "--to", target, "--add")
    assert done.exit_code == 0, done.output
    teams, fixtures = (len(rows(pubs[0][0])[table]) for table in ("teams", "fixtures"))
    assert (f"Numbered after what the destination held: teams.id +{teams}, fixtures.id "
            f"+{fixtures}") in done.output
    client = app_factory(database=target).test_client()
    for source, app in pubs:
        pages = [page for page in links(source) if page != "/"]
        moved = [re.sub(r"/card/(\d+)", lambda found: f"/card/{int(found.group(1)) + fixtures}",
                        page) if source == pubs[1][0] else page for page in pages]
        assert _without_numbers(shown(client, moved)) == _without_numbers(
            shown(app.test_client(), pages))
    assert sum(len(rows(source)["matches"]) for source, _ in pubs) == len(
        rows(target)["matches"])


@pytest.mark.parametrize("kind", [pytest.param("sqlite"),
                                  pytest.param("postgresql", marks=ON_POSTGRESQL)])
def test_a_table_a_later_schema_version_adds_is_moved_too(blank_store, tmp_path,
                                                          monkeypatch, kind):
    notes = ("CREATE TABLE notes (id SERIAL_KEY, match_id TEXT NOT NULL REFERENCES "
             "matches(id), note TEXT NOT NULL)")
    later = [*connection.SCHEMA, notes]
    for module in (connection, tables, transfer_open):
        monkeypatch.setattr(module, "SCHEMA", later)
    source, target = str(tmp_path / "pub.sqlite"), blank_store(kind)
    first = small_store(source)[0]
    conn = connect(source)
    conn.executemany("INSERT INTO notes (id, match_id, note) VALUES (?, ?, ?)",
                     [(4, first, "the lights went out"), (9, first, "replayed")])
    conn.close()
    done = move("--from", source, "--to", target)
    assert done.exit_code == 0, done.output
    assert re.search(r"^  notes +2 rows$", done.output, re.M)
    conn = connect(target)
    try:
        assert conn.execute("INSERT INTO notes (match_id, note) VALUES (?, 'late') "
                            "RETURNING id", (first,)).fetchone()[0] == 10
    finally:
        conn.close()
    assert sorted(rows(target, ["notes"])["notes"]) == [
        (4, first, "the lights went out"), (9, first, "replayed"), (10, first, "late")]


@pytest.mark.parametrize("kind", [pytest.param("sqlite"),
                                  pytest.param("postgresql", marks=ON_POSTGRESQL)])
def test_the_move_knows_every_table_the_schema_makes(blank_store, kind):
    """The move reads its tables off the schema's scripts: none that a store holds is
    missed, whatever word stands before TABLE (the write limits' SCRATCH_TABLE)."""
    where = blank_store(kind)
    conn = connect(where)
    try:
        upgrade(conn)
    finally:
        conn.close()
    held = set(as_found(where)) - {"schema_version"}  # PostgreSQL's place for the version
    assert set(tables.schema_tables()) == held
    assert {shape.name for shape in _shapes(where)} == held - set(tables.NOT_MOVED)


def _shapes(where: str):
    conn = connect(where)
    try:
        return tables.shapes(conn)
    finally:
        conn.close()


@pytest.mark.parametrize("kind", [pytest.param("sqlite"),
                                  pytest.param("postgresql", marks=ON_POSTGRESQL)])
def test_a_target_holding_only_write_limit_counts_is_empty_and_keeps_them(blank_store,
                                                                         tmp_path, kind):
    """The write limits' counts of an app started on the new store are no data: the move
    needs no --add, and leaves them as they are (it copies none of the source's)."""
    source, target = str(tmp_path / "pub.sqlite"), blank_store(kind)
    small_store(source)
    _counted(source, "pub")
    _counted(target, "club")
    held = rows(target, ["write_hits"])
    done = move("--from", source, "--to", target)
    assert done.exit_code == 0, done.output
    assert rows(target, ["write_hits"]) == held


def _counted(where: str, who: str) -> None:
    """A write counted in the store's write limits, as the app counts a tap."""
    conn = connect(where)
    try:
        upgrade(conn)
        HitLog(conn).admit([(f"tap/{who}", 10, 60.0)])
    finally:
        conn.close()


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_shows_a_progress_bar_with_counts_and_a_pipe_shows_nothing(tmp_path):
    source = str(tmp_path / "pub.sqlite")
    small_store(source)
    entries = len(rows(source)["entries"])
    shown_on = Terminal()
    move_store(source, str(tmp_path / "club.sqlite"), progress=_progress(shown_on, ENGLISH))
    text = shown_on.getvalue()
    for label in ("Copying entries", "Checking entries", "Checking every match"):
        assert label in text
    assert f"{entries}/{entries}" in text and "4/4" in text
    assert _progress(io.StringIO(), ENGLISH) is quiet
    done = move("--from", source, "--to", str(tmp_path / "again.sqlite"))
    assert done.exit_code == 0 and "Copying" not in done.output


def test_the_command_line_lists_move_store_and_it_needs_no_app(monkeypatch):
    monkeypatch.setattr(cli, "_checked_app", None)  # made for a command that needs the app
    listing = CliRunner().invoke(cli.commands, ["--help"])
    assert "move-store" in listing.output and "copy every match and league" in listing.output
    assert "--from STORE" in CliRunner().invoke(cli.commands, ["move-store", "--help"]).output


def _an_undo_written(where: str, match_id: str) -> None:
    """A tap of an app still running on the source: an undo appended to the match."""
    conn = connect(where)
    try:
        revision = conn.execute("SELECT revision FROM matches WHERE id = ?",
                                (match_id,)).fetchone()[0]
        conn.execute("INSERT INTO entries (match_id, seq, kind, data) VALUES (?, ?, 'undo', "
                     "'{}')", (match_id, revision + 1))
        conn.execute("UPDATE matches SET revision = ? WHERE id = ?", (revision + 1, match_id))
    finally:
        conn.close()


@pytest.mark.parametrize("kind", [pytest.param("sqlite"),
                                  pytest.param("postgresql", marks=ON_POSTGRESQL)])
def test_the_helper_process_reads_the_source_in_the_moves_snapshot(blank_store, tmp_path,
                                                                   kind):
    """PostgreSQL hands the move's snapshot to the helper: a tap written meanwhile is seen by
    neither and the move holds the store as it was when it began. SQLite has no snapshot
    to hand on: the helper sees the tap, and the move stops rather than copy half of it."""
    source = blank_store(kind, "pub")
    played = small_store(source)
    before = rows(source)

    def tapped_meanwhile(label: str, total: int, **values):
        if label % values == "Checking entries":
            _an_undo_written(source, played[0])
        return quiet(label, total)

    target = str(tmp_path / "club.sqlite")
    if kind == "sqlite":
        with pytest.raises(MoveFailed, match=f"match {played[0]}: the source changed during "
                                             f"the move \\(is an app still running on it\\?\\)"):
            move_store(source, target, progress=tapped_meanwhile, helper=True)
        assert not os.path.exists(target)
    else:
        moved = move_store(source, target, progress=tapped_meanwhile, helper=True)
        assert moved.matches == len(played)
        assert without_caches(rows(target)) == without_caches(before)
