"""Which request gets one of a worker's app threads, and which is turned away at once.

Past its capacity a server must not let requests queue for seconds. Once a request
would wait longer than SHED_AFTER for a thread (the queue ahead of it at the pace the
threads have been going, or the oldest one's wait so far), it is answered 503 with
Retry-After at once, without the app; reads give way before taps. Before that, past
STRETCH_AFTER, the reads answered are told to poll less. Pure bookkeeping: the caller
(gateway.py, on one event loop) says when a request arrives, starts and ends.
"""

import logging
import time
from collections import deque
from dataclasses import dataclass

SHED_AFTER = {"read": 0.25, "write": 0.5}
"""Seconds a request may expect to wait for a thread before it is turned away instead:
a poll or a page (read) sooner than a tap (write), so the taps get the threads."""
RETRY_AFTER = {"read": 5, "write": 2}
"""What a turned-away request is told: a scoreboard polls again later, a tap is sent
again by the phone's tap queue (table.js)."""
STRETCH_AFTER = 0.05
"""Seconds of expected wait past which every read is answered, and told in POLL_AFTER
to poll again no sooner than RETRY_AFTER["read"]: the scoreboards slow down before any
request has to be turned away."""
STRETCH_HOLD = 10.0
"""Seconds the reads are still told to poll less after the wait last passed STRETCH_AFTER:
otherwise the scoreboards, slowed down, would ease the load, speed up again at once and
bring it back, in waves."""
PACE_WEIGHT = 0.05
"""Each request's share in the moving average of the time a thread takes to serve one."""
BUSY_LOG = logging.getLogger("scorekeeper.serve")
BUSY_LOG_SECONDS = 10


def kind_of(method: str) -> str:
    return "read" if method in ("GET", "HEAD") else "write"


@dataclass(frozen=True)
class Verdict:
    """What to do with a request that has just arrived: turn it away with `retry_after`
    seconds, or serve it, telling a read under load to poll after `poll_after` seconds."""

    retry_after: int | None = None
    poll_after: int | None = None


SERVE = Verdict()


class Admission:
    """The queue of one worker's requests for its app threads: the event loop adds to the
    back as requests arrive, a thread takes from the front as soon as it is free (no turn
    of the loop between two requests), and the loop decides from it whom to turn away."""

    def __init__(self, threads: int, shed_after: dict = SHED_AFTER,
                 stretch_after: float = STRETCH_AFTER, clock=time.monotonic):
        self.threads = threads
        self.shed_after, self.stretch_after = shed_after, stretch_after
        self.clock = clock
        self.waiting: deque[float] = deque()  # when each request waiting was queued
        self.service_seconds = 0.0
        self.stretch_until = float("-inf")
        self.busy_count, self.busy_logged = 0, clock()

    def expected_wait(self) -> float:
        """How long a request queued now would wait for a thread: the queue ahead of it at
        the pace the threads take requests, or the oldest one's wait so far if longer."""
        try:
            oldest = self.clock() - self.waiting[0]
        except IndexError:  # none waiting (a thread may have just taken the last)
            return 0.0
        return max(oldest, len(self.waiting) * self.service_seconds / self.threads)

    def verdict(self, method: str) -> Verdict:
        kind = kind_of(method)
        wait = self.expected_wait()
        if wait > self.shed_after[kind]:
            self._count_turned_away()
            return Verdict(retry_after=RETRY_AFTER[kind])
        if wait > self.stretch_after:
            self.stretch_until = self.clock() + STRETCH_HOLD
        if kind == "read" and self.clock() < self.stretch_until:
            return Verdict(poll_after=RETRY_AFTER["read"])
        return SERVE

    def queued(self) -> None:
        """A request joins the back of the queue (the loop)."""
        self.waiting.append(self.clock())

    def started(self) -> None:
        """A thread took the request at the front (the threads take them in order)."""
        try:
            self.waiting.popleft()
        except IndexError:
            pass

    def finished(self, seconds: float) -> None:
        """A thread served a request in `seconds`: the moving average behind the pace."""
        self.service_seconds += (seconds - self.service_seconds) * PACE_WEIGHT

    def _count_turned_away(self) -> None:
        """Say how many were turned away, at most once per BUSY_LOG_SECONDS."""
        self.busy_count += 1
        now = self.clock()
        if now - self.busy_logged >= BUSY_LOG_SECONDS:
            BUSY_LOG.warning("Server busy: %d requests answered 503 in the last %d s",
                             self.busy_count, round(now - self.busy_logged))
            self.busy_count, self.busy_logged = 0, now
