"""The production server in a subprocess, on a scratch database: the README's `scorekeeper
serve`, or plain `waitress-serve` as the README had it before."""

import os
import secrets
import socket
import subprocess
import sys
import time

from .clients import HOST


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def start_server(folder: str, threads: int, connection_limit: int | None, log_path,
                 app: str = "scorekeeper:create_app", server: str = "waitress",
                 database_url: str | None = None):
    port = free_port()
    if server == "serve":
        command = [sys.executable, "-m", "scorekeeper.cli", "serve", f"--host={HOST}",
                   f"--port={port}", f"--threads={threads}"]
    else:
        command = [sys.executable, "-m", "waitress", f"--threads={threads}",
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
    with open(f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
