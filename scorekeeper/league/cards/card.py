"""A match card: the games of one fixture, who plays each, how each is scored, who has
confirmed it, and a walkover when the fixture was not played at all.

The card holds only what people decide (players, paper scores, the matches that score
its games at tables, games given unplayed, the captains' confirmations, line-ups handed
in blind). How a game scored at tables ended is read off its matches each time.
"""

from dataclasses import dataclass, replace

from ..errors import N_, CardError
from ..terms.setup import SINGLES, GameFormat
from .game import (
    AWAY,
    HOME,
    SIDES,
    Game,
    Outcome,
    check_paper_legs,
    check_paper_score,
)

FREE, CONFIRMED, REMOVED = "", "confirmed", "removed"
"""How a card holds the match of one of its games: not at all, signed by both captains (the
table can change nothing), or taken off the card by the secretary."""


@dataclass(frozen=True)
class Card:
    """The games of a fixture in the order the league plays them, and who has confirmed.

    `walkover` is the side that turned up to a fixture the other did not: the card then
    counts as the league's walkover score without games or confirmations. `line_ups`
    holds the line-ups handed in blind, (side, line-up) pairs, until both are in;
    `selections` then keeps each side's players of the line-up it handed in, (side,
    names) pairs: a captain changes a game's players only to one of them."""

    games: tuple[Game, ...]
    confirmed: frozenset = frozenset()
    reopen_asked: frozenset = frozenset()
    """The captains who asked to reopen a signed card: with both, it is reopened."""
    walkover: str | None = None
    line_ups: tuple = ()
    selections: tuple = ()

    @classmethod
    def blank(cls, kinds: tuple[str, ...]) -> "Card":
        return cls(tuple(Game(number, kind) for number, kind in enumerate(kinds, 1)))

    @property
    def signed(self) -> bool:
        """Both captains have confirmed the card."""
        return self.confirmed == {HOME, AWAY}

    @property
    def match_ids(self) -> list[str]:
        """Every match that scores a leg of one of its games."""
        return [match_id for game in self.games for match_id in game.matches]

    def counts(self, outcomes: list[Outcome]) -> bool:
        """The card's result counts in the standings: a walkover; or signed, and every game
        still over (a game undone at its table after the signing does not count until
        re-signed)."""
        if self.walkover:
            return True
        return self.signed and all(outcome.over for outcome in outcomes)

    def game(self, number) -> Game:
        if not isinstance(number, int) or not 1 <= number <= len(self.games):
            raise CardError.worded(N_("This card has no game %(game)s."), "no_such_game",
                                   game=str(number)[:10])
        return self.games[number - 1]

    def _with(self, game: Game) -> "Card":
        games = list(self.games)
        games[game.number - 1] = game
        return replace(self, games=tuple(games))

    def unconfirmed(self) -> None:
        """Refuse a change to a card that is confirmed, or that is a walkover."""
        self._not_walkover()
        if self.confirmed:
            raise _confirmed()

    def with_players(self, number: int, home, away, rosters: dict) -> "Card":
        """The players of one game, picked from the two rosters; checked against the card."""
        self.unconfirmed()
        game = self.game(number)
        if game.begun:
            raise CardError.worded(N_("Game %(game)s has begun: its players cannot change."),
                                   "game_begun", game=number)
        home, away = tuple(home), tuple(away)
        check_line_up(self, game, home, away, rosters)
        return self._with(replace(game, home=home, away=away))

    def _ready(self, number: int) -> Game:
        """A game that can begin: the card open, the game not begun, its players picked."""
        self.unconfirmed()
        game = self.game(number)
        _not_begun(game)
        if not game.home:
            raise CardError.worded(N_("Pick the players of game %(game)s first."),
                                   "no_players", game=number)
        return game

    def started(self, number: int, match_id: str) -> "Card":
        """The game (its first leg) is being scored at a table by the match `match_id`."""
        game = self._ready(number)
        return self._with(replace(game, matches=(match_id,)))

    def with_next_leg(self, number: int, match_id: str, found: Outcome) -> "Card":
        """The next leg of a best-of game, once the last is over and nobody has won."""
        self.unconfirmed()
        game = self.game(number)
        if not found.next_leg:
            raise CardError.worded(N_("Game %(game)s has no leg to start now: a leg is still "
                                      "being played, or a side has won the game."),
                                   "no_next_leg", game=number)
        return self._with(replace(game, matches=(*game.matches, match_id)))

    def with_entered(self, number: int, legs, played: GameFormat, exact: bool = False) \
            -> "Card":
        """The final score of a game played on paper (of each of its legs, for a best-of
        game), or a corrected one until both captains have confirmed (a captain's
        confirmation is then withdrawn); `exact`: a game ends on exactly its target."""
        card = self.correctable()
        game = card.game(number)
        if game.entered:
            game = replace(game, entered=())
        _not_begun(game)
        if not game.home:
            raise CardError.worded(N_("Pick the players of game %(game)s first."),
                                   "no_players", game=number)
        legs = tuple((home, away) for home, away in legs)
        if played.legs == 1:
            check_paper_score(*legs[0], played.target, exact)
            legs = legs[:1]
        else:
            check_paper_legs(legs, played, exact)
        return card._with(replace(game, entered=legs))

    def correctable(self) -> "Card":
        """The card as a correction of a game's result leaves it: refused once both captains
        have confirmed (or for a walkover); one captain's confirmation is withdrawn, as
        they confirmed another result."""
        self._not_walkover()
        if self.signed:
            raise _confirmed()
        return replace(self, confirmed=frozenset())

    def without_result(self, number: int) -> "Card":
        """A paper score, or a game given unplayed, taken off by a captain until both have
        confirmed, to enter it again (a game scored at a table is corrected there)."""
        card = self.correctable()
        game = card.game(number)
        if game.matches:
            raise CardError.worded(N_("Game %(game)s is scored at a table: correct it there "
                                      "(Undo)."), "game_at_table", game=number)
        if not (game.entered or game.awarded):
            raise CardError.worded(N_("Game %(game)s has no result to take off."),
                                   "no_result", game=number)
        return card._with(replace(game, entered=(), awarded=None))

    def with_awarded(self, number: int, side: str) -> "Card":
        """The game goes to `side` unplayed: the other could not field it, or conceded it
        before it began. Nobody is named for it."""
        self.unconfirmed()
        if side not in SIDES:
            raise CardError.worded(N_("A game is given to the home or the away team."),
                                   "bad_side")
        game = self.game(number)
        _not_begun(game)
        return self._with(replace(game, home=(), away=(), awarded=side))

    def relinked(self, number: int, matches: tuple[str, ...]) -> "Card":
        """The same card with game `number` scored by other stored matches (a restore)."""
        return self._with(replace(self.game(number), matches=tuple(matches)))

    def cleared(self, number: int) -> "Card":
        """The game back to its players only: its matches unlinked, its paper score or its
        award removed."""
        self.unconfirmed()
        return self._with(replace(self.game(number), matches=(), entered=(), awarded=None))

    def with_walkover(self, side: str) -> "Card":
        """The other side did not turn up: no game is played, the card counts as a walkover
        to `side`. Refused once a game has begun or the card is confirmed."""
        self.unconfirmed()
        if side not in SIDES:
            raise CardError.worded(N_("A walkover goes to the home or the away team."),
                                   "bad_side")
        begun = [game.number for game in self.games if game.begun]
        if begun:
            raise CardError.worded(N_("Game %(game)s has begun: a fixture that is being "
                                      "played is no walkover."), "walkover_after_start",
                                   game=begun[0])
        return Card(Card.blank(tuple(game.kind for game in self.games)).games, walkover=side)

    def without_walkover(self) -> "Card":
        if not self.walkover:
            raise CardError.worded(N_("This fixture is not a walkover."), "no_walkover")
        return Card(self.games)

    def _not_walkover(self) -> None:
        if self.walkover:
            raise CardError.worded(N_("This fixture is recorded as a walkover: the secretary "
                                      "can take the walkover back to play it."),
                                   "card_walkover")

    def with_confirmation(self, side: str, outcomes: list[Outcome]) -> "Card":
        """A captain signs the card; every game must be over first."""
        self._not_walkover()
        if side not in SIDES:
            raise CardError.worded(N_("Only the two captains of a fixture confirm its card."),
                                   "not_a_captain")
        if side in self.confirmed:
            raise CardError.worded(N_("This captain has already confirmed the card."),
                                   "already_confirmed")
        waiting = [game.number for game, outcome in zip(self.games, outcomes, strict=True)
                   if not outcome.over]
        if waiting:
            raise CardError.worded(N_("Game %(game)s is not over yet: confirm the card "
                                      "when every game has ended."), "card_not_over",
                                   game=waiting[0])
        return replace(self, confirmed=self.confirmed | {side})

    def reopened(self) -> "Card":
        return replace(self, confirmed=frozenset(), reopen_asked=frozenset())

    def with_reopen_asked(self, side: str) -> "Card":
        """A captain asks to reopen the signed card; once both have, it is open again."""
        if side not in SIDES:
            raise CardError.worded(N_("Only the two captains of a fixture confirm its card."),
                                   "not_a_captain")
        if not self.signed:
            raise CardError.worded(N_("The card is not confirmed by both captains: there is "
                                      "nothing to reopen."), "card_not_signed")
        asked = self.reopen_asked | {side}
        return self.reopened() if asked == set(SIDES) else replace(self, reopen_asked=asked)

    def as_dict(self) -> dict:
        kept = {"games": [game.as_dict() for game in self.games],
                "confirmed": sorted(self.confirmed)}
        if self.reopen_asked:
            kept["reopen_asked"] = sorted(self.reopen_asked)
        if self.walkover:
            kept["walkover"] = self.walkover
        if self.line_ups:
            kept["line_ups"] = {side: line_up for side, line_up in self.line_ups}
        if self.selections:
            kept["selections"] = {side: list(names) for side, names in self.selections}
        return kept

    @classmethod
    def from_dict(cls, data: dict) -> "Card":
        games = tuple(Game.from_dict(number, game)
                      for number, game in enumerate(data["games"], 1))
        line_ups = tuple(sorted((side, _frozen(line_up))
                                for side, line_up in data.get("line_ups", {}).items()))
        selections = tuple(sorted((side, tuple(names))
                                  for side, names in data.get("selections", {}).items()))
        return cls(games, frozenset(data.get("confirmed", ())),
                   frozenset(data.get("reopen_asked", ())), data.get("walkover"), line_ups,
                   selections)


def _frozen(line_up):
    """A line-up as JSON wrote it (lists of names, or lists of lists), as tuples."""
    return tuple(_frozen(item) if isinstance(item, list) else item for item in line_up)


def _confirmed() -> CardError:
    return CardError.worded(N_("The card has been confirmed: the secretary, or both "
                               "captains, can reopen it to change it."), "card_confirmed")


def _not_begun(game: Game) -> None:
    if game.matches:
        raise CardError.worded(N_("Game %(game)s is already being scored at a table."),
                               "game_being_scored", game=game.number)
    if game.entered:
        raise CardError.worded(N_("Game %(game)s already has its score entered."),
                               "game_entered", game=game.number)
    if game.awarded:
        raise CardError.worded(N_("Game %(game)s was given to a side unplayed."),
                               "game_awarded", game=game.number)


def check_line_up(card: Card, game: Game, home: tuple, away: tuple, rosters: dict) -> None:
    """One or two players a side from their own roster; a player once a game, on one side,
    and in at most one singles and one pairs game of the card."""
    for side, names in ((HOME, home), (AWAY, away)):
        check_picks(game, names, rosters[side])
    both = set(home) & set(away)
    if both:
        raise CardError.worded(N_("Two players called %(name)s cannot meet in one game: its "
                                  "table could not tell them apart."), "both_sides",
                               name=min(both))
    for other in card.games:
        if other.number != game.number:
            check_plays_once(game, home, other, other.home)
            check_plays_once(game, away, other, other.away)


def check_picks(game: Game, names: tuple, roster: list[str]) -> None:
    """One side's players of a game: as many as its seats, from the side's roster, each
    once."""
    if len(names) != game.seats or not all(names):
        template = (N_("Game %(game)s needs one player on each side.")
                    if game.seats == 1 else
                    N_("Game %(game)s needs two players on each side."))
        raise CardError.worded(template, "players_missing", game=game.number)
    for name in names:
        if name not in roster:
            raise CardError.worded(N_("%(name)s is not on the team's roster."),
                                   "not_on_roster", name=str(name)[:40])
    if len(set(names)) != len(names):
        raise CardError.worded(N_("%(name)s cannot play twice in one game."),
                               "twice_in_game", name=names[0])


def check_plays_once(game: Game, names: tuple, other: Game, others: tuple) -> None:
    """A player plays at most one singles and one pairs game of a card."""
    if other.kind != game.kind:
        return
    for name in sorted(set(names) & set(others)):
        word = N_("%(name)s already plays singles game %(other)s.") \
            if game.kind == SINGLES else \
            N_("%(name)s already plays pairs game %(other)s.")
        raise CardError.worded(word, "plays_twice", name=name, other=other.number)
