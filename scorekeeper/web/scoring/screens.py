"""What each screen of a match shows, worked out once per render and handed to its
template as a value (a named tuple: cheap to make on every tap): a template draws what it
is given and calls no function of `view`.
Each part is worked out only for the phase that draws it."""

from typing import NamedTuple

from ...rules import Match, RuleSet
from .view import (
    SideShown,
    TileButton,
    announcement,
    end_of_hand,
    hand_over,
    hand_size_hint,
    last_action,
    placements,
    players,
    rule_set_line,
    sides,
    target_hint,
)


class TableScreen(NamedTuple):
    """The scoring screen: the sides (for the page's title, or the winner), what the last
    entry did and said, and the phase's own part (the end of a hand's seats, or the players
    and the tile buttons)."""

    sides: tuple[SideShown, ...]
    last: str | None
    said: dict | None
    over: str | None
    end: dict | None
    players: list[dict]
    placements: list[TileButton]


def table_screen(match: Match, entered: dict | None = None,
                 whole_page: bool = True) -> TableScreen:
    """The scoring screen of `match` (`entered`: the pips typed at the end of a hand), as
    the whole page or as the fragment a tap swaps in (no title: the sides only once won)."""
    phase = match.phase
    playing = phase in ("lead", "play")
    return TableScreen(sides(match) if whole_page or phase == "over" else (),
                       last_action(match), announcement(match), hand_over(match),
                       end_of_hand(match, entered) if phase == "end" else None,
                       players(match) if playing else [], placements(match) if playing else [])


class BoardScreen(NamedTuple):
    """The scoreboard: the sides and what the last entry said."""

    sides: tuple[SideShown, ...]
    said: dict | None


def board_screen(match: Match) -> BoardScreen:
    return BoardScreen(sides(match), announcement(match))


class SheetScreen(NamedTuple):
    """The score sheet: the sides and the rule set the match is refereed by."""

    sides: tuple[SideShown, ...]
    rule_set: str


def sheet_screen(match: Match) -> SheetScreen:
    return SheetScreen(sides(match), rule_set_line(match))


class NewMatchHints(NamedTuple):
    """The new match form's hints: the rule set's default target and hand sizes."""

    target: str
    hand_size: str


def new_match_hints(rules: RuleSet) -> NewMatchHints:
    return NewMatchHints(target_hint(rules), hand_size_hint(rules))
