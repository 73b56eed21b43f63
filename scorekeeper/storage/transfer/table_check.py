"""The first check of a move, made inside its transaction before it commits: every table
read back from the target, as many rows as were copied and the same rows (its digest), or
the first row that differs named (`match_check.py` then rebuilds every match)."""

from collections.abc import Callable
from dataclasses import dataclass

from ...rules.words import N_, Np_, Phrase
from ..errors import MoveFailed
from .tables import Shape, named

MASK = (1 << 64) - 1
"""A table's digest is the sum of its rows' hashes, modulo 2**64: the same for the same rows
in any order, so a target that held rows before is checked by the difference."""


@dataclass
class Tally:
    """How many rows a table holds (or were copied), and the digest of them."""

    rows: int = 0
    digest: int = 0

    def add(self, batch: list[tuple]) -> None:
        self.rows += len(batch)
        self.digest = (self.digest + sum(map(hash, batch))) & MASK


def tally(conn, shape: Shape, advance: Callable[[int], None]) -> Tally:
    """Every row of the table read, counted and digested."""
    found = Tally()
    for batch in conn.stream(shape.select()):
        found.add(batch)
        advance(len(batch))
    return found


def check_table(source, target, shape: Shape, before: Tally, copied: Tally, shifted,
                advance: Callable[[int], None]) -> None:
    """The target holds the rows copied besides those it held before, and no other."""
    after = tally(target, shape, advance)
    if after.rows - before.rows != copied.rows:
        raise MoveFailed.worded(
            Np_("%(table)s: %(copied)s row copied, but the destination holds %(more)s more "
                "than before", "%(table)s: %(copied)s rows copied, but the destination holds "
                "%(more)s more than before"), "count_differs", counted="copied",
            table=named(shape.name), copied=copied.rows, more=after.rows - before.rows)
    if (after.digest - before.digest) & MASK != copied.digest:
        raise _first_row_differing(source, target, shape, shifted)


def _first_row_differing(source, target, shape: Shape, shifted) -> MoveFailed:
    """The first row of the source that the target lacks or holds otherwise, by its key."""
    places = [shape.columns.index(column) for column in shape.order]
    names = ", ".join(f'"{column}"' for column in shape.columns)
    where = " AND ".join(f'"{column}" = ?' for column in shape.order)
    lookup = f'SELECT {names} FROM "{shape.name}" WHERE {where}'
    for batch in source.stream(shape.select()):
        for row in map(shifted, batch):
            key = ", ".join(f"{shape.columns[place]} {row[place]!r}" for place in places)
            found = target.execute(lookup, [row[place] for place in places]).fetchone()
            if found is None:
                return MoveFailed.worded(N_("%(table)s: the row with %(key)s is not in the "
                                            "destination"), "row_missing",
                                         table=named(shape.name), key=key)
            for column, mine, theirs in zip(shape.columns, row, found, strict=True):
                if mine != theirs or type(mine) is not type(theirs):
                    return MoveFailed.worded(
                        N_("%(table)s: the row with %(key)s holds %(column)s %(difference)s"),
                        "row_differs", table=named(shape.name), key=key, column=column,
                        difference=difference(mine, theirs))
    return MoveFailed.worded(N_("%(table)s: the destination holds rows that were not "
                                "copied"), "rows_added", table=named(shape.name))


def difference(mine, theirs) -> Phrase:
    """Two values side by side; long texts from the first character they differ at."""
    if isinstance(mine, str) and isinstance(theirs, str) and max(len(mine), len(theirs)) > 60:
        at = next((n for n, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b),
                  min(len(mine), len(theirs)))
        return Phrase(N_("from character %(at)s: %(source)s in the source, %(destination)s "
                         "in the destination"), at=at, source=repr(mine[at:at + 30]),
                      destination=repr(theirs[at:at + 30]))
    return Phrase(N_("%(source)s in the source, %(destination)s in the destination"),
                  source=repr(mine), destination=repr(theirs))
