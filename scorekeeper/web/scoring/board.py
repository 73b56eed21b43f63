"""The read-only scoreboard of a match, for other phones and the pub's TV.

It polls; an unchanged match answers 304 from its revision (and its setup, whose names a
league may correct) alone, without a rebuild (a weak ETag: the answer is the same board
in whichever encoding the phone took it).
A changed one is rendered (and compressed) once per revision for all the workers and
kept, by each worker in memory and for the others in the database: every phone and the
TV watching a table ask for the same revision within a few seconds of each other,
through any worker. A poll asked again exactly as before, its match unchanged, is answered
as it was before without Flask (`RepeatedPolls`): one read of the match's head.
"""

import functools
import hashlib
import io
import os
import threading
from collections import OrderedDict

import segno
from flask import Response, abort, current_app, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

from ...services import matches
from ..answers.area import KEYED_VIEWS, Area, Policy
from ..answers.compression import accepted_encoding, compressed
from ..answers.language import locale_of
from ..answers.pages import fragment_wanted, screen
from ..answers.sharing import shared_url
from ..answers.work import app_unit_of_work, is_storage_fault, storage_errors, unit_of_work
from .screens import board_screen

bp = Area("board", __name__, Policy(KEYED_VIEWS), url_prefix="/board/<match_id>/<key>")


@bp.get("")
def show(match_id: str, key: str):
    uow = unit_of_work()
    board = matches.open_board(uow, match_id, key)
    if board is None:
        abort(404)
    request.environ[SERVED] = (board.revision, board.names)
    variant = f"{'fragment' if fragment_wanted() else 'page'}-{locale_of(request)}"
    etag = f"{match_id}-{board.revision}-{variant}-{board.names}"
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    else:
        body, encoding = _answer(uow, board, variant, accepted_encoding())
        response = Response(body)
        if encoding:
            response.headers["Content-Encoding"] = encoding
    response.set_etag(etag, weak=True)  # the same board gzipped, brotli'd or plain
    response.headers["Vary"] = "HX-Request"
    return response


ANSWERS_KEPT = 1024
"""Scoreboard answers kept per worker (1-8 KB each): the current revision of every table
of a 400-table night, in two variants; one dropped here is read from the database."""


def _answer(uow, board: matches.Board, variant: str, asked: str | None
            ) -> tuple[bytes, str | None]:
    """The scoreboard at this revision in this variant (page or fragment, and language) and
    the encoding asked for; and its encoding. Kept by this worker (with the names it
    shows), else by another one, else rendered, compressed and kept for all (least
    recently used dropped here).

    It is a pure function of the match's revision, the variant and the encoding: nothing
    in the board templates may depend on the request otherwise.
    """
    kept, lock = current_app.extensions.setdefault(
        "scorekeeper.boards", (OrderedDict(), threading.Lock()))
    variant = f"{variant}-{asked or 'plain'}-{_release(current_app.template_folder)}"
    key = (board.id, board.revision, variant, board.names)
    with lock:
        answer = kept.get(key)
        if answer is not None:
            kept.move_to_end(key)
            return answer
    answer = matches.shared_board(uow, board, variant)
    if answer is None:
        answer = compressed(_rendered(uow, board), asked)
        _share(uow, board, variant, answer)
    with lock:
        kept[key] = answer
        while len(kept) > ANSWERS_KEPT:
            kept.popitem(last=False)
    return answer


def _share(uow, board: matches.Board, variant: str, answer: tuple[bytes, str | None]) -> None:
    """Keep the answer for the other workers, if the store lets us: on a full disk they
    render it themselves, and the pub's TV still gets its board."""
    try:
        matches.share_board(uow, board, variant, answer)
    except storage_errors(current_app) as error:
        if not is_storage_fault(error):
            raise
        current_app.logger.warning("scoreboard not kept for the other workers: %s", error)


def _rendered(uow, board: matches.Board) -> str:
    stored = matches.board_match(uow, board)
    return screen("board/board.html", "board/_board.html", stored=stored, match=stored.match,
                  screen=board_screen(stored.match))


@functools.lru_cache(maxsize=4)
def _release(templates: str) -> str:
    """A digest of the app's code, words, static files and templates: several app servers
    share the kept boards, and one upgraded before the others renders them its own way."""
    digest = hashlib.sha256()
    for folder in (os.path.dirname(os.path.dirname(__file__)), templates):
        for root, dirs, files in os.walk(folder):
            dirs[:] = sorted(name for name in dirs if name != "__pycache__")
            for name in sorted(files):
                with open(os.path.join(root, name), "rb") as file:
                    digest.update(name.encode() + b"\0" + file.read())
    return digest.hexdigest()[:12]


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


SERVED = "scorekeeper.board"
"""Where the view leaves the (revision, names) it answered for (the WSGI environ)."""
POLLS_KEPT = 4096
"""Polls remembered per worker, with their answers: each phone's latest of each table."""


class RepeatedPolls:
    """Around the app (WSGI): a scoreboard poll asked again exactly as before (the same
    headers, the same ETag in If-None-Match), its match still at the revision and names the
    app answered it for, gets the app's own answer again without Flask, for one read of the
    match's head: the poll is most of a league night's requests.

    An answer is remembered only if it was the board's (200 or 304) and set no cookie: what
    was for that one request is never sent again. Its body is the kept board's own bytes.
    """

    def __init__(self, app):
        self.app, self.wsgi_app = app, app.wsgi_app
        self.answers: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        asked = self._poll(environ)
        if asked is None:
            return self.wsgi_app(environ, start_response)
        asked_again, match_id, key = asked
        with self.lock:
            known = self.answers.get(asked_again)
        if known is not None and self._head(match_id, key) == known[0]:
            start_response(known[1], list(known[2]))
            return [known[3]]
        answered = []

        def recording(status, headers, exc_info=None):
            answered[:] = [status, headers]
            return start_response(status, headers, exc_info)

        body = self.wsgi_app(environ, recording)
        served = environ.get(SERVED)
        status, headers = answered or ("", [])
        if served is None or status[:3] not in ("200", "304") or any(
                name.lower() == "set-cookie" for name, _ in headers):
            return body
        try:
            whole = b"".join(body)
        finally:
            getattr(body, "close", lambda: None)()
        with self.lock:
            self.answers[asked_again] = (served, status, tuple(headers), whole)
            while len(self.answers) > POLLS_KEPT:
                self.answers.popitem(last=False)
        return [whole]

    def _poll(self, environ) -> tuple[tuple, str, str] | None:
        """A GET of a scoreboard without a query: everything of it the app could read (its
        headers, address and scheme, not the phone's own address), the match and its key."""
        if environ.get("REQUEST_METHOD") != "GET" or environ.get("QUERY_STRING"):
            return None
        try:
            endpoint, args = self.app.url_map.bind_to_environ(environ).match()
        except (HTTPException, RequestRedirect):
            return None
        if endpoint != "board.show":
            return None
        asked = tuple(sorted((name, value) for name, value in environ.items()
                             if name.startswith("HTTP_") and isinstance(value, str)))
        where = (environ.get("wsgi.url_scheme"), environ.get("SCRIPT_NAME", ""),
                 environ.get("PATH_INFO", ""))
        return (where, asked), args["match_id"], args["key"]

    def _head(self, match_id: str, key: str) -> tuple[int, str] | None:
        """The match's revision and names now (None: gone, or the store failing, which the
        app then answers in its words)."""
        uow = app_unit_of_work(self.app)
        try:
            board = matches.open_board(uow, match_id, key)
        except storage_errors(self.app):
            return None
        finally:
            uow.close()
        return None if board is None else (board.revision, board.names)
