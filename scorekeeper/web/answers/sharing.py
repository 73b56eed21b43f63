"""Links meant for other phones: never an address that only this machine can open."""

from urllib.parse import urlsplit

from flask import current_app, request, url_for

from .network import is_loopback, lan_addresses


def lan_host() -> str | None:
    """The LAN address to put in shared links when this page was opened on the server itself
    (and the server listens on every address, as `scorekeeper serve` does); else None."""
    opened_on = urlsplit(request.host_url).hostname or ""
    if not current_app.config.get("SHARE_LAN_ADDRESS") or not is_loopback(opened_on):
        return None
    found = lan_addresses()
    return found[0] if found else None


def shared_url(endpoint: str, **values) -> str:
    """The full URL of a page for other phones: on the LAN address when opened on localhost."""
    host = lan_host()
    if host is None:
        return url_for(endpoint, _external=True, **values)
    port = urlsplit(request.host_url).port
    where = f"{host}:{port}" if port else host
    return f"{request.scheme}://{where}{url_for(endpoint, **values)}"
