"""A pub league: teams in divisions, fixtures, match cards and standings. Pure Python, no I/O.

It knows nothing of Flask or SQLite; the service layer stores what it decides and
reads each game's result off the app's ordinary matches.
"""

from .cards.card import Card
from .cards.game import (
    AWARDED,
    AWAY,
    ENTERED,
    HOME,
    PLAYING,
    SCORED,
    SIDES,
    WAITING,
    Game,
    Outcome,
    outcome,
)
from .cards.lineups import check_open, handed_in, revealed, with_line_up
from .errors import ArchiveError, CardError, LeagueError, SetupRefused
from .season.archive import FORMAT, parse_archive, read_archive, write_archive
from .season.season import DivisionTable, Fixture, Season, SeasonFixture, counted, division_tables
from .season.standings import CardResult, GameResult, Row, card_result, players_table, standings
from .terms.fixtures import check_fixture, dated, double_round_robin
from .terms.points import PLAY_OFF, PRESET_NAMES, PRESETS, TIE_BREAKS, PointsScheme
from .terms.setup import (
    BLIND,
    DRAWN,
    LINE_UPS,
    OPEN,
    PAIRS,
    SINGLES,
    GameFormat,
    LeagueSetup,
    card_format_text,
    checked_name,
)

__all__ = [
    "AWARDED", "AWAY", "BLIND", "DRAWN", "ENTERED", "FORMAT", "HOME", "LINE_UPS", "OPEN",
    "PAIRS", "PLAYING", "PLAY_OFF", "PRESETS", "PRESET_NAMES", "SCORED", "SIDES", "SINGLES",
    "TIE_BREAKS", "WAITING", "ArchiveError", "Card", "CardError", "CardResult",
    "DivisionTable", "Fixture", "Game", "GameFormat", "GameResult", "LeagueError",
    "LeagueSetup", "Outcome", "PointsScheme", "Row", "Season", "SeasonFixture",
    "SetupRefused", "card_format_text", "card_result", "check_fixture", "check_open",
    "checked_name", "counted", "dated", "division_tables", "double_round_robin",
    "handed_in", "outcome", "parse_archive", "players_table", "read_archive", "revealed",
    "standings", "with_line_up", "write_archive",
]
