"""Compressed answers: what a phone downloads is smaller, and reads exactly the same."""

import gzip
import re

import brotli

from scorekeeper.web.answers import compression

HTMX = {"HX-Request": "true"}
PLAIN_HTTP = {"Accept-Encoding": "gzip, deflate"}
"""What a browser asks for over plain http (a pub's LAN): no brotli."""
HTTPS = {"Accept-Encoding": "gzip, deflate, br, zstd"}


def unpacked(response) -> bytes:
    encoding = response.headers.get("Content-Encoding")
    if encoding == "br":
        return brotli.decompress(response.data)
    if encoding == "gzip":
        return gzip.decompress(response.data)
    assert encoding is None, encoding
    return response.data


def board_of(table) -> str:
    page = table.page().text
    return re.search(r'class="board-link" href="http://localhost([^"]+)"', page).group(1)


def test_a_scoreboard_reaches_each_phone_compressed_as_it_asked_and_reads_the_same(phone):
    table = phone()
    table.start(0)
    board = board_of(table)
    plain = table.client.get(board, headers=HTMX)
    over_http = table.client.get(board, headers={**HTMX, **PLAIN_HTTP})
    over_https = table.client.get(board, headers={**HTMX, **HTTPS})
    assert "Content-Encoding" not in plain.headers
    assert over_http.headers["Content-Encoding"] == "gzip"
    assert over_https.headers["Content-Encoding"] == "br"
    assert unpacked(over_http) == unpacked(over_https) == plain.data
    assert len(over_https.data) < len(plain.data) / 2


def test_an_unchanged_scoreboard_answers_304_whatever_encoding_it_was_first_sent_in(phone):
    table = phone()
    board = board_of(table)
    first = table.client.get(board, headers={**HTMX, **PLAIN_HTTP})
    assert first.headers["ETag"].startswith('W/"')  # the same board, in any encoding
    assert {"HX-Request", "Accept-Encoding"} <= set(first.headers["Vary"].split(", "))
    again = table.client.get(board, headers={**HTMX, **HTTPS,
                                             "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""

    table.start(0)
    moved = table.client.get(board, headers={**HTMX, **HTTPS,
                                             "If-None-Match": first.headers["ETag"]})
    assert moved.status_code == 200
    assert "Ann to play" in unpacked(moved).decode()


def test_a_tap_is_answered_in_under_2_kb_on_the_wire(phone):
    table = phone()
    pos = table.pos()
    for action, fields in [("start", {"seat": 0}), ("lay", {"move": "6-4"}),
                           ("lay", {"move": "4-4"})]:
        answer = table.client.post(f"{table.url}/{action}", data={**fields, "pos": pos},
                                   headers={**HTMX, **PLAIN_HTTP})
        assert answer.headers["Content-Encoding"] == "gzip"
        assert len(answer.data) <= 2048
        pos += 1
        assert f'name="pos" value="{pos}"' in unpacked(answer).decode()


def test_a_static_file_is_compressed_once_and_revalidates_in_its_encoding(client, monkeypatch):
    squeezed = []
    monkeypatch.setattr(compression, "_static", compression.Kept(8))
    monkeypatch.setattr(compression, "squeezed",
                        lambda body, encoding: squeezed.append(encoding)
                        or gzip.compress(body, mtime=0))
    script = re.search(r'src="(/static/htmx\.min\.js\?v=\w+)"', client.get("/rules").text)[1]
    plain = client.get(script)
    first = client.get(script, headers=PLAIN_HTTP)
    second = client.get(script, headers=PLAIN_HTTP)
    assert squeezed == ["gzip"]
    assert first.headers["Content-Encoding"] == "gzip"
    assert unpacked(first) == unpacked(second) == plain.data
    assert first.headers["ETag"] != plain.headers["ETag"]
    assert "Accept-Encoding" in first.headers["Vary"]
    again = client.get(script, headers={**PLAIN_HTTP, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    for response in (plain, first, second, again):
        response.close()


def test_the_table_screen_loads_no_htmx_its_own_script_sends_the_taps(phone):
    table = phone()
    page = table.page().text
    assert "table.js" in page and "htmx.min.js" not in page
    assert "htmx.min.js" in table.client.get(board_of(table)).text


def test_a_scoreboard_revision_is_compressed_once_for_all_its_viewers(phone, monkeypatch):
    table = phone()
    table.start(0)
    board = board_of(table)
    made = []
    cheap = compression.cheap
    monkeypatch.setattr(compression, "cheap",
                        lambda body, encoding: made.append(encoding) or cheap(body, encoding))
    viewers = [table.client.application.test_client() for _ in range(3)]
    answers = [viewer.get(board, headers={**HTMX, **PLAIN_HTTP}) for viewer in viewers]
    assert made == ["gzip"]
    assert len({answer.data for answer in answers}) == 1
    assert unpacked(answers[0]) == table.client.get(board, headers=HTMX).data
    table.lay("6-4")
    moved = viewers[0].get(board, headers={**HTMX, **PLAIN_HTTP})
    assert made == ["gzip", "gzip"] and "Bob to play" in unpacked(moved).decode()
