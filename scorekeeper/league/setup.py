"""What a league agrees before its season: the game's rules, the card, the points.

Everything here is a frozen value checked when made: a setup that exists makes sense.
"""

from dataclasses import dataclass

from ..rules import DEFAULT_RULE_SET, RULE_SETS, RuleSet, SetupError, Table, find_rule_set
from ..rules.table import MAX_NAME
from .errors import N_, Np_, SetupRefused

MAX_POINTS = 100
"""No league gives more than this for one game or one card; more is a typing slip."""
MAX_GAMES = 21
"""The longest card a league plays in one night."""
SINGLES, PAIRS = "singles", "pairs"
GAME_LETTERS = {"S": SINGLES, "P": PAIRS}
TIE_BREAKS = ("game_difference", "games_won", "head_to_head")
"""The tie-breaks a league may order; after them, teams tied on everything stand by name."""
DEFAULT_RULES = DEFAULT_RULE_SET.name
"""The game a league plays unless it picks another: the rules' default."""
PLAYABLE = RULE_SETS
"""The rule sets a league can play: every one the engine referees."""


def league_rule_set(name) -> RuleSet:
    """The rule set called `name`; a league refuses a name no rule set has."""
    try:
        rules = find_rule_set(name)
    except SetupError:
        raise SetupRefused.worded(N_("%(name)s is not a rule set this app knows."),
                                  "unknown_rules", name=str(name)[:40]) from None
    return rules


@dataclass(frozen=True)
class PointsScheme:
    """League points for each game won, for winning or drawing a card, then the tie-breaks."""

    per_game: int
    win: int
    draw: int
    tie_breaks: tuple[str, ...] = TIE_BREAKS

    @classmethod
    def create(cls, per_game, win, draw, tie_breaks=TIE_BREAKS) -> "PointsScheme":
        for what, value in (("per_game", per_game), ("win", win), ("draw", draw)):
            _check_points(what, value)
        if win == 0 and per_game == 0:
            raise SetupRefused.worded(N_("Nobody could ever score: give points for a won "
                                         "card or for each game won."), "no_points")
        if draw > win:
            raise SetupRefused.worded(N_("A drawn card (%(draw)s) cannot be worth more than a "
                                         "won one (%(win)s)."), "draw_above_win",
                                      draw=draw, win=win)
        tie_breaks = tuple(tie_breaks)
        for name in tie_breaks:
            if name not in TIE_BREAKS:
                raise SetupRefused.worded(N_("%(name)s is not a tie-break this app knows."),
                                          "unknown_tie_break", name=str(name)[:40])
        if len(set(tie_breaks)) != len(tie_breaks):
            raise SetupRefused.worded(N_("Each tie-break can be used only once."),
                                      "repeated_tie_break")
        return cls(per_game, win, draw, tie_breaks)

    def card_points(self, games_won: int, games_lost: int) -> int:
        """What a team earns from one confirmed card."""
        bonus = self.win if games_won > games_lost else self.draw if games_won == games_lost else 0
        return bonus + self.per_game * games_won

    def as_dict(self) -> dict:
        return {"per_game": self.per_game, "win": self.win, "draw": self.draw,
                "tie_breaks": list(self.tie_breaks)}


def _check_points(what: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SetupRefused.worded(N_("Points must be whole numbers, not %(value)s."),
                                  "points_not_number", field=what, value=str(value)[:20])
    if value < 0:
        raise SetupRefused.worded(N_("Points cannot be negative (%(value)s)."),
                                  "negative_points", field=what, value=value)
    if value > MAX_POINTS:
        raise SetupRefused.worded(Np_("At most %(most)s point, not %(value)s.",
                                      "At most %(most)s points, not %(value)s."),
                                  "too_many_points", counted="most", field=what, value=value,
                                  most=MAX_POINTS)


PRESETS = {
    "two_plus_games": PointsScheme(per_game=1, win=2, draw=1),
    "three_one": PointsScheme(per_game=0, win=3, draw=1),
}
PRESET_NAMES = {
    "two_plus_games": N_("2 for the win + 1 per game won"),
    "three_one": N_("3 for a win, 1 for a draw"),
}


def read_card_format(text: str) -> tuple[str, ...]:
    """`SSSSSSPPP` (or with spaces): the games of a card in the order they are played."""
    letters = "".join(str(text).split()).upper()
    if not letters or len(letters) > MAX_GAMES:
        raise SetupRefused.worded(N_("A card has from 1 to %(most)s games."),
                                  "bad_game_count", most=MAX_GAMES)
    wrong = sorted(set(letters) - set(GAME_LETTERS))
    if wrong:
        raise SetupRefused.worded(N_("Write the card as S (singles) and P (pairs), "
                                     "not %(letter)s."), "bad_game_letter",
                                  letter=wrong[0])
    return tuple(GAME_LETTERS[letter] for letter in letters)


def card_format_text(games: tuple[str, ...]) -> str:
    return "".join("S" if kind == SINGLES else "P" for kind in games)


@dataclass(frozen=True)
class LeagueSetup:
    """A league's name, season, rule set and house options, card format and points."""

    name: str
    season: str
    games: tuple[str, ...]
    points: PointsScheme
    rules: str = DEFAULT_RULES
    target: int = 250
    singles_hand: int = 7
    pairs_hand: int = 5

    @classmethod
    def create(cls, name, season, games, points, rules=DEFAULT_RULES, target=None,
               singles_hand=None, pairs_hand=None) -> "LeagueSetup":
        """Checked; the target and hand sizes left out are the rule set's own."""
        name = checked_name(name, N_("The league needs a name."))
        season = checked_name(season, N_("Say which season this is (for example 2026–27)."))
        games = read_card_format(card_format_text(games) if isinstance(games, tuple) else games)
        rule_set = league_rule_set(rules)
        target = rule_set.target(2, False) if target is None else target
        singles_hand = rule_set.hand_size(2) if singles_hand is None else singles_hand
        pairs_hand = rule_set.hand_size(4) if pairs_hand is None else pairs_hand
        for kind, hand in ((SINGLES, singles_hand), (PAIRS, pairs_hand)):
            if kind in games:
                _check_table(kind, target, hand, rule_set)
        return cls(name, season, games, points, rule_set.name, target, singles_hand,
                   pairs_hand)

    @property
    def rule_set(self) -> RuleSet:
        return find_rule_set(self.rules)

    def table(self, kind: str, players: list[str]) -> Table:
        """The table of one game of the card: its players, sides, rule set and options."""
        hand = self.singles_hand if kind == SINGLES else self.pairs_hand
        return Table.create(players, kind == PAIRS, self.target, hand, self.rule_set)

    def as_dict(self) -> dict:
        return {"name": self.name, "season": self.season, "games": card_format_text(self.games),
                "points": self.points.as_dict(), "rules": self.rules, "target": self.target,
                "singles_hand": self.singles_hand, "pairs_hand": self.pairs_hand}

    @classmethod
    def from_dict(cls, data: dict) -> "LeagueSetup":
        points = data["points"]
        scheme = PointsScheme.create(points["per_game"], points["win"], points["draw"],
                                     points["tie_breaks"])
        return cls.create(data["name"], data["season"], data["games"], scheme,
                          data.get("rules", DEFAULT_RULES), data["target"],
                          data["singles_hand"], data["pairs_hand"])


def _check_table(kind: str, target, hand, rules: RuleSet) -> None:
    """The rules decide whether a target and hand size make a game (a sample table)."""
    names = ["a", "b"] if kind == SINGLES else ["a", "b", "c", "d"]
    try:
        Table.create(names, kind == PAIRS, target, hand, rules)
    except SetupError as error:
        template = (N_("The singles games cannot be played that way: %(why)s.")
                    if kind == SINGLES else
                    N_("The pairs games cannot be played that way: %(why)s."))
        raise SetupRefused.worded(template, "bad_game_setup", games=kind,
                                  why=error.message) from None


def checked_name(value, missing: str) -> str:
    """A one-line name of at most MAX_NAME characters (a team, a player, a league)."""
    name = " ".join(str(value or "").split())
    if not name:
        raise SetupRefused.worded(missing, "empty_name")
    if not name.isprintable():
        raise SetupRefused.worded(N_("A name is one line of text."), "name_not_printable")
    if len(name) > MAX_NAME:
        raise SetupRefused.worded(Np_("%(name)s… is too long: a name has at most %(most)s "
                                      "character.", "%(name)s… is too long: a name has at "
                                      "most %(most)s characters."), "name_too_long",
                                  counted="most", name=name[:MAX_NAME], most=MAX_NAME)
    return name
