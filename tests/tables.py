"""Small helpers shared by the rules tests: a started match, moves written as in records,
and what each tile of a hand counted and scored."""

from scorekeeper.rules import Match, explain, parse_move

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
