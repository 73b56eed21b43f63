"""Moving a whole store to another database: SQLite to PostgreSQL, and back.

The source is read in one snapshot and never written. The target is written in one
transaction: its schema if it is blank, then every table as the databases describe it
(`tables.py`), then the check (`transfer_check.py`): every table read back, every match
rebuilt on both sides. Only if all is the same does it commit; a difference, a refusal or
any error rolls it back, and a SQLite file the move made is removed again. Keys and ids
are copied as they are, so every link keeps working; the caches are left to be made again.
"""

import contextlib
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from ..rules import Match
from .connection import (
    begin,
    check_intact,
    check_sound,
    commit,
    connect,
    connect_read_only,
    describe,
    is_postgresql,
    make_schema,
    postgres,
    rollback,
    stored_version,
)
from .errors import MoveFailed, MoveRefused
from .schema import SCHEMA
from .tables import CACHES, Shape, shapes
from .transfer_check import Tally, check_table, tally
from .transfer_matches import Helper, check_matches, matches_in, wants_helper

Progress = Callable[[str, int], contextlib.AbstractContextManager]
"""`progress(label, total)`: a context whose value is called with each count done."""


@contextlib.contextmanager
def quiet(label: str, total: int):
    yield lambda done: None


@dataclass(frozen=True)
class Moved:
    """What a move copied and checked."""

    tables: dict[str, int]
    """Rows copied, per table, in the order copied."""
    matches: int
    """Matches rebuilt on both sides and found the same."""
    renumbered: dict[str, int]
    """Adding to a store: how far each numbered column's numbers moved ("teams.id": 16)."""
    not_copied: dict[str, str]
    """The caches left out, and how the app makes each again."""


def move_store(source: str, target: str, add: bool = False,
               told: Callable[[Match], str] | None = None, progress: Progress = quiet,
               helper: bool | None = None) -> Moved:
    """Copy the store at `source` into `target` (a SQLite path or a postgresql:// URL) and
    check it; MoveRefused before anything is written, MoveFailed if the copy or its check
    fails (the target then as it was). `told` is what a replay prints of a match; `helper`
    whether a second process rebuilds the source's matches (None: if the store is large)."""
    if _same_place(source, target):
        raise MoveRefused("the source and the target are the same store")
    errors = _driver_errors(source, target)
    reader = _opened(source, "source", errors)
    try:
        with _target(target, errors) as writer:
            try:
                return _move(reader, writer, source, add, told, progress, helper)
            except errors as error:
                raise MoveFailed(_first_line(error)) from None
    finally:
        reader.close()


def _move(reader, writer, source: str, add: bool, told, progress: Progress,
          helper: bool | None) -> Moved:
    tables = shapes(reader)
    counts = {shape.name: reader.execute(f'SELECT count(*) FROM "{shape.name}"').fetchone()[0]
              for shape in tables}
    before = _prepared(writer, tables, add)
    offsets = _offsets(writer, tables)
    copied: dict[str, Tally] = {}
    with _references_set_aside(writer, tables):
        for shape in tables:
            with progress(f"Copying {shape.name}", counts[shape.name]) as advance:
                copied[shape.name] = _copy(reader, writer, shape, _shifter(shape, offsets),
                                           advance)
    _loaded(writer, tables)
    for shape in tables:
        total = before[shape.name].rows + copied[shape.name].rows
        with progress(f"Checking {shape.name}", total) as advance:
            check_table(reader, writer, shape, before[shape.name], copied[shape.name],
                        _shifter(shape, offsets), advance)
    count = matches_in(reader)
    helped = wants_helper(count) if helper is None else helper
    with (_helping(reader, source if helped else None, told) as helping,
          progress("Checking every match", count) as advance):
        compared = check_matches(reader, writer, told, advance, helping)
    commit(writer)
    return Moved({name: tallied.rows for name, tallied in copied.items()}, compared,
                 {f"{table}.{column}": by for (table, column), by in offsets.items()},
                 dict(CACHES))


@contextlib.contextmanager
def _helping(reader, source: str | None, told):
    """A helper process rebuilding the source's matches in the reader's snapshot, or None."""
    if source is None:
        yield None
        return
    export = reader.dialect.moving.export_snapshot
    helper = Helper(source, reader.execute(export).fetchone()[0] if export else "", told)
    try:
        yield helper
    finally:
        helper.close()


def _prepared(writer, tables: list[Shape], add: bool) -> dict[str, Tally]:
    """Begin the target's transaction (its schema made if it is blank), keep other writers
    out, and tally what it holds: refused if it holds anything and this is not adding."""
    begin(writer)
    if stored_version(writer) == 0:
        make_schema(writer)
    _same_tables(tables, shapes(writer))
    lock = writer.dialect.moving.lock
    if lock:
        writer.execute(lock.format(tables=", ".join(f'"{shape.name}"' for shape in tables)))
    before = {shape.name: tally(writer, shape, lambda done: None) for shape in tables}
    held = {name: tallied.rows for name, tallied in before.items() if tallied.rows}
    if held and not add:
        listed = ", ".join(f"{name}: {rows:,}" for name, rows in held.items())
        raise MoveRefused(f"the target already holds data ({listed}): move into an empty "
                          f"database, or add to it on purpose (move-store --add)")
    return before


def _same_tables(mine: list[Shape], theirs: list[Shape]) -> None:
    theirs_by_name = {shape.name: shape for shape in theirs}
    for shape in mine:
        other = theirs_by_name.get(shape.name)
        if other is None or set(other.columns) != set(shape.columns):
            raise MoveRefused(f"the table {shape.name} has other columns in the target "
                              f"({', '.join(other.columns) if other else 'none'}) than in "
                              f"the source ({', '.join(shape.columns)})")


def _copy(reader, writer, shape: Shape, shifted, advance) -> Tally:
    """Every row of the table, from the source's snapshot into the target's transaction."""
    copied = Tally()

    def rows():
        for batch in reader.stream(shape.select()):
            batch = [shifted(row) for row in batch] if shifted is not _as_read else batch
            copied.add(batch)
            yield from batch
            advance(len(batch))

    try:
        writer.load(shape.name, list(shape.columns), rows())
    except (*reader.errors, *writer.errors) as error:
        raise MoveFailed(f"cannot copy {shape.name}: {_first_line(error)}") from None
    return copied


def _offsets(writer, tables: list[Shape]) -> dict[tuple[str, str], int]:
    """Adding to a store: each numbered column's numbers move past the target's highest, so
    no team or fixture takes another's number (0 for an empty target: kept as they are)."""
    found = {}
    for shape in tables:
        if shape.numbered:
            highest = writer.execute(f'SELECT coalesce(max("{shape.numbered}"), 0) '
                                     f'FROM "{shape.name}"').fetchone()[0]
            if highest:
                found[(shape.name, shape.numbered)] = highest
    return found


def _as_read(row: tuple) -> tuple:
    return row


def _shifter(shape: Shape, offsets: dict[tuple[str, str], int]):
    """A row of the table with its numbered column moved, and each column that refers to a
    moved one moved alike."""
    shifts = [(place, offsets.get((shape.name, column)) or offsets.get(
                  shape.references.get(column)))
              for place, column in enumerate(shape.columns)]
    shifts = [(place, by) for place, by in shifts if by]
    if not shifts:
        return _as_read

    def shifted(row: tuple) -> tuple:
        moved = list(row)
        for place, by in shifts:
            if moved[place] is not None:
                moved[place] += by
        return tuple(moved)

    return shifted


@contextlib.contextmanager
def _references_set_aside(writer, tables: list[Shape]):
    """PostgreSQL checks a foreign key row by row as it is loaded, four times slower than
    the load itself: set aside while the tables are loaded, each is made again after, which
    checks every row in one pass (a row that breaks one fails the move)."""
    phrases = writer.dialect.moving
    aside = [(shape.name, name, definition) for shape in tables if phrases.constraints
             for name, definition in writer.execute(phrases.constraints, (shape.name,))]
    for table, name, _ in aside:
        writer.execute(phrases.drop_constraint.format(table=table, name=name))
    yield
    for table, name, definition in aside:
        try:
            writer.execute(phrases.add_constraint.format(table=table, name=name,
                                                         definition=definition))
        except writer.errors as error:
            raise MoveFailed(f"the rows copied into {table} break its reference {name}: "
                             f"{_first_line(error)}") from None


def _loaded(writer, tables: list[Shape]) -> None:
    """After the load: numbering continues after the copied numbers, and the statistics of
    the tables are gathered for the check's queries."""
    phrases = writer.dialect.moving
    for shape in tables:
        if phrases.continue_numbering and shape.numbered:
            writer.execute(phrases.continue_numbering.format(table=shape.name,
                                                             column=shape.numbered))
        if phrases.analyze:
            writer.execute(phrases.analyze.format(table=shape.name))


@contextlib.contextmanager
def _target(where: str, errors: tuple):
    """The target, open for the move; rolled back if the move fails, and a SQLite file
    made for it removed again."""
    made = not is_postgresql(where) and not os.path.exists(where)
    writer = None
    try:
        writer = _opened(where, "target", errors)
        yield writer
    except BaseException:
        if writer is not None:
            with contextlib.suppress(*errors):  # a lost connection has rolled back already
                rollback(writer)
            writer.close()
            writer = None
        if made:
            for leftover in (where, f"{where}-wal", f"{where}-shm", f"{where}-journal"):
                with contextlib.suppress(FileNotFoundError):
                    os.remove(leftover)
        raise
    finally:
        if writer is not None:
            writer.close()


def _opened(where: str, role: str, errors: tuple):
    """A store opened as the move's source (read only) or target, its schema version
    checked: this scorekeeper's, or (a target) none yet."""
    named = describe(where)
    if role == "source" and not is_postgresql(where) and not os.path.isfile(where):
        raise MoveRefused(f"the source {named} does not exist")
    try:
        conn = (connect_read_only if role == "source" else connect)(where)
    except errors as error:
        raise MoveRefused(f"cannot open the {role}, {named}: {_first_line(error)}") from None
    try:
        _checked(conn, where, role, named)
        if role == "source":
            conn.execute(conn.dialect.moving.snapshot)
    except BaseException as error:
        conn.close()
        if isinstance(error, errors):
            raise MoveRefused(f"cannot read the {role}, {named}: {_first_line(error)}") from None
        raise
    return conn


def _checked(conn, where: str, role: str, named: str) -> None:
    """Refuse a damaged SQLite file, and a store of another schema version (the versions
    named, and what to do)."""
    if not is_postgresql(where):
        (check_intact if role == "source" else check_sound)(conn, where)
    version, newest = stored_version(conn), len(SCHEMA)
    if version == newest or (version == 0 and role == "target"):
        return
    if version == 0:
        raise MoveRefused(f"the source {named} holds no scorekeeper store")
    if version < newest:
        raise MoveRefused(f"the {role} {named} is at schema version {version}, this "
                          f"scorekeeper at {newest}: start this scorekeeper on it once (it "
                          f"upgrades the store as it starts), stop it, then move again")
    raise MoveRefused(f"the {role} {named} is at schema version {version}, newer than this "
                      f"scorekeeper's {newest}: move it with the scorekeeper that wrote it")


def _same_place(source: str, target: str) -> bool:
    if is_postgresql(source) and is_postgresql(target):
        return postgres().place(source) == postgres().place(target)
    if is_postgresql(source) or is_postgresql(target):
        return False
    return os.path.exists(target) and os.path.exists(source) and os.path.samefile(source,
                                                                                   target)


def _driver_errors(*places: str) -> tuple[type, ...]:
    """The errors the databases' drivers raise (psycopg's only where PostgreSQL is one)."""
    postgresql = any(is_postgresql(where) for where in places)
    return (sqlite3.Error, *(postgres().ERRORS if postgresql else ()))


def _first_line(error: Exception) -> str:
    """The driver's reason in one line, with PostgreSQL's detail (which key, which row)."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    detail = getattr(getattr(error, "diag", None), "message_detail", None)
    return f"{text} ({detail})" if detail else text
