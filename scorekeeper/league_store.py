"""The league's tables (SQLite or PostgreSQL): leagues, teams with their rosters, fixtures
with their cards, and the corrections made to cards. Every query of them is here, parameterised.

A card is stored as its JSON value with a revision: each write names the revision it
was made against, so of two captains editing one card at once, one wins.
"""

import json
import secrets

KEY_BYTES = 16
"""128-bit secrets in every league link, as in the match links."""


def league_games(conn) -> str:
    """A subquery: the ids of the matches that league cards link (pruning keeps these)."""
    return conn.dialect.json_array_values("fixtures", "card", "games", "match_id")


class StaleCard(Exception):
    """A card written against a revision that is no longer its latest."""

    def __init__(self, current: int):
        super().__init__(f"the card is at revision {current}")
        self.current = current


Row = object
"""A row as the connection reads it: by position or by column name."""


def new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def insert_league(conn, setup: dict) -> Row:
    while True:
        league_id = secrets.token_urlsafe(6)
        if league_row(conn, league_id) is None:
            break
    conn.execute("INSERT INTO leagues (id, secretary_key, public_key, setup) "
                 "VALUES (?, ?, ?, ?)", (league_id, new_key(), new_key(), json.dumps(setup)))
    return league_row(conn, league_id)


def lock_league(conn, league_id: str) -> None:
    """Hold the league's row until the transaction ends: its teams and rosters change one
    write at a time (SQLite's write lock does this already)."""
    conn.execute("SELECT id FROM leagues WHERE id = ?" + conn.dialect.for_update, (league_id,))


def league_row(conn, league_id: str) -> Row | None:
    return conn.execute("SELECT * FROM leagues WHERE id = ?", (str(league_id),)).fetchone()


def insert_team(conn, league_id: str, name: str, players: list[str]) -> int:
    return conn.execute("INSERT INTO teams (league_id, name, captain_key, players) "
                        "VALUES (?, ?, ?, ?) RETURNING id",
                        (league_id, name, new_key(), json.dumps(players))).fetchone()[0]


def teams(conn, league_id: str) -> list[Row]:
    return conn.execute("SELECT * FROM teams WHERE league_id = ? ORDER BY id",
                        (league_id,)).fetchall()


def set_roster(conn, team_id: int, players: list[str]) -> None:
    conn.execute("UPDATE teams SET players = ? WHERE id = ?", (json.dumps(players), team_id))


def insert_fixture(conn, league_id: str, home: int, away: int, day: str, card: dict) -> int:
    return conn.execute("INSERT INTO fixtures (league_id, home, away, day, card) "
                        "VALUES (?, ?, ?, ?, ?) RETURNING id",
                        (league_id, home, away, day, json.dumps(card))).fetchone()[0]


def fixtures(conn, league_id: str) -> list[Row]:
    return conn.execute("SELECT * FROM fixtures WHERE league_id = ? ORDER BY day, id",
                        (league_id,)).fetchall()


def fixture(conn, league_id: str, fixture_id) -> Row | None:
    return conn.execute("SELECT * FROM fixtures WHERE league_id = ? AND id = ?",
                        (league_id, fixture_id)).fetchone()


def save_card(conn, fixture_id: int, expected: int, card: dict) -> int:
    """Write the card if it is still at `expected`; returns the new revision.

    The revision is checked by the UPDATE itself: of two writes at once, the second finds
    the row changed (PostgreSQL re-reads it once the first commits) and is refused."""
    written = conn.execute("UPDATE fixtures SET card = ?, revision = ? "
                           "WHERE id = ? AND revision = ?",
                           (json.dumps(card), expected + 1, fixture_id, expected)).rowcount
    if not written:
        row = conn.execute("SELECT revision FROM fixtures WHERE id = ?",
                           (fixture_id,)).fetchone()
        raise StaleCard(row["revision"])
    return expected + 1


def set_day(conn, fixture_id: int, day: str) -> None:
    conn.execute("UPDATE fixtures SET day = ? WHERE id = ?", (day, fixture_id))


def add_correction(conn, fixture_id: int, kind: str, facts: dict) -> None:
    conn.execute("INSERT INTO corrections (fixture_id, kind, facts) VALUES (?, ?, ?)",
                 (fixture_id, kind, json.dumps(facts)))


def corrections(conn, league_id: str) -> list[Row]:
    """Every correction of the league's cards, oldest first."""
    return conn.execute("SELECT c.fixture_id, c.at, c.kind, c.facts FROM corrections c "
                        "JOIN fixtures f ON f.id = c.fixture_id WHERE f.league_id = ? "
                        "ORDER BY c.rowid", (league_id,)).fetchall()


def insert_correction_at(conn, fixture_id: int, at: str, kind: str, facts: dict) -> None:
    """A correction restored from an archive keeps the time it was made."""
    conn.execute("INSERT INTO corrections (fixture_id, at, kind, facts) VALUES (?, ?, ?, ?)",
                 (fixture_id, at, kind, json.dumps(facts)))


def teams_by_id(conn, team_ids: list[int]) -> list[Row]:
    marks = ",".join("?" * len(team_ids))
    return conn.execute(f"SELECT * FROM teams WHERE id IN ({marks}) ORDER BY id",
                        list(team_ids)).fetchall()
