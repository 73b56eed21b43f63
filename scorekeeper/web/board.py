"""The read-only scoreboard of a match, for other phones and the pub's TV.

It polls; an unchanged match answers 304 from its revision alone, without a rebuild (a
weak ETag: the answer is the same board in whichever encoding the phone took it).
A changed one is rendered (and compressed) once per revision and kept: every phone and
the TV watching a table ask for the same revision within a few seconds of each other.
"""

import io
import threading
from collections import OrderedDict

import segno
from flask import Blueprint, Response, abort, current_app, render_template, request

from ..services import matches
from . import unit_of_work, view
from .compression import compressed_once
from .language import locale_of
from .sharing import shared_url

bp = Blueprint("board", __name__, url_prefix="/board/<match_id>/<key>")


@bp.get("")
def show(match_id: str, key: str):
    uow = unit_of_work()
    board = matches.open_board(uow, match_id, key)
    if board is None:
        abort(404)
    shape = "fragment" if request.htmx else "page"
    etag = f"{match_id}-{board.revision}-{shape}-{locale_of(request)}"
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    else:
        body, encoding = compressed_once(etag, _rendered(uow, board, etag))
        response = Response(body)
        if encoding:
            response.headers["Content-Encoding"] = encoding
    response.set_etag(etag, weak=True)  # the same board gzipped, brotli'd or plain
    response.headers["Vary"] = "HX-Request"
    return response


RENDERED_KEPT = 256
"""Rendered scoreboards kept per app (a few KB each): more than one per table of a busy night."""


def _rendered(uow, board: matches.Board, etag: str) -> str:
    """The scoreboard at this revision, rendered once and kept (least recently used dropped).

    It is a pure function of the match's revision, the fragment-or-page choice and the
    locale (all three in the ETag): nothing in the board templates may depend on the request.
    """
    kept, lock = current_app.extensions.setdefault(
        "scorekeeper.boards", (OrderedDict(), threading.Lock()))
    with lock:
        body = kept.get(etag)
        if body is not None:
            kept.move_to_end(etag)
            return body
    stored = matches.board_match(uow, board)
    template = "board/_board.html" if request.htmx else "board/board.html"
    body = render_template(template, stored=stored, match=stored.match, view=view)
    with lock:
        kept[etag] = body
        while len(kept) > RENDERED_KEPT:
            kept.popitem(last=False)
    return body


@bp.get("/qr.svg")
def qr(match_id: str, key: str):
    """The scoreboard link as a QR code, drawn on the table screen."""
    if matches.open_board(unit_of_work(), match_id, key) is None:  # no rebuild needed
        abort(404)
    link = shared_url("board.show", match_id=match_id, key=key)
    svg = io.BytesIO()  # a file, not svg_inline(): an <img> needs the SVG namespace
    segno.make(link, error="m").save(svg, kind="svg", xmldecl=False, scale=4, dark="#000",
                                     light="#fff")
    return Response(svg.getvalue(), mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=86400"})
