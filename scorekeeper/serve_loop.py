"""waitress's network loop, without asking every connection what it waits for on every turn.

waitress builds a new poll set on each turn of its loop and asks every connection
whether it is readable and writable: half a microsecond each, so a millisecond a turn
for 1,600 kept-alive phones, and a turn per request or two. This loop keeps one poll
set and asks only the connections that have just had an event or still have work in
hand (a request being served, an answer being sent), and all of them once per
FULL_CHECK_SECONDS, when waitress's own housekeeping may have marked one to close.
A connection idle between polls, the usual case, costs nothing per turn. Where the
system has no poll() (Windows), waitress's own loop runs.
"""

import select
import time

from waitress import wasyncore

FULL_CHECK_SECONDS = 1.0
"""Every connection is asked at least this often (waitress's cleanup_interval here)."""
IDLE = select.POLLIN | select.POLLPRI
"""What an idle kept-alive connection waits for: the phone's next request."""


def loop(timeout=30.0, use_poll=True, map=None, count=None) -> None:
    """Serve the connections of `map` until it is empty (wasyncore.loop's signature)."""
    if not hasattr(select, "poll") or count is not None:
        return wasyncore.loop(timeout=timeout, use_poll=use_poll, map=map, count=count)
    steady = SteadyPoll(map)
    while map:
        steady.turn(timeout)


class SteadyPoll:
    """One poll set for the loop's life, brought up to date for the connections that may
    have changed."""

    def __init__(self, map):
        self.map = map
        self.pollster = select.poll()
        self.registered: dict[int, int] = {}
        self.watched: set[int] = set()
        self.next_full_check = 0.0

    def turn(self, timeout: float) -> None:
        self._update()
        try:
            ready = self.pollster.poll(int(timeout * 1000))
        except InterruptedError:
            ready = []
        for fd, flags in ready:
            obj = self.map.get(fd)
            if obj is None:
                self._set(fd, 0)  # closed meanwhile by a thread
                continue
            wasyncore.readwrite(obj, flags)
            self.watched.add(fd)

    def _update(self) -> None:
        for fd in self.registered.keys() - self.map.keys():  # closed since the last turn
            self._set(fd, 0)
        now = time.monotonic()
        if now >= self.next_full_check:
            self.next_full_check = now + FULL_CHECK_SECONDS
            asked = list(self.map)
        else:
            asked = self.watched | (self.map.keys() - self.registered.keys())  # new ones
        self.watched = set()
        for fd in asked:
            obj = self.map.get(fd)
            if obj is None:
                continue
            flags = self._wanted(obj)
            self._set(fd, flags)
            if flags != IDLE or obj.accepting:
                self.watched.add(fd)  # work in hand, or the listening socket: ask again

    @staticmethod
    def _wanted(obj) -> int:
        flags = IDLE if obj.readable() else 0
        if obj.writable() and not obj.accepting:
            flags |= select.POLLOUT
        return flags

    def _set(self, fd: int, flags: int) -> None:
        if self.registered.get(fd, 0) == flags:
            return
        if flags:
            self.pollster.register(fd, flags)  # registering again modifies
            self.registered[fd] = flags
        else:
            self.pollster.unregister(fd)
            del self.registered[fd]
