"""`scorekeeper move-store` refusing and failing: a refusal is one line naming why (what the
target holds, the schema versions) with nothing written; a copy that differs stops at the
first difference, named; and either way the target is left as it was found (a SQLite file
the move made is removed, a blank PostgreSQL database keeps no table) and the source as
it was."""

import json
import os
import shutil
from pathlib import Path

import pytest
import stores
from click.testing import CliRunner
from season import as_found, small_store

from scorekeeper.commands import command
from scorekeeper.rules import Match, Table
from scorekeeper.storage import (
    MoveFailed,
    connect,
    connection,
    move_store,
    postgres,
    upgrade,
)
from scorekeeper.storage.transfer import move as transfer

KINDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)]
NEWEST = len(connection.SCHEMA)


def move(*args: str):
    return CliRunner().invoke(command("move-store"), list(args))


def _one_line(done, opening: str, says: tuple[str, ...]) -> str:
    """The one line the command printed before it stopped; it names each of `says`."""
    assert done.exit_code == 1, done.output
    (line,) = done.output.splitlines()
    assert line.startswith(f"Error: move {opening}: "), line
    for words in says:
        assert words in line
    return line


def refused(done, *says: str) -> str:
    return _one_line(done, "refused, nothing was written", says)


def failed(done, *says: str) -> str:
    return _one_line(done, "failed, the destination was left as it was", says)


def holding_a_match(where: str) -> str:
    conn = connect(where)
    try:
        upgrade(conn)
        stores.create(conn, Match(Table.create(["Ann", "Bob"])))
    finally:
        conn.close()
    return where


def at_version(where: str, version: int) -> str:
    conn = connect(where)
    try:
        upgrade(conn)
        conn.execute(conn.dialect.versions[2].format(version))
        conn.commit()
    finally:
        conn.close()
    return where


@pytest.fixture
def empty_source(tmp_path, empty_database) -> str:
    """A SQLite store at the newest schema holding nothing."""
    shutil.copyfile(empty_database, tmp_path / "empty.sqlite")
    return str(tmp_path / "empty.sqlite")


@pytest.mark.parametrize("kind", KINDS)
def test_a_target_that_holds_data_is_refused_unless_told_to_add(blank_store, empty_source,
                                                                kind):
    target = holding_a_match(blank_store(kind))
    held = as_found(target)
    refused(move("--from", empty_source, "--to", target),
            "already holds data (matches: 1)", "move-store --add")
    assert as_found(target) == held
    assert move("--from", empty_source, "--to", target, "--add").exit_code == 0
    assert as_found(target) == held


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("version", "says"), [
    (NEWEST - 1, f"is at schema version {NEWEST - 1}, this scorekeeper at {NEWEST}: start "
                 f"this scorekeeper on it once"),
    (NEWEST + 5, f"is at schema version {NEWEST + 5}, newer than this scorekeeper's {NEWEST}")])
def test_a_source_of_another_schema_version_is_refused_with_both_versions(
        blank_store, tmp_path, kind, version, says):
    source = at_version(blank_store(kind, "old"), version)
    held, target = as_found(source), str(tmp_path / "new.sqlite")
    refused(move("--from", source, "--to", target), "the source ", says)
    assert as_found(source) == held and not os.path.exists(target)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("version", [NEWEST - 1, NEWEST + 5])
def test_a_target_of_another_schema_version_is_refused_with_both_versions(
        blank_store, empty_source, kind, version):
    target = at_version(blank_store(kind), version)
    held = as_found(target)
    refused(move("--from", empty_source, "--to", target),
            f"the destination {_named(target)} is at schema version {version}", str(NEWEST))
    assert as_found(target) == held


def _named(where: str) -> str:
    return postgres.describe(where) if where.startswith("postgresql") else where


@pytest.mark.parametrize(("make", "says"), [
    (lambda path: None, "does not exist"),
    (lambda path: Path(path).write_text(""), "holds no scorekeeper store"),
    (lambda path: Path(path).write_text("not a database, a note" * 100),
     "cannot read the source"),
])
def test_a_source_that_is_no_store_is_refused_and_nothing_is_made(tmp_path, make, says):
    source, target = str(tmp_path / "pub.sqlite"), str(tmp_path / "club.sqlite")
    make(source)
    found = sorted(os.listdir(tmp_path))
    refused(move("--from", f"sqlite://{source}", "--to", target), says)
    assert sorted(os.listdir(tmp_path)) == found


@pytest.mark.postgresql
def test_a_blank_postgresql_source_is_refused_and_the_password_never_shown(blank_store,
                                                                           tmp_path):
    source = blank_store("postgresql").replace("scorekeeper@", "scorekeeper:s3cret@")
    line = refused(move("--from", source, "--to", str(tmp_path / "club.sqlite")),
                   "holds no scorekeeper store")
    assert "s3cret" not in line
    line = refused(move("--from", "mysql://pub:s3cret@db/fives", "--to", source),
                   "a store is a SQLite file (its path, or sqlite:///path) or a postgresql://")
    assert "s3cret" not in line


@pytest.mark.parametrize("kind", KINDS)
def test_a_store_is_not_moved_into_itself(blank_store, kind):
    where = holding_a_match(blank_store(kind))
    held = as_found(where)
    refused(move("--from", where, "--to", where), "the source and the destination are the same")
    assert as_found(where) == held


def _corrupting(monkeypatch, kind: str, change) -> None:
    """The target's bulk load changes the entries' rows with `change` after they were read
    (and counted) from the source: a fault the check must find."""
    loader = postgres.Connection if kind == "postgresql" else connection.SQLiteConnection
    load = loader.load

    def corrupted(self, table, columns, rows):
        return load(self, table, columns, change(rows) if table == "entries" else rows)

    monkeypatch.setattr(loader, "load", corrupted)


def _another_starter(rows):
    """The first match's first entry (its start) names the other seat."""
    for number, row in enumerate(rows):
        if number == 0:
            seat = json.loads(row[3])["start"]
            row = (*row[:3], json.dumps({"start": 1 - seat}), *row[4:])
        yield row


@pytest.mark.parametrize("kind", KINDS)
def test_a_row_that_differs_in_the_target_is_named_and_nothing_is_kept(
        blank_store, tmp_path, monkeypatch, kind):
    source, target = str(tmp_path / "pub.sqlite"), blank_store(kind)
    first = sorted(small_store(source))[0]
    _corrupting(monkeypatch, kind, _another_starter)
    before, held = as_found(source), as_found(target)
    seat = json.loads(next(row for row in before["entries"] if row[:2] == (first, 1))[3])
    failed(move("--from", source, "--to", target),
           f"entries: the row with match_id '{first}', seq 1 holds data "
           f"'{{\"start\": {seat['start']}}}' in the source, "
           f"'{{\"start\": {1 - seat['start']}}}' in the destination")
    assert as_found(target) == held and as_found(source) == before


@pytest.mark.parametrize("helper", [False, True], ids=["alone", "with-a-helper"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_match_that_differs_when_rebuilt_is_named_and_nothing_is_kept(
        blank_store, tmp_path, monkeypatch, kind, helper):
    source, target = str(tmp_path / "pub.sqlite"), blank_store(kind)
    first = sorted(small_store(source))[0]
    _corrupting(monkeypatch, kind, _another_starter)
    monkeypatch.setattr(transfer, "check_table", lambda *args: None)  # rows left unchecked
    held = as_found(target)
    with pytest.raises(MoveFailed) as failure:
        move_store(source, target, helper=helper)
    assert str(failure.value).startswith(f"match {first}: not the same scores: ")
    assert as_found(target) == held


@pytest.mark.parametrize("kind", KINDS)
def test_a_store_added_twice_fails_on_the_first_key_it_holds_already(blank_store, tmp_path,
                                                                     kind):
    source, target = str(tmp_path / "pub.sqlite"), blank_store(kind)
    small_store(source)
    assert move("--from", source, "--to", target).exit_code == 0
    held = as_found(target)
    failed(move("--from", source, "--to", target, "--add"), "cannot copy matches: ")
    assert as_found(target) == held


@pytest.mark.parametrize("kind", KINDS)
def test_a_move_stopped_halfway_leaves_the_target_as_it_was(blank_store, tmp_path, kind):
    source, target = str(tmp_path / "pub.sqlite"), blank_store(kind)
    small_store(source)
    held = as_found(target)

    def interrupted(label: str, total: int, **values):
        if label % values == "Copying entries":
            raise KeyboardInterrupt  # Ctrl+C
        return transfer.quiet(label, total)

    with pytest.raises(KeyboardInterrupt):
        move_store(source, target, progress=interrupted)
    assert as_found(target) == held
