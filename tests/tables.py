"""Small helpers shared by the rules tests: a started match, and moves written as in records."""

from scorekeeper.rules import Match, parse_move

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
