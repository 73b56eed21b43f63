"""Which request a worker serves next, which it turns away at once, and how often the
scoreboards should poll.

A worker serves one request at a time (gateway.py); the others wait in its queue, in the
order they came (serving taps first left the polls behind them to be turned away).
Past its capacity no request may wait for seconds: once one would wait longer than SHED_AFTER (the
queue ahead of it at the pace the worker has been going, or the oldest one's wait so far),
it is answered 503 with Retry-After at once, without the app.

Long before that the scoreboards are asked to poll less. The worker keeps the share of
its time spent serving near its target by adding seconds to every read's
Scorekeeper-Poll-After while it is above the target, and taking them off while below: the
polls slow down as smoothly as the load grows and speed up as it falls. (A switch between
"poll as usual" and "poll every 5 s" sent every board back at once when it flipped, and
the polls arrived in waves.) Pure bookkeeping: the caller, on one event loop, says when a
request arrives, starts and ends.
"""

import logging
import time
from collections import deque
from dataclasses import dataclass

SHED_AFTER = {"read": 0.25, "write": 0.5}
"""Seconds a request may expect to wait before it is turned away instead: a poll or a page
(read) sooner than a tap (write), so the taps get the worker."""
RETRY_AFTER = {"read": 5, "write": 2}
"""What a turned-away request is told: a scoreboard polls again later, a tap is sent
again by the phone's tap queue (table.js)."""
BUSY_TARGET = 0.6
"""The share of the machine's cores the workers may keep busy before the scoreboards are
asked to poll less: the rest is headroom, so that taps arriving together still find a
worker free. A trade between the two (bench/league_night.py, 400 tables on 2 cores): 0.5
answered taps at 119 ms at the 99th percentile and 50 polls a second, 0.6 at 135 ms and
111 polls a second, so that each scoreboard is still new every ten seconds or so."""
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
    the pace of the worker, the share of its time spent serving, and from those
    whom to turn away and how much to slow the scoreboards down."""

    def __init__(self, busy_target: float = BUSY_TARGET, shed_after: dict = SHED_AFTER,
                 pace: float = FIRST_PACE, clock=time.monotonic):
        self.busy_target, self.shed_after = busy_target, shed_after
        self.clock = clock
        self.waiting: deque[float] = deque()  # when each request waiting was queued
        self.service_seconds = pace
        self.poll_after = 0.0
        self.steered, self.busy_seconds = clock(), 0.0
        self.busy_count, self.busy_logged = 0, clock()

    def expected_wait(self) -> float:
        """How long a request queued now would wait: the queue ahead of it at the worker's
        pace, or the oldest one's wait so far if longer."""
        if not self.waiting:
            return 0.0
        return max(self.clock() - self.waiting[0], len(self.waiting) * self.service_seconds)

    def verdict(self, method: str) -> Verdict:
        kind = kind_of(method)
        if self.expected_wait() > self.shed_after[kind]:
            self._count_turned_away()
            return Verdict(retry_after=RETRY_AFTER[kind])
        self._steer()
        if kind == "read" and self.poll_after >= 0.5:
            return Verdict(poll_after=round(self.poll_after, 1))
        return SERVE

    def queued(self) -> None:
        """A request joins the back of the queue."""
        self.waiting.append(self.clock())

    def started(self) -> None:
        """The worker took the request at the front."""
        if self.waiting:
            self.waiting.popleft()

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
