"""The league's paperwork: a match card to print before the night (the teams, the games,
boxes for the players, the scores and both captains' signatures; what is known already
filled in), the fixture list and standings to print (A4 or A5), and the exports a
secretary keeps: game-by-game results, player averages, the season archive compressed.
"""

import gzip
import json

from flask import abort, render_template, request

from ...services.league import archive as league_archive
from ...services.league import views as league_read
from ..answers.work import unit_of_work
from .page import csv_export, download, open_or_404, today

SIZES = ("a4", "a5")


def _size() -> str:
    """The paper asked for (`?size=a5`); A4 otherwise."""
    return request.args.get("size") if request.args.get("size") in SIZES else SIZES[0]


def print_card(league_id: str, key: str, fixture_id: int):
    """A fixture's match card on paper, blank or as far as it is played."""
    access = open_or_404(league_id, key)
    card = league_read.card_view(unit_of_work(), access, fixture_id, today(access))
    if card is None:
        abort(404)
    return render_template("league/print_card.html", card=card, access=access,
                           setup=access.setup, size=_size())


def print_league(league_id: str, key: str):
    """Every fixture by date, with its result or a box for it, and the standings."""
    access = open_or_404(league_id, key)
    found = league_read.overview(unit_of_work(), access, today(access))
    return render_template("league/print_league.html", **found, size=_size())


def games_csv(league_id: str, key: str):
    return csv_export(league_id, key, league_archive.games_csv, "games")


def players_csv(league_id: str, key: str):
    return csv_export(league_id, key, league_archive.players_csv, "players")


def season_json_gz(league_id: str, key: str):
    """The season archive compressed: a whole season's records in a file small enough to
    restore from the web."""
    access = open_or_404(league_id, key)
    if not access.secretary:
        abort(404)
    body = json.dumps(league_archive.archive(unit_of_work(), access), ensure_ascii=False,
                      indent=1) + "\n"
    return download(gzip.compress(body.encode(), mtime=0), "application/gzip",
                     f"season-{league_id}.json.gz")
