"""The score sheet read off a Match: points per hand, every score named by its hand, move,
player and tile, and each hand's moves, so a dispute about one move can be settled."""

from typing import NamedTuple

from ...rules import Match
from ..answers.catalogue import gettext as _
from ..answers.catalogue import locale_name
from .view import covered_by, explained, move_words, number, signed


def score_sheet(match: Match, last: int | None = None, hands: int | None = None,
                kept: dict | None = None) -> dict:
    """Points per side for every hand (or the last `hands`) with running totals, in the
    reader's numbers, and every score (or the last `last`): the polled scoreboard stays the
    same size all evening. `kept`: tile scores already worded (see `_worded`)."""
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
    return {"rows": shown_rows, "earlier_hands": len(rows) - len(shown_rows),
            "scores": [_worded(match, score, kept) for score in shown],
            "more": len(every) - len(shown)}


class ScoreWords(NamedTuple):
    """A score as the sheet lists it: where in the match, who laid what, and its sum; `move`
    its move's number in the hand (None: the hand's end), to link it to the replay."""

    hand: int
    where: str
    what: str
    text: str
    move: int | None = None


KEPT = 4096
"""Tile scores kept in words (a hundred bytes each): the latest ten of every table playing."""


def _worded(match: Match, score, kept: dict | None) -> ScoreWords:
    """A score in words. A tile's score says the same for as long as the match keeps that
    move, so with `kept` its words are kept by everything they are made of (the table, the
    move and the end it covered, the language): the scoreboard words the same ten again on
    every revision."""
    if score.move is None or kept is None:
        return _words(match, score)
    hand = match.hands[score.hand - 1]
    key = (locale_name(), match.table, score.hand, score.move, hand.moves[score.move],
           covered_by(hand, score.move))
    found = kept.get(key)
    if found is None:
        if len(kept) >= KEPT:
            kept.clear()
        found = kept[key] = _words(match, score)
    return found


def _words(match: Match, score) -> ScoreWords:
    return ScoreWords(score.hand, _where(score), _what(match, score), explained(score, match),
                      None if score.move is None else score.move + 1)


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
