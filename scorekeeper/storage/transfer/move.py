"""Moving a whole store to another database: SQLite to PostgreSQL, and back.

The source is read in one snapshot and never written (`opening.py`). The target is
written in one transaction: its schema if it is blank, then every table as the databases
describe it (`tables.py`, `copying.py`), then the checks: every table read back
(`table_check.py`), every match rebuilt on both sides (`match_check.py`). Only if
all is the same does it commit; a difference, a refusal or any error rolls it back, and a
SQLite file the move made is removed again. Keys and ids are copied as they are, so every
link keeps working; the kept scoreboards and the write limits' counts are left out
(`tables.NOT_MOVED`).
"""

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from ...rules import Match
from ...rules.words import N_
from ..connection import begin, commit, make_schema, stored_version
from ..errors import MoveFailed, MoveRefused
from .copying import copy_table, loaded, offsets, references_set_aside, shifter
from .match_check import Helper, check_matches, matches_in, wants_helper
from .opening import driver_errors, first_line, opened, opened_target, same_place
from .table_check import Tally, check_table, tally
from .tables import NOT_MOVED, Shape, named, shapes, tables_holding

Progress = Callable[..., contextlib.AbstractContextManager]
"""`progress(label, total, **values)`: a context whose value is called with each count
done; the label is a catalogue id (COPYING, CHECKING, REBUILDING), its values the table's
name."""

COPYING, CHECKING = N_("Copying %(table)s"), N_("Checking %(table)s")
REBUILDING = N_("Checking every match")


@contextlib.contextmanager
def quiet(label: str, total: int, **values):
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
    """The tables left out, and why (a catalogue id: tables.NOT_MOVED)."""


def move_store(source: str, target: str, add: bool = False,
               told: Callable[[Match], str] | None = None, progress: Progress = quiet,
               helper: bool | None = None) -> Moved:
    """Copy the store at `source` into the one at `target` (a SQLite path or a
    postgresql:// URL) and check it; MoveRefused before anything is written, MoveFailed if
    the copy or its check fails (the target then as it was). `told` is what a replay
    prints of a match; `helper` whether a second process rebuilds the source's matches
    (None: if the store is large)."""
    if same_place(source, target):
        raise MoveRefused.worded(N_("the source and the destination are the same store"),
                                 "same_store")
    errors = driver_errors(source, target)
    reader = opened(source, "source", errors)
    try:
        with opened_target(target, errors) as writer:
            try:
                return _move(reader, writer, source, add, told, progress, helper)
            except errors as error:
                raise MoveFailed.worded(N_("the database stopped the move: %(why)s"),
                                        "database_error", why=first_line(error)) from None
    finally:
        reader.close()


def _move(reader, writer, source: str, add: bool, told, progress: Progress,
          helper: bool | None) -> Moved:
    tables = shapes(reader)
    before = _prepared(writer, tables, add)
    moved = offsets(writer, tables)
    copied = _copied(reader, writer, tables, moved, progress)
    for shape in tables:
        with progress(CHECKING, before[shape.name].rows + copied[shape.name].rows,
                      table=named(shape.name)) as advance:
            check_table(reader, writer, shape, before[shape.name], copied[shape.name],
                        shifter(shape, moved), advance)
    count = matches_in(reader)
    helped = wants_helper(count) if helper is None else helper
    with (_helping(reader, source if helped else None, told) as helping,
          progress(REBUILDING, count) as advance):
        compared = check_matches(reader, writer, told, advance, helping)
    commit(writer)
    return Moved({name: tallied.rows for name, tallied in copied.items()}, compared,
                 {f"{table}.{column}": by for (table, column), by in moved.items()},
                 dict(NOT_MOVED))


def _copied(reader, writer, tables: list[Shape], moved: dict, progress: Progress
            ) -> dict[str, Tally]:
    """Every table copied, in order; what was copied of each (counted and digested)."""
    counts = {shape.name: reader.execute(f'SELECT count(*) FROM "{shape.name}"').fetchone()[0]
              for shape in tables}
    copied = {}
    with references_set_aside(writer, tables):
        for shape in tables:
            with progress(COPYING, counts[shape.name], table=named(shape.name)) as advance:
                copied[shape.name] = copy_table(reader, writer, shape, shifter(shape, moved),
                                                advance)
    loaded(writer, tables)
    return copied


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
        raise MoveRefused.worded(
            N_("the destination already holds data (%(held)s): move into an empty database, "
               "or add to it on purpose (move-store --add)"), "holds_data",
            held=tables_holding(held))
    return before


def _same_tables(mine: list[Shape], theirs: list[Shape]) -> None:
    theirs_by_name = {shape.name: shape for shape in theirs}
    for shape in mine:
        other = theirs_by_name.get(shape.name)
        if other is None:
            raise MoveRefused.worded(N_("the destination has no table %(table)s"),
                                     "missing_table", table=named(shape.name))
        if set(other.columns) != set(shape.columns):
            raise MoveRefused.worded(
                N_("the table %(table)s has other columns in the destination (%(theirs)s) "
                   "than in the source (%(mine)s)"), "other_columns", table=named(shape.name),
                theirs=", ".join(other.columns), mine=", ".join(shape.columns))
