"""The read-only scoreboard of a match, for other phones and the pub's TV.

It polls; an unchanged match answers 304 from its revision alone, without a rebuild.
"""

import segno
from flask import Blueprint, Response, abort, render_template, request, url_for

from .. import store
from ..db import get_db
from . import view

bp = Blueprint("board", __name__, url_prefix="/board/<match_id>/<key>")


@bp.get("")
def show(match_id: str, key: str):
    db = get_db()
    row = store.find(db, match_id, key, scoring=False)
    if row is None:
        abort(404)
    etag = f"{match_id}-{row['revision']}-{'fragment' if request.htmx else 'page'}"
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        stored = store.load(db, match_id, key, scoring=False)
        template = "board/_board.html" if request.htmx else "board/board.html"
        response = Response(render_template(template, stored=stored, match=stored.match,
                                            view=view))
    response.set_etag(etag)
    response.headers["Vary"] = "HX-Request"
    return response


@bp.get("/qr.svg")
def qr(match_id: str, key: str):
    """The scoreboard link as a QR code, drawn on the table screen."""
    stored = store.load(get_db(), match_id, key, scoring=False)
    if stored is None:
        abort(404)
    link = url_for("board.show", match_id=match_id, key=key, _external=True)
    svg = segno.make(link, error="m").svg_inline(scale=4, dark="#000", light="#fff")
    return Response(svg, mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=86400"})
