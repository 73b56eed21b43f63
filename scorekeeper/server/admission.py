"""Which request a worker serves next, which it turns away at once, and how often the
scoreboards should poll.

A worker serves one request at a time (gateway.py); the others wait in its queue, taps
before reads, a read no more than READ_PATIENCE: a scorer is waiting for a tap, while a
scoreboard's poll can wait a little. Past
its capacity no request may wait for seconds: once one would wait longer than SHED_AFTER
(the queue ahead of it at the pace the worker has been going, or the oldest one's wait so
far), it is answered 503 with Retry-After at once, without the app.

Long before that the scoreboards are asked to poll less. The worker keeps the share of
its time spent serving near its target by adding seconds to every read's
Scorekeeper-Poll-After while it is above the target, and taking them off while below: the
polls slow down as smoothly as the load grows and speed up as it falls. (A switch between
"poll as usual" and "poll every 5 s" sent every board back at once when it flipped, and
the polls arrived in waves.) Pure bookkeeping: the caller, on one event loop, says when a
request arrives, starts and ends. The figures behind each setting are in
docs/PERFORMANCE.md §5.
"""

import logging
import time
from collections import deque
from dataclasses import dataclass

SHED_AFTER = {"read": 1.0, "write": 0.5}
"""Seconds a request may expect to wait before it is turned away instead: a tap, counting
only the taps ahead of it, after 0.5 s; a poll or a page, behind every tap, after 1 s
(with 0.25 s, the polls waiting behind a burst of taps were turned away)."""
RETRY_AFTER = {"read": 5, "write": 2}
"""What a turned-away request is told: a scoreboard polls again later, a tap is sent
again by the phone's tap queue (table.js)."""
READ_PATIENCE = 0.25
"""Seconds a read waits behind taps at most: past it, the oldest read goes next (served
only when no tap waits, reads waited seconds on a busy night)."""
BUSY_TARGET = 0.6
"""The share of the machine's cores the workers may keep busy before the scoreboards are
asked to poll less: the rest is headroom, so that taps arriving together still find a
worker free. A trade between the taps' speed and the scoreboards' freshness."""
STEER_SECONDS = 0.5
"""How often the poll-again time is adjusted, from the share of this span spent serving."""
STEER_GAIN = 4.0
"""Seconds added to the poll-again time per second spent at twice the target share (and
taken off, in proportion, below it)."""
SLOWEST_POLL = 30.0
"""The most a scoreboard is asked to wait between two polls."""
FIRST_PACE = 0.005
"""Seconds a request is assumed to take before the worker has measured any."""
PACE_WEIGHT = 0.05
"""Each request's share in the moving average of the time the worker takes to serve one."""
BUSY_LOG = logging.getLogger("scorekeeper.serve")
BUSY_LOG_SECONDS = 10


def kind_of(method: str) -> str:
    return "read" if method in ("GET", "HEAD") else "write"


@dataclass(frozen=True)
class Verdict:
    """What to do with a request that has just arrived: turn it away with `retry_after`
    seconds, or serve it, telling a read to poll again no sooner than `poll_after` seconds."""

    retry_after: int | None = None
    poll_after: float | None = None


SERVE = Verdict()


class Admission:
    """One worker's queue as the event loop sees it: when each waiting request was queued,
    by kind, the pace of the worker, the share of its time spent serving, and from those
    whom to turn away and how much to slow the scoreboards down."""

    def __init__(self, busy_target: float = BUSY_TARGET, shed_after: dict = SHED_AFTER,
                 pace: float = FIRST_PACE, clock=time.monotonic):
        self.busy_target, self.shed_after = busy_target, shed_after
        self.clock = clock
        self.waiting: dict[str, deque[float]] = {"write": deque(), "read": deque()}
        """When each request waiting was queued, by kind."""
        self.service_seconds = pace
        self.poll_after = 0.0
        self.steered, self.busy_seconds = clock(), 0.0
        self.busy_count, self.busy_logged = 0, clock()

    def expected_wait(self, kind: str) -> float:
        """How long a request of this kind queued now would wait: the taps waiting (and for
        a read, the reads too) at the worker's pace, or its own kind's oldest wait so far."""
        ahead = len(self.waiting["write"])
        if kind == "read":
            ahead += len(self.waiting["read"])
        mine = self.waiting[kind]
        oldest = self.clock() - mine[0] if mine else 0.0
        return max(oldest, ahead * self.service_seconds)

    def verdict(self, method: str) -> Verdict:
        kind = kind_of(method)
        if self.expected_wait(kind) > self.shed_after[kind]:
            self._count_turned_away()
            return Verdict(retry_after=RETRY_AFTER[kind])
        self._steer()
        if kind == "read" and self.poll_after >= 0.5:
            return Verdict(poll_after=round(self.poll_after, 1))
        return SERVE

    def next_kind(self) -> str:
        """Which queue the worker serves from next: the taps', unless none is waiting or
        the oldest read has waited READ_PATIENCE."""
        reads, writes = self.waiting["read"], self.waiting["write"]
        if writes and not (reads and self.clock() - reads[0] >= READ_PATIENCE):
            return "write"
        return "read"

    def queued(self, kind: str) -> None:
        """A request joins the back of its kind's queue."""
        self.waiting[kind].append(self.clock())

    def started(self, kind: str) -> None:
        """The worker took the request at the front of its kind's queue."""
        if self.waiting[kind]:
            self.waiting[kind].popleft()

    def finished(self, seconds: float) -> None:
        """The worker served a request in `seconds`."""
        self.service_seconds += (seconds - self.service_seconds) * PACE_WEIGHT
        self.busy_seconds += seconds

    def _steer(self) -> None:
        """Every STEER_SECONDS: more poll-again time above the target share, less below."""
        now = self.clock()
        span = now - self.steered
        if span < STEER_SECONDS:
            return
        share = self.busy_seconds / span
        over = (share - self.busy_target) / self.busy_target
        self.poll_after = min(SLOWEST_POLL, max(0.0, self.poll_after + STEER_GAIN * over * span))
        self.steered, self.busy_seconds = now, 0.0

    def _count_turned_away(self) -> None:
        """Say how many were turned away, at most once per BUSY_LOG_SECONDS."""
        self.busy_count += 1
        now = self.clock()
        if now - self.busy_logged >= BUSY_LOG_SECONDS:
            BUSY_LOG.warning("Server busy: %d requests answered 503 in the last %d s",
                             self.busy_count, round(now - self.busy_logged))
            self.busy_count, self.busy_logged = 0, now
