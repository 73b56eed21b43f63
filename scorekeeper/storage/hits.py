"""The write limits' moving windows, counted in the app's database: one count for every
worker process, and with PostgreSQL for every app server on it.

A row is one request let in: its window's key (the limits library's: limit, scope, who),
when it came and when it leaves the window. The time is a clock every counter shares:
SQLite's writers are on one machine, whose monotonic clock no one steps; PostgreSQL's
app servers share the database server's clock. A hit stamped after "now" (that clock
stepped back, or the machine restarted since) counts in no window, so a stepped clock
neither locks a scorer out nor keeps anyone's count for an hour.
"""

import threading
import time

from .connection import transaction

SWEEP_SECONDS = 10.0
"""How often each process deletes the hits that left their window (a key that is never
used again would keep its rows)."""
HELD = "SELECT count(*) FROM write_hits WHERE key = ? AND until > ? AND at <= ?"
"""The requests in a window now: come by now, and not yet out of it."""
NTH = ("SELECT at FROM write_hits WHERE key = ? AND until > ? AND at <= ? "
       "ORDER BY at LIMIT 1 OFFSET ?")

Window = tuple[str, int, float]
"""A moving window: its key, how many requests it holds, and how many seconds long."""


class Sweeps:
    """When this process last swept the hits out of their windows (one per store)."""

    def __init__(self):
        self.last = float("-inf")
        self.lock = threading.Lock()

    def due(self, now: float) -> bool:
        with self.lock:
            if now - self.last < SWEEP_SECONDS:
                return False
            self.last = now
            return True


class HitLog:
    """The moving windows, through one connection. A request's windows are counted in one
    short transaction of their own, outside any of the request's, committed without
    waiting for the disk (a count lost in a crash is a count forgiven), one writer at a
    time for each key."""

    def __init__(self, conn, sweeps: Sweeps | None = None):
        self.conn = conn
        self.sweeps = sweeps or Sweeps()

    def now(self) -> float:
        """The counters' shared clock, in seconds."""
        clock = self.conn.dialect.clock
        return self.conn.execute(clock).fetchone()[0] if clock else time.monotonic()

    def admit(self, windows: list[Window]) -> float:
        """Count one request in every window if each holds room for it, and answer 0; if
        one is full, count it in none and answer the seconds until all have room."""
        conn = self.conn
        relax, restore = conn.dialect.unsynced
        if relax:
            conn.execute(relax)
        try:
            if conn.dialect.admit:  # PostgreSQL: one call, locked and counted there
                keys, limits, lengths = (list(column) for column in zip(*windows, strict=True))
                waiting = conn.execute(conn.dialect.admit, (keys, limits, lengths))
                wait = waiting.fetchone()[0]
            else:
                wait = self._admit_here(windows)
            self._sweep()
        finally:
            if restore:
                conn.execute(restore)
        return wait

    def _admit_here(self, windows: list[Window]) -> float:
        with transaction(self.conn) as conn:  # SQLite's write lock serialises the counts
            now = self.now()
            keys = ",".join("?" * len(windows))
            held = dict(conn.execute(
                f"SELECT key, count(*) FROM write_hits WHERE key IN ({keys}) AND until > ? "
                f"AND at <= ? GROUP BY key", [key for key, _, _ in windows] + [now, now]))
            wait = max([0.0, *(self._until_room(key, limit, expiry, held[key], now)
                               for key, limit, expiry in windows
                               if held.get(key, 0) >= limit)])
            if not wait:
                rows = ",".join(["(?, ?, ?)"] * len(windows))
                conn.execute(f"INSERT INTO write_hits (key, at, until) VALUES {rows}",
                             [value for key, _, expiry in windows
                              for value in (key, now, now + expiry)])
            return wait

    def _until_room(self, key: str, limit: int, expiry: float, held: int, now: float) -> float:
        """Seconds until the full window of `key` has room for one more."""
        leaving = self.conn.execute(NTH, (key, now, now, held - limit)).fetchone()
        if leaving is None:  # a limit of none at all: never room
            return expiry
        return max(leaving[0] + expiry - now, 0.001)

    def held(self, key: str) -> int:
        """How many requests the window of `key` holds now."""
        now = self.now()
        return self.conn.execute(HELD, (key, now, now)).fetchone()[0]

    def _sweep(self) -> None:
        if self.sweeps.due(time.monotonic()):  # this process's own pace
            now = self.now()
            self.conn.execute("DELETE FROM write_hits WHERE until <= ? OR at > ?", (now, now))

    def reset(self) -> int:
        return self.conn.execute("DELETE FROM write_hits").rowcount
