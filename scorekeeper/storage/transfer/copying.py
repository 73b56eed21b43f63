"""Copying a move's tables: each read from the source's snapshot and loaded into the
target's transaction, its numbered ids moved past the target's own when adding to a store
(with the columns that refer to them), PostgreSQL's foreign keys set aside for the load,
and the numbering continued after it."""

import contextlib

from ...rules.words import N_
from ..errors import MoveFailed
from .opening import first_line
from .table_check import Tally
from .tables import Shape, named


def copy_table(reader, writer, shape: Shape, shifted, advance) -> Tally:
    """Every row of the table, from the source's snapshot into the target's transaction."""
    copied = Tally()

    def rows():
        for batch in reader.stream(shape.select()):
            batch = [shifted(row) for row in batch] if shifted is not as_read else batch
            copied.add(batch)
            yield from batch
            advance(len(batch))

    try:
        writer.load(shape.name, list(shape.columns), rows())
    except (*reader.errors, *writer.errors) as error:
        raise MoveFailed.worded(N_("cannot copy %(table)s: %(why)s"), "cannot_copy",
                                table=named(shape.name), why=first_line(error)) from None
    return copied


def offsets(writer, tables: list[Shape]) -> dict[tuple[str, str], int]:
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


def as_read(row: tuple) -> tuple:
    return row


def shifter(shape: Shape, offsets: dict[tuple[str, str], int]):
    """A row of the table with its numbered column moved, and each column that refers to a
    moved one moved alike."""
    shifts = [(place, offsets.get((shape.name, column)) or offsets.get(
                  shape.references.get(column)))
              for place, column in enumerate(shape.columns)]
    shifts = [(place, by) for place, by in shifts if by]
    if not shifts:
        return as_read

    def shifted(row: tuple) -> tuple:
        moved = list(row)
        for place, by in shifts:
            if moved[place] is not None:
                moved[place] += by
        return tuple(moved)

    return shifted


@contextlib.contextmanager
def references_set_aside(writer, tables: list[Shape]):
    """PostgreSQL checks a foreign key row by row as it is loaded, four times slower than
    the load itself: set aside while the tables are loaded, each is made again after, which
    checks every row in one pass (a row that breaks one fails the move). A failure in
    between rolls the dropping back with the rest of the transaction."""
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
            raise MoveFailed.worded(N_("the rows copied into %(table)s break its reference "
                                       "%(name)s: %(why)s"), "broken_reference",
                                    table=table, name=name, why=first_line(error)) from None


def loaded(writer, tables: list[Shape]) -> None:
    """After the load: numbering continues after the copied numbers, and the statistics of
    the tables are gathered for the check's queries."""
    phrases = writer.dialect.moving
    for shape in tables:
        if phrases.continue_numbering and shape.numbered:
            writer.execute(phrases.continue_numbering.format(table=shape.name,
                                                             column=shape.numbered))
        if phrases.analyze:
            writer.execute(phrases.analyze.format(table=shape.name))
