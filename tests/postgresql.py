"""A throw-away PostgreSQL cluster in a temporary folder, for the tests and the benchmarks.

PostgreSQL refuses to run as root: initdb and pg_ctl run as `postgres` (the user
Debian's package makes) when this runs as root, else as whoever runs it. The cluster
listens only on a unix socket in its own folder, with fsync off: nothing outlives it. A
`Relay` stands for the database going away and coming back.
"""

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import threading

ROLE = "scorekeeper"
SOCKET = ".s.PGSQL.5432"
"""The cluster's socket in its folder (and the relay's in its own)."""
INSTALL_HINT = ("apt-get install -y postgresql (initdb and pg_ctl) and "
                "pip install '.[postgresql]' (psycopg)")


class Unavailable(Exception):
    """No PostgreSQL here to start: the sentence says what to install."""


def _binaries() -> str:
    """The folder holding initdb and pg_ctl: on the PATH, else Debian's versioned folder."""
    found = shutil.which("initdb")
    candidates = [os.path.dirname(found)] if found else []
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        if all(os.access(os.path.join(folder, name), os.X_OK) for name in ("initdb", "pg_ctl")):
            return folder
    raise Unavailable(f"no initdb and pg_ctl found: {INSTALL_HINT}")


def _as_owner() -> list[str]:
    """The command prefix that runs PostgreSQL's programs as an unprivileged user."""
    if os.geteuid() != 0:
        return []
    try:
        subprocess.run(["id", "-u", "postgres"], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        raise Unavailable(f"running as root, and there is no postgres user: "
                          f"{INSTALL_HINT}") from None
    return ["runuser", "-u", "postgres", "--"]


def missing() -> str | None:
    """What is missing to start a cluster here, or None."""
    try:
        Cluster.tools()
    except Unavailable as unavailable:
        return str(unavailable)
    return None


class Cluster:
    """initdb, pg_ctl start, databases made on demand, and everything removed at stop."""

    @staticmethod
    def tools() -> tuple[str, list[str]]:
        """The folder of initdb and pg_ctl, and the prefix that runs them unprivileged."""
        try:
            import psycopg  # noqa: F401 - the app's driver must be there too
        except ImportError:
            raise Unavailable(f"psycopg is not installed: {INSTALL_HINT}") from None
        return _binaries(), _as_owner()

    def __init__(self):
        self.bin, self.prefix = self.tools()
        self.folder = tempfile.mkdtemp(prefix="scorekeeper-pg-")
        if self.prefix:
            shutil.chown(self.folder, "postgres", "postgres")
        self.data = os.path.join(self.folder, "data")

    def _run(self, program: str, *args: str) -> None:
        command = [*self.prefix, os.path.join(self.bin, program), *args]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.folder)
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed ({done.returncode}):\n{done.stdout}"
                               f"{done.stderr}")

    def start(self) -> "Cluster":
        self._run("initdb", "-D", self.data, "-U", ROLE, "--auth=trust", "-E", "UTF8",
                  "--no-locale", "--no-sync")
        settings = (f"-k {self.folder} -c listen_addresses='' -c fsync=off "
                    "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run("pg_ctl", "-D", self.data, "-l", os.path.join(self.folder, "log"),
                  "-o", settings, "-w", "-t", "30", "start")
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{ROLE}@/{database}?host={self.folder}"

    def create_database(self, name: str, template: str | None = None) -> str:
        """A new database (a copy of `template` if given); returns its URL."""
        import psycopg

        copy = f" TEMPLATE {template} STRATEGY FILE_COPY" if template else ""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"{copy}')
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


class Relay:
    """The way to a cluster's socket, through one of its own that can be cut: as a
    database server that stops and starts again, connections through it end and new ones
    are refused until it is restored."""

    def __init__(self, cluster: Cluster, folder: str):
        self.target = os.path.join(cluster.folder, SOCKET)
        self.cluster_folder, self.folder = cluster.folder, folder
        os.makedirs(folder, exist_ok=True)
        self.links: list[socket.socket] = []
        self.restore()

    def url(self, cluster_url: str) -> str:
        """A URL of the cluster, through the relay."""
        return cluster_url.replace(f"host={self.cluster_folder}", f"host={self.folder}")

    def restore(self) -> None:
        self.listener = socket.socket(socket.AF_UNIX)
        self.listener.bind(os.path.join(self.folder, SOCKET))
        self.listener.listen()
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def cut(self) -> None:
        self.listener.close()
        os.unlink(os.path.join(self.folder, SOCKET))
        for link in self.links:
            with contextlib.suppress(OSError):
                link.shutdown(socket.SHUT_RDWR)
            link.close()
        self.links.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            server = socket.socket(socket.AF_UNIX)
            server.connect(self.target)
            self.links += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=_pipe, args=(source, sink), daemon=True).start()


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    """One direction of a link, until either end closes or the relay is cut."""
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            sink.sendall(data)
        sink.shutdown(socket.SHUT_WR)
