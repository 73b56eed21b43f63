"""Several server processes on one machine: one Python process uses one core at a time.

The listening sockets are opened first; then each worker is a forked copy of the app
that accepts connections from those sockets with its own threads, caches and SQLite
connections (everything the app keeps per process is keyed by a match's revision, so
it stays right whichever worker a phone reaches). A worker that dies is started again.
Windows cannot fork: there one process serves, as before.
"""

import os
import signal
import sys
import time
import traceback
from collections.abc import Callable

RESTART_PAUSE = 1.0
"""Seconds before a worker that died is started again (a crash at start must not spin)."""


def can_fork() -> bool:
    return hasattr(os, "fork")


def default_workers() -> int:
    """One worker per core where processes can be forked, else one."""
    return (os.cpu_count() or 1) if can_fork() else 1


def run_workers(serve: Callable[[], None], workers: int, out=sys.stderr) -> None:
    """Run `serve` in `workers` forked processes until SIGINT or SIGTERM, or in this one."""
    if workers <= 1 or not can_fork():
        if workers > 1:
            print("This system cannot fork worker processes: serving from one.", file=out)
        serve()
        return
    running: set[int] = set()
    stopping = False

    def stop(_signal=None, _frame=None) -> None:
        nonlocal stopping
        stopping = True
        for pid in running:
            _signal_worker(pid, signal.SIGTERM)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        for _ in range(workers):
            if not stopping:  # a stop during the start must not leave a worker behind
                _fork(serve, running)
        _supervise(serve, running, lambda: stopping, out)
    except KeyboardInterrupt:  # Ctrl+C reached every worker too: wait for them to stop
        stop()
        _reap(running)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _supervise(serve, running: set[int], stopping: Callable[[], bool], out) -> None:
    """Wait for workers to end; start another for each that ends while serving."""
    while running:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            return
        running.discard(pid)
        if not stopping():
            print(f"Worker {pid} stopped ({_how(status)}); starting another.", file=out,
                  flush=True)
            time.sleep(RESTART_PAUSE)
            if not stopping():
                _fork(serve, running)


STOPS = {signal.SIGTERM, signal.SIGINT}


def _fork(serve, running: set[int]) -> None:
    """Start a worker and add it to `running`; the child serves until interrupted and never
    returns into the caller. A stop signal waits until both sides know who is who: the
    parent's handler then stops the new worker too, the worker dies of it."""
    sys.stdout.flush()
    sys.stderr.flush()
    held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    pid = os.fork()
    if pid:
        running.add(pid)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        return
    status = 0
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        serve()
    except KeyboardInterrupt:
        pass
    except BaseException:
        traceback.print_exc()
        status = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


def _reap(running: set[int]) -> None:
    while running:
        try:
            pid, _status = os.wait()
        except ChildProcessError:
            return
        except KeyboardInterrupt:
            continue
        running.discard(pid)


def _signal_worker(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except ProcessLookupError:
        pass


def _how(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"
