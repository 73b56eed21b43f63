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
            running.add(_fork(serve))
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
                running.add(_fork(serve))


def _fork(serve) -> int:
    """A worker: the child serves until interrupted and never returns into the caller."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        return pid
    status = 0
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
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
