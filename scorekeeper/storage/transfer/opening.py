"""Opening the two stores of a move: the source read only, in one snapshot; the target for
one transaction, removed again if the move made it and failed; both at this scorekeeper's
schema version (or, a target, none yet), else refused with the versions named."""

import contextlib
import os
import sqlite3

from ...rules.words import N_
from ..connection import (
    check_intact,
    check_sound,
    connect,
    connect_read_only,
    describe,
    is_postgresql,
    postgres,
    rollback,
    stored_version,
)
from ..errors import MoveRefused
from ..schema import SCHEMA


@contextlib.contextmanager
def opened_target(where: str, errors: tuple):
    """The target, open for the move; rolled back if the move fails, and a SQLite file
    made for it removed again."""
    made = not is_postgresql(where) and not os.path.exists(where)
    writer = None
    try:
        writer = opened(where, "target", errors)
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


REFUSED = {
    ("missing", "source"): N_("the source %(store)s does not exist"),
    ("cannot_open", "source"): N_("cannot open the source, %(store)s: %(why)s"),
    ("cannot_open", "target"): N_("cannot open the destination, %(store)s: %(why)s"),
    ("cannot_read", "source"): N_("cannot read the source, %(store)s: %(why)s"),
    ("cannot_read", "target"): N_("cannot read the destination, %(store)s: %(why)s"),
    ("no_store", "source"): N_("the source %(store)s holds no scorekeeper store"),
    ("older", "source"): N_("the source %(store)s is at schema version %(version)s, this "
                            "scorekeeper at %(newest)s: start this scorekeeper on it once "
                            "(it upgrades the store as it starts), stop it, then move again"),
    ("older", "target"): N_("the destination %(store)s is at schema version %(version)s, "
                            "this scorekeeper at %(newest)s: start this scorekeeper on it "
                            "once (it upgrades the store as it starts), stop it, then move "
                            "again"),
    ("newer", "source"): N_("the source %(store)s is at schema version %(version)s, newer "
                            "than this scorekeeper's %(newest)s: move it with the "
                            "scorekeeper that wrote it"),
    ("newer", "target"): N_("the destination %(store)s is at schema version %(version)s, "
                            "newer than this scorekeeper's %(newest)s: move into it with the "
                            "scorekeeper that wrote it"),
}
"""Why a store cannot be the move's source or destination (its role: "source", "target"),
each a sentence of its own so that the catalogue words the role as the sentence needs."""


def refused(reason: str, role: str, where: str, **facts) -> MoveRefused:
    return MoveRefused.worded(REFUSED[reason, role], reason, store=describe(where), **facts)


def opened(where: str, role: str, errors: tuple):
    """A store opened as the move's source (read only) or target, its schema version
    checked: this scorekeeper's, or (a target) none yet."""
    if role == "source" and not is_postgresql(where) and not os.path.isfile(where):
        raise refused("missing", role, where)
    try:
        conn = (connect_read_only if role == "source" else connect)(where)
    except errors as error:
        raise refused("cannot_open", role, where, why=first_line(error)) from None
    try:
        _checked(conn, where, role)
        if role == "source":
            conn.execute(conn.dialect.moving.snapshot)
    except BaseException as error:
        conn.close()
        if isinstance(error, errors):
            raise refused("cannot_read", role, where, why=first_line(error)) from None
        raise
    return conn


def _checked(conn, where: str, role: str) -> None:
    """Refuse a damaged SQLite file, and a store of another schema version (the versions
    named, and what to do)."""
    if not is_postgresql(where):
        (check_intact if role == "source" else check_sound)(conn, where)
    version, newest = stored_version(conn), len(SCHEMA)
    if version == newest or (version == 0 and role == "target"):
        return
    if version == 0:
        raise refused("no_store", role, where)
    raise refused("older" if version < newest else "newer", role, where, version=version,
                  newest=newest)


def same_place(source: str, target: str) -> bool:
    if is_postgresql(source) and is_postgresql(target):
        return postgres().place(source) == postgres().place(target)
    if is_postgresql(source) or is_postgresql(target):
        return False
    return os.path.exists(target) and os.path.exists(source) and os.path.samefile(source,
                                                                                   target)


def driver_errors(*places: str) -> tuple[type, ...]:
    """The errors the databases' drivers raise (psycopg's only where PostgreSQL is one)."""
    postgresql = any(is_postgresql(where) for where in places)
    return (sqlite3.Error, *(postgres().ERRORS if postgresql else ()))


def first_line(error: Exception) -> str:
    """The driver's reason in one line, with PostgreSQL's detail (which key, which row)."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    detail = getattr(getattr(error, "diag", None), "message_detail", None)
    return f"{text} ({detail})" if detail else text
