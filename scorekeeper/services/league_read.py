"""What the league's pages show: the league at a glance, and one fixture's card.

Read models only: plain dicts built from the stored cards and the matches their
games link to. The public link never receives a scoring key.
"""

from datetime import date

from ..league import (
    PLAYING,
    SCORED,
    Card,
    Season,
    SeasonFixture,
    card_result,
    players_table,
    standings,
)
from .league import Access, outcomes
from .unit_of_work import UnitOfWork


def _league_state(uow: UnitOfWork, access: Access, fixtures=None) -> dict:
    """Teams, fixtures (all, or those given) with their cards and how each game stands,
    and the summary of every match a card links."""
    teams = {team.id: team for team in uow.leagues.teams(access.league_id)}
    if fixtures is None:
        fixtures = uow.leagues.fixtures(access.league_id)
    cards = {fixture.id: fixture.card for fixture in fixtures}
    ids = [game.match_id for card in cards.values() for game in card.games if game.match_id]
    summaries = uow.matches.summaries(ids)
    return {"teams": teams, "fixtures": fixtures, "cards": cards, "summaries": summaries,
            "outcomes": {fixture_id: outcomes(None, card, summaries)
                         for fixture_id, card in cards.items()}}


def results(state: dict) -> list:
    """The confirmed cards, in the standings' terms."""
    found = []
    for fixture in state["fixtures"]:
        card, games = state["cards"][fixture.id], state["outcomes"][fixture.id]
        if card.counts(games):
            found.append(card_result(state["teams"][fixture.home].name,
                                     state["teams"][fixture.away].name, card, games))
    return found


def _fixture_line(access: Access, state: dict, fixture, today: date, detail: bool = False) -> dict:
    """A fixture as the pages list it; with its games for tonight's, live or `detail`."""
    card, found = state["cards"][fixture.id], state["outcomes"][fixture.id]
    home_games = sum(o.winner == "home" for o in found)
    away_games = sum(o.winner == "away" for o in found)
    line = {"id": fixture.id, "day": fixture.day, "revision": fixture.revision,
            "home": state["teams"][fixture.home].name,
            "away": state["teams"][fixture.away].name,
            "home_games": home_games, "away_games": away_games,
            "counts": card.counts(found), "signed": card.signed,
            "confirmed": sorted(card.confirmed), "reopen_asked": sorted(card.reopen_asked),
            "started": any(o.state != "waiting" for o in found),
            "live": any(o.state == PLAYING for o in found),
            "tonight": fixture.day == today.isoformat(),
            "editable": access.may_edit(fixture.home, fixture.away)}
    if detail or line["tonight"] or line["live"]:
        line["games"] = _games(access, card, found, state["summaries"], fixture)
    return line


def _games(access: Access, card: Card, found: list, summaries: dict, fixture) -> list[dict]:
    editable = access.may_edit(fixture.home, fixture.away)
    games = []
    for game, outcome in zip(card.games, found, strict=True):
        summary = summaries.get(game.match_id, {}) if game.match_id else {}
        games.append({"number": game.number, "kind": game.kind, "home": game.home,
                      "away": game.away, "state": outcome.state, "winner": outcome.winner,
                      "home_points": outcome.home_points, "away_points": outcome.away_points,
                      "match_id": game.match_id, "view_key": summary.get("view_key"),
                      "score_key": summary.get("score_key") if editable else None})
    return games


def overview(uow: UnitOfWork, access: Access, today: date) -> dict:
    """The league page: standings, the players' table, fixtures and results, tonight."""
    state = _league_state(uow, access)
    counted = results(state)
    names = [team.name for team in state["teams"].values()]
    lines = [_fixture_line(access, state, fixture, today) for fixture in state["fixtures"]]
    teams = [{"id": team.id, "name": team.name, "players": team.players,
              "captain_key": team.captain_key if access.secretary else None,
              "mine": team.id == access.team_id}
             for team in state["teams"].values()]
    return {"setup": access.setup, "access": access, "teams": teams, "fixtures": lines,
            "standings": standings(names, counted, access.setup.points),
            "players": players_table(counted),
            "tonight": [line for line in lines if line["tonight"] or line["live"]]}


def card_view(uow: UnitOfWork, access: Access, fixture_id: int, today: date) -> dict | None:
    """One fixture's card with every game's state, both rosters, and its corrections."""
    fixture = uow.leagues.fixture(access.league_id, fixture_id)
    if fixture is None:
        return None
    state = _league_state(uow, access, [fixture])
    line = _fixture_line(access, state, fixture, today, detail=True)
    side = None
    if access.role == "captain":
        side = "home" if access.team_id == fixture.home else \
            "away" if access.team_id == fixture.away else None
    line.update(
        rosters={"home": state["teams"][fixture.home].players,
                 "away": state["teams"][fixture.away].players},
        side=side, over=all(game["state"] in (SCORED, "entered") for game in line["games"]),
        corrections=[{"at": c.at, "kind": c.kind, **c.facts}
                     for c in uow.leagues.corrections(access.league_id)
                     if c.fixture_id == fixture.id])
    return line


def season(uow: UnitOfWork, access: Access) -> Season:
    """The whole season as values, every scored game's match rebuilt from its log."""
    state = _league_state(uow, access)
    teams = {team.name: team.players for team in state["teams"].values()}
    ids = [game.match_id for card in state["cards"].values() for game in card.games
           if game.match_id]
    matches = uow.matches.matches_by_id(ids)
    corrections: dict[int, list] = {}
    for c in uow.leagues.corrections(access.league_id):
        corrections.setdefault(c.fixture_id, []).append(
            {"at": c.at, "kind": c.kind, "facts": c.facts})
    fixtures = []
    for fixture in state["fixtures"]:
        card = state["cards"][fixture.id]
        fixtures.append(SeasonFixture(
            state["teams"][fixture.home].name, state["teams"][fixture.away].name,
            fixture.day, card, {game.number: matches[game.match_id] for game in card.games
                                if game.match_id},
            corrections.get(fixture.id, [])))
    return Season(access.setup, teams, fixtures)


def team_choices(uow: UnitOfWork, league_id: str) -> list[tuple[int, str]]:
    """The league's teams (id, name), for the choices of the fixture form."""
    return [(team.id, team.name) for team in uow.leagues.teams(league_id)]
