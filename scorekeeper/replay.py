"""What `scorekeeper replay` says about a match: a referee's text, or one JSON object."""

from .rules import (
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
    table = match.table
    hands = []
    count = len(match.hands) if record_hands is None else len(record_hands)
    for index in range(count):
        hand = match.hands[index]
        written = record_hands[index]["moves"] if record_hands is not None else None
        moves = []
        for number, played in enumerate(hand.moves):
            text = written[number] if written is not None else move_text(played.move)
            entry = {"player": table.players[played.seat], "move": text}
            if played.count is not None:
                entry["ends"] = played.count
            entry["points"] = played.points
            moves.append(entry)
        hands.append({"number": hand.number, "starter": table.players[hand.starter],
                      "result": hand_result(match, index), "points": list(hand.points),
                      "moves": moves})
    return {"sides": [{"players": [table.players[seat] for seat in seats],
                       "score": match.scores[side]}
                      for side, seats in enumerate(table.sides)],
            "target": table.target, "winner": match.winner, "hands": hands}


def text_lines(match: Match, hand_count: int | None = None):
    """The match told hand by hand, in words a referee can read out at the table."""
    table = match.table
    sides = " v ".join(table.side_name(side) for side in range(len(table.sides)))
    dealt = "1 tile" if table.hand_size == 1 else f"{table.hand_size} tiles"
    if table.rules is not ALL_FIVES:
        yield table.rules.shown_name
    exactly = "exactly " if table.rules.exact_target else ""
    yield f"{sides}: first to {exactly}{table.target}, {dealt} each"
    running = [0] * len(table.sides)
    count = len(match.hands) if hand_count is None else hand_count
    for index in range(count):
        hand = match.hands[index]
        yield ""
        yield f"Hand {hand.number}: {table.players[hand.starter]} leads"
        for number, played in enumerate(hand.moves):
            yield "  " + _move_line(match, hand, number, played)
        yield from _hand_end_lines(match, index)
        running = [total + points for total, points in zip(running, hand.points, strict=True)]
        yield "  Score: " + _score_text(match, running)
    yield ""
    if match.winner is not None:
        side = match.winner
        yield (f"{table.side_name(side)} reached {match.scores[side]} and won the match. "
               f"Final score: {_score_text(match, match.scores)}")
    else:
        yield f"Not finished. Score: {_score_text(match, match.scores)}"


def _move_line(match: Match, hand, number: int, played) -> str:
    name = match.table.players[played.seat]
    if isinstance(played.move, Draw):
        return f"{name} " + ("draws a tile" if played.move.count == 1
                             else f"draws {played.move.count} tiles")
    if not isinstance(played.move, Lay):
        return f"{name} knocks" if match.table.rules.knocks else f"{name} passes"
    end = played.move.end
    where = {"L": " on the left", "R": " on the right", None: ""}.get(end, f" on {end}")
    explanation = explain(match.move_score(hand, number), match.table)
    return f"{name} lays {tile_text(played.move.tile)}{where}: {explanation}"


def _hand_end_lines(match: Match, index: int):
    hand = match.hands[index]
    result = hand_result(match, index)
    if result == "won":
        yield "  The match ends here: nothing more is played or scored."
    elif result == "unfinished":
        yield "  (the hand is not finished)"
    elif hand.end is None:  # a rule set that counts no pips: the hand's tiles said it all
        yield ("  Blocked: every player still holding tiles knocked. Nobody scores."
               if result == BLOCKED else
               f"  {match.table.side_name(hand.outcome.side)} went out.")
    elif result == BLOCKED:
        yield f"  Blocked: every player passed. {explain(hand.end, match.table)}"
    else:
        yield f"  Domino! {explain(hand.end, match.table)}"
    points = ", ".join(f"{match.table.side_name(side)} {points}"
                       for side, points in enumerate(hand.points))
    yield f"  Hand {hand.number} points: {points}"


def _score_text(match: Match, scores) -> str:
    return ", ".join(f"{match.table.side_name(side)} {score}"
                     for side, score in enumerate(scores))
