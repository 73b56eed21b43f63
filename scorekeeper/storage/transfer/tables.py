"""The store's tables as a database describes them: which the schema makes, their columns,
keys and references, and in which order a copy must fill them.

A move between stores reads all this from the databases rather than from a list of its
own, so a table or a column that a later schema version adds is copied too.
"""

import re
from dataclasses import dataclass

from ...rules.words import N_, Phrase, pgettext
from ..schema import SCHEMA

NOT_MOVED = {
    "boards": N_("each scoreboard is rendered again the first time it is asked for"),
    "write_hits": N_("the write limits count afresh on the new store (their counts last "
                     "minutes, stamped by the old store's clock)"),
}
"""Tables a move leaves out, and why (a catalogue id): the kept scoreboards, which the app
renders again by itself; the write limits' counts, whose stamps are read on each store's
own clock (SQLite's machine's monotonic one, PostgreSQL's server's): copied, they would
mean nothing, and a count forgotten is a count forgiven (hits.py)."""

TABLE_NAMES = {
    "matches": pgettext("stored table", "matches"),
    "entries": pgettext("stored table", "entries"),
    "leagues": pgettext("stored table", "leagues"),
    "teams": pgettext("stored table", "teams"),
    "fixtures": pgettext("stored table", "fixtures"),
    "corrections": pgettext("stored table", "corrections"),
    "boards": pgettext("stored table", "boards"),
    "write_hits": pgettext("stored table", "write_hits"),
    "league_changes": pgettext("stored table", "league_changes"),
    "withdrawn_links": pgettext("stored table", "withdrawn_links"),
}
"""Each table of the schema as the reader's language names it; in English, its own name,
which is what a database shows."""


def named(table: str) -> Phrase:
    """A table's name as a value of a message, worded in the reader's language with it."""
    return Phrase(TABLE_NAMES.get(table, table))


def tables_holding(rows: dict[str, int]) -> Phrase:
    """"matches: 4, entries: 18" as one value of a message, each table's name worded."""
    (table, count), *rest = rows.items()
    if not rest:
        return Phrase(N_("%(table)s: %(rows)s"), table=named(table), rows=count)
    return Phrase(N_("%(table)s: %(rows)s, %(more)s"), table=named(table), rows=count,
                  more=tables_holding(dict(rest)))


_MADE_OR_DROPPED = re.compile(r"\b(CREATE|DROP)\s+(?:\w+\s+|\w+_)?TABLE\s+"
                              r"(?:IF\s+(?:NOT\s+)?EXISTS\s+)?(\w+)", re.IGNORECASE)
"""A table made or dropped, with a word before TABLE (UNLOGGED, TEMP, the SCRATCH_TABLE
token) or without."""


def schema_tables() -> list[str]:
    """Every table the schema makes and does not drop again, in the order it makes them."""
    tables: list[str] = []
    for item in SCHEMA:
        script = item[0] if isinstance(item, tuple) else item
        for verb, name in _MADE_OR_DROPPED.findall(script):
            if name in tables:
                tables.remove(name)
            if verb.upper() == "CREATE":
                tables.append(name)
    return tables


@dataclass(frozen=True)
class Shape:
    """A table as its database describes it."""

    name: str
    columns: tuple[str, ...]
    """Every column, the one the database numbers first where SELECT * leaves it out."""
    order: tuple[str, ...]
    """The columns that order its rows: its primary key, else its numbered column."""
    numbered: str | None
    """The integer column the database numbers itself (an identity column, a rowid)."""
    references: dict[str, tuple[str, str]]
    """Each column that refers to another table: that table and its column."""

    def select(self) -> str:
        names = ", ".join(f'"{column}"' for column in self.columns)
        order = ", ".join(f'"{column}"' for column in self.order)
        return f'SELECT {names} FROM "{self.name}" ORDER BY {order}'


def shape(conn, table: str) -> Shape:
    """The table `table` as the connection's database describes it."""
    phrases = conn.dialect.moving
    listed = [row[0] for row in conn.execute(phrases.columns, (table,)).fetchall()]
    key = tuple(row[0] for row in conn.execute(phrases.key, (table,)).fetchall())
    found = conn.execute(phrases.numbered, (table,)).fetchone()
    numbered = found[0] if found else None
    columns = tuple(listed if numbered in listed or numbered is None else [numbered, *listed])
    references = {}
    for column, other, other_column in conn.execute(phrases.references, (table,)).fetchall():
        if other_column is None:  # SQLite: REFERENCES other, meaning its primary key
            other_column = shape(conn, other).order[0]
        references[column] = (other, other_column)
    return Shape(table, columns, key or ((numbered,) if numbered else columns), numbered,
                 references)


def shapes(conn) -> list[Shape]:
    """The schema's tables that hold data (not NOT_MOVED), each after every table it
    refers to: the order a copy fills them in without breaking a reference."""
    found = [shape(conn, table) for table in schema_tables() if table not in NOT_MOVED]
    copied = {table.name for table in found}
    ordered: list[Shape] = []
    while found:
        placed = {table.name for table in ordered}
        ready = next((table for table in found
                      if {other for other, _ in table.references.values()} & copied
                      <= placed | {table.name}), None)
        if ready is None:
            raise ValueError(f"the tables {[table.name for table in found]} refer to each "
                             f"other in a circle: no order fills them")
        ordered.append(ready)
        found.remove(ready)
    return ordered
