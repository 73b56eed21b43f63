"""The write limits' counts: a request is let in while every one of its moving windows
holds room for it.

Counted in the store (storage/hits.py): one count for every worker process of the
server, and for every app server sharing its PostgreSQL database.
"""

from .unit_of_work import UnitOfWork


def admit(uow: UnitOfWork, windows: list[tuple[str, int, float]]) -> float:
    """Count a request in each window (key, limit, seconds) if every one has room for it:
    0; else count it in none, and answer the seconds until they all have room."""
    return uow.hits.admit(windows)

