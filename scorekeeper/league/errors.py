"""The league's refusals: one family beside the rules' own, worded from catalogue templates.

A `LeagueError` is a `RuleError`, so the app words it the same way (gettext of its
template with its facts) and shows it next to what the secretary or captain touched.
"""

from ..rules.errors import N_, Np_, RuleError

__all__ = ["N_", "Np_", "ArchiveError", "CardError", "LeagueError", "SetupRefused"]


class LeagueError(RuleError):
    """Something a league, its teams, fixtures or cards cannot be."""

    kind = "league"


class SetupRefused(LeagueError):
    """A league setup, points scheme, card format, team or fixture that makes no sense."""

    kind = "bad_league_setup"


class CardError(LeagueError):
    """A line-up, a result or a confirmation that a match card cannot take."""

    kind = "bad_card"


class ArchiveError(LeagueError):
    """A document that is not a season archive, or one that disagrees with itself."""

    kind = "bad_archive"
