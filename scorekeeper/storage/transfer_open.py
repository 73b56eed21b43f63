"""Opening the two stores of a move: the source read only, in one snapshot; the target for
one transaction, removed again if the move made it and failed; both at this scorekeeper's
schema version (or, a target, none yet), else refused with the versions named."""

import contextlib
import os
import sqlite3

from .connection import (
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
from .errors import MoveRefused
from .schema import SCHEMA


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


def opened(where: str, role: str, errors: tuple):
    """A store opened as the move's source (read only) or target, its schema version
    checked: this scorekeeper's, or (a target) none yet."""
    named = describe(where)
    if role == "source" and not is_postgresql(where) and not os.path.isfile(where):
        raise MoveRefused(f"the source {named} does not exist")
    try:
        conn = (connect_read_only if role == "source" else connect)(where)
    except errors as error:
        raise MoveRefused(f"cannot open the {role}, {named}: {first_line(error)}") from None
    try:
        _checked(conn, where, role, named)
        if role == "source":
            conn.execute(conn.dialect.moving.snapshot)
    except BaseException as error:
        conn.close()
        if isinstance(error, errors):
            raise MoveRefused(f"cannot read the {role}, {named}: {first_line(error)}") from None
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
