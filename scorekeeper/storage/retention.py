"""Which matches may go: those nobody has played for a while, but a league's games (their
cards keep the season's results): every leg of a game a card links, not one taken off it."""

from ..league.cards.card import REMOVED
from .leagues import league_games


class Retention:
    """The pruning of one connection's store, inside the caller's transaction."""

    def __init__(self, conn):
        self.conn = conn

    def prune(self, days: int) -> int:
        """Delete every match not played for `days` days and its log; returns how many."""
        conn = self.conn
        old = (f"SELECT id FROM matches WHERE updated < {conn.dialect.days_ago} "
               f"AND id NOT IN ({league_games(conn)}) "
               f"AND (fixture_id IS NULL OR held = '{REMOVED}')")
        conn.execute(old + conn.dialect.for_update, (int(days),))  # no tap in between
        conn.execute(f"DELETE FROM entries WHERE match_id IN ({old})", (int(days),))
        return conn.execute(old.replace("SELECT id", "DELETE"), (int(days),)).rowcount
