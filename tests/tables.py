"""Small helpers shared by the rules tests: a started match, moves written as in records,
what each tile of a hand counted and scored, and the form a phone posts for an event."""

from scorekeeper.rules import (
    Draw,
    Lay,
    Match,
    Pass,
    Start,
    explain,
    move_text,
    parse_move,
    tile_text,
)

ANN, BOB, CAT, DAN = range(4)
NAMES = ["Ann", "Bob", "Cat", "Dan"]


def new_match(players=2, starter=ANN, **setup) -> Match:
    match = Match.create(NAMES[:players], **setup)
    match.start(starter)
    return match


def play(match: Match, *moves: str) -> Match:
    """Push moves written as in a match record (`3-5`, `3-5@R`, `draw`, `pass`)."""
    for text in moves:
        match.push(parse_move(text))
    return match


def counts(match: Match) -> list[int]:
    """The count of the ends after each tile of the hand under way."""
    return [played.count for played in match.hand.moves if played.count is not None]


def points(match: Match) -> list[int]:
    """The points each tile of the hand under way scored."""
    return [played.points for played in match.hand.moves if played.count is not None]


def last_explanation(match: Match) -> str:
    """The referee's line for the last tile laid."""
    hand = match.hand
    return explain(match.move_score(hand, len(hand.moves) - 1), match.table)


def event_form(event) -> tuple[str, dict]:
    """The route and form fields the table screen posts for a table event."""
    if isinstance(event, Start):
        return "start", {"seat": str(event.seat)}
    if isinstance(event, Lay):
        return "lay", {"move": move_text(event)}
    if isinstance(event, Draw):
        return "draw", {}
    if isinstance(event, Pass):
        return "pass", {}
    fields = {}
    for seat, value in event.held:
        if isinstance(value, tuple) and value:
            fields[f"tiles_{seat}"] = [tile_text(tile) for tile in value]
        else:
            fields[f"pips_{seat}"] = str(value if isinstance(value, int) else 0)
    return "end", fields
