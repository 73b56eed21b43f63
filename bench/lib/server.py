"""The production server in a subprocess, on a scratch database: the README's `scorekeeper
serve`, or plain `waitress-serve` as the README had it before."""

import contextlib
import os
import secrets
import socket
import subprocess
import sys
import time

from tests.ports import free_port

from .clients import HOST


def start_server(folder: str, threads: int, connection_limit: int | None, log_path,
                 app: str = "scorekeeper:create_app", server: str = "waitress",
                 database_url: str | None = None, workers: int | None = None):
    port = free_port()
    if server == "serve":
        command = [sys.executable, "-m", "scorekeeper.cli", "serve", f"--host={HOST}",
                   f"--port={port}"]
        if workers is not None:
            command.append(f"--workers={workers}")
    else:
        command = [sys.executable, "-m", "waitress", f"--threads={threads or 8}",
                   f"--listen={HOST}:{port}"]
        if connection_limit:
            command.append(f"--connection-limit={connection_limit}")
        command += ["--call", app]
    env = dict(os.environ, SCOREKEEPER_DATABASE=os.path.join(folder, "league.sqlite"),
               SCOREKEEPER_SECRET_KEY="bench-" + secrets.token_hex(16))
    if database_url:  # PostgreSQL instead of the scratch SQLite file
        env["SCOREKEEPER_DATABASE_URL"] = database_url
    log = open(log_path, "w")  # noqa: SIM115 - closed by stop_server
    process = subprocess.Popen(command, cwd=folder, env=env, stdout=log, stderr=log)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited: see {log_path}")
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return process, port, log, command
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start listening within 20 s")


def stop_server(process, log) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    log.close()


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) of a process and its children alive now: the server and
    its worker processes."""
    return sum(_cpu_of(each) for each in (pid, *children(pid)))


def _cpu_of(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as file:
            fields = file.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0  # it ended in between
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as file:
                    if int(file.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return found


@contextlib.contextmanager
def throwaway_postgres(wanted: bool):
    """The URL of a new database in a cluster started for this run (None if not wanted)."""
    if not wanted:
        yield None
        return
    from tests.postgresql import Cluster  # the tests' throw-away cluster

    cluster = Cluster().start()
    try:
        yield cluster.create_database("bench")
    finally:
        cluster.stop()
