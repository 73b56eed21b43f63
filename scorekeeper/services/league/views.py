"""What the league's pages show: the league at a glance (each division's standings), and
one fixture's card.

Read models only: plain dicts built from the stored cards and the matches their games
link to. The public link never receives a scoring key, and nobody sees a line-up handed
in blind but the team that handed it in.
"""

from datetime import date

from ...league import (
    AWARDED,
    AWAY,
    ENTERED,
    HOME,
    OPEN,
    PLAYING,
    SCORED,
    SIDES,
    Card,
    Fixture,
    Season,
    SeasonFixture,
    counted,
    division_tables,
    handed_in,
    revealed,
)
from ...league.cards.card_edits import GAMES, seen_print
from ...league.terms.setup import CAPTAIN
from ..opened import matches_by_id
from ..unit_of_work import UnitOfWork
from .at_tables import outcomes
from .setup import Access


def league_state(uow: UnitOfWork, access: Access, fixtures=None) -> dict:
    """Teams, fixtures (all, or those given) with their cards and how each game stands,
    and the summary of every match a card links."""
    teams = {team.id: team for team in uow.leagues.teams(access.league_id)}
    if fixtures is None:
        fixtures = uow.leagues.fixtures(access.league_id)
    cards = {fixture.id: fixture.card for fixture in fixtures}
    ids = [match_id for card in cards.values() for match_id in card.match_ids]
    summaries = uow.matches.summaries(ids)
    return {"teams": teams, "fixtures": fixtures, "cards": cards, "summaries": summaries,
            "outcomes": {fixture_id: outcomes(None, access.setup, card, summaries)
                         for fixture_id, card in cards.items()}}


def tables(access: Access, state: dict, changes: list[dict] = ()) -> list:
    """Each division's standings and players' table, from the counted cards and the
    league's `changes` (its points adjustments)."""
    teams = state["teams"]
    played = [Fixture(teams[fixture.home].name, teams[fixture.away].name, fixture.play_off,
                      counted(access.setup, teams[fixture.home].name,
                              teams[fixture.away].name, state["cards"][fixture.id],
                              state["outcomes"][fixture.id], fixture.play_off))
              for fixture in state["fixtures"]]
    return division_tables(access.setup, {team.name: team.division for team in teams.values()},
                           played, changes)


def fixture_line(access: Access, state: dict, fixture, today: date, detail: bool = False) -> dict:
    """A fixture as the pages list it; with its games for tonight's, live or `detail`."""
    card, found = state["cards"][fixture.id], state["outcomes"][fixture.id]
    home = state["teams"][fixture.home]
    games = ((access.setup.walkover_games if card.walkover == HOME
              else access.setup.walkover_games[::-1]) if card.walkover else
             (sum(o.winner == HOME for o in found), sum(o.winner == AWAY for o in found)))
    line = {"id": fixture.id, "day": fixture.day, "revision": fixture.revision,
            HOME: home.name, AWAY: state["teams"][fixture.away].name,
            "division": home.division, "play_off": fixture.play_off,
            "walkover": card.walkover, "home_games": games[0], "away_games": games[1],
            "counts": card.counts(found), "signed": card.signed,
            "confirmed": sorted(card.confirmed), "reopen_asked": sorted(card.reopen_asked),
            "started": any(o.state != "waiting" for o in found),
            "live": any(o.state == PLAYING for o in found),
            "postponed": fixture.postponed,
            "tonight": fixture.day == today.isoformat() and not fixture.postponed,
            "editable": access.may_edit(fixture.home, fixture.away) and not fixture.postponed}
    if detail or line["tonight"] or line["live"]:
        line["games"] = _games(access, card, found, state["summaries"], fixture)
    return line


def _games(access: Access, card: Card, found: list, summaries: dict, fixture) -> list[dict]:
    editable = access.may_edit(fixture.home, fixture.away)
    games = []
    for game, outcome in zip(card.games, found, strict=True):
        legs = [_leg(summaries.get(match_id, {}), editable) | {"match_id": match_id}
                for match_id in game.matches]
        last = legs[-1] if legs else {}
        games.append({"number": game.number, "kind": game.kind, "home": game.home,
                      "away": game.away, "state": outcome.state, "winner": outcome.winner,
                      "home_points": outcome.home_points, "away_points": outcome.away_points,
                      "legs": outcome.legs, "best_of": access.setup.format_of(game.kind).legs,
                      "next_leg": outcome.next_leg, "awarded": outcome.awarded,
                      "entered": game.entered, "leg_scores": legs,
                      "match_id": last.get("match_id"), "view_key": last.get("view_key"),
                      "score_key": last.get("score_key")})
    return games


def _leg(summary: dict, editable: bool) -> dict:
    """One leg's match as a card shows it: its score, and its links (the scoring one only
    to those who may change the card)."""
    return {"scores": summary.get("scores", [0, 0]), "over": summary.get("winner") is not None,
            "view_key": summary.get("view_key"),
            "score_key": summary.get("score_key") if editable else None}


def overview(uow: UnitOfWork, access: Access, today: date) -> dict:
    """The league page: each division's standings and players' table, fixtures and
    results, tonight."""
    state = league_state(uow, access)
    lines = [fixture_line(access, state, fixture, today) for fixture in state["fixtures"]]
    teams = [{"id": team.id, "name": team.name, "players": team.players,
              "former": team.former, "division": team.division,
              "captain_key": team.captain_key if access.secretary else None,
              "mine": team.id == access.team_id}
             for team in state["teams"].values()]
    return {"setup": access.setup, "access": access, "teams": teams, "fixtures": lines,
            "divisions": tables(access, state, league_changes(uow, access)),
            "tonight": [line for line in lines if line["tonight"] or line["live"]]}


def card_view(uow: UnitOfWork, access: Access, fixture_id: int, today: date) -> dict | None:
    """One fixture's card with every game's state, both rosters, the line-ups handed in
    (only the viewer's own shown), and its corrections."""
    fixture = uow.leagues.fixture(access.league_id, fixture_id)
    if fixture is None:
        return None
    state = league_state(uow, access, [fixture])
    line = fixture_line(access, state, fixture, today, detail=True)
    side = None
    if access.role == CAPTAIN:
        side = HOME if access.team_id == fixture.home else \
            AWAY if access.team_id == fixture.away else None
    rosters = {HOME: state["teams"][fixture.home].players,
               AWAY: state["teams"][fixture.away].players}
    line.update(
        rosters=rosters, choices=_choices(access, fixture.card, side, rosters),
        side=side, over=all(game["state"] in (SCORED, ENTERED, AWARDED)
                            for game in line["games"]),
        handed_in=handed_in(fixture.card),
        my_line_up=dict(fixture.card.line_ups).get(side),
        revealed=revealed(fixture.card),
        corrections=[{"at": c.at, "kind": c.kind, **c.facts}
                     for c in uow.leagues.corrections(access.league_id)
                     if c.fixture_id == fixture.id],
        seen=_seen(fixture.card, (fixture.home, fixture.away)),
        refreshing=not fixture.card.walkover and not fixture.card.signed and (
            line["started"] or line["tonight"] or bool(fixture.card.confirmed)))
    return line


def _choices(access: Access, card: Card, side: str | None, rosters: dict) -> dict:
    """Whom a game's players may be changed to, by side: the rosters; for a captain once
    blind or drawn line-ups are shown, their own line-up's players, and None for the other
    team's (theirs to change)."""
    if access.setup.line_ups == OPEN or not card.selections or side is None:
        return rosters
    return {held: list(dict(card.selections).get(held, ())) if held == side else None
            for held in SIDES}


def _seen(card: Card, teams: tuple[int, int]) -> dict:
    """What each write's form saw of the card (card_edits.seen_print): each game's, every
    game's, each side's line-up, with the fixture's home and away teams."""
    seen = {game.number: seen_print(card, game.number, teams) for game in card.games}
    seen.update({GAMES: seen_print(card, GAMES, teams)})
    seen.update({side: seen_print(card, "line-up:" + side, teams) for side in SIDES})
    return seen


def fixture_teams(uow: UnitOfWork, access: Access, fixture_id: int) -> tuple[str, str] | None:
    """The names of a fixture's home and away teams, as its card shows them."""
    fixture = uow.leagues.fixture(access.league_id, fixture_id)
    if fixture is None:
        return None
    names = {team.id: team.name for team in uow.leagues.teams_by_id([fixture.home,
                                                                       fixture.away])}
    return names[fixture.home], names[fixture.away]


def season(uow: UnitOfWork, access: Access) -> Season:
    """The whole season as values, every scored leg's match rebuilt from its log."""
    state = league_state(uow, access)
    teams = {team.name: team.players for team in state["teams"].values()}
    divisions = {team.name: team.division for team in state["teams"].values()}
    ids = [match_id for card in state["cards"].values() for match_id in card.match_ids]
    matches = matches_by_id(uow, ids)
    corrections: dict[int, list] = {}
    for c in uow.leagues.corrections(access.league_id):
        corrections.setdefault(c.fixture_id, []).append(
            {"at": c.at, "kind": c.kind, "facts": c.facts})
    fixtures = []
    for fixture in state["fixtures"]:
        card = state["cards"][fixture.id]
        fixtures.append(SeasonFixture(
            state["teams"][fixture.home].name, state["teams"][fixture.away].name,
            fixture.day, card, {game.number: tuple(matches[match_id]
                                                   for match_id in game.matches)
                                for game in card.games if game.matches},
            corrections.get(fixture.id, []), fixture.play_off, fixture.postponed))
    former = {team.name: team.former for team in state["teams"].values() if team.former}
    return Season(access.setup, teams, fixtures, divisions, former,
                  league_changes(uow, access))


def league_changes(uow: UnitOfWork, access: Access) -> list[dict]:
    """The league's record of its changes, oldest first, as the season holds it."""
    return [{"at": c.at, "kind": c.kind, "facts": c.facts}
            for c in uow.audit.changes(access.league_id)]


def team_choices(uow: UnitOfWork, league_id: str) -> list[tuple[int, str]]:
    """The league's teams (id, name), for the choices of the fixture form."""
    return [(team.id, team.name) for team in uow.leagues.teams(league_id)]
