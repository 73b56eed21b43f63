"""The headers on every answer: the security policy, who may keep it (caches, search
engines: its area's policy says), and HSTS over https."""

from flask import current_app, request

from .hosting import transport_headers

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'self'; base-uri 'none'; object-src 'none'; "
       "frame-ancestors 'none'")
ENGINE_CSP = CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")
"""The scoring screen's: it compiles the offline table's WebAssembly (static/pyodide-*), and
nothing else is allowed that the others do not allow."""
SECURITY_HEADERS = (
    ("Content-Security-Policy", CSP), ("X-Content-Type-Options", "nosniff"),
    # same-origin: a match URL never leaves as a Referer, while the same-origin Referer
    # that Flask-WTF requires over https is kept.
    ("Referrer-Policy", "same-origin"), ("X-Frame-Options", "DENY"))
"""On every answer, the app's and the server's own busy page alike."""

def security_headers(response):
    """The headers of the request's area (`area.Policy`), or the security policy alone for
    an answer of no area (a static file, an unknown address)."""
    area = current_app.blueprints.get(request.blueprint or "")
    wanted = SECURITY_HEADERS if area is None else area.policy.headers_of(request.endpoint)
    headers = response.headers
    present = {name.lower() for name in headers.keys()}  # one pass, not one per header
    headers.extend([(name, value) for name, value in wanted if name.lower() not in present])
    transport_headers(response)
    return response
