"""A card's paper score is one use case (`card.score_on_paper`): the league opened by its
link, the form checked under the card's team names and the game's ceiling, the score
entered, and the card read back for the page."""

from datetime import UTC, datetime

from league_pages import fixture_of, pick
from test_web_league_cards import league_of

from scorekeeper.services.league import card as cards
from scorekeeper.web.answers.work import app_unit_of_work


def _score(app, link: str, fixture: int, checked):
    league_id, key = link.split("/")[2:4]
    uow = app_unit_of_work(app)
    try:
        return cards.score_on_paper(uow, league_id, key, fixture, 1, checked,
                                    datetime.now(UTC))
    finally:
        uow.close()


def test_a_paper_score_answers_the_card_after_it(app, client):
    league = league_of(client)
    number, home, away = fixture_of(league, "Anchor", "Bell")
    pick(league, league.captains[home], number, 1, [f"{home} 1"], [f"{away} 1"])
    asked = []

    def checked(home_name, away_name, target):
        asked.append((home_name, away_name, target))
        return league.rev(league.secretary, number), [(target, 3)], None

    answer = _score(app, league.captains[home], number, checked)
    setup = answer.access.setup
    assert asked == [(home, away, setup.format_of(setup.games[0]).target)]
    assert answer.refused is None and answer.access.team_id is not None
    assert answer.card["games"][0]["state"] == "entered"


def test_a_refused_form_leaves_the_card_and_still_answers_it(app, client):
    league = league_of(client)
    number, home, away = fixture_of(league, "Anchor", "Bell")
    answer = _score(app, league.captains[home], number, lambda *names: None)
    assert answer.refused is None and answer.card["games"][0]["state"] == "waiting"


def test_a_stale_revision_is_refused_with_the_card_as_it_is(app, client):
    league = league_of(client)
    number, home, away = fixture_of(league, "Anchor", "Bell")
    pick(league, league.captains[home], number, 1, [f"{home} 1"], [f"{away} 1"])
    answer = _score(app, league.captains[home], number,
                    lambda home_name, away_name, target: (0, [(target, 3)], None))
    assert answer.refused is not None and answer.refused.kind == "game_changed"
    assert answer.card["games"][0]["state"] == "waiting"


def test_a_link_that_opens_nothing_answers_none(app, client):
    league = league_of(client)
    number, _, _ = fixture_of(league, "Anchor", "Bell")
    league_id = league.secretary.split("/")[2]
    assert _score(app, f"/league/{league_id}/not-a-key", number, lambda *names: None) is None
