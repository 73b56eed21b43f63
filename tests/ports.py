"""A port for a server a test or benchmark starts: below the system's ephemeral range.

A port the system hands out (bind to 0, then release it) can be taken again as the local
port of one of the many client connections a test opens before the server binds it;
ports below the ephemeral range are never handed to clients.
"""

import random
import socket

LOWEST, HIGHEST = 20000, 32000
"""Below Linux's default ephemeral range (32768-60999) and above the well-known ports."""


def free_port(host: str = "127.0.0.1") -> int:
    """A port nothing listens on now, outside the range client connections take theirs."""
    for _ in range(200):
        port = random.randint(LOWEST, HIGHEST)
        with socket.socket() as probe:
            try:
                probe.bind((host, port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port between {LOWEST} and {HIGHEST}")
