"""The league's tables (SQLite or PostgreSQL): leagues, teams with their rosters, fixtures
with their cards, and the corrections made to cards. Every query of them is here,
parameterised; what they hold comes out decoded (a setup, a card, a roster).

A card is stored as its JSON value with a revision: each write names the revision it
was made against, so of two captains editing one card at once, one wins (StaleCard).
"""

import functools
import json
import secrets
from dataclasses import dataclass, field

from ..league import SIDES, Card, LeagueSetup
from ..league.cards.card import CONFIRMED, FREE
from ..league.terms.setup import PUBLIC, SECRETARY
from .errors import StaleCard

KEY_BYTES = 16
"""128-bit secrets in every league link, as in the match links."""


@dataclass(frozen=True)
class StoredLeague:
    id: str
    secretary_key: str
    public_key: str
    setup: LeagueSetup


@dataclass(frozen=True)
class StoredTeam:
    """A team: its roster (`players`), and its former players, moved to another team or
    gone, whose games this season stay with it."""

    id: int
    name: str
    captain_key: str
    players: list[str]
    division: str = ""
    former: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class StoredFixture:
    id: int
    home: int
    away: int
    day: str
    card: Card
    revision: int
    play_off: bool = False
    postponed: bool = False


@dataclass(frozen=True)
class StoredCorrection:
    """A change the secretary made to a card: when (UTC text), what kind, and its facts."""

    fixture_id: int
    at: str
    kind: str
    facts: dict


def league_games(conn) -> str:
    """A subquery: the ids of the matches that league cards link (pruning keeps these)."""
    return conn.dialect.json_array_values("fixtures", "card", "games", "match_id")


def link_card_games(conn) -> None:
    """Each match a stored card links: its fixture and game, held if both captains signed
    the card (schema version 4, for the leagues played before it). It reads the cards'
    JSON as version 3 wrote it (one match a game), not through today's Card."""
    for fixture_id, card_text in conn.execute("SELECT id, card FROM fixtures").fetchall():
        card = json.loads(card_text)
        signed = set(card.get("confirmed", ())) == set(SIDES)
        for number, game in enumerate(card["games"], 1):
            if game.get("match_id"):
                conn.execute("UPDATE matches SET fixture_id = ?, game = ?, held = ? "
                             "WHERE id = ?", (fixture_id, number, CONFIRMED if signed else FREE,
                                              game["match_id"]))


def new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


@dataclass(frozen=True)
class FixtureAtTable:
    """The card that links a table's match, as the table shows it: the fixture, its teams'
    names and the league's setup; the card is decoded only if asked for (a table asks on
    every tap, and needs it only in a league whose games have legs)."""

    id: int
    revision: int
    home: str
    away: str
    setup: LeagueSetup
    card_text: str

    @functools.cached_property
    def card(self) -> Card:
        return Card.from_dict(json.loads(self.card_text))


@functools.lru_cache(maxsize=256)
def _setup(text: str) -> LeagueSetup:
    """A league's stored setup, decoded and checked once per text: a value, never changed."""
    return LeagueSetup.from_dict(json.loads(text))


def _league(row) -> StoredLeague:
    return StoredLeague(row["id"], row["secretary_key"], row["public_key"], _setup(row["setup"]))


def _team(row) -> StoredTeam:
    return StoredTeam(row["id"], row["name"], row["captain_key"], json.loads(row["players"]),
                      row["division"], json.loads(row["former"]))


def _fixture(row) -> StoredFixture:
    return StoredFixture(row["id"], row["home"], row["away"], row["day"],
                         Card.from_dict(json.loads(row["card"])), row["revision"],
                         bool(row["play_off"]), bool(row["postponed"]))


class LeagueRepository:
    """The leagues of one connection; writes run inside the caller's transaction."""

    def __init__(self, conn):
        self.conn = conn

    def insert_league(self, setup: LeagueSetup) -> StoredLeague:
        while True:
            league_id = secrets.token_urlsafe(6)
            if self.league(league_id) is None:
                break
        self.conn.execute("INSERT INTO leagues (id, secretary_key, public_key, setup) "
                          "VALUES (?, ?, ?, ?)",
                          (league_id, new_key(), new_key(), json.dumps(setup.as_dict())))
        return self.league(league_id)

    def lock(self, league_id: str) -> None:
        """Hold the league's row until the transaction ends: its teams and rosters change
        one write at a time (SQLite's write lock does this already)."""
        self.conn.execute("SELECT id FROM leagues WHERE id = ?" + self.conn.dialect.for_update,
                          (league_id,))

    def league(self, league_id: str) -> StoredLeague | None:
        row = self.conn.execute("SELECT * FROM leagues WHERE id = ?",
                                (str(league_id),)).fetchone()
        return None if row is None else _league(row)

    def insert_team(self, league_id: str, name: str, players: list[str],
                    division: str = "", former: list[str] = ()) -> int:
        return self.conn.execute("INSERT INTO teams (league_id, name, captain_key, players, "
                                 "division, former) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                                 (league_id, name, new_key(), json.dumps(players), division,
                                  json.dumps(list(former)))).fetchone()[0]

    def teams(self, league_id: str) -> list[StoredTeam]:
        return [_team(row) for row in self.conn.execute(
            "SELECT * FROM teams WHERE league_id = ? ORDER BY id", (league_id,)).fetchall()]

    def teams_by_id(self, team_ids: list[int]) -> list[StoredTeam]:
        marks = ",".join("?" * len(team_ids))
        return [_team(row) for row in self.conn.execute(
            f"SELECT * FROM teams WHERE id IN ({marks}) ORDER BY id", list(team_ids)).fetchall()]

    def set_roster(self, team_id: int, players: list[str],
                   former: list[str] | None = None) -> None:
        """The team's players (and, if given, its former players)."""
        if former is None:
            self.conn.execute("UPDATE teams SET players = ? WHERE id = ?",
                              (json.dumps(players), team_id))
        else:
            self.conn.execute("UPDATE teams SET players = ?, former = ? WHERE id = ?",
                              (json.dumps(players), json.dumps(former), team_id))

    def rename_team(self, team_id: int, name: str) -> None:
        self.conn.execute("UPDATE teams SET name = ? WHERE id = ?", (name, team_id))

    def set_key(self, league_id: str, role: str, key: str, team_id: int | None = None) -> None:
        """A link's new key: the secretary's or the public one (the league's), or a
        captain's (the team's)."""
        if team_id is not None:
            self.conn.execute("UPDATE teams SET captain_key = ? WHERE id = ? AND league_id = ?",
                              (key, team_id, league_id))
        else:
            column = {SECRETARY: "secretary_key", PUBLIC: "public_key"}[role]
            self.conn.execute(f"UPDATE leagues SET {column} = ? WHERE id = ?", (key, league_id))

    def delete_team(self, team_id: int) -> None:
        """The team's row (its fixtures are deleted first, by `delete_fixture`)."""
        self.conn.execute("DELETE FROM teams WHERE id = ?", (team_id,))

    def insert_fixture(self, league_id: str, home: int, away: int, day: str,
                       card: Card, play_off: bool = False, postponed: bool = False) -> int:
        return self.conn.execute("INSERT INTO fixtures (league_id, home, away, day, card, "
                                 "play_off, postponed) VALUES (?, ?, ?, ?, ?, ?, ?) "
                                 "RETURNING id",
                                 (league_id, home, away, day, json.dumps(card.as_dict()),
                                  int(play_off), int(postponed))).fetchone()[0]

    def fixtures(self, league_id: str) -> list[StoredFixture]:
        return [_fixture(row) for row in self.conn.execute(
            "SELECT * FROM fixtures WHERE league_id = ? ORDER BY day, id",
            (league_id,)).fetchall()]

    def count_fixtures(self, league_id: str) -> int:
        return self.conn.execute("SELECT count(*) FROM fixtures WHERE league_id = ?",
                                 (league_id,)).fetchone()[0]

    def fixture(self, league_id: str, fixture_id, lock: bool = False) -> StoredFixture | None:
        """A fixture with its card; `lock` holds its row until the transaction ends, so that
        every write of a card takes its locks in one order (the card, then its matches)."""
        locked = self.conn.dialect.for_update if lock else ""
        row = self.conn.execute("SELECT * FROM fixtures WHERE league_id = ? AND id = ?" + locked,
                                (league_id, fixture_id)).fetchone()
        return None if row is None else _fixture(row)

    def save_card(self, fixture_id: int, expected: int, card: Card) -> int:
        """Write the card if it is still at `expected`; returns the new revision.

        The revision is checked by the UPDATE itself: of two writes at once, the second
        finds the row changed (PostgreSQL re-reads it once the first commits) and is
        refused with StaleCard."""
        written = self.conn.execute("UPDATE fixtures SET card = ?, revision = ? "
                                    "WHERE id = ? AND revision = ?",
                                    (json.dumps(card.as_dict()), expected + 1, fixture_id,
                                     expected)).rowcount
        if not written:
            row = self.conn.execute("SELECT revision FROM fixtures WHERE id = ?",
                                    (fixture_id,)).fetchone()
            raise StaleCard(row[0])
        return expected + 1

    def fixture_at_table(self, fixture_id: int) -> FixtureAtTable | None:
        """The fixture whose card links a table's match, its teams' names and its league's
        setup, in one read: a table of a league asks it on every tap."""
        row = self.conn.execute(
            "SELECT f.id, f.revision, f.card, h.name AS home_name, a.name AS away_name, "
            "l.setup AS league_setup "
            "FROM fixtures f JOIN teams h ON h.id = f.home JOIN teams a ON a.id = f.away "
            "JOIN leagues l ON l.id = f.league_id WHERE f.id = ?", (fixture_id,)).fetchone()
        if row is None:
            return None
        return FixtureAtTable(row["id"], row["revision"], row["home_name"], row["away_name"],
                              _setup(row["league_setup"]), row["card"])

    def set_day(self, fixture_id: int, day: str, postponed: bool = False) -> None:
        """The fixture's date, or (`postponed`) the date it was to be played on."""
        self.conn.execute("UPDATE fixtures SET day = ?, postponed = ? WHERE id = ?",
                          (day, int(postponed), fixture_id))

    def swap_sides(self, fixture_id: int, expected: int, card: Card) -> int:
        """Home and away exchanged, with the card's sides (see `save_card`)."""
        revision = self.save_card(fixture_id, expected, card)
        self.conn.execute("UPDATE fixtures SET home = away, away = home WHERE id = ?",
                          (fixture_id,))
        return revision

    def delete_fixture(self, fixture_id: int) -> None:
        """The fixture, its card's corrections, and the links of the matches that scored
        its games (the matches stay, as ordinary matches: free, on no card)."""
        self.conn.execute("UPDATE matches SET fixture_id = NULL, game = NULL, held = ? "
                          "WHERE fixture_id = ?", (FREE, fixture_id))
        self.conn.execute("DELETE FROM corrections WHERE fixture_id = ?", (fixture_id,))
        self.conn.execute("DELETE FROM fixtures WHERE id = ?", (fixture_id,))

    def add_correction(self, fixture_id: int, kind: str, facts: dict,
                       at: str | None = None) -> None:
        """A correction of a card, made now (or, restored from an archive, at `at`)."""
        if at is None:
            self.conn.execute("INSERT INTO corrections (fixture_id, kind, facts) "
                              "VALUES (?, ?, ?)", (fixture_id, kind, json.dumps(facts)))
        else:
            self.conn.execute("INSERT INTO corrections (fixture_id, at, kind, facts) "
                              "VALUES (?, ?, ?, ?)", (fixture_id, at, kind, json.dumps(facts)))

    def corrections(self, league_id: str) -> list[StoredCorrection]:
        """Every correction of the league's cards, oldest first."""
        return [StoredCorrection(row[0], row[1], row[2], json.loads(row[3]))
                for row in self.conn.execute(
                    "SELECT c.fixture_id, c.at, c.kind, c.facts FROM corrections c "
                    "JOIN fixtures f ON f.id = c.fixture_id WHERE f.league_id = ? "
                    "ORDER BY c.rowid", (league_id,)).fetchall()]
