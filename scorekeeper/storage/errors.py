"""The store's own errors: what a repository raises, and the services translate."""

from ..rules.errors import Refusal


class StorageRefused(Refusal):
    """A database the app must not run on (newer, damaged, unwritable): one line says why,
    from a catalogue template (`worded`), so that the console says it in its language."""

    kind = "storage_refused"


class MatchGone(Exception):
    """The match was deleted (by its creator, or pruned) between loading it and writing."""


class MatchHeld(Exception):
    """A match whose league card both captains confirmed: its table can change nothing."""

    def __init__(self, match_id: str, fixture_id: int | None, game: int | None):
        super().__init__(f"match {match_id} is held by the confirmed card of fixture "
                         f"{fixture_id}")
        self.match_id, self.fixture_id, self.game = match_id, fixture_id, game


class StaleWrite(Exception):
    """A match written against a revision that is no longer its latest."""

    def __init__(self, current: int):
        super().__init__(f"the match is at revision {current}")
        self.current = current


class StaleCard(Exception):
    """A league card written against a revision that is no longer its latest."""

    def __init__(self, current: int):
        super().__init__(f"the card is at revision {current}")
        self.current = current


class MoveRefused(StorageRefused):
    """A move of the store that cannot start (a store missing, of another schema version, a
    destination already holding data): nothing was written. Worded from the catalogue."""

    kind = "move_refused"


class MoveFailed(Refusal):
    """A move whose copy or check failed, the first difference or error named: the
    destination was left as it was found. Worded from the catalogue."""

    kind = "move_failed"
