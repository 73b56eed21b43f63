"""The score sheet read off a Match: points per hand, every score named by its hand, move,
player and tile, and each hand's moves, so a dispute about one move can be settled."""

from ..rules import Match
from .catalogue import gettext as _
from .view import explained, move_words, number, signed


def score_sheet(match: Match, last: int | None = None, hands: int | None = None) -> dict:
    """Points per side for every hand (or the last `hands`) with running totals, in the
    reader's numbers, and every score (or the last `last`): the polled scoreboard stays the
    same size all evening."""
    rows, running = [], [0] * len(match.table.sides)
    for hand in match.hands:
        if not hand.moves and not hand.announced:
            continue
        running = [total + points for total, points in zip(running, hand.points, strict=True)]
        rows.append((hand.number, hand.points, running))
    shown_rows = [{"number": hand_number,
                   "cells": [{"points": signed(points), "total": number(total)}
                             for points, total in zip(hand_points, totals, strict=True)]}
                  for hand_number, hand_points, totals in (rows[-hands:] if hands else rows)]
    every = match.score_list()
    shown = every[-last:] if last else every
    scores = [{"hand": score.hand, "where": _where(score),
               "what": _what(match, score), "text": explained(score, match)}
              for score in shown]
    return {"rows": shown_rows, "earlier_hands": len(rows) - len(shown_rows),
            "scores": scores, "more": len(every) - len(shown)}


def _where(score) -> str:
    if score.move is None:
        return _("Hand %(n)s, end", n=score.hand)
    return _("Hand %(n)s, move %(move)s", n=score.hand, move=score.move + 1)


def _what(match: Match, score) -> str:
    """Who laid which tile where, for a score made by a tile; nothing for the hand's end."""
    if score.move is None:
        return ""
    return move_words(match, match.hands[score.hand - 1], score.move)


def hand_moves(match: Match) -> list[dict]:
    """Every hand's moves in order, numbered as the scores name them, with their points."""
    return [{"number": hand.number,
             "moves": [{"number": index + 1, "text": move_words(match, hand, index),
                        "points": played.points}
                       for index, played in enumerate(hand.moves)]}
            for hand in match.hands if hand.moves]
