"""The addresses other devices on this machine's network can open it at (no Flask, no I/O sent)."""

import ipaddress
import socket

_PROBES = ("10.255.255.255", "192.168.255.255", "172.31.255.255")
"""Private addresses a UDP socket is pointed at (nothing is sent) to learn the outbound one."""


def is_loopback(host: str) -> bool:
    """`localhost`, 127.x.x.x or ::1: an address only this machine itself can open."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its local networks, private ones first."""
    found = set()
    for probe in _PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            try:
                udp.connect((probe, 9))
                found.add(udp.getsockname()[0])
            except OSError:
                continue
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(info[4][0])
    except OSError:
        pass
    usable = [ipaddress.ip_address(a) for a in found
              if not ipaddress.ip_address(a).is_loopback and a != "0.0.0.0"]
    usable.sort(key=lambda a: (not a.is_private, a.packed))
    return [str(address) for address in usable]
