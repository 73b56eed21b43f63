"""The league's pages: its two blueprints, each with its area's policy, and every address
they answer, listed here with the view that answers it.

`league`: a new league, the league page (secretary, captain or public, by the link used),
its teams and fixtures, the secretary's corrections, the exports and printed papers, a
season restored. `card`: a fixture's match card, live at the tables, and every write to it.
"""

from ..answers.area import (
    EXPORTS,
    KEYED_PAGES,
    LEAGUE_WRITES,
    NEW_LEAGUES,
    Area,
    Policy,
    ViewLimit,
)
from ..answers.heavy import heavy
from . import admin, card, page, papers, restore, team, words

EXPORT = ViewLimit(EXPORTS, "GET")
NEW_LEAGUE = ViewLimit(NEW_LEAGUES, "POST")
bp = Area("league", __name__, Policy(KEYED_PAGES, per_link=LEAGUE_WRITES, per_view={
    "new": NEW_LEAGUE, "restore": NEW_LEAGUE, "restore_confirm": NEW_LEAGUE,
    "standings_csv": EXPORT, "results_csv": EXPORT, "season_json": EXPORT,
    "season_json_gz": EXPORT, "games_csv": EXPORT, "players_csv": EXPORT}),
    url_prefix="/league")
bp.context_processor(words.words)
bp.add_app_template_filter(words.moment, "moment")
card_bp = Area("card", __name__, Policy(KEYED_PAGES, per_link=LEAGUE_WRITES),
               url_prefix="/league/<league_id>/<key>/card/<row:fixture_id>")
card_bp.context_processor(words.words)

GET, POST, BOTH = ["GET"], ["POST"], ["GET", "POST"]
LINK = "/<league_id>/<key>"
FIXTURE = f"{LINK}/fixtures/<row:fixture_id>"
TEAM = f"{LINK}/teams/<row:team_id>"
GAME = "/game/<row:number>"
for rule, view, methods in (
    ("/new", page.new, BOTH),
    (LINK, page.show, GET),
    (f"{LINK}/teams", page.add_team, POST),
    (f"{TEAM}/players", page.add_player, POST),
    (f"{LINK}/fixtures/make", page.make_fixtures, POST),
    (f"{LINK}/fixtures", page.add_fixture, POST),
    (f"{LINK}/standings.csv", heavy(page.standings_csv), GET),
    (f"{LINK}/results.csv", heavy(page.results_csv), GET),
    (f"{LINK}/season.json", heavy(page.season_json), GET),
    (f"{LINK}/qr.svg", page.qr, GET),
    (f"{FIXTURE}/day", admin.move_fixture, POST),
    (f"{FIXTURE}/postpone", admin.postpone_fixture, POST),
    (f"{FIXTURE}/swap", admin.swap_fixture, POST),
    (f"{FIXTURE}/delete", admin.delete_fixture, POST),
    (f"{LINK}/links/<any(secretary, public):role>", admin.reissue_link, POST),
    (TEAM, team.team, GET),
    (f"{TEAM}/name", team.rename_team, POST),
    (f"{TEAM}/points", team.adjust_points, POST),
    (f"{TEAM}/delete", team.delete_team, POST),
    (f"{TEAM}/players/name", team.rename_player, POST),
    (f"{TEAM}/players/delete", team.delete_player, POST),
    (f"{TEAM}/players/move", team.move_player, POST),
    (f"{TEAM}/link", team.reissue_captain_link, POST),
    (f"{LINK}/player/<row:team_id>/<path:name>", team.player, GET),
    (f"{LINK}/card/<row:fixture_id>/print", papers.print_card, GET),
    (f"{LINK}/print", heavy(papers.print_league), GET),
    (f"{LINK}/games.csv", heavy(papers.games_csv), GET),
    (f"{LINK}/players.csv", heavy(papers.players_csv), GET),
    (f"{LINK}/season.json.gz", heavy(papers.season_json_gz), GET),
    ("/restore", heavy(restore.restore), BOTH),
    ("/restore/confirm", heavy(restore.restore_confirm), POST),
):
    bp.add_url_rule(rule, view_func=view, methods=methods)
for rule, view, methods in (
    ("", card.show, GET),
    (f"{GAME}/start", card.start_game, POST),
    (f"{GAME}/next-leg", card.start_next_leg, POST),
    (f"{GAME}/clear", card.clear_game, POST),
    ("/confirm", card.confirm, POST),
    ("/walkover/take-back", card.take_back_walkover, POST),
    (f"{GAME}/players", card.set_players, POST),
    (f"{GAME}/enter", card.enter_score, POST),
    (f"{GAME}/award", card.award_game, POST),
    ("/walkover", card.walkover, POST),
    ("/line-up", card.line_up, POST),
    ("/reopen", card.reopen, POST),
):
    card_bp.add_url_rule(rule, view_func=view, methods=methods)
