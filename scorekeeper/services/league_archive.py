"""A league's season out and back in: standings and results as CSV, the season as one
JSON archive, and restoring an archive as a new league with new links."""

import csv
import io
import json

from ..league import read_archive, write_archive
from ..league.errors import N_
from ..league.limits import check_fixtures, check_roster, check_teams
from ..rules.words import pgettext
from ..storage import CONFIRMED
from .league import SECRETARY, Access
from .league_read import season
from .unit_of_work import UnitOfWork

STANDINGS_HEADINGS = (N_("Position"), N_("Team"), pgettext("fixtures played", "P"), N_("W"),
                      N_("D"), N_("L"),
                      N_("Games for"), N_("Games against"), N_("Difference"), N_("Points"))
DIVISION_HEADING = N_("Division")
"""The standings' first column in a league of divisions."""
RESULTS_HEADINGS = (N_("Date"), pgettext("home team", "Home"), N_("Away"), N_("Home games"),
                    N_("Away games"), N_("Confirmed"))
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


def standings_csv(uow: UnitOfWork, access: Access, say) -> str:
    """Each division's standings, one after the other (a column names the division)."""
    rows = season(uow, access).standings()
    divided = bool(access.setup.divisions)
    return _csv((DIVISION_HEADING,) * divided + STANDINGS_HEADINGS,
                [[row.division] * divided +
                 [row.position, row.team, row.played, row.won, row.drawn, row.lost,
                  row.games_for, row.games_against, row.difference, row.points]
                 for row in rows], say)


def results_csv(uow: UnitOfWork, access: Access, say) -> str:
    lines = []
    found = season(uow, access)
    for fixture, played in zip(found.fixtures, found.results(), strict=True):
        if played.result is not None:
            home, away = played.result.home_games, played.result.away_games
        else:
            over = [o for o in fixture.outcomes(found.setup) if o.over]
            home = sum(o.winner == "home" for o in over)
            away = len(over) - home
        lines.append([fixture.date, fixture.home, fixture.away, home, away,
                      say(N_("yes")) if played.result is not None else say(N_("no"))])
    return _csv(RESULTS_HEADINGS, lines, say)


def archive(uow: UnitOfWork, access: Access) -> dict:
    return write_archive(season(uow, access))


def restore(uow: UnitOfWork, text: str | bytes) -> Access:
    """A new league holding an archive's season; refused whole if any part disagrees."""
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        doc = None
    found = read_archive(doc)
    check_teams(len(found.teams))
    check_fixtures(len(found.fixtures))
    for players in found.teams.values():
        check_roster(len(players))
    with uow:
        league = uow.leagues.insert_league(found.setup)
        ids = {name: uow.leagues.insert_team(league.id, name, players,
                                             found.division_of(name))
               for name, players in found.teams.items()}
        for fixture in found.fixtures:
            _restore_fixture(uow, league.id, ids, fixture)
    return Access(league.id, league.secretary_key, SECRETARY, None, found.setup,
                  league.public_key)


def _restore_fixture(uow: UnitOfWork, league_id: str, ids: dict, fixture) -> None:
    card, linked = fixture.card, {}
    for number, matches in fixture.matches.items():
        linked[number] = tuple(uow.matches.insert(match).id for match in matches)
        card = card.relinked(number, linked[number])
    fixture_id = uow.leagues.insert_fixture(league_id, ids[fixture.home], ids[fixture.away],
                                            fixture.date, card, fixture.play_off)
    for number, match_ids in linked.items():
        for match_id in match_ids:
            uow.matches.link(match_id, fixture_id, number)
    if card.signed:
        uow.matches.hold(card.match_ids, CONFIRMED)
    for correction in fixture.corrections:
        uow.leagues.add_correction(fixture_id, correction["kind"], correction["facts"],
                                   at=correction["at"])
