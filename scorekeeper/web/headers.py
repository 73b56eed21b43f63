"""The headers on every answer: the security policy, who may keep it (caches, search
engines), and HSTS over https."""

from flask import request

from .hosting import transport_headers

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'self'; base-uri 'none'; object-src 'none'; "
       "frame-ancestors 'none'")
SECURITY_HEADERS = (
    ("Content-Security-Policy", CSP), ("X-Content-Type-Options", "nosniff"),
    # same-origin: a match URL never leaves as a Referer, while the same-origin Referer
    # that Flask-WTF requires over https is kept.
    ("Referrer-Policy", "same-origin"), ("X-Frame-Options", "DENY"))
"""On every answer, the app's and the server's own busy page alike."""
PRIVATE_AREA_HEADERS = {
    cache: (*SECURITY_HEADERS, ("X-Robots-Tag", "noindex, nofollow"), ("Cache-Control", cache))
    for cache in ("no-cache", "no-store")}
"""A match's, a scoreboard's or a league's answers: kept out of search engines and caches."""
HOME_HEADERS = (*SECURITY_HEADERS, ("Cache-Control", "private, no-store"))


def security_headers(response):
    endpoint = request.endpoint or ""
    area = endpoint.split(".")[0]
    if area in ("table", "board", "replay", "league"):
        wanted = PRIVATE_AREA_HEADERS["no-cache" if area in ("board", "replay") else "no-store"]
    elif area == "home" and endpoint != "home.rules":
        wanted = HOME_HEADERS  # lists this phone's keys
    else:
        wanted = SECURITY_HEADERS
    headers = response.headers
    present = {name.lower() for name in headers.keys()}  # one pass, not one per header
    headers.extend([(name, value) for name, value in wanted if name.lower() not in present])
    transport_headers(response)
    return response
