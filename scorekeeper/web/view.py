"""What the screens show, read off a Match; display only, every rule comes from the engine."""

from flask_babel import gettext as _
from flask_babel import ngettext

from ..rules import (
    Draw,
    Lay,
    Match,
    Pass,
    Remaining,
    RuleError,
    Score,
    Start,
    Undo,
    explain,
    tile_text,
)
from ..rules.events import button_value
from ..rules.layout import terms

END_WORDS = {"L": "left", "R": "right"}


def explained(score: Score, match: Match, award: bool = True) -> str:
    """The engine's explanation of a score, worded in the reader's language."""
    return explain(score, match.table, award, say=_)


def refusal(error: RuleError) -> str:
    """Why the rules refused an action, worded in the reader's language where the engine
    gave a catalogue template (its English sentence otherwise)."""
    if error.plural:
        return ngettext(error.template, error.plural, error.number, **error.facts)
    if error.template:
        return _(error.template, **error.facts)
    return error.message


def sides(match: Match) -> list[dict]:
    table = match.table
    return [{"name": table.side_name(side), "score": match.scores[side],
             "won": match.winner == side}
            for side in range(len(table.sides))]


def last_count(match: Match) -> int | None:
    """The count of the open ends after the last tile laid in this hand."""
    hand = match.hand
    if hand is None:
        return None
    for played in reversed(hand.moves):
        if played.count is not None:
            return played.count
    return None


def announcement(match: Match) -> dict | None:
    """The last entry's score, to be read out: `+15 Ann — 6-6 (12) + 3 = 15`.

    `scored` is False for a tile that made no score: the screen shows it quietly.
    """
    if match.log and isinstance(match.log[-1], Remaining):
        ended = next(hand for hand in reversed(match.hands) if hand.end is not None)
        return {"text": explained(ended.end, match), "scored": ended.end.points > 0}
    hand = match.hand
    if hand is None or not hand.moves or not isinstance(hand.moves[-1].move, Lay):
        return None
    score = match.move_score(hand, len(hand.moves) - 1)
    player = match.table.players[hand.moves[-1].seat]
    arithmetic = explained(score, match, award=False)
    if score.points:
        return {"text": _("+%(points)s %(name)s — %(sum)s", points=score.points, name=player,
                          sum=arithmetic), "scored": True}
    return {"text": _("%(name)s: %(sum)s, no score", name=player, sum=arithmetic),
            "scored": False}


def placements(match: Match) -> list[dict]:
    """One button per placement: the tile, where it goes in words, and what it scores."""
    found = []
    sides = match.hand.ends if match.hand is not None else None
    for placement in match.placements():
        low, high = placement.tile
        found.append({"text": tile_text(placement.tile), "low": low, "high": high,
                      "value": button_value(placement.tile, placement.end),
                      "end": placement.end or "",
                      "end_word": end_word(placement.end, sides) if placement.end else "",
                      "points": placement.points, "count": placement.count})
    return found


def end_word(end: str, sides) -> str:
    """Where a tile goes, as the table says it: `left`, `on 5-3`, `on the spinner 5-5`, or
    `on the spinner's side` once its line sides hold tiles."""
    if end in END_WORDS:
        return _(END_WORDS[end])
    side = next(side for side in sides if tile_text(side.tile) == end)
    if side.branch:
        return _("on the side of spinner %(tile)s", tile=end)
    if side.spinner:
        return _("on the spinner %(tile)s", tile=end)
    return _("on %(tile)s", tile=end)


def layout(match: Match) -> dict | None:
    """The open ends as the table sees them: left and right on a line; with spinners each
    arm's open end, the spinners marked, and the count with all its terms."""
    hand = match.hand
    if hand is None or not hand.ends or match.phase != "play":
        return None
    sides = hand.ends
    laid = next(index for index in range(len(hand.moves) - 1, -1, -1)
                if hand.moves[index].count is not None)
    arms = [{"tile": tile_text(side.tile), "low": side.tile[0], "high": side.tile[1],
             "value": side.value, "points": side.points, "spinner": side.spinner,
             "branch": side.branch, "where": end_word(tile_text(side.tile), sides)}
            for side in terms(sides) + tuple(side for side in sides if side.branch)]
    return {"line": match.table.rules.spinners == "none", "sides": sides, "arms": arms,
            "count": hand.moves[laid].count,
            "sum": explained(match.move_score(hand, laid), match, award=False)}


def players(match: Match) -> list[dict]:
    hand = match.hand
    return [{"seat": seat, "name": name,
             "held": hand.held[seat] if hand is not None and match.phase != "start" else None,
             "turn": match.turn == seat}
            for seat, name in enumerate(match.table.players)]


def end_of_hand(match: Match) -> dict | None:
    """The seats whose pips are needed, and the tiles they could hold, at the end of a hand."""
    if match.phase != "end":
        return None
    required, optional = match.needed_remaining()
    hand = match.hand
    unplayed = [{"text": tile_text(tile), "low": tile[0], "high": tile[1]}
                for tile in hand.unplayed()]
    names = match.table.players
    how = (_("%(name)s went out.", name=names[hand.winner]) if hand.result == "domino"
           else _("Blocked: nobody can play."))
    return {"how": how, "unplayed": unplayed,
            "seats": [{"seat": seat, "name": names[seat], "held": hand.held[seat]}
                      for seat in required]}


def describe_entry(event, match: Match) -> str:
    """A table event or an undo in a few words, for the notice about what the other phone
    entered."""
    names = match.table.players
    if isinstance(event, Undo):
        return _("an undo")
    if isinstance(event, Lay):
        where = f" ({_(END_WORDS[event.end])})" if event.end in END_WORDS else (
            f" ({_('on %(tile)s', tile=event.end)})" if event.end else "")
        return tile_text(event.tile) + where
    if isinstance(event, Draw):
        return _("a draw")
    if isinstance(event, Pass):
        return _("a pass")
    if isinstance(event, Start):
        return _("%(name)s leads", name=names[event.seat])
    return _("the pips left in hands")


def sheet(match: Match, last: int | None = None) -> dict:
    """Points per side for every hand, running totals, and every score (or the last few)."""
    rows, running = [], [0] * len(match.table.sides)
    for hand in match.hands:
        if not hand.moves and not hand.announced:
            continue
        running = [total + points for total, points in zip(running, hand.points, strict=True)]
        rows.append({"number": hand.number, "points": list(hand.points),
                     "totals": list(running)})
    every = match.score_list()
    shown = every[-last:] if last else every
    scores = [{"hand": score.hand, "points": score.points,
               "text": explained(score, match)} for score in shown]
    return {"rows": rows, "scores": scores, "more": len(every) - len(shown)}
