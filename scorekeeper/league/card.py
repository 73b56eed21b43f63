"""A match card: the games of one fixture, who plays each, and how each ended.

The card holds only what people decide (players, a paper score, a link to the match
that scores a game at a table, the captains' confirmations). How a scored game
ended is read off its match each time, never copied onto the card.
"""

from dataclasses import dataclass, replace

from ..rules.table import MAX_TARGET
from .errors import N_, CardError
from .setup import SINGLES

HOME, AWAY = "home", "away"
WAITING, PLAYING, SCORED, ENTERED = "waiting", "playing", "scored", "entered"
"""A game is waiting for its players or its start, playing at a table, scored to its
end at a table, or entered from a paper score sheet."""


@dataclass(frozen=True)
class Game:
    """One game as written on the card."""

    number: int
    kind: str
    home: tuple[str, ...] = ()
    away: tuple[str, ...] = ()
    match_id: str | None = None
    entered: tuple[int, int] | None = None

    @property
    def seats(self) -> int:
        return 1 if self.kind == SINGLES else 2

    @property
    def players(self) -> list[str]:
        """Seat order at the table: home and away alternate, so partners sit opposite."""
        return [name for pair in zip(self.home, self.away, strict=True) for name in pair]

    def as_dict(self) -> dict:
        return {"kind": self.kind, "home": list(self.home), "away": list(self.away),
                "match_id": self.match_id,
                "entered": list(self.entered) if self.entered else None}


@dataclass(frozen=True)
class Outcome:
    """How a game stands now: its state and, once over, both sides' points."""

    state: str
    home_points: int = 0
    away_points: int = 0

    @property
    def over(self) -> bool:
        return self.state in (SCORED, ENTERED)

    @property
    def winner(self) -> str | None:
        if not self.over:
            return None
        return HOME if self.home_points > self.away_points else AWAY


def outcome(game: Game, scores=None, winner=None) -> Outcome:
    """How a game stands: from its paper score, or from its match's scores and winner
    (side 0 of the table is the home team: home players sit in seats 1 and 3)."""
    if game.entered:
        return Outcome(ENTERED, *game.entered)
    if game.match_id is None:
        return Outcome(WAITING)
    if winner is None:
        return Outcome(PLAYING, *scores) if scores else Outcome(PLAYING)
    return Outcome(SCORED, *scores)


@dataclass(frozen=True)
class Card:
    """The games of a fixture in the order the league plays them, and who has confirmed."""

    games: tuple[Game, ...]
    confirmed: frozenset = frozenset()
    reopen_asked: frozenset = frozenset()
    """The captains who asked to reopen a signed card: with both, it is reopened."""

    @classmethod
    def blank(cls, kinds: tuple[str, ...]) -> "Card":
        return cls(tuple(Game(number, kind) for number, kind in enumerate(kinds, 1)))

    @property
    def signed(self) -> bool:
        """Both captains have confirmed the card."""
        return self.confirmed == {HOME, AWAY}

    def counts(self, outcomes: list[Outcome]) -> bool:
        """The card's result counts in the standings: signed, and every game still over
        (a game undone at its table after the signing does not count until re-signed)."""
        return self.signed and all(outcome.over for outcome in outcomes)

    def game(self, number) -> Game:
        if not isinstance(number, int) or not 1 <= number <= len(self.games):
            raise CardError.worded(N_("This card has no game %(game)s."), "no_such_game",
                                   game=str(number)[:10])
        return self.games[number - 1]

    def _with(self, game: Game) -> "Card":
        games = list(self.games)
        games[game.number - 1] = game
        return Card(tuple(games), self.confirmed, self.reopen_asked)

    def _unconfirmed(self) -> None:
        if self.confirmed:
            raise CardError.worded(N_("The card has been confirmed: the secretary, or both "
                                      "captains, can reopen it to change it."),
                                   "card_confirmed")

    def with_players(self, number: int, home, away, rosters: dict) -> "Card":
        """The players of one game, picked from the two rosters; checked against the card."""
        self._unconfirmed()
        game = self.game(number)
        if game.match_id or game.entered:
            raise CardError.worded(N_("Game %(game)s has begun: its players cannot change."),
                                   "game_begun", game=number)
        home, away = tuple(home), tuple(away)
        check_line_up(self, game, home, away, rosters)
        return self._with(replace(game, home=home, away=away))

    def _ready(self, number: int) -> Game:
        """A game that can begin: the card open, the game not begun, its players picked."""
        self._unconfirmed()
        game = self.game(number)
        _not_begun(game)
        if not game.home:
            raise CardError.worded(N_("Pick the players of game %(game)s first."),
                                   "no_players", game=number)
        return game

    def started(self, number: int, match_id: str) -> "Card":
        """The game is being scored at a table by the match `match_id`."""
        game = self._ready(number)
        return self._with(replace(game, match_id=match_id))

    def with_entered(self, number: int, home_points, away_points, target: int,
                     exact: bool = False) -> "Card":
        """The final score of a game played on paper (`exact`: the target is hit exactly)."""
        game = self._ready(number)
        check_paper_score(home_points, away_points, target, exact)
        return self._with(replace(game, entered=(home_points, away_points)))

    def relinked(self, number: int, match_id: str) -> "Card":
        """The same card with game `number` scored by another stored match (a restore)."""
        return self._with(replace(self.game(number), match_id=match_id))

    def cleared(self, number: int) -> "Card":
        """The game back to its players only: its match unlinked, its paper score removed."""
        self._unconfirmed()
        return self._with(replace(self.game(number), match_id=None, entered=None))

    def with_confirmation(self, side: str, outcomes: list[Outcome]) -> "Card":
        """A captain signs the card; every game must be over first."""
        if side not in (HOME, AWAY):
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
        return Card(self.games, self.confirmed | {side})

    def reopened(self) -> "Card":
        return Card(self.games)

    def with_reopen_asked(self, side: str) -> "Card":
        """A captain asks to reopen the signed card; once both have, it is open again."""
        if side not in (HOME, AWAY):
            raise CardError.worded(N_("Only the two captains of a fixture confirm its card."),
                                   "not_a_captain")
        if not self.signed:
            raise CardError.worded(N_("The card is not confirmed by both captains: there is "
                                      "nothing to reopen."), "card_not_signed")
        asked = self.reopen_asked | {side}
        return self.reopened() if asked == {HOME, AWAY} else \
            Card(self.games, self.confirmed, asked)

    def as_dict(self) -> dict:
        kept = {"games": [game.as_dict() for game in self.games],
                "confirmed": sorted(self.confirmed)}
        if self.reopen_asked:
            kept["reopen_asked"] = sorted(self.reopen_asked)
        return kept

    @classmethod
    def from_dict(cls, data: dict) -> "Card":
        games = tuple(Game(number, game["kind"], tuple(game["home"]), tuple(game["away"]),
                           game.get("match_id"),
                           tuple(game["entered"]) if game.get("entered") else None)
                      for number, game in enumerate(data["games"], 1))
        return cls(games, frozenset(data.get("confirmed", ())),
                   frozenset(data.get("reopen_asked", ())))


def _not_begun(game: Game) -> None:
    if game.match_id:
        raise CardError.worded(N_("Game %(game)s is already being scored at a table."),
                               "game_being_scored", game=game.number)
    if game.entered:
        raise CardError.worded(N_("Game %(game)s already has its score entered."),
                               "game_entered", game=game.number)


def check_line_up(card: Card, game: Game, home: tuple, away: tuple, rosters: dict) -> None:
    """One or two players a side from their own roster; a player once a game, on one side,
    and in at most one singles and one pairs game of the card."""
    for side, names in ((HOME, home), (AWAY, away)):
        if len(names) != game.seats or not all(names):
            template = (N_("Game %(game)s needs one player on each side.")
                        if game.seats == 1 else
                        N_("Game %(game)s needs two players on each side."))
            raise CardError.worded(template, "players_missing", game=game.number)
        for name in names:
            if name not in rosters[side]:
                raise CardError.worded(N_("%(name)s is not on the team's roster."),
                                       "not_on_roster", name=str(name)[:40])
    both = set(home) & set(away)
    if both:
        raise CardError.worded(N_("%(name)s cannot play on both sides."), "both_sides",
                               name=min(both))
    for names in (home, away):
        if len(set(names)) != len(names):
            raise CardError.worded(N_("%(name)s cannot play twice in one game."),
                                   "twice_in_game", name=names[0])
    for other in card.games:
        if other.number != game.number and other.kind == game.kind:
            for name in set(home + away) & set(other.home + other.away):
                word = N_("%(name)s already plays singles game %(other)s.") \
                    if game.kind == SINGLES else \
                    N_("%(name)s already plays pairs game %(other)s.")
                raise CardError.worded(word, "plays_twice", name=name, other=other.number)


def check_paper_score(home_points, away_points, target: int, exact: bool = False) -> None:
    """A finished game: the winner reached the target (exactly, in a rule set that busts
    a play passing it), the loser did not."""
    for value in (home_points, away_points):
        if isinstance(value, bool) or not isinstance(value, int) or not \
                0 <= value <= MAX_TARGET * 2:
            raise CardError.worded(N_("A score is a whole number of points, not %(value)s."),
                                   "score_not_number", value=str(value)[:20])
    if exact and max(home_points, away_points) != target:
        raise CardError.worded(N_("A game of this rule set ends on exactly %(target)s: "
                                  "%(home)s–%(away)s is not a finished game."),
                               "score_not_exact", target=target, home=home_points,
                               away=away_points)
    if max(home_points, away_points) < target or min(home_points, away_points) >= target:
        raise CardError.worded(N_("A finished game has one side at %(target)s or more and "
                                  "the other below it: %(home)s–%(away)s is not one."),
                               "score_not_final", target=target, home=home_points,
                               away=away_points)
