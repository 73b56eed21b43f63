"""Scoreboards as sent, kept in the database for every worker process and app server, so
a revision is rendered and compressed once for all of them rather than once in each.

A row holds one match's newest answer per variant (page or fragment, language, the
encoding asked for): a newer revision replaces it, an older one never does, and the
rows go with their match (ON DELETE CASCADE). What is kept can be made again, so on
SQLite its write skips the fsync that a tap's write waits for.
"""

UPSERT = ("INSERT INTO boards (match_id, variant, revision, encoding, body) "
          "VALUES (?, ?, ?, ?, ?) ON CONFLICT (match_id, variant) DO UPDATE SET "
          "revision = excluded.revision, encoding = excluded.encoding, body = excluded.body "
          "WHERE excluded.revision > boards.revision")


class BoardRepository:
    """The kept scoreboards of one connection."""

    def __init__(self, conn):
        self.conn = conn

    def kept(self, match_id: str, revision: int, variant: str
             ) -> tuple[bytes, str | None] | None:
        """The answer some worker kept for this revision and variant: its body and encoding."""
        row = self.conn.execute("SELECT body, encoding FROM boards WHERE match_id = ? AND "
                                "variant = ? AND revision = ?",
                                (match_id, variant, revision)).fetchone()
        return None if row is None else (bytes(row[0]), row[1] or None)

    def keep(self, match_id: str, revision: int, variant: str, body: bytes,
             encoding: str | None) -> None:
        """Keep an answer for the other workers, unless a later revision's is kept already or
        the match was deleted meanwhile (one statement of its own, outside any transaction)."""
        conn = self.conn
        relax, restore = conn.dialect.unsynced
        if relax:
            conn.execute(relax)
        try:
            conn.execute(UPSERT, (match_id, variant, revision, encoding or "", body))
        except Exception as error:
            if not conn.dialect.is_missing_reference(error):
                raise
        finally:
            if restore:
                conn.execute(restore)
