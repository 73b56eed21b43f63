"""Every route of the app answers with its area's headers and counts against its area's
limits, as its blueprint declares them (web/answers/area.py): a route of a blueprint that declares
no policy, or of a new blueprint this table does not know, fails here."""

from werkzeug.routing import AnyConverter, IntegerConverter, PathConverter

from scorekeeper.web.answers.area import Area
from scorekeeper.web.answers.limits import limits_of_this_request

NOT_INDEXED = "noindex, nofollow"
AREAS = {
    # blueprint: (Cache-Control, X-Robots-Tag) of its answers
    "home": ("private, no-store", None),  # lists this phone's keys
    "table": ("no-store", NOT_INDEXED),
    "board": ("no-cache", NOT_INDEXED),
    "replay": ("no-cache", NOT_INDEXED),
    "league": ("no-store", NOT_INDEXED),
    "card": ("no-store", NOT_INDEXED),  # the secretary's and captains' keys in the address
    "referee": (None, None),
    "install": (None, None),
}
VIEWS = {
    "home.rules": (None, None),  # the rules: no key
    "install.manifest": ("no-cache", None),  # their own, asked again after a release
    "install.service_worker": ("no-cache", None),
}
APP_ENDPOINTS = {"static"}
"""The app's own routes, of no area: only the security headers."""
PER_LINK = {"table": "TAP_LIMIT", "league": "LEAGUE_LIMIT", "card": "LEAGUE_LIMIT"}
PER_VIEW = {
    ("home.new", "POST"): "NEW_MATCH_LIMIT",
    ("home.import_record", "POST"): "IMPORT_LIMIT",
    ("league.new", "POST"): "NEW_LEAGUE_LIMIT",
    ("league.restore", "POST"): "NEW_LEAGUE_LIMIT",
    ("league.restore_confirm", "POST"): "NEW_LEAGUE_LIMIT",
    **{(f"league.{view}", "GET"): "EXPORT_LIMIT" for view in (
        "standings_csv", "results_csv", "season_json", "season_json_gz", "games_csv",
        "players_csv")},
}


def _routes(app) -> list[tuple[str, str, str, set]]:
    """(endpoint, method, address, argument names) of every route, its arguments filled
    in."""
    adapter = app.url_map.bind("localhost")
    found = []
    for rule in app.url_map.iter_rules():
        values = {name: _value(rule._converters[name]) for name in rule.arguments}
        for method in sorted(rule.methods & {"GET", "POST"}):
            found.append((rule.endpoint, method, adapter.build(rule.endpoint, values, method),
                          rule.arguments))
    return found


def _value(converter):
    if isinstance(converter, AnyConverter):
        return next(iter(converter.items))
    if isinstance(converter, IntegerConverter) or converter.regex == r"\d+":
        return 1
    return "app.css" if isinstance(converter, PathConverter) else "x"


def test_every_blueprint_is_an_area_with_its_policy(app):
    assert set(app.blueprints) == set(AREAS)
    for name, blueprint in app.blueprints.items():
        assert isinstance(blueprint, Area), name
        views = {endpoint.partition(".")[2] for endpoint in app.view_functions
                 if endpoint.startswith(f"{name}.")}
        named = set(blueprint.policy.per_view) | set(blueprint.policy.view_headers)
        assert named <= views, name  # no policy for a view that is not there
    assert {endpoint for endpoint in app.view_functions if "." not in endpoint} == APP_ENDPOINTS


def test_every_route_answers_with_its_areas_headers(app, client):
    for endpoint, method, address, _arguments in _routes(app):
        with client.open(address, method=method) as response:
            headers = response.headers
        area = endpoint.partition(".")[0]
        cache, robots = VIEWS.get(endpoint) or AREAS.get(area, (None, None))
        said = f"{method} {address} ({endpoint}, {response.status_code})"
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"], said
        assert headers["X-Content-Type-Options"] == "nosniff", said
        assert headers.get("X-Robots-Tag") == robots, said
        if endpoint not in APP_ENDPOINTS:  # a static file: kept a year (its own test)
            assert headers.get("Cache-Control") == cache, said


def test_every_route_counts_against_its_areas_limits(app):
    for endpoint, method, address, arguments in _routes(app):
        area = endpoint.partition(".")[0]
        wanted = ["WRITE_LIMIT"] if method == "POST" else []
        if method == "POST" and area in PER_LINK and "key" in arguments:
            wanted.append(PER_LINK[area])
        if (endpoint, method) in PER_VIEW:
            wanted.append(PER_VIEW[endpoint, method])
        with app.test_request_context(address, method=method):
            counted = [setting for setting, _scope, _who in limits_of_this_request()]
        assert counted == wanted, f"{method} {address} ({endpoint})"
