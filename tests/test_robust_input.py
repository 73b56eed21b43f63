"""Random and malformed input to every route: never a 500, never a traceback shown,
and a refused request never changes a match.

CSRF is off here (it is tested elsewhere) so that the data itself reaches the
views. Every example starts from the same database: matches waiting for a
starter, on the lead, in play, at the end of a hand (domino and blocked) and
over, with and without partnerships.
"""

import io
import json
import random
import sqlite3
import string

import pytest
import stores
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simulation import RandomTable
from tables import event_form

from scorekeeper import create_app, storage
from scorekeeper.rules import Match, Table, tile_text
from scorekeeper.rules.match.record import FORMAT, write_record

PHASES = ["start", "lead", "play", "end", "over"]
ACTIONS = ["start", "lay", "draw", "pass", "undo", "end"]
FITTING = {"start": ["start"], "lead": ["lay"], "play": ["lay", "draw", "pass"], "end": ["end"],
           "over": ["undo", "lay"]}
FIELDS = ["csrf_token", "pos", "seat", "move", "check", "count", "player1", "player2",
          "player3", "player4", "partnerships", "target", "hand_size", "record"]


def _played(seed: int, players: int, partnerships: bool, phase: str,
            blocked: bool | None = None) -> RandomTable:
    """A random legal match (with its hidden tiles) stopped when it first reaches `phase`."""
    for attempt in range(200):
        rng = random.Random(seed * 1000 + attempt)
        names = ["Ann", "Bob", "<b>Cat</b>", "Dön"][:players]
        match = Match(Table.create(names, partnerships, 61 if phase == "over" else None))
        sim = RandomTable(match, rng)
        for _ in range(5000):
            hand = match.hand
            reached = match.phase == phase and (match.log or phase == "start")
            if phase in ("lead", "play") and match.phase == phase:
                reached = len(match.hands) > 1 or len(match.log) > 4
            if phase == "end" and reached and blocked is not None:
                reached = (hand.result == "blocked") == blocked
            if reached:
                return sim
            if match.is_over():
                break
            sim.step()
    raise AssertionError(f"no random match reached {phase}")


def legal_taps(sim: RandomTable) -> list[tuple[str, dict]]:
    """Taps the server accepts now: every tile it offers, draw, pass, undo, the real pips."""
    match = sim.match
    taps = [("lay", {"move": tile_text(p.tile) + (f"@{p.end}" if p.end else "")})
            for p in match.placements()]
    if match.can_draw:
        taps.append(("draw", {}))
    if match.can_pass:
        taps.append(("pass", {}))
    if match.log:
        taps.append(("undo", {}))
    if not match.is_over() and match.phase in ("start", "end"):
        taps.append(event_form(sim.step()))
        sim.undo()
    return taps


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """The app, and a template database of matches in every phase, copied in per example."""
    folder = tmp_path_factory.mktemp("input")
    template = str(folder / "template.sqlite")
    live = str(folder / "live.sqlite")
    conn = storage.connect(template)
    storage.upgrade(conn)
    sims = [RandomTable(Match(Table.create(["Ann", "Bob"])), random.Random(0))]
    for seed, (players, partnerships) in enumerate([(2, False), (3, False), (4, True)]):
        for phase in PHASES[1:]:
            sims.append(_played(seed, players, partnerships, phase))
    sims.append(_played(7, 4, False, "end", blocked=True))
    sims.append(_played(8, 2, False, "end", blocked=False))
    matches = []
    for sim in sims:
        stored = stores.create(conn, sim.match)
        matches.append({"id": stored.id, "score_key": stored.score_key,
                        "view_key": stored.view_key, "revision": stored.revision,
                        "phase": sim.match.phase, "taps": legal_taps(sim)})
    assert {match["phase"] for match in matches} == set(PHASES)
    record = write_record(sims[3].match)
    conn.close()
    app = create_app({"TESTING": True, "DATABASE": live, "WTF_CSRF_ENABLED": False,
                      "SECRET_KEY": "input-test"})
    reader = sqlite3.connect(live)  # kept open: the app's connections then close quickly
    yield {"app": app, "template": template, "reader": reader, "record": record,
           "matches": matches}
    reader.close()


def restore(world) -> None:
    source = sqlite3.connect(world["template"])
    try:
        source.backup(world["reader"])
    finally:
        source.close()


def snapshot(conn: sqlite3.Connection):
    return (conn.execute("SELECT * FROM matches ORDER BY id").fetchall(),
            conn.execute("SELECT * FROM entries ORDER BY match_id, seq").fetchall())


# -- values ----------------------------------------------------------------

NASTY_TEXT = st.sampled_from([
    "", " ", "0", "-1", "1e3", "1.5", "0x10", "NaN", "inf", "None", "null", "true", "[]", "{}",
    "²", "٣", "３", "Ⅻ", "½", "１-２", "6-6\x00", "\x00", "\ud7ff", "\u202e3-5", "3 - 5",
    "<script>alert(1)</script>", "{{7*7}}", "{% raw %}", "%(field)s", "%s%s%s", "'; DROP TABLE",
    "9" * 30, "-" + "9" * 30, "9" * 5000, "x" * 300_000, "draw", "draw 2", "draw 0", "pass",
    "7-7", "6-3@X", "6-3@L", "6-3@r", "3-6@R", "@L", "-", "6-", "-6", "0-0", "6-6", "1-2-3",
])
NUMBERS = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["0", "1", "2", "3", "4", "5", "12", "99", "999", "9999", "10000", "²",
                     "٣", str(2**31), str(2**63 - 1), str(2**63), str(2**64), "9" * 30, "-0",
                     "+1", "01", " 7 ", "1_000"]))
TILES = st.tuples(st.integers(-1, 8), st.integers(-1, 8)).map(lambda t: f"{t[0]}-{t[1]}")
MOVES = st.one_of(TILES, TILES.map(lambda t: t + "@L"), TILES.map(lambda t: t + "@R"))
VALUES = st.one_of(NASTY_TEXT, NUMBERS, TILES, MOVES, st.text(max_size=40),
                   st.text(alphabet=string.printable, max_size=20))
FIELD_VALUE = st.one_of(VALUES, st.lists(VALUES, min_size=0, max_size=3))
FIELD_NAME = st.one_of(
    st.sampled_from(FIELDS),
    st.integers(-1, 5).map(lambda n: f"pips_{n}"), st.integers(-1, 5).map(lambda n: f"tiles_{n}"),
    st.text(max_size=12))
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False) | st.text(max_size=20) | NASTY_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                 max_size=4),
    max_leaves=12)


@st.composite
def forms(draw, extra: dict) -> dict:
    """Some of the fields a route reads (each maybe missing or wrong), and some it doesn't."""
    data = {}
    for name, strategy in extra.items():
        if draw(st.integers(0, 4)):
            data[name] = draw(strategy if draw(st.integers(0, 2)) else FIELD_VALUE)
    for name, value in draw(st.dictionaries(FIELD_NAME, FIELD_VALUE, max_size=4)).items():
        data.setdefault(name, value)
    return data


@st.composite
def records(draw, world) -> bytes:
    """A record file: garbage, JSON of the wrong shape, or a real record with a part broken."""
    kind = draw(st.sampled_from(["bytes", "json", "shaped", "mutated", "mutated", "huge",
                                 "deep", "valid"]))
    if kind == "valid":  # the whole record, or its first hands
        doc = dict(world["record"])
        doc["hands"] = doc["hands"][:draw(st.integers(0, len(doc["hands"])))]
        return json.dumps(doc).encode()
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "json":
        return json.dumps(draw(JSON)).encode()
    if kind == "huge":
        return b'{"format": "' + b"x" * (256 * 1024) + b'"}'
    if kind == "deep":
        depth = draw(st.integers(100, 100_000))
        return b"[" * depth + b"]" * depth
    if kind == "shaped":
        doc = {"format": draw(st.sampled_from([FORMAT, "allfives-match/2", None]))}
        for field in ("players", "partnerships", "target", "hand_size", "hands"):
            if draw(st.booleans()) or draw(st.booleans()):
                doc[field] = draw(JSON)
        return json.dumps(doc).encode()
    doc = json.loads(json.dumps(world["record"]))
    for _ in range(draw(st.integers(1, 3))):
        target, key = doc, None
        while True:  # walk down to a random place, then replace it
            keys = list(target) if isinstance(target, dict) else list(range(len(target)))
            if not keys:
                break
            key = draw(st.sampled_from(keys))
            if not isinstance(target[key], dict | list) or not target[key] \
                    or draw(st.integers(0, 2)) == 0:
                break  # replace this value (an empty list or object is replaced whole)
            target = target[key]
        if key is not None:
            target[key] = draw(st.one_of(JSON, VALUES, TILES, MOVES))
    return json.dumps(doc).encode()


@st.composite
def requests(draw, world) -> dict:
    """One request: method, path, form data (or a raw body), headers."""
    headers = {}
    if draw(st.booleans()):
        headers["HX-Request"] = draw(st.sampled_from(["true", "false", "1", ""]))
    kind = draw(st.sampled_from(["write", "write", "write", "read", "new", "import", "path"]))
    match = draw(st.sampled_from(world["matches"]))
    match_id, score_key, view_key = match["id"], match["score_key"], match["view_key"]
    revision = match["revision"]
    keyed = draw(st.sampled_from(["right"] * 5 + ["view", "wrong", "unknown"]))
    if keyed == "view":
        score_key = view_key
    elif keyed == "wrong":
        score_key = draw(st.one_of(st.text(min_size=1, max_size=30), NASTY_TEXT).filter(
            lambda k: "/" not in k and k.strip(".")))
    elif keyed == "unknown":
        match_id = draw(st.text(string.ascii_letters + "-_", min_size=1, max_size=12))
    if kind == "write":
        near = st.sampled_from([str(revision), str(revision - 1), str(revision + 1)])
        if match["taps"] and draw(st.booleans()):  # a real tap, maybe with one part broken
            action, data = draw(st.sampled_from(match["taps"]))
            data = dict(data, pos=str(revision))
            if draw(st.booleans()):
                name = draw(st.sampled_from([*data, *FIELDS[:4]]))
                if draw(st.booleans()):
                    data.pop(name, None)
                else:
                    data[name] = draw(st.one_of(near, FIELD_VALUE))
            if draw(st.integers(0, 3)) == 0:
                data["check"] = "1"
        else:
            action = draw(st.sampled_from(FITTING[match["phase"]]) if draw(st.booleans())
                          else st.sampled_from(ACTIONS))
            extra = {"pos": st.one_of(near, near, NUMBERS), "seat": NUMBERS, "move": MOVES,
                     "check": st.just("1")}
            for seat in range(4):
                extra[f"pips_{seat}"] = NUMBERS
                extra[f"tiles_{seat}"] = st.lists(TILES, max_size=8)
            data = draw(forms(extra))
        return {"method": "POST", "path": f"/match/{match_id}/{score_key}/{action}",
                "data": data, "headers": headers}
    if kind == "read":
        path = draw(st.sampled_from([
            f"/match/{match_id}/{score_key}", f"/match/{match_id}/{score_key}/sheet",
            f"/match/{match_id}/{score_key}/export", f"/board/{match_id}/{view_key}",
            f"/board/{match_id}/{score_key}", f"/board/{match_id}/{view_key}/qr.svg",
            f"/board/{match_id}/{score_key}/qr.svg"]))
        if draw(st.booleans()):
            headers["If-None-Match"] = draw(st.one_of(
                st.just(f'"{match_id}-{revision}-page"'), st.just("*"),
                st.text(string.printable.strip() + " é", max_size=30)))
        return {"method": draw(st.sampled_from(["GET", "GET", "HEAD", "POST", "PUT", "DELETE"])),
                "path": path, "data": None, "headers": headers}
    if kind == "new":
        extra = {"count": st.sampled_from(["2", "3", "4"]), "player1": VALUES,
                 "player2": VALUES, "player3": VALUES, "player4": VALUES,
                 "partnerships": st.sampled_from(["y", "on", "1"]),
                 "target": NUMBERS, "hand_size": NUMBERS}
        method = draw(st.sampled_from(["POST", "POST", "GET"]))
        if draw(st.booleans()):  # a good form, maybe with one field broken
            data = {"count": "4", "player1": "Ann", "player2": "Bob", "player3": "Cat",
                    "player4": "Dan", "partnerships": "y", "target": "150", "hand_size": "5"}
            if draw(st.booleans()):
                name = draw(st.sampled_from(sorted(data)))
                if draw(st.booleans()):
                    del data[name]
                else:
                    data[name] = draw(FIELD_VALUE)
        else:
            data = draw(forms(extra))
        if method == "GET":
            query = {k: v for k, v in data.items() if isinstance(v, str) and len(v) < 1000}
            return {"method": "GET", "path": "/new", "query": query, "data": None,
                    "headers": headers}
        return {"method": "POST", "path": "/new", "data": data, "headers": headers}
    if kind == "import":
        data = draw(forms({}))
        data.pop("record", None)
        if draw(st.integers(0, 5)):
            name = draw(st.sampled_from(["match.json", "", "../../etc/passwd", "x.txt"]))
            data["record"] = (io.BytesIO(draw(records(world))), name)
        elif draw(st.booleans()):
            data["record"] = draw(VALUES)
        return {"method": "POST", "path": "/import", "data": data, "headers": headers,
                "content_type": "multipart/form-data"}
    path = "/" + "/".join(draw(st.lists(  # parts are never empty: "//x" would name a host
        st.one_of(st.text(string.ascii_letters + string.digits + "-_.~%", min_size=1,
                          max_size=12),
                  st.sampled_from(["match", "board", "new", "import", "static", "..", "rules",
                                   match_id, score_key, view_key, "export", "qr.svg"])),
        max_size=5)))
    return {"method": draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"])),
            "path": path, "data": draw(st.none() | forms({})), "headers": headers}


RAW_BODIES = st.sampled_from([
    (b'{"pos": 0}', "application/json"), (b"\xff\xfe\x00garbage", "text/plain"),
    (b"--x\r\nContent-Disposition: form-data; name=\"pos\"\r\n\r\n0\r\n", "multipart/form-data"),
    (b"pos=0&move=6-6", "multipart/form-data; boundary=zz"),
    (b"pos=%ZZ&move=%FF%FE", "application/x-www-form-urlencoded"),
    (b"a=" + b"b" * (300 * 1024), "application/x-www-form-urlencoded"),
])


def _send(client, req):
    kwargs = {"headers": req["headers"]}
    if req.get("query"):
        kwargs["query_string"] = req["query"]
    if req.get("raw"):
        kwargs["data"], kwargs["content_type"] = req["raw"]
    elif req["data"] is not None:
        kwargs["data"] = req["data"]
        if req.get("content_type"):
            kwargs["content_type"] = req["content_type"]
    return client.open(req["path"], method=req["method"], **kwargs)


@st.composite
def scenarios(draw, world) -> list:
    """A few requests in a row, sometimes with a raw body of the wrong type."""
    found = []
    for _ in range(draw(st.integers(1, 3))):
        req = draw(requests(world))
        if req["method"] == "POST" and draw(st.integers(0, 9)) == 0:
            req["raw"] = draw(RAW_BODIES)
        found.append(req)
    return found


def test_malformed_requests_are_refused_cleanly(world):
    @settings(max_examples=350, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.data())
    def run(data):
        restore(world)
        client = world["app"].test_client()
        for req in data.draw(scenarios(world)):
            before = snapshot(world["reader"])
            response = _send(client, req)
            body = response.get_data(as_text=True)
            described = f"{req['method']} {req['path'][:200]} -> {response.status_code}"
            assert response.status_code < 500, described
            assert "Traceback" not in body, described
            assert 'File "' not in body, described
            after = snapshot(world["reader"])
            if response.status_code >= 400:
                assert after == before, described
            elif req["path"] == "/import":  # one new match, with the entries of its record
                assert len(after[0]) - len(before[0]) in (0, 1), described
                new = {row[0] for row in after[0]} - {row[0] for row in before[0]}
                assert {row for row in after[1] if row[0] not in new} == set(before[1])
            else:  # at most one entry, or one new match, per request
                assert len(after[1]) - len(before[1]) in (0, 1), described
                assert len(after[0]) - len(before[0]) in (0, 1), described
                changed = {row[0] for row in set(after[0]) ^ set(before[0])}
                assert len(changed) <= 1, described

    run()


@pytest.mark.parametrize("pos", [str(2**31 + 1), str(2**63), str(2**64), "9" * 40])
@pytest.mark.parametrize("action", ["draw", "pass", "undo", "start"])
def test_positions_beyond_sqlite_integers_are_refused(world, pos, action):
    """A pos past SQLite's 64-bit integers once reached the stale-write query: a 500."""
    restore(world)
    client = world["app"].test_client()
    before = snapshot(world["reader"])
    for match in world["matches"]:
        response = client.post(f"/match/{match['id']}/{match['score_key']}/{action}",
                               data={"pos": pos, "seat": "0"})
        assert response.status_code == 422
    assert snapshot(world["reader"]) == before


@pytest.mark.parametrize("pips", ["²", "٣", "３", "1_0", "+5", "-5", "5.0", "10000"])
def test_pips_must_be_plain_digits(world, pips):
    """`'²'.isdigit()` is true but int('²') fails: it once crashed the end of a hand."""
    restore(world)
    client = world["app"].test_client()
    before = snapshot(world["reader"])
    ended = [match for match in world["matches"] if match["phase"] == "end"]
    assert ended
    for match in ended:
        fields = next(fields for action, fields in match["taps"] if action == "end")
        seats = [name.split("_")[1] for name in fields]  # pips_N or tiles_N
        for bad in seats:
            data = {f"pips_{seat}": "0" for seat in seats}
            data.update({f"pips_{bad}": pips, "pos": str(match["revision"])})
            for check in ({}, {"check": "1"}):
                response = client.post(f"/match/{match['id']}/{match['score_key']}/end",
                                       data=dict(data, **check))
                assert response.status_code == 422, (pips, response.status_code)
                assert "pips must be a whole number" in response.get_data(as_text=True)
    assert snapshot(world["reader"]) == before
