"""The first process of `scorekeeper serve`: it starts the workers, starts again any that
ends, however often, and stops them all on Ctrl+C or SIGTERM, saying so.

Granian's own supervisor gave up for good when a worker ended twice within 5.5 s
("Worker crash loop detected, exiting") and left the port closed; and a worker that was
still loading the app when told to stop ignored it and was killed 3 s later ("Killing
worker-1 after it refused to gracefully stop"). Here each worker is a process of ours
running Granian's embedded server with a listening socket of its own on the shared
port, so while one is started again the others answer. A worker that keeps ending soon
after its start is started again after longer and longer waits, never given up on; but
the last worker to end while none serves is started again at the first wait, so the
port is never left closed for the longest (every worker killed again and again once
refused connections for up to 55 s). Each cause of ending is logged the first time, and
then counted: once a minute, and at the stop, a line says how often it came back.
"""

import logging
import multiprocessing
import signal
import time
from collections.abc import Callable
from multiprocessing.connection import wait

RESTART_SECONDS = (0.5, 1, 2, 4, 8, 16, 30)
"""How long a worker that ended waits to be started again: longer each time it ends in a
row soon after its start (a broken database, a machine out of memory), at most 30 s."""
STEADY_SECONDS = 60
"""A worker that served this long before it ended is started again at the first wait."""
TALLY_SECONDS = 60
"""How often the ends of a cause already logged are counted in one line."""
STOP_SECONDS = 5
"""Workers told to stop finish the requests in hand within this, or are ended."""
LOG = logging.getLogger("scorekeeper.serve")


class Slot:
    """One worker's place: its process now, and how it has been ending."""

    def __init__(self, number: int):
        self.number = number
        self.process = None
        self.started = 0.0
        self.quick_ends = 0
        self.due: float | None = 0.0
        """When to start it (monotonic), or None while it runs."""


class Supervisor:
    """Keeps `count` workers running: `target(number)` in a process of its own each."""

    def __init__(self, target: Callable[[int], None], count: int):
        self.target = target
        self.slots = [Slot(number) for number in range(1, count + 1)]
        self.stopping = False
        self.untold: dict[str, int] = {}
        """Each cause of ending logged, and how often it came back since it was told."""
        self.told_at = time.monotonic()

    def run(self) -> None:
        """Serve until SIGINT or SIGTERM; then stop every worker and return."""
        for caught in (signal.SIGINT, signal.SIGTERM):
            signal.signal(caught, self._stop)
        while not self.stopping:
            now = time.monotonic()
            for slot in self.slots:
                if slot.due is not None and slot.due <= now:
                    self._start(slot)
            running = {slot.process.sentinel: slot for slot in self.slots if slot.due is None}
            for ended in wait(list(running), timeout=self._next_start()):
                self._ended(running[ended])
            if time.monotonic() - self.told_at >= TALLY_SECONDS:
                self._tell_tally()
        self._stop_all()
        self._tell_tally()

    def _stop(self, _signal, _frame) -> None:
        self.stopping = True

    def _next_start(self) -> float:
        """Seconds until a worker is due to start (at most half a second: a stop signal is
        noticed within it)."""
        due = [slot.due for slot in self.slots if slot.due is not None]
        return max(0.0, min([0.5, *(when - time.monotonic() for when in due)]))

    def _start(self, slot: Slot) -> None:
        process = multiprocessing.Process(target=self.target, args=(slot.number,),
                                          name=f"scorekeeper-worker-{slot.number}")
        process.start()
        slot.process, slot.started, slot.due = process, time.monotonic(), None

    def _ended(self, slot: Slot) -> None:
        process = slot.process
        process.join()
        lived = time.monotonic() - slot.started
        if lived >= STEADY_SECONDS:
            slot.quick_ends = 0
        wait_seconds = RESTART_SECONDS[min(slot.quick_ends, len(RESTART_SECONDS) - 1)]
        slot.quick_ends += 1
        if not any(other.due is None for other in self.slots if other is not slot):
            wait_seconds = RESTART_SECONDS[0]  # none serves: the port waits for this one
        slot.due = time.monotonic() + wait_seconds
        if not self.stopping:
            self._tell(slot.number, how_it_ended(process.exitcode), lived, wait_seconds)
        process.close()

    def _tell(self, number: int, cause: str, lived: float, wait_seconds: float) -> None:
        """A cause of ending the first time; later ends of it are counted (`_tell_tally`)."""
        if cause in self.untold:
            self.untold[cause] += 1
            return
        self.untold[cause] = 0
        LOG.warning("worker %s ended (%s) after %.0f s: starting it again in %g s (workers "
                    "that end so again are counted once a minute)", number, cause, lived,
                    wait_seconds)

    def _tell_tally(self) -> None:
        for cause, count in self.untold.items():
            if count:
                LOG.warning("workers ended %s more times (%s) in the last %.0f s: each "
                            "started again", count, cause, time.monotonic() - self.told_at)
                self.untold[cause] = 0
        self.told_at = time.monotonic()

    def _stop_all(self) -> None:
        """Tell every worker to stop, wait for them, and end any that does not in time."""
        running = [slot.process for slot in self.slots if slot.due is None]
        for process in running:
            if process.is_alive():
                process.terminate()
        deadline = time.monotonic() + STOP_SECONDS
        for process in running:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                LOG.warning("a worker did not stop within %s s: ended it", STOP_SECONDS)
                process.kill()
                process.join()


def how_it_ended(exitcode: int) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"
