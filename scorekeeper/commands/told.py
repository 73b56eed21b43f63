"""What `scorekeeper replay` says about a match: a referee's text, or one JSON object."""

import gettext
import json

from ..rules import (
    ALL_FIVES,
    BLOCKED,
    UNFINISHED,
    WON,
    Draw,
    Lay,
    Match,
    explain,
    move_text,
    tile_text,
)
from ..rules.placement.laid import chains, covered_by, laid_tiles
from ..rules.placement.places import on_end
from ..rules.rulings import story
from ..rules.rulings.referee import token
from ..rules.words import npgettext
from .console import ENGLISH, sayer


def hand_result(match: Match, index: int) -> str:
    """domino, blocked, won (the match ended in it before it finished) or unfinished."""
    hand = match.hands[index]
    outcome = hand.outcome
    if outcome is None:
        return UNFINISHED
    if outcome.how == WON or hand.settled:
        return outcome.how
    return UNFINISHED


def summary(match: Match, record_hands: list | None = None) -> dict:
    """The `replay --json` object: sides, target, winner and every hand move by move.

    Given the record's hands, it lists exactly those, each move as the record wrote it.
    """
    outline, hands = _outline(match, record_hands)
    return {**outline, "hands": [{**head, "moves": _move_entries(*moves)}
                                 for head, moves in hands]}


def summary_json(match: Match, record_hands: list | None = None) -> str:
    """`json.dumps(summary(...), ensure_ascii=False)`, the line `replay --json` prints, made
    faster: each move's entry is encoded once and remembered (records repeat the same few
    thousand: a player, a move, its count and points), the rest by json.dumps."""
    outline, hands = _outline(match, record_hands)
    told = ", ".join(_json(head)[:-1] + ', "moves": [' + _moves_json(*moves) + "]}"
                     for head, moves in hands)
    return _json(outline)[:-1] + ', "hands": [' + told + "]}"


def _outline(match: Match, record_hands: list | None) -> tuple[dict, list]:
    """The summary but its hands; and each hand's head, with what its moves are told from."""
    table = match.table
    count = len(match.hands) if record_hands is None else len(record_hands)
    hands = []
    for index in range(count):
        hand = match.hands[index]
        written = (record_hands[index]["moves"] if record_hands is not None
                   else [move_text(played.move) for played in hand.moves])
        hands.append(({"number": hand.number, "starter": table.players[hand.starter],
                       "result": hand_result(match, index), "points": list(hand.points)},
                      (table.players, hand.moves, written)))
    house = {} if table.house.is_default else {"house": table.house.as_dict()}
    return {"sides": [{"players": [table.players[seat] for seat in seats],
                       "score": match.scores[side]}
                      for side, seats in enumerate(table.sides)],
            "target": table.target, **house, "winner": match.winner}, hands


def _move_entries(players, played_moves, written) -> list[dict]:
    """Each move as `replay --json` lists it: `ends` for a tile, `points` for every move."""
    return [{"player": players[seat], "move": text, "points": points} if count is None else
            {"player": players[seat], "move": text, "ends": count, "points": points}
            for (seat, _, _, count, points, *_), text in zip(played_moves, written,
                                                               strict=True)]


_MOVES_TOLD: dict[tuple, str] = {}
"""Move entries already encoded, by (player, move as written, ends, points)."""


def _moves_json(players, played_moves, written) -> str:
    """The encoded entries of `_move_entries`, joined as json.dumps joins a list's items."""
    told = []
    for (seat, _, _, count, points, *_), text in zip(played_moves, written, strict=True):
        key = (players[seat], text, count, points)
        entry = _MOVES_TOLD.get(key)
        if entry is None:
            entry = _json(_move_entries(players, [(seat, 0, 0, count, points, 0, 0)],
                                        [text])[0])
            if len(_MOVES_TOLD) < 65536:
                _MOVES_TOLD[key] = entry
        told.append(entry)
    return ", ".join(told)


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def text_lines(match: Match, hand_count: int | None = None,
               words: gettext.NullTranslations = ENGLISH):
    """The match told hand by hand, in words a referee can read out at the table.

    `words` is the catalogue of the reader's language (see `catalogue`); English without.
    """
    say = sayer(words)
    table = match.table
    sides = say(" v ").join(table.side_name(side) for side in range(len(table.sides)))
    dealt = words.ngettext("%(num)s tile", "%(num)s tiles", table.hand_size) % {
        "num": table.hand_size}
    if table.rules is not ALL_FIVES:
        yield say(table.rules.shown_name)
    if not table.house.is_default:
        yield say("House rules: %(rules)s",
                  rules="; ".join(say(word) for word in table.house.switched()))
    if table.rules.exact_target:
        yield say(npgettext("points", "%(sides)s: first to exactly %(target)s, %(dealt)s each",
                            "%(sides)s: first to exactly %(target)s, %(dealt)s each"),
                  counted="target", sides=sides, target=table.target, dealt=dealt)
    else:
        yield say(npgettext("points", "%(sides)s: first to %(target)s, %(dealt)s each",
                            "%(sides)s: first to %(target)s, %(dealt)s each"),
                  counted="target", sides=sides, target=table.target, dealt=dealt)
    running = [0] * len(table.sides)
    count = len(match.hands) if hand_count is None else hand_count
    for index in range(count):
        hand = match.hands[index]
        yield ""
        yield say("Hand %(number)s: %(name)s leads", number=hand.number,
                  name=table.players[hand.starter])
        for number, played in enumerate(hand.moves):
            yield "  " + _move_line(match, hand, number, played, words)
        yield from _hand_end_lines(match, index, say)
        running = [total + points for total, points in zip(running, hand.points, strict=True)]
        yield "  " + say("Score: %(scores)s", scores=_score_text(match, running))
    yield ""
    scores = _score_text(match, match.scores)
    if match.winner is not None:
        side = match.winner
        yield say(npgettext("points",
                            "%(side)s reached %(score)s and won the match. Final score: "
                            "%(scores)s",
                            "%(side)s reached %(score)s and won the match. Final score: "
                            "%(scores)s"),
                  counted="score", side=table.side_name(side), score=match.scores[side],
                  scores=scores)
    else:
        yield say("Not finished. Score: %(scores)s", scores=scores)


def position_lines(match: Match, hand: int, move: int,
                   words: gettext.NullTranslations = ENGLISH) -> list[str] | None:
    """The position after move `move` of hand `hand` (`--move H.M`): the move, the layout in
    text, its open ends and count, and the score then; None if the match has no such move."""
    step = story.find(story.steps(match), hand, move)
    if step is None:
        return None
    say = sayer(words)
    at = story.position(match, step.number)
    played_hand = at.hands[hand - 1]
    lines = [say("Hand %(n)s, move %(move)s", n=hand, move=move),
             "  " + _move_text(at, played_hand, move - 1, played_hand.moves[move - 1], words)]
    line, across = chains(laid_tiles(played_hand.moves))
    if line:
        lines.append("  " + say("Layout: %(line)s", line=line))
        lines += ["  " + say("Across %(spinner)s: %(arms)s", spinner=spinner,
                             arms=" | ".join(arms)) for spinner, arms in across]
        last = max(index for index, played in enumerate(played_hand.moves)
                   if played.count is not None)
        lines.append("  " + say("Open ends: %(ends)s; count %(sum)s", ends=", ".join(
            token(end) for end in played_hand.moves[last].ends), sum=explain(
                at.move_score(played_hand, last), at.table, award=False, say=say)))
    lines.append("  " + say("Score: %(scores)s", scores=_score_text(at, at.scores)))
    if at.turn is not None:
        lines.append("  " + say("%(name)s to play", name=at.table.players[at.turn]))
    return lines


def _move_line(match: Match, hand, number: int, played, words) -> str:
    """One move, numbered as the score sheet numbers it (`7. Ann lays 3-5 on the 3: …`)."""
    return f"{number + 1}. " + _move_text(match, hand, number, played, words)


def _move_text(match: Match, hand, number: int, played, words) -> str:
    say = sayer(words)
    name = match.table.players[played.seat]
    if isinstance(played.move, Draw):
        return words.ngettext("%(name)s draws a tile", "%(name)s draws %(num)s tiles",
                              played.move.count) % {"name": name, "num": played.move.count}
    if not isinstance(played.move, Lay):
        if match.table.rules.knocks:
            return say("%(name)s knocks", name=name)
        return say("%(name)s passes", name=name)
    explanation = explain(match.move_score(hand, number), match.table, say=say)
    tile = tile_text(played.move.tile)
    covered = covered_by(hand, number)
    if covered is None:  # the lead
        return say("%(name)s lays %(tile)s: %(why)s", name=name, tile=tile, why=explanation)
    return say("%(name)s lays %(tile)s %(where)s: %(why)s", name=name, tile=tile,
               where=on_end(covered, match.table.rules.branches, say), why=explanation)


def _hand_end_lines(match: Match, index: int, say):
    hand = match.hands[index]
    result = hand_result(match, index)
    if result == "won":
        yield "  " + say("The match ends here: nothing more is played or scored.")
    elif result == "unfinished":
        yield "  " + say("(the hand is not finished)")
    elif hand.end is None:  # a rule set that counts no pips: the hand's tiles said it all
        yield "  " + (say("Blocked: every player still holding tiles knocked. Nobody scores.")
                      if result == BLOCKED else
                      say("%(side)s went out.", side=match.table.side_name(hand.outcome.side)))
    elif result == BLOCKED:
        yield "  " + say("Every player passed. %(why)s",
                         why=explain(hand.end, match.table, say=say))
    else:
        yield "  " + say("Domino! %(why)s", why=explain(hand.end, match.table, say=say))
    points = ", ".join(f"{match.table.side_name(side)} {points}"
                       for side, points in enumerate(hand.points))
    yield "  " + say("Hand %(number)s points: %(points)s", number=hand.number, points=points)


def _score_text(match: Match, scores) -> str:
    return ", ".join(f"{match.table.side_name(side)} {score}"
                     for side, score in enumerate(scores))
