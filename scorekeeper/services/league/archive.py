"""A league's season out and back in: standings, results, game-by-game results and player
averages as CSV (each cell spreadsheet-safe, every fixture's state said: an unplayed one
is marked unplayed), the season as one JSON archive, and restoring an archive as a new
league with new links."""

import csv
import gzip
import io
import zlib
from datetime import date

from ...league import (
    AWARDED,
    ENTERED,
    PLAYING,
    SCORED,
    WAITING,
    Season,
    parse_archive,
    read_archive,
    write_archive,
)
from ...league.cards.card import CONFIRMED
from ...league.errors import N_, ArchiveError, LeagueError
from ...league.season.bounded_json import TooLarge
from ...league.season.player_stats import by_kind
from ...league.terms.setup import SECRETARY
from ...rules.words import pgettext
from ..unit_of_work import UnitOfWork
from .people import records
from .setup import Access
from .views import fixture_line, league_state, season

STANDINGS_HEADINGS = (N_("Position"), N_("Team"), pgettext("fixtures played", "P"), N_("W"),
                      N_("D"), N_("L"),
                      N_("Games for"), N_("Games against"), N_("Difference"), N_("Points"))
DIVISION_HEADING = N_("Division")
"""The standings' first column in a league of divisions."""
RESULTS_HEADINGS = (N_("Date"), pgettext("home team", "Home"), N_("Away"), N_("Home games"),
                    N_("Away games"), N_("Result"))
GAMES_HEADINGS = (N_("Date"), pgettext("home team", "Home"), N_("Away"),
                  pgettext("league game", "Game"), N_("Kind"), N_("Home players"),
                  N_("Away players"), N_("Home points"), N_("Away points"), N_("Legs"),
                  N_("Legs' scores"), N_("How"), N_("Won by"), N_("Result"))
PLAYERS_HEADINGS = (N_("Player"), N_("Team"), N_("Games played"), N_("Games won"),
                    N_("Win rate"), N_("Points for"), N_("Points against"),
                    N_("Average per game"), N_("Best game"))
STATUS_WORDS = {"counted": N_("confirmed"), "walkover": N_("walkover"),
                "unconfirmed": N_("not yet confirmed"), "unplayed": N_("unplayed"),
                "postponed": N_("postponed")}
"""How a fixture stands in an export's Result column."""
HOW_WORDS = {SCORED: N_("scored at a table"), ENTERED: N_("entered from paper"),
             AWARDED: N_("given unplayed"), PLAYING: N_("being played"),
             WAITING: N_("unplayed")}
KIND_WORDS = {"singles": N_("singles"), "pairs": N_("pairs")}
BOM = "\ufeff"
"""A spreadsheet reads a CSV file as UTF-8 only when it starts with this mark."""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP's list): a team named
`=HYPERLINK(...)` would run when the file is opened."""


def spreadsheet_safe(cell):
    """A text cell that a spreadsheet would run, as text (after a single quote); numbers,
    and every name that starts otherwise, as they are."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def _csv(headings, rows, say) -> str:
    """Every export's CSV: each cell made spreadsheet-safe."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")
    writer.writerow([spreadsheet_safe(say(heading)) for heading in headings])
    writer.writerows([spreadsheet_safe(cell) for cell in row] for row in rows)
    return BOM + out.getvalue()


def status(card, counts: bool, started: bool, postponed: bool) -> str:
    """How a fixture stands: counted, a walkover, played but not confirmed, postponed, or
    unplayed."""
    if card.walkover:
        return "walkover"
    if counts:
        return "counted"
    if started:
        return "unconfirmed"
    return "postponed" if postponed else "unplayed"


def standings_csv(uow: UnitOfWork, access: Access, say) -> str:
    """Each division's standings, one after the other (a column names the division; one
    the points adjusted, once a team's are)."""
    rows = season(uow, access).standings()
    divided, adjusted = bool(access.setup.divisions), any(row.adjusted for row in rows)
    headings = STANDINGS_HEADINGS[:-1] + (N_("Adjustment"),) * adjusted + \
        STANDINGS_HEADINGS[-1:]
    return _csv((DIVISION_HEADING,) * divided + headings,
                [[row.division] * divided +
                 [row.position, row.team, row.played, row.won, row.drawn, row.lost,
                  row.games_for, row.games_against, row.difference] +
                 [row.adjusted] * adjusted + [row.points]
                 for row in rows], say)


def results_csv(uow: UnitOfWork, access: Access, say) -> str:
    """A line a fixture: its games won by each side once one is played (empty while it is
    not), and how it stands."""
    state, lines = league_state(uow, access), []
    for fixture in state["fixtures"]:
        line = fixture_line(access, state, fixture, date.min)
        played = status(fixture.card, line["counts"], line["started"], fixture.postponed)
        games = ([line["home_games"], line["away_games"]]
                 if played not in ("unplayed", "postponed") else ["", ""])
        lines.append([fixture.day, line["home"], line["away"], *games,
                      say(STATUS_WORDS[played])])
    return _csv(RESULTS_HEADINGS, lines, say)


def games_csv(uow: UnitOfWork, access: Access, say) -> str:
    """A line a game of every fixture: its players, points, legs (and each leg's score),
    how it was decided and who won it (a walkover's games: the team that turned up), and
    how its fixture stands."""
    state, lines = league_state(uow, access), []
    for fixture in state["fixtures"]:
        line = fixture_line(access, state, fixture, date.min, detail=True)
        played = say(STATUS_WORDS[status(fixture.card, line["counts"], line["started"],
                                         fixture.postponed)])
        walkover = fixture.card.walkover
        for game in line["games"]:
            begun = game["state"] != "waiting" and not walkover
            lines.append([
                fixture.day, line["home"], line["away"], game["number"],
                say(KIND_WORDS[game["kind"]]), " & ".join(game["home"]),
                " & ".join(game["away"]),
                *([game["home_points"], game["away_points"]] if begun and
                  not game["awarded"] else ["", ""]),
                f"{game['legs'][0]}–{game['legs'][1]}" if game["legs"] else "",
                _leg_scores(game) if begun else "",
                say(STATUS_WORDS["walkover"] if walkover else HOW_WORDS[game["state"]]),
                line[walkover] if walkover else
                line[game["winner"]] if game["winner"] and begun else "", played])
    return _csv(GAMES_HEADINGS, lines, say)


def _leg_scores(game: dict) -> str:
    """Each leg's score of a best-of game, home first (`61–40, 50–61, 61–30`)."""
    if game["best_of"] == 1:
        return ""
    legs = game["entered"] or [leg["scores"] for leg in game["leg_scores"]]
    return ", ".join(f"{home}–{away}" for home, away in legs)


def players_csv(uow: UnitOfWork, access: Access, say) -> str:
    """A line a player (a team's; a player who moved has one with each): the counted
    games, points for and against, the average per game and the best game; a line for
    each kind of game where singles and pairs are played to different targets."""
    divided, apart = bool(access.setup.divisions), access.setup.averaged_apart
    lines = []
    for division, whole in records(uow, access):
        for kind, record in by_kind(whole, apart):
            best = record.best
            lines.append([division] * divided + [record.name, record.team] + (
                [say(KIND_WORDS[kind])] if kind else []) + [
                record.played, record.won, record.win_percent, record.points_for,
                record.points_against, record.average,
                f"{best.points_for}–{best.points_against} {best.home} v {best.away} {best.day}"])
    headings = PLAYERS_HEADINGS[:2] + (N_("Kind"),) * bool(apart) + PLAYERS_HEADINGS[2:]
    return _csv((DIVISION_HEADING,) * divided + headings, lines, say)


def archive(uow: UnitOfWork, access: Access) -> dict:
    return write_archive(season(uow, access))


UNPACKED_MOST = 16 * 1024 * 1024
"""The most an archive may hold, unpacked: far more than the largest season (a league's
limits), far less than a crafted file's. Unpacking stops there."""


def unpacked(data: bytes | str) -> bytes | str:
    """An archive as uploaded: its JSON, or gzip-compressed JSON (`season.json.gz`),
    unpacked up to UNPACKED_MOST."""
    if not isinstance(data, bytes) or not data.startswith(b"\x1f\x8b"):
        if len(data) > UNPACKED_MOST:
            raise too_large()
        return data
    unpacking = zlib.decompressobj(wbits=31)
    try:
        text = unpacking.decompress(data, UNPACKED_MOST)
    except zlib.error:
        return b""
    if unpacking.unconsumed_tail:
        raise too_large()
    return text


def read_upload(file) -> bytes:
    """An archive file's bytes: one larger than an archive may unpack to is refused before
    more of it is read."""
    data = file.read(UNPACKED_MOST + 1)
    if len(data) > UNPACKED_MOST:
        raise too_large()
    return data


def too_large() -> ArchiveError:
    return ArchiveError.worded(N_("This archive unpacks to more than a league's season can "
                                  "hold."), "archive_too_large")


def not_an_archive() -> ArchiveError:
    return ArchiveError.worded(N_("This file is not a league season archive."),
                               "not_an_archive")


def read_season(data: bytes | str) -> Season:
    """The season an archive holds, every check made (those of `restore`): a hostile or
    inconsistent archive is refused whole, with its reason; nothing is written."""
    text = unpacked(data)
    try:
        doc = parse_archive(text.decode("utf-8-sig") if isinstance(text, bytes) else text)
    except TooLarge:
        raise too_large() from None
    except LeagueError:
        raise
    except (ValueError, RecursionError):
        doc = None
    return read_archive(doc)


def preview(found: Season) -> dict:
    """What an archive holds, for the secretary to look at before restoring it."""
    results = found.results()
    return {"setup": found.setup, "teams": [(name, found.division_of(name), len(players))
                                            for name, players in found.teams.items()],
            "fixtures": len(found.fixtures),
            "counted": sum(fixture.result is not None for fixture in results),
            "postponed": sum(fixture.postponed for fixture in found.fixtures),
            "records": sum(len(matches) for fixture in found.fixtures
                           for matches in fixture.matches.values()),
            "changes": len(found.changes), "divisions": found.tables()}


def packed(data: bytes | str) -> bytes:
    """An archive compressed (to carry it from the preview to the restore)."""
    text = unpacked(data)
    return gzip.compress(text.encode() if isinstance(text, str) else text, mtime=0)


def restore(uow: UnitOfWork, data: bytes | str) -> Access:
    """A new league holding an archive's season; refused whole if any part disagrees."""
    found = read_season(data)
    with uow:
        league = uow.leagues.insert_league(found.setup)
        ids = {name: uow.leagues.insert_team(league.id, name, players,
                                             found.division_of(name),
                                             found.former.get(name, []))
               for name, players in found.teams.items()}
        for fixture in found.fixtures:
            _restore_fixture(uow, league.id, ids, fixture)
        for change in found.changes:
            uow.audit.add_change(league.id, change["kind"], change["facts"], at=change["at"])
    return Access(league.id, league.secretary_key, SECRETARY, None, found.setup,
                  league.public_key)


def _restore_fixture(uow: UnitOfWork, league_id: str, ids: dict, fixture) -> None:
    card, linked = fixture.card, {}
    for number, matches in fixture.matches.items():
        linked[number] = tuple(uow.matches.insert(match).id for match in matches)
        card = card.relinked(number, linked[number])
    fixture_id = uow.leagues.insert_fixture(league_id, ids[fixture.home], ids[fixture.away],
                                            fixture.date, card, fixture.play_off,
                                            fixture.postponed)
    for number, match_ids in linked.items():
        for match_id in match_ids:
            uow.matches.link(match_id, fixture_id, number)
    if card.signed:
        uow.matches.hold(card.match_ids, CONFIRMED)
    for correction in fixture.corrections:
        uow.leagues.add_correction(fixture_id, correction["kind"], correction["facts"],
                                   at=correction["at"])
