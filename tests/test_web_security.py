"""CSRF, response headers, the session cookie, escaping of names, and GET never writing."""

import hashlib
import io
import json
import re
import sqlite3

import pytest

HTMX = {"HX-Request": "true"}
SCRIPT = "<script>alert(1)</script>"
IMAGE = '"><img src=x onerror=alert(1)>'


def token_of(page: str) -> str:
    return re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', page).group(1)


def snapshot(app) -> tuple[list, list]:
    """Every row of the database, to compare before and after."""
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return (conn.execute("SELECT * FROM matches ORDER BY id").fetchall(),
                conn.execute("SELECT * FROM entries ORDER BY match_id, seq").fetchall())
    finally:
        conn.close()


def board_of(table) -> str:
    page = table.page().text
    return re.search(r'class="board-link" href="http://localhost([^"]+)"', page).group(1)


# -- CSRF --------------------------------------------------------------------------------


@pytest.fixture
def csrf_app(app_factory):
    return app_factory("csrf.sqlite", WTF_CSRF_ENABLED=True)


@pytest.fixture
def csrf_client(csrf_app):
    return csrf_app.test_client()


NEW = {"count": "2", "player1": "Ann", "player2": "Bob", "target": "250", "hand_size": "7"}


def test_a_forged_new_match_without_a_token_is_refused(csrf_app, csrf_client):
    response = csrf_client.post("/new", data=NEW)
    assert response.status_code == 400
    assert "<h1>Form expired</h1>" in response.text
    assert "Reload the page and tap again." in response.text
    assert snapshot(csrf_app) == ([], [])


def test_a_new_match_with_the_token_from_the_form_is_created(csrf_app, csrf_client):
    token = token_of(csrf_client.get("/new").text)
    response = csrf_client.post("/new", data={**NEW, "csrf_token": token})
    assert response.status_code == 303
    assert len(snapshot(csrf_app)[0]) == 1


def test_a_token_from_another_session_is_refused(csrf_app, csrf_client):
    token = token_of(csrf_app.test_client().get("/new").text)
    csrf_client.get("/new")
    response = csrf_client.post("/new", data={**NEW, "csrf_token": token})
    assert response.status_code == 400
    assert "Reload the page and tap again." in response.text
    assert snapshot(csrf_app) == ([], [])


def scoring_url(client) -> str:
    token = token_of(client.get("/new").text)
    return client.post("/new", data={**NEW, "csrf_token": token}).headers["Location"]


@pytest.mark.parametrize(("action", "data"), [
    ("start", {"seat": "0"}),
    ("lay", {"move": "5-5"}),
    ("undo", {}),
])
def test_a_forged_move_without_a_token_changes_nothing(csrf_app, csrf_client, action, data):
    url = scoring_url(csrf_client)
    csrf_client.post(f"{url}/start", data={"pos": 0, "seat": 0,
                                           "csrf_token": token_of(csrf_client.get(url).text)})
    before = snapshot(csrf_app)
    forger = csrf_app.test_client()  # another site's page: the browser sends no token
    for client in (forger, csrf_client):
        response = client.post(f"{url}/{action}", data={**data, "pos": 1}, headers=HTMX)
        assert response.status_code == 400
        assert response.headers["HX-Refresh"] == "true"  # htmx reloads for a fresh token
        response = client.post(f"{url}/{action}", data={**data, "pos": 1})
        assert response.status_code == 400
        assert "Reload the page and tap again." in response.text
    assert snapshot(csrf_app) == before


def test_a_move_with_the_token_from_the_table_is_stored(csrf_app, csrf_client):
    url = scoring_url(csrf_client)
    page = csrf_client.get(url).text
    response = csrf_client.post(f"{url}/start", data={
        "pos": 0, "seat": 1, "csrf_token": token_of(page)}, headers=HTMX)
    assert response.status_code == 200
    assert '<h1 class="turn">Bob to lead</h1>' in response.text
    response = csrf_client.post(f"{url}/lay", data={
        "pos": 1, "move": "6-4", "csrf_token": token_of(response.text)}, headers=HTMX)
    assert response.status_code == 200
    assert len(snapshot(csrf_app)[1]) == 2


def test_a_forged_import_without_a_token_creates_nothing(csrf_app, csrf_client):
    record = {"format": "allfives-match/1", "players": ["Ann", "Bob"], "hands": []}
    response = csrf_client.post("/import", data={
        "record": (io.BytesIO(json.dumps(record).encode()), "m.json")})
    assert response.status_code == 400
    assert snapshot(csrf_app) == ([], [])


# -- headers and cookies ---------------------------------------------------------------------


def every_kind_of_answer(client, phone):
    """(name, response, is a match page) for pages, fragments and errors of every area."""
    table = phone()
    table.start(0)
    table.play("5-5")
    board = board_of(table)
    stale = table.lay("5-0@L", pos=1)
    return [
        ("home", client.get("/"), False),
        ("new match form", client.get("/new"), False),
        ("new match fragment", client.get("/new?players=3", headers=HTMX), False),
        ("refused new match", client.post("/new", data={"count": "2"}), False),
        ("rules", client.get("/rules"), False),
        ("refused import", client.post("/import", data={}), False),
        ("unknown page", client.get("/nowhere"), False),
        ("table page", table.page(), True),
        ("table fragment", table.page(htmx=True), True),
        ("move", table.lay("5-0@L"), True),
        ("refused move", table.lay("1-2"), True),
        ("stale move", stale, True),
        ("move without htmx", table.undo(htmx=False), True),
        ("sheet", client.get(f"{table.url}/sheet"), True),
        ("export", client.get(f"{table.url}/export"), True),
        ("wrong key", client.get(f"{table.url}x"), True),
        ("scoreboard", client.get(board), True),
        ("scoreboard fragment", client.get(board, headers=HTMX), True),
        ("scoreboard not modified", client.get(board, headers={
            "If-None-Match": client.get(board).headers["ETag"]}), True),
        ("qr code", client.get(f"{board}/qr.svg"), True),
    ]


def test_every_answer_carries_the_security_headers(client, phone):
    answers = every_kind_of_answer(client, phone)
    statuses = {name: response.status_code for name, response, _ in answers}
    assert statuses == {
        "home": 200, "new match form": 200, "new match fragment": 200,
        "refused new match": 422, "rules": 200, "refused import": 422, "unknown page": 404,
        "table page": 200, "table fragment": 200, "move": 200, "refused move": 422,
        "stale move": 409, "move without htmx": 303, "sheet": 200, "export": 200,
        "wrong key": 404, "scoreboard": 200, "scoreboard fragment": 200,
        "scoreboard not modified": 304, "qr code": 200}
    for name, response, match_page in answers:
        headers = response.headers
        policy = [part.strip() for part in headers["Content-Security-Policy"].split(";")]
        # the scoring screen's own scripts, and (for the offline table) WebAssembly; no more
        assert policy[1] in ("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'"), name
        assert "frame-ancestors 'none'" in policy, name
        assert "default-src 'self'" in policy, name
        assert headers["X-Content-Type-Options"] == "nosniff", name
        assert headers["Referrer-Policy"] == "same-origin", name  # never a match URL elsewhere
        if match_page:
            assert "noindex" in headers["X-Robots-Tag"], name
        else:
            assert "X-Robots-Tag" not in headers, name


def test_a_refused_form_with_csrf_on_carries_the_security_headers(csrf_client):
    response = csrf_client.post("/new", data=NEW)
    assert response.status_code == 400
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_a_file_too_large_carries_the_security_headers(client):
    response = client.post("/import", data={
        "record": (io.BytesIO(b" " * (257 * 1024)), "m.json")})
    assert response.status_code == 413
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_match_pages_are_never_stored_by_caches(phone):
    table = phone()
    assert table.page().headers["Cache-Control"] == "no-store"
    assert table.client.get(f"{table.url}/sheet").headers["Cache-Control"] == "no-store"


def test_the_session_cookie_is_http_only_and_same_site_lax(client):
    response = client.post("/new", data=NEW)
    assert response.status_code == 303
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("session=")
    attributes = [part.strip() for part in cookie.split(";")]
    assert "HttpOnly" in attributes
    assert "SameSite=Lax" in attributes


# -- names are data, never markup ------------------------------------------------------------


def assert_escaped(page: str, where: str) -> None:
    assert "<script>alert" not in page, where
    assert "<img src=x" not in page, where
    assert "onerror=alert(1)>" not in page, where
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page, where
    assert "&lt;img src=x onerror=alert(1)&gt;" in page, where


def test_hostile_player_names_are_escaped_everywhere(client, phone, other_phone):
    table = phone((SCRIPT, IMAGE))
    table.start(1)
    fragment = table.play("5-5").text  # the announcement names the second player
    refused = table.pass_turn().text  # the reason names the first player
    board = board_of(table)
    other = other_phone(table)
    conflict = other.lay("5-0", pos=1).text
    pages = {
        "table page": table.page().text,
        "table fragment": fragment,
        "refused move": refused,
        "conflict": conflict,
        "sheet": client.get(f"{table.url}/sheet").text,
        "scoreboard": client.get(board).text,
        "scoreboard fragment": client.get(board, headers=HTMX).text,
        "home list": client.get("/").text,
    }
    for where, page in pages.items():
        assert_escaped(page, where)
    assert f"+10 {IMAGE}".replace("<", "&lt;").replace(">", "&gt;").replace(
        '"', "&#34;") in fragment
    assert "&lt;script&gt;alert(1)&lt;/script&gt; must draw first" in refused


def test_hostile_names_sent_back_by_a_refused_form_are_escaped(client, match_count):
    response = client.post("/new", data={**NEW, "player1": SCRIPT, "player2": IMAGE,
                                         "target": "1"})
    assert response.status_code == 422
    assert "<script>alert" not in response.text
    assert "<img src=x" not in response.text
    assert 'value="&#34;&gt;&lt;img src=x onerror=alert(1)&gt;"' in response.text
    assert match_count() == 0


def test_hostile_names_are_exported_as_plain_data(client, phone):
    table = phone((SCRIPT, IMAGE))
    response = client.get(f"{table.url}/export")
    assert response.mimetype == "application/json"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Content-Disposition"].startswith("attachment;")
    assert json.loads(response.text)["players"] == [SCRIPT, IMAGE]


def test_hostile_names_survive_export_and_import_unchanged(client, phone, stored):
    table = phone((SCRIPT, IMAGE))
    record = client.get(f"{table.url}/export").data
    copy = client.post("/import", data={"record": (io.BytesIO(record), "m.json")})
    _, _, match_id, key = copy.headers["Location"].split("/")
    assert stored(match_id, key).match.table.players == (SCRIPT, IMAGE)


# -- GET never writes ---------------------------------------------------------------------------


def test_no_get_changes_the_database(app, client, phone):
    table = phone(hand_size=1)
    table.start(0)
    table.play("5-5")
    board = board_of(table)
    before = snapshot(app)
    writes = ["start", "lay", "draw", "pass", "undo", "end"]
    gets = ["/", "/new", "/new?players=4&partnerships=y&player1=Ann", "/rules",
            table.url, f"{table.url}/sheet", f"{table.url}/export", board, f"{board}/qr.svg",
            f"{table.url}?pos=2&move=6-6", *[f"{table.url}/{action}?pos=2&seat=0&pips_1=5"
                                             for action in writes]]
    answers = {}
    for path in gets:
        for headers in ({}, HTMX):
            answers[path, bool(headers)] = client.get(path, headers=headers).status_code
    assert snapshot(app) == before
    assert {path for (path, _), status in answers.items() if status == 405} == {
        f"{table.url}/{action}?pos=2&seat=0&pips_1=5" for action in writes}
    assert client.get("/import").status_code == 405
    assert snapshot(app) == before


def test_static_files_are_linked_with_a_hash_of_their_content_and_kept_a_year(client):
    page = client.get("/rules").text
    links = re.findall(r'"(/static/(app\.css|htmx\.min\.js|favicon\.svg)\?v=([0-9a-f]{12}))"',
                       page)
    assert sorted(name for _, name, _ in links) == ["app.css", "favicon.svg", "htmx.min.js"]
    for url, _name, version in links:
        response = client.get(url)
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "public, max-age=31536000"
        assert hashlib.sha256(response.data).hexdigest()[:12] == version
        response.close()
