"""Each request's unit of work: one connection of the app's store for the whole request,
given back (with any half-done transaction rolled back) when the request ends."""

from flask import current_app, g

from ...services.unit_of_work import UnitOfWork

STORE = "scorekeeper.store"
"""Where the app keeps the store `create_app` opened (app.extensions)."""


def unit_of_work() -> UnitOfWork:
    """This request's unit of work (the same one for the whole request)."""
    if "uow" not in g:
        g.uow = UnitOfWork.opened(current_app.extensions[STORE])
    return g.uow


def close_unit_of_work(_error=None) -> None:
    uow = g.pop("uow", None)
    if uow is not None:
        uow.close()


def storage_errors(app) -> tuple[type, ...]:
    """The database driver's errors; `is_storage_fault` tells which are the disk's or the
    server's (answered 503 "Not saved") rather than the code's."""
    return app.extensions[STORE].errors


def is_storage_fault(error: Exception) -> bool:
    return current_app.extensions[STORE].is_fault(error)


def app_unit_of_work(app) -> UnitOfWork:
    """A unit of work on the app's store outside any request (a command); `close` it."""
    return UnitOfWork.opened(app.extensions[STORE])
