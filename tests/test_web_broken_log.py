"""A stored log the rules refuse (written by an older version, or by a bug) never gives a
500: the table says which move is refused and takes the match back to the last legal move,
and the export, the scoreboard and a restarted server go on working."""

import json
import re
from html import unescape

from conftest import HTMX

from scorekeeper.storage import connect, location

MOVES = ["6-6", "6-4@R", "4-4@R", "4-2@R"]


def break_the_log(app, phone, *bad: dict) -> None:
    """Append entries the rules refuse, as a buggy worker once wrote them."""
    conn = connect(location(app.config))
    try:
        revision = conn.execute("SELECT revision FROM matches WHERE id = ?",
                                (phone.match_id,)).fetchone()[0]
        for seq, data in enumerate(bad, revision + 1):
            conn.execute("INSERT INTO entries (match_id, seq, kind, data) VALUES (?, ?, ?, ?)",
                         (phone.match_id, seq, "event", json.dumps(data)))
        conn.execute("UPDATE matches SET revision = ? WHERE id = ?",
                     (revision + len(bad), phone.match_id))
        conn.commit()
    finally:
        conn.close()


def test_a_refused_stored_move_is_named_and_taken_back_without_a_500(app, imported, pos_of):
    table = imported(hands=[{"starter": "Ann", "moves": MOVES}])
    break_the_log(app, table, {"lay": "3-5", "end": "L"}, {"draw": 1}, {"pass": True})
    page = table.client.get(table.url)
    assert page.status_code == 200
    text = unescape(page.text)
    assert "hold one the rules refuse" in text
    assert "hand 1, move 5 (Ann 3-5@L): 3-5 matches neither open end (6 and 2)" in text
    record = table.client.get(f"{table.url}/export")
    assert record.status_code == 200 and record.get_json()["hands"][0]["moves"] == MOVES
    board = re.search(r'class="board-link" href="http://localhost([^"]+)"', page.text).group(1)
    assert table.client.get(board, headers=HTMX).status_code == 200
    refused = table.lay("6-5@L")
    assert refused.status_code == 422 and "3-5 matches neither open end" in unescape(refused.text)
    taken = table.post("take-back")
    assert taken.status_code == 200
    assert "Took back the move the rules refuse and 2 moves after it." in taken.text
    assert "hold one the rules refuse" not in taken.text
    assert pos_of(taken.text) == 11  # the start and four moves, three refused, three undos
    assert table.lay("2-1@R").status_code == 200


def test_a_restarted_server_shows_a_broken_match_and_its_export(app_factory, imported):
    app = app_factory()
    table = imported(hands=[{"starter": "Ann", "moves": MOVES}], client=app.test_client())
    break_the_log(app, table, {"lay": "0-0", "end": "R"})
    again = app_factory(database=app.config["DATABASE"])  # another process, nothing kept
    client = again.test_client()
    assert client.get(table.url).status_code == 200
    assert client.get(table.url, headers=HTMX).status_code == 200
    assert client.get(f"{table.url}/export").status_code == 200
    assert client.get(f"{table.url}/sheet").status_code == 200
