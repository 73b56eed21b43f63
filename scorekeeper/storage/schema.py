"""The tables, version by version: written once for SQLite and PostgreSQL, the words that
differ between them as tokens in capitals (SERIAL_KEY, NOW_TEXT, KEYED_ONLY, ROWID_COLUMN,
BYTES, SCRATCH_TABLE) that `dialects.Dialect.schema` replaces. A change is a new item at
the end, never an edit; an item may also fill its new tables from the old ones (a
function of the connection, run in the same transaction).
"""

from .leagues import link_card_games

ADMIT_FUNCTION = """
CREATE OR REPLACE FUNCTION write_admit(hit_keys TEXT[], hit_limits INTEGER[],
                                       hit_expiries DOUBLE PRECISION[])
RETURNS DOUBLE PRECISION AS $$
DECLARE
    now_at DOUBLE PRECISION;
    seconds DOUBLE PRECISION := 0;
    held INTEGER;
    leaving DOUBLE PRECISION;
BEGIN
    -- one request per key at a time, the keys locked in one order: no two wait on each other
    PERFORM pg_advisory_xact_lock(hashtextextended(sorted.hit_key, 5336))
        FROM (SELECT unnest(hit_keys) AS hit_key ORDER BY 1) AS sorted;
    now_at := EXTRACT(EPOCH FROM clock_timestamp());
    FOR n IN 1 .. array_length(hit_keys, 1) LOOP
        SELECT count(*) INTO held FROM write_hits
            WHERE key = hit_keys[n] AND until > now_at AND at <= now_at;
        IF held >= hit_limits[n] THEN
            SELECT at INTO leaving FROM write_hits
                WHERE key = hit_keys[n] AND until > now_at AND at <= now_at
                ORDER BY at LIMIT 1 OFFSET held - hit_limits[n];
            seconds := greatest(seconds, leaving + hit_expiries[n] - now_at, 0.001);
        END IF;
    END LOOP;
    IF seconds = 0 THEN
        INSERT INTO write_hits (key, at, until)
            SELECT window_key, now_at, now_at + window_expiry
            FROM unnest(hit_keys, hit_expiries) AS windows(window_key, window_expiry);
    END IF;
    RETURN seconds;
END $$ LANGUAGE plpgsql
"""
"""PostgreSQL's count of one request in its windows, in one round trip (hits.py does the
same in SQLite): lock the keys, count each window, add the request to all or to none,
answer the seconds until every window has room (0: counted)."""


def make_admit_function(conn) -> None:
    """Schema version 6: PostgreSQL's write_admit (SQLite counts in the app: hits.py)."""
    if conn.dialect.admit:
        conn.execute(ADMIT_FUNCTION)


SCHEMA = [
    # version 1: a match is its setup and an append-only list of entries
    """
    CREATE TABLE matches (
        id TEXT PRIMARY KEY,
        score_key TEXT NOT NULL,
        view_key TEXT NOT NULL,
        setup TEXT NOT NULL,
        created TEXT NOT NULL DEFAULT (NOW_TEXT),
        updated TEXT NOT NULL DEFAULT (NOW_TEXT),
        revision INTEGER NOT NULL DEFAULT 0,
        summary TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE entries (
        match_id TEXT NOT NULL REFERENCES matches(id),
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('event', 'undo')),
        data TEXT NOT NULL,
        created TEXT NOT NULL DEFAULT (NOW_TEXT),
        PRIMARY KEY (match_id, seq)
    ) KEYED_ONLY;
    CREATE INDEX matches_by_update ON matches(updated);
    """,
    # version 2: pub leagues; a card is a JSON value with a revision, its games link matches
    """
    CREATE TABLE leagues (
        id TEXT PRIMARY KEY,
        secretary_key TEXT NOT NULL,
        public_key TEXT NOT NULL,
        setup TEXT NOT NULL,
        created TEXT NOT NULL DEFAULT (NOW_TEXT)
    );
    CREATE TABLE teams (
        id SERIAL_KEY,
        league_id TEXT NOT NULL REFERENCES leagues(id),
        name TEXT NOT NULL,
        captain_key TEXT NOT NULL,
        players TEXT NOT NULL DEFAULT '[]',
        UNIQUE (league_id, name)
    );
    CREATE TABLE fixtures (
        id SERIAL_KEY,
        league_id TEXT NOT NULL REFERENCES leagues(id),
        home INTEGER NOT NULL REFERENCES teams(id),
        away INTEGER NOT NULL REFERENCES teams(id),
        day TEXT NOT NULL,
        card TEXT NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0,
        CHECK (home != away)
    );
    CREATE TABLE corrections (
        ROWID_COLUMN
        fixture_id INTEGER NOT NULL REFERENCES fixtures(id),
        at TEXT NOT NULL DEFAULT (NOW_TEXT),
        kind TEXT NOT NULL,
        facts TEXT NOT NULL
    );
    CREATE INDEX fixtures_by_league ON fixtures(league_id, day);
    CREATE INDEX corrections_by_fixture ON corrections(fixture_id)
    """,
    # version 3: each match's scoreboard as sent (per page or fragment, language and
    # encoding), at its newest revision: rendered once for every worker and app server
    """
    CREATE TABLE boards (
        match_id TEXT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        variant TEXT NOT NULL,
        revision INTEGER NOT NULL,
        encoding TEXT NOT NULL,
        body BYTES NOT NULL,
        PRIMARY KEY (match_id, variant)
    ) KEYED_ONLY
    """,
    # version 4: the league card a match scores a game of, and whether that card holds it:
    # 'confirmed' (both captains signed: the table can change nothing), 'removed' (the
    # secretary took the game off the card), or '' (free); filled from the stored cards
    ("""
    ALTER TABLE matches ADD COLUMN fixture_id INTEGER REFERENCES fixtures(id);
    ALTER TABLE matches ADD COLUMN game INTEGER;
    ALTER TABLE matches ADD COLUMN held TEXT NOT NULL DEFAULT ''
        CHECK (held IN ('', 'confirmed', 'removed'))
    """, link_card_games),
    # version 5: the division a team plays in ('' in a league without divisions), and the
    # fixtures that are play-offs (they settle a tie on points and count for nothing else)
    """
    ALTER TABLE teams ADD COLUMN division TEXT NOT NULL DEFAULT '';
    ALTER TABLE fixtures ADD COLUMN play_off INTEGER NOT NULL DEFAULT 0
    """,
    # version 6: the write limits' moving windows, one count for every worker and app
    # server: a row per write let in, until it leaves its window (hits.py)
    ("""
    CREATE SCRATCH_TABLE write_hits (
        key TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        until DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX write_hits_by_key ON write_hits(key, until);
    CREATE INDEX write_hits_by_until ON write_hits(until)
    """, make_admit_function),
    # version 7: the secretary's season: the league's own audit of what was renamed, moved
    # or deleted (beside each card's corrections), the links withdrawn (by a hash of their
    # key, so that an old link says so at once on every worker), a team's former players
    # (moved or left: their games stay with the team), and fixtures postponed
    """
    CREATE TABLE league_changes (
        ROWID_COLUMN
        league_id TEXT NOT NULL REFERENCES leagues(id),
        at TEXT NOT NULL DEFAULT (NOW_TEXT),
        kind TEXT NOT NULL,
        facts TEXT NOT NULL
    );
    CREATE INDEX league_changes_by_league ON league_changes(league_id);
    CREATE TABLE withdrawn_links (
        league_id TEXT NOT NULL REFERENCES leagues(id),
        key_hash TEXT NOT NULL,
        role TEXT NOT NULL,
        at TEXT NOT NULL DEFAULT (NOW_TEXT),
        PRIMARY KEY (league_id, key_hash)
    ) KEYED_ONLY;
    ALTER TABLE teams ADD COLUMN former TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE fixtures ADD COLUMN postponed INTEGER NOT NULL DEFAULT 0
    """,
]
"""Each item upgrades the schema by one version (the dialect's words replace the tokens
in capitals); the dialect's `versions` count them."""
