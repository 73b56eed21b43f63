"""A pub league: teams, fixtures, match cards and standings. Pure Python, no I/O.

It knows nothing of Flask or SQLite; the service layer stores what it decides and
reads each game's result off the app's ordinary matches.
"""

from .archive import FORMAT, Season, SeasonFixture, read_archive, write_archive
from .card import AWAY, ENTERED, HOME, PLAYING, SCORED, WAITING, Card, Game, Outcome, outcome
from .errors import ArchiveError, CardError, LeagueError, SetupRefused
from .fixtures import check_fixture, dated, double_round_robin
from .setup import (
    PAIRS,
    PRESET_NAMES,
    PRESETS,
    SINGLES,
    TIE_BREAKS,
    LeagueSetup,
    PointsScheme,
    card_format_text,
    checked_name,
)
from .standings import CardResult, GameResult, Row, card_result, players_table, standings

__all__ = [
    "AWAY", "ENTERED", "FORMAT", "HOME", "PAIRS", "PLAYING", "PRESETS", "PRESET_NAMES",
    "SCORED", "SINGLES", "TIE_BREAKS", "WAITING", "ArchiveError", "Card", "CardError",
    "CardResult", "Game", "GameResult", "LeagueError", "LeagueSetup", "Outcome",
    "PointsScheme", "Row", "Season", "SeasonFixture", "SetupRefused", "card_format_text",
    "card_result", "check_fixture", "checked_name", "dated", "double_round_robin", "outcome",
    "players_table", "read_archive", "standings", "write_archive",
]
