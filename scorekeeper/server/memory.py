"""Giving memory back to the system once a burst of request bodies has gone.

A worker that held 300 parked bodies stayed at its peak after they went (444 MB from
45): what was left of the requests cut off waited in reference cycles for the
collector's rare full pass, and the allocators kept the pages freed. After a burst the
worker collects them and hands the C library's free pages back (`malloc_trim`, where
the C library is glibc); Granian's HTTP core allocates with jemalloc, which `serve`
tells to give back its own free pages a second after they are freed (JEMALLOC).
"""

import asyncio
import ctypes
import ctypes.util
import functools
import gc

TRIM_AFTER = 16 * 1024 * 1024
"""Bytes of bodies read since memory was last given back that make it worth doing once
none is being read (a tap's body is a hundred bytes: a night of taps never does)."""
LATER_SECONDS = 5.0
"""When to give back again what the HTTP core frees of a burst's connections afterwards."""
JEMALLOC = "background_thread:true,max_background_threads:1,dirty_decay_ms:1000," \
           "muzzy_decay_ms:0"
"""jemalloc's settings for Granian's core (read from _RJEM_MALLOC_CONF when it loads):
a thread of its own returns free pages a second after they are freed, not at its next
busy moment."""


@functools.cache
def _malloc_trim():
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None)
    except OSError:
        return None
    return getattr(libc, "malloc_trim", None)


def give_back() -> None:
    """Free what waits in reference cycles, then return the C library's free pages (where
    it cannot, as on musl, macOS or Windows, its allocator does what it does)."""
    gc.collect()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


class BodyMemory:
    """How much of request bodies a worker has read since it last gave memory back, and
    how many it is reading now: the last body of a burst gives it back."""

    def __init__(self, trim_after: int = TRIM_AFTER):
        self.trim_after = trim_after
        self.reading = 0
        self.read = 0

    def started(self) -> None:
        self.reading += 1

    def finished(self, size: int) -> None:
        self.reading -= 1
        self.read += size
        if not self.reading and self.read >= self.trim_after:
            self.read = 0
            give_back()
            asyncio.get_running_loop().call_later(LATER_SECONDS, give_back)
