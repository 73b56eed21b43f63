"""The use cases of a match card: line-ups (picked game by game, or handed in blind), games
started at tables and their later legs, paper scores, games given unplayed, walkovers,
confirmations, reopening and the secretary's corrections.

Every write names the revision of the card it was made on and, where it concerns one game
(or every game), a digest of that part as the page showed it; it runs in one transaction.
"""

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from ...league import (
    AWAY,
    HOME,
    Card,
    check_open,
    with_line_up,
)
from ...league.cards.card import CONFIRMED, FREE, REMOVED
from ...league.cards.card_edits import GAMES, seen_print, swapped
from ...league.cards.lineups import check_kept_line_up
from ...league.errors import N_, CardError, LeagueError
from ...league.terms.calendar import local_day
from ...league.terms.setup import CAPTAIN, SECRETARY
from ...rules import Match
from ...storage import StaleCard
from ..unit_of_work import UnitOfWork
from .at_tables import outcomes
from .setup import (
    Access,
    CardChanged,
    NotAllowed,
    card_changed,
    find_fixture,
    open_league,
    secretary_only,
)
from .views import card_view, fixture_teams


def _write_card(uow: UnitOfWork, access: Access, fixture_id: int, revision: int, change,
                correction=None, seen: str | None = None, scope=None) -> None:
    """Change a card in one transaction, if this link may and it is still at `revision`,
    or (`seen`) its part the write depends on (`scope`: a game's number, GAMES, or a
    function of the fixture giving one) is as the page showed it: two captains saving
    different games of one card never undo each other.

    The secretary's changes are kept as corrections: when, and what changed (`correction`:
    a (kind, facts) pair, or a function of the card before and after that makes one, or
    None). The matches of a card both captains have signed are held: their tables can
    change nothing until the card is reopened.
    """
    try:
        with uow:
            fixture = find_fixture(uow, access, fixture_id, lock=True)
            if not access.may_edit(fixture.home, fixture.away):
                raise NotAllowed.worded(N_("Only the captains of this fixture and the "
                                           "secretary can change its card."), "not_your_card")
            if fixture.postponed:
                raise CardError.worded(N_("This fixture is postponed: its card opens once "
                                          "the secretary rearranges it to its new date."),
                                       "fixture_postponed")
            revision = _still_as_seen(fixture, revision, seen, scope)  # before any change
            changed = change(fixture.card, fixture)
            uow.leagues.save_card(fixture.id, revision, changed)
            if fixture.card.signed != changed.signed:
                uow.matches.hold(changed.match_ids, CONFIRMED if changed.signed else FREE)
            if callable(correction):
                correction = correction(fixture.card, changed)
            if correction and (access.secretary or correction[0] == "reopened"):
                uow.leagues.add_correction(fixture.id, *correction)
    except StaleCard:
        if isinstance(scope, int):
            raise CardChanged.worded(N_("Someone else changed game %(game)s first: here it "
                                        "is now."), "game_changed", game=scope) from None
        raise card_changed() from None


def _still_as_seen(fixture, revision: int, seen: str | None, scope) -> int:
    """The card's revision to write over: the one the page showed, or (another part of
    the card changed since) the card's own, if the part this write depends on is as the
    page showed it; else StaleCard."""
    if fixture.revision == revision:
        return revision
    part = scope(fixture) if callable(scope) else scope
    teams = (fixture.home, fixture.away)
    if seen is None or part is None or seen_print(fixture.card, part, teams) != seen:
        if seen is not None and part is not None and _seen_before_swap(fixture, part, seen):
            raise CardChanged.worded(N_("The secretary swapped home and away since this page "
                                        "was opened: here is the card now."), "card_swapped")
        raise StaleCard(fixture.revision)
    return fixture.revision


def _seen_before_swap(fixture, part, seen: str) -> bool:
    """The page showed this card as it was before home and away were swapped: nobody
    changed the part it wrote to (the swap did)."""
    try:
        before = swapped(fixture.card)
    except CardError:  # a game has begun since: the card did change
        return False
    if isinstance(part, str) and part.startswith("line-up:"):
        part = "line-up:" + (AWAY if part.endswith(HOME) else HOME)
    return seen_print(before, part, (fixture.away, fixture.home)) == seen


def set_players(uow: UnitOfWork, access: Access, fixture_id: int, revision: int, number: int,
                home: list[str], away: list[str], seen: str | None = None) -> None:
    """A game's players; once blind or drawn line-ups are shown, a captain's own side's
    only, from their line-up, and the secretary's override is kept in the season's
    changes."""
    def change(card: Card, fixture) -> Card:
        check_open(access.setup, card)
        side = captains_side(access, fixture) if access.role == CAPTAIN else None
        check_kept_line_up(access.setup, card, number, side, home, away)
        changed = card.with_players(number, home, away, _rosters(uow, fixture))
        if side is None and card.selections and card.game(number) != changed.game(number):
            _overridden(uow, access, fixture, card.game(number), changed.game(number))
        return changed

    _write_card(uow, access, fixture_id, revision, change,
                ("players", {"game": number, "home": list(home), "away": list(away)}),
                seen, number)


def _overridden(uow: UnitOfWork, access: Access, fixture, before, after) -> None:
    """The secretary changed players of a shown line-up: the season's changes keep it."""
    names = {team.id: team.name for team in uow.leagues.teams_by_id([fixture.home,
                                                                      fixture.away])}
    uow.audit.add_change(access.league_id, "line_up_overridden", {
        "home": names[fixture.home], "away": names[fixture.away], "day": fixture.day,
        "game": before.number, "from": [list(before.home), list(before.away)],
        "to": [list(after.home), list(after.away)]})


def _rosters(uow: UnitOfWork, fixture) -> dict:
    teams = {team.id: team.players for team in uow.leagues.teams_by_id([fixture.home,
                                                                         fixture.away])}
    return {HOME: teams[fixture.home], AWAY: teams[fixture.away]}


def hand_in_line_up(uow: UnitOfWork, access: Access, fixture_id: int, revision: int,
                    side: str, line_up: list, seen: str | None = None) -> None:
    """A captain hands in the team's line-up blind (the secretary may for either side);
    once both are in, the card's games are filled (dealt by lot where the league draws)."""
    def change(card: Card, fixture) -> Card:
        mine = captains_side(access, fixture) if access.role == CAPTAIN else side
        return with_line_up(card, access.setup, mine, line_up, _rosters(uow, fixture),
                            secrets.SystemRandom())

    def scope(fixture) -> str:
        return "line-up:" + (captains_side(access, fixture) if access.role == CAPTAIN else side)

    _write_card(uow, access, fixture_id, revision, change, None, seen, scope)


def start_game(uow: UnitOfWork, access: Access, fixture_id: int, revision: int,
               number: int, seen: str | None = None) -> None:
    """The game (its first leg) becomes an ordinary match of the app, linked to the card,
    in one write."""
    def change(card: Card, fixture) -> Card:
        card.started(number, "")  # refuses a game begun or without players, before storing
        return card.started(number, _new_leg(uow, access, card, fixture.id, number))

    _write_card(uow, access, fixture_id, revision, change, ("started", {"game": number}),
                seen, number)


def _new_leg(uow: UnitOfWork, access: Access, card: Card, fixture_id: int, number: int) -> str:
    """A new match for a leg of game `number`, linked to its card; its id."""
    game = card.game(number)
    stored = uow.matches.insert(Match(access.setup.table(game.kind, game.players)))
    uow.matches.link(stored.id, fixture_id, number)
    return stored.id


def start_next_leg(uow: UnitOfWork, access: Access, fixture_id: int, revision: int,
                   number: int, seen: str | None = None) -> None:
    """The next leg of a best-of game, once its last leg is over and nobody has won yet."""
    def change(card: Card, fixture) -> Card:
        found = outcomes(uow, access.setup, card)[number - 1]
        card.with_next_leg(number, "", found)  # refuses before anything is stored
        return card.with_next_leg(number, _new_leg(uow, access, card, fixture.id, number),
                                  found)

    _write_card(uow, access, fixture_id, revision, change, None, seen, number)


def enter_score(uow: UnitOfWork, access: Access, fixture_id: int, revision: int, number: int,
                legs: list[tuple[int, int]], seen: str | None = None) -> None:
    """A game played on paper: its final score (each leg's, for a best-of game), marked
    entered, not scored; or corrected, until both captains have confirmed. The same score
    entered from both captains' phones at once is entered once; a different one is
    refused with both scores (EntryDiffers)."""
    def change(card: Card, _fixture) -> Card:
        played = access.setup.format_of(card.game(number).kind)
        return card.with_entered(number, legs, played, access.setup.rule_set.exact_target)

    try:
        _write_card(uow, access, fixture_id, revision, change,
                    ("entered", {"game": number, "home": legs[0][0], "away": legs[0][1]}
                     if len(legs) == 1 else
                     {"game": number, "legs": [list(leg) for leg in legs]}), seen, number)
    except CardChanged:
        fixture = uow.leagues.fixture(access.league_id, fixture_id)
        entered = fixture.card.game(number).entered if fixture else ()
        if not entered:
            raise
        if entered != tuple(tuple(leg) for leg in legs):
            names = fixture_teams(uow, access, fixture_id)
            raise EntryDiffers.worded(
                N_("Someone else entered game %(game)s's paper score first: %(now)s. Yours: "
                   "%(yours)s. If yours is right, enter it again: it replaces theirs."),
                "entry_differs", game=number, now=legs_words(names, entered),
                yours=legs_words(names, legs)) from None


class EntryDiffers(CardChanged):
    """A paper score entered while another, different one was entered first."""


def legs_words(names: tuple[str, str], legs) -> str:
    """A paper score with its teams: `Anchor 61–40 Bell`, each leg's for a best-of game."""
    return ", ".join(f"{names[0]} {home}–{away} {names[1]}" for home, away in legs)


@dataclass(frozen=True)
class CardAnswer:
    """What a card's page shows after a write to it: the league as the link opened it, the
    card as it is now (None: the league has no such fixture), and why the write was
    refused (None: it was made, or the form refused it and says why)."""

    access: Access
    card: dict | None
    refused: LeagueError | None = None


PaperScore = Callable[[str, str, int], tuple[int, list[tuple[int, int]], str | None] | None]
"""The form of a paper score checked under the card's team names and the game's ceiling
(home, away, target): the card's revision, the legs and what it saw, or None if refused."""


def score_on_paper(uow: UnitOfWork, league_id: str, key: str, fixture_id: int, number: int,
                   checked: PaperScore, now: datetime) -> CardAnswer | None:
    """A game's paper score from the link to the card after it, in one call: the league
    opened by `key` (None: it opens nothing), the form checked under the names the card
    shows, the score entered, and the card read back for the page."""
    access = open_league(uow, league_id, key)
    if access is None:
        return None
    refused, names = None, fixture_teams(uow, access, fixture_id)
    games = access.setup.games
    kind = games[number - 1] if 1 <= number <= len(games) else games[0]
    entered = names and checked(*names, access.setup.format_of(kind).target)
    if entered:
        revision, legs, seen = entered
        try:
            enter_score(uow, access, fixture_id, revision, number, legs, seen)
        except LeagueError as error:
            refused = error
    today = local_day(access.setup.time_zone, now)
    return CardAnswer(access, card_view(uow, access, fixture_id, today), refused)


def award_game(uow: UnitOfWork, access: Access, fixture_id: int, revision: int, number: int,
               side: str, seen: str | None = None) -> None:
    """A game given to `side` unplayed: the other team cannot field it, or concedes it."""
    _write_card(uow, access, fixture_id, revision,
                lambda card, _fixture: card.with_awarded(number, side),
                ("awarded", {"game": number, "to": side}), seen, number)


def record_walkover(uow: UnitOfWork, access: Access, fixture_id: int, revision: int,
                    side: str) -> None:
    """The secretary records a fixture the other team did not turn up to: a walkover to
    `side`, counted at once as the league's walkover score."""
    secretary_only(access)
    _write_card(uow, access, fixture_id, revision,
                lambda card, _fixture: card.with_walkover(side), ("walkover", {"to": side}))


def take_back_walkover(uow: UnitOfWork, access: Access, fixture_id: int,
                       revision: int) -> None:
    secretary_only(access)
    _write_card(uow, access, fixture_id, revision,
                lambda card, _fixture: card.without_walkover(), ("walkover_taken_back", {}))


def clear_game(uow: UnitOfWork, access: Access, fixture_id: int, revision: int,
               number: int, seen: str | None = None) -> None:
    """The secretary takes a game's result off a reopened card, to enter it again; the
    correction keeps the score taken off, and the game's tables are told. A captain takes
    a paper score or a game given unplayed off until both have confirmed."""
    if not access.secretary:
        _write_card(uow, access, fixture_id, revision,
                    lambda card, _fixture: card.without_result(number), None, seen, number)
        return
    taken_off = {}

    def change(card: Card, _fixture) -> Card:
        game, found = card.game(number), outcomes(uow, access.setup, card)[number - 1]
        if found.state != "waiting":
            taken_off.update(home=found.home_points, away=found.away_points,
                             state=found.state)
        uow.matches.hold(list(game.matches), REMOVED)
        return card.cleared(number)

    _write_card(uow, access, fixture_id, revision, change,
                lambda _before, _after: ("cleared", {"game": number, "taken_off": taken_off}),
                seen, number)


def reopen(uow: UnitOfWork, access: Access, fixture_id: int, revision: int) -> None:
    """The secretary reopens a card (audited): its games' tables are free again."""
    secretary_only(access)
    _write_card(uow, access, fixture_id, revision, lambda card, _fixture: card.reopened(),
                ("reopened", {"by": SECRETARY}))


def ask_reopen(uow: UnitOfWork, access: Access, fixture_id: int, revision: int,
               seen: str | None = None) -> None:
    """A captain asks to reopen the signed card; with both captains asking it reopens
    (audited), and its games' tables are free again."""
    def change(card: Card, fixture) -> Card:
        return card.with_reopen_asked(captains_side(access, fixture))

    _write_card(uow, access, fixture_id, revision, change,
                lambda before, after: ("reopened", {"by": CAPTAIN})
                if before.signed and not after.signed else None, seen, GAMES)


def captains_side(access: Access, fixture) -> str:
    side = (HOME if access.team_id == fixture.home else
            AWAY if access.team_id == fixture.away else None)
    if access.role != CAPTAIN or side is None:
        raise NotAllowed.worded(N_("Only the captains of this fixture confirm its card, "
                                   "each from their own link."), "not_a_captain")
    return side


def confirm(uow: UnitOfWork, access: Access, fixture_id: int, revision: int,
            seen: str | None = None) -> None:
    """A captain signs the card from their own link, once every game is over, as the page
    showed its games (the other captain's signature meanwhile changes none of them). The
    games' matches are locked first: no tap comes between reading their scores and the
    signing."""
    def change(card: Card, fixture) -> Card:
        side = captains_side(access, fixture)
        uow.matches.lock(card.match_ids)
        return card.with_confirmation(side, outcomes(uow, access.setup, card))

    _write_card(uow, access, fixture_id, revision, change, None, seen, GAMES)
