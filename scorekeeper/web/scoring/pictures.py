"""The layout drawn on a screen: which hand's tiles, how large, and the words a screen
reader says instead (the line as it lies, the arms across each spinner, the open ends and
the count with its arithmetic)."""

import functools

from markupsafe import Markup

from ...rules import Hand, Match, explain
from ...rules.hands.scoring import ends_score
from ...rules.placement.laid import Laid, chains
from ...rules.rulings.referee import token
from ..answers.catalogue import gettext as _
from ..answers.catalogue import locale_name
from .drawing import drawn
from .geometry import placed


def hand_picture(match: Match, hand: Hand, size: str, latest: int | None = None
                 ) -> Markup | None:
    """The tiles of `hand` (a hand of `match`) drawn, `size` compact or large, the tile of
    move `latest` outlined; None before its lead."""
    moves = tuple(hand.moves)
    if not any(played.ends for played in moves):
        return None
    return _picture(match.table, moves, size, latest, locale_name())


def current_picture(match: Match) -> Markup | None:
    """The small drawing of the hand under way (the table, the scoreboard), its last tile
    outlined."""
    hand = match.hand
    if hand is None or match.phase != "play":
        return None
    latest = max((index for index, played in enumerate(hand.moves) if played.ends),
                 default=None)
    return hand_picture(match, hand, "compact", latest)


@functools.lru_cache(maxsize=512)
def _picture(table, moves: tuple, size: str, latest: int | None, _locale: str) -> Markup:
    """A hand's drawing in words and lines, kept by its moves (each tap draws one more)."""
    picture = placed(moves)
    return drawn(picture, size, said(table, picture.laid, moves), latest)


def said(table, laid: Laid, moves: tuple) -> str:
    """The layout in words: `Layout: 5-3 3-6 [6-4] 4-4. Open ends: 5, 4-4; count 5 + 4-4 (8)
    = 13.` (the lead in brackets, spinners starred, a spinner's unstarted side in brackets)."""
    line, across = chains(laid)
    words = [_("Layout: %(line)s", line=line)]
    words += [_("Across %(spinner)s: %(arms)s", spinner=spinner, arms=" | ".join(arms))
              for spinner, arms in across]
    return ". ".join([*words, ends_said(table, laid, moves)]) + "."


def ends_said(table, laid: Laid, moves: tuple) -> str:
    """The open ends (of `laid`, the tiles of `moves` as they lie) and their count with its
    arithmetic, as the drawing's caption says it: `Open ends: 5, 4-4; count 5 + 4-4 (8)
    = 13`."""
    last = max(index for index, played in enumerate(moves) if played.count is not None)
    played = moves[last]
    count = explain(ends_score(0, last, table.side_of(played.seat), played, last == 0), table,
                    award=False, say=_)
    return _("Open ends: %(ends)s; count %(sum)s",
             ends=", ".join(token(side.end) for side in laid.open), sum=count)
