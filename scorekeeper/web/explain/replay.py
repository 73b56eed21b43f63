"""A match's story move by move, and its score sheet: read-only, under the scoreboard's key
(`/board/<id>/<view key>/…`), so a link to any move can be sent to the whole pub without
handing over the scoring.

Every step has its own address, numbered as the score sheet numbers it: hand 3's lead is
`/hand/3/move/1`, its starter `/hand/3`, its pips `/hand/3/end`; `/replay` is the latest
step. htmx swaps one step for the next; without JavaScript the same links load pages.
"""

from flask import abort, render_template, url_for

from ...rules.rulings.referee import posed
from ...rules.rulings.story import END, MOVE, START, Step, find, opening, steps
from ...services import matches
from ...services.matches import Opened
from ..answers.area import KEYED_VIEWS, Area, Policy
from ..answers.pages import screen
from ..answers.sharing import shared_url
from ..answers.work import unit_of_work
from ..scoring import view
from ..scoring.forms import HOUSE_FIELDS
from ..scoring.screens import sheet_screen
from .story import shown

bp = Area("replay", __name__, Policy(KEYED_VIEWS), url_prefix="/board/<match_id>/<key>")


def watched_or_404(match_id: str, key: str) -> Opened:
    stored = matches.watch(unit_of_work(), match_id, key)
    if stored is None:
        abort(404)
    return stored


@bp.get("/replay")
def latest(match_id: str, key: str):
    """The latest step: where the table is now."""
    stored = watched_or_404(match_id, key)
    story = steps(stored.match)
    return _answer(stored, story, story[-1] if story else None)


@bp.get("/hand/<int:hand>")
def hand(match_id: str, key: str, hand: int):
    """Where hand `hand` is about to be led."""
    stored = watched_or_404(match_id, key)
    story = steps(stored.match)
    return _answer(stored, story, opening(stored.match, story, hand) or abort(404))


@bp.get("/hand/<int:hand>/move/<int:move>")
def move(match_id: str, key: str, hand: int, move: int):
    stored = watched_or_404(match_id, key)
    story = steps(stored.match)
    return _answer(stored, story, find(story, hand, move) or abort(404))


@bp.get("/hand/<int:hand>/end")
def hand_end(match_id: str, key: str, hand: int):
    """The pips left in hands when hand `hand` ended, and their score."""
    stored = watched_or_404(match_id, key)
    story = steps(stored.match)
    return _answer(stored, story, find(story, hand, kind=END) or abort(404))


@bp.get("/sheet")
def sheet(match_id: str, key: str):
    """The whole score sheet, every score and move linked to its step."""
    stored = watched_or_404(match_id, key)
    return render_template("board/sheet.html", stored=stored, match=stored.match,
                           screen=sheet_screen(stored.match))


def _answer(stored: Opened, story: list[Step], step: Step | None):
    """The replay at `step` (None: nothing has been played yet), page or fragment."""
    match = stored.match
    at = shown(match, step) if step is not None else None
    shared = _url(shared_url, *_endpoint(stored, step)) if step is not None else None
    return screen("replay/replay.html", "replay/_step.html", stored=stored, match=match,
                  sides=view.sides(match), story=story, shown=at,
                  hands=sorted({each.hand for each in story}),
                  around=_around(story, step), address=lambda each: step_url(stored, each),
                  hand_url=lambda number: hand_url(stored, story, number),
                  ask=_referee_fields(at), shared=shared)


def _around(story: list[Step], step: Step | None) -> dict:
    """The steps the stepper links to: first, previous, next and last."""
    if step is None:
        return {}
    index = step.number - 1
    return {"first": story[0] if index else None, "previous": story[index - 1] if index else None,
            "next": story[index + 1] if index + 1 < len(story) else None,
            "last": story[-1] if index + 1 < len(story) else None}


def _endpoint(stored: Opened, step: Step) -> tuple[str, str, str, int, int | None]:
    """A step's endpoint and its values: match, read-only key, hand (and move)."""
    endpoint = {MOVE: "replay.move", START: "replay.hand", END: "replay.hand_end"}[step.kind]
    return endpoint, stored.id, stored.view_key, step.hand, step.move


def _url(url, endpoint: str, match_id: str, key: str, hand: int, move: int | None) -> str:
    values = {"match_id": match_id, "key": key, "hand": hand}
    return url(endpoint, **values, **({"move": move} if move else {}))


def step_url(stored: Opened, step: Step) -> str:
    """The address of a step: the read-only link, never the scoring key."""
    return _url(url_for, *_endpoint(stored, step))


def hand_url(stored: Opened, story: list[Step], number: int) -> str:
    """Where the replay of hand `number` opens: its lead, else where it is about to be led."""
    lead = find(story, number, 1)
    if lead is not None:
        return step_url(stored, lead)
    return url_for("replay.hand", match_id=stored.id, key=stored.view_key, hand=number)


def _referee_fields(at) -> dict | None:
    """The referee's form filled in from the position of this step, if a tile may be laid."""
    if at is None:
        return None
    position = posed(at.at)
    if position is None:
        return None
    ends, scores, last = position
    rules = at.at.table.rules
    fields = {"rules": rules.name, "ends": ends, "scores": " ".join(map(str, scores)),
              "target": at.at.table.target,
              **{HOUSE_FIELDS[option]: "y" for option in at.at.table.house.as_dict()}}
    return {**fields, "last": "1"} if last else fields
