"""What a league agrees before its season: the game's rules and house rules, the card and
how each kind of game on it is played, the points, walkovers, line-ups, squads, divisions.

Everything here is a frozen value checked when made: a setup that exists makes sense.
"""

from dataclasses import dataclass

from ...rules import DEFAULT_RULE_SET, RULE_SETS, RuleSet, SetupError, Table, find_rule_set
from ...rules.setup.rulesets import DEFAULT_HOUSE, HouseRules
from ...rules.setup.table import MAX_NAME
from ..errors import N_, Np_, SetupRefused
from .calendar import DEFAULT_ZONE, checked_time_zone
from .points import PointsScheme

MAX_GAMES = 21
"""The longest card a league plays in one night."""
MAX_LEGS = 7
"""The longest best-of a table plays for one game of the card."""
MAX_SQUAD = 40
"""More players than any pub team registers for a season."""
SECRETARY, CAPTAIN, PUBLIC = "secretary", "captain", "public"
"""Whom a league's link speaks for: its secretary (everything), a team's captain (that
team's roster and cards), or the public (reading only)."""
MAX_DIVISIONS = 8
MAX_LEAGUE_NAME = 100
"""Characters in a league's name: "Solihull & Warwickshire Fives and Threes League" and
longer (a player's or a team's name has the table's MAX_NAME)."""
SINGLES, PAIRS = "singles", "pairs"
GAME_LETTERS = {"S": SINGLES, "P": PAIRS}
OPEN, BLIND, DRAWN = "open", "blind", "drawn"
LINE_UPS = (OPEN, BLIND, DRAWN)
"""How a card's players are picked: game by game in the open; each captain's whole line-up
hidden until both are in; or each captain's players for the night, dealt into the games
by lot once both are in."""
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


def players_needed(games: tuple[str, ...]) -> int:
    """The fewest players a team fields a card with: a player plays at most one singles
    and one pairs game."""
    return max(games.count(SINGLES), 2 * games.count(PAIRS))


@dataclass(frozen=True)
class GameFormat:
    """How one kind of game of the card is played: to what target, with how many tiles
    each, and as a best of how many legs (1: one game decides it)."""

    target: int
    hand: int
    legs: int = 1

    @property
    def legs_to_win(self) -> int:
        """The majority of the legs: the game is decided once a side has won this many."""
        return self.legs // 2 + 1


@dataclass(frozen=True)
class LeagueSetup:
    """A league's name, season, rule set and house rules, card, points and season rules,
    and where it plays (its time zone)."""

    name: str
    season: str
    games: tuple[str, ...]
    points: PointsScheme
    rules: str = DEFAULT_RULES
    singles: GameFormat = GameFormat(250, 7)
    pairs: GameFormat = GameFormat(250, 5)
    house: HouseRules = DEFAULT_HOUSE
    walkover: tuple[int, int] | None = None
    """The games a walkover counts as (winner's first); None: every game of the card."""
    line_ups: str = OPEN
    squad: int | None = None
    """The most players a team may register in a season; None: no limit."""
    divisions: tuple[str, ...] = ()
    time_zone: str = DEFAULT_ZONE
    """Where the league plays: its dates and times are this zone's."""
    transfers: bool = False
    """A player who has played for a team may move to another during the season."""

    @classmethod
    def create(cls, name, season, games, points, rules=DEFAULT_RULES, target=None,
               singles_hand=None, pairs_hand=None, *, pairs_target=None, singles_legs=1,
               pairs_legs=1, house=None, walkover=None, line_ups=OPEN, squad=None,
               divisions=(), time_zone=DEFAULT_ZONE, transfers=False) -> "LeagueSetup":
        """Checked; a target and hand size left out are the rule set's own (pairs games
        take the singles' target unless given theirs)."""
        name = checked_name(name, N_("The league needs a name."), MAX_LEAGUE_NAME)
        season = checked_name(season, N_("Say which season this is (for example 2026–27)."))
        games = read_card_format(card_format_text(games) if isinstance(games, tuple) else games)
        rule_set = league_rule_set(rules)
        target = rule_set.target(2, False) if target is None else target
        house = _checked_house(house, rule_set)
        formats = {
            SINGLES: GameFormat(target, rule_set.hand_size(2) if singles_hand is None
                                else singles_hand, _checked_legs(singles_legs)),
            PAIRS: GameFormat(target if pairs_target is None else pairs_target,
                              rule_set.hand_size(4) if pairs_hand is None else pairs_hand,
                              _checked_legs(pairs_legs))}
        for kind, played in formats.items():
            if kind in games:
                _check_table(kind, played, rule_set, house)
        return cls(name, season, games, points, rule_set.name, formats[SINGLES],
                   formats[PAIRS], house, _checked_walkover(walkover, games),
                   _checked_line_ups(line_ups), _checked_squad(squad, games),
                   _checked_divisions(divisions), checked_time_zone(time_zone),
                   transfers is True)

    @property
    def rule_set(self) -> RuleSet:
        return find_rule_set(self.rules)

    @property
    def target(self) -> int:
        """The singles' target: the league's, unless its pairs play to another."""
        return self.singles.target

    def format_of(self, kind: str) -> GameFormat:
        return self.singles if kind == SINGLES else self.pairs

    def table(self, kind: str, players: list[str]) -> Table:
        """The table of one game (one leg) of the card: its players, sides, rule set and
        the league's house rules."""
        played = self.format_of(kind)
        return Table.create(players, kind == PAIRS, played.target, played.hand, self.rule_set,
                            self.house)

    @property
    def has_legs(self) -> bool:
        """Some game of the card is a best of several legs."""
        return any(self.format_of(kind).legs > 1 for kind in set(self.games))

    @property
    def walkover_games(self) -> tuple[int, int]:
        """The games a walkover counts as: the league's score, or the whole card."""
        return self.walkover or (len(self.games), 0)

    @property
    def averaged_apart(self) -> tuple[str, ...]:
        """The kinds of game whose players' averages are kept apart: singles and pairs
        played to different targets (Leek's 61 and 121), whose points do not mix."""
        if SINGLES in self.games and PAIRS in self.games and \
                self.singles.target != self.pairs.target:
            return (SINGLES, PAIRS)
        return ()

    @property
    def squad_needed(self) -> int:
        return players_needed(self.games)

    def as_dict(self) -> dict:
        """As stored and archived: a league set up before these options had them all at
        their defaults, and writes the same."""
        kept = {"name": self.name, "season": self.season,
                "games": card_format_text(self.games), "points": self.points.as_dict(),
                "rules": self.rules, "target": self.singles.target,
                "singles_hand": self.singles.hand, "pairs_hand": self.pairs.hand}
        optional = {"pairs_target": (self.pairs.target, self.singles.target),
                    "singles_legs": (self.singles.legs, 1), "pairs_legs": (self.pairs.legs, 1),
                    "house": (self.house.as_dict(), {}),
                    "walkover": (list(self.walkover or ()), []), "line_ups": (self.line_ups, OPEN),
                    "squad": (self.squad, None), "divisions": (list(self.divisions), []),
                    "time_zone": (self.time_zone, DEFAULT_ZONE),
                    "transfers": (self.transfers, False)}
        kept.update({key: value for key, (value, default) in optional.items()
                     if value != default})
        return kept

    @classmethod
    def from_dict(cls, data: dict) -> "LeagueSetup":
        return cls.create(data["name"], data["season"], data["games"],
                          PointsScheme.from_dict(data["points"]),
                          data.get("rules", DEFAULT_RULES), data["target"],
                          data["singles_hand"], data["pairs_hand"],
                          pairs_target=data.get("pairs_target"),
                          singles_legs=data.get("singles_legs", 1),
                          pairs_legs=data.get("pairs_legs", 1), house=data.get("house"),
                          walkover=data.get("walkover"), line_ups=data.get("line_ups", OPEN),
                          squad=data.get("squad"), divisions=data.get("divisions", ()),
                          time_zone=data.get("time_zone", DEFAULT_ZONE),
                          transfers=data.get("transfers", False))


def _check_table(kind: str, played: GameFormat, rules: RuleSet, house) -> None:
    """The rules decide whether a target and hand size make a game (a sample table)."""
    names = ["a", "b"] if kind == SINGLES else ["a", "b", "c", "d"]
    try:
        Table.create(names, kind == PAIRS, played.target, played.hand, rules, house)
    except SetupError as error:
        template = (N_("The singles games cannot be played that way: %(why)s.")
                    if kind == SINGLES else
                    N_("The pairs games cannot be played that way: %(why)s."))
        raise SetupRefused.worded(template, "bad_game_setup", games=kind,
                                  why=error.message) from None


def _checked_house(house, rules: RuleSet) -> HouseRules:
    try:
        return HouseRules.read(house.as_dict() if isinstance(house, HouseRules) else house,
                               rules)
    except SetupError as error:
        raise SetupRefused.worded(N_("The house rules cannot be played that way: %(why)s."),
                                  "bad_house_rules", why=error.message) from None


def _checked_legs(legs) -> int:
    if isinstance(legs, bool) or not isinstance(legs, int) or not 1 <= legs <= MAX_LEGS \
            or legs % 2 == 0:
        raise SetupRefused.worded(N_("A game is a best of 1, 3, 5 or 7 legs, not %(legs)s."),
                                  "bad_legs", legs=str(legs)[:10])
    return legs


def _checked_walkover(walkover, games: tuple[str, ...]) -> tuple[int, int] | None:
    """A walkover's score in games: the winner's more than the loser's, within the card."""
    if walkover is None or list(walkover) == [len(games), 0]:
        return None
    if not (isinstance(walkover, (list, tuple)) and len(walkover) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                    for n in walkover)
            and walkover[0] > walkover[1] and sum(walkover) <= len(games)):
        raise SetupRefused.worded(N_("A walkover is a win of more games than it loses, "
                                     "within the %(games)s games of the card."),
                                  "bad_walkover", games=len(games))
    return (walkover[0], walkover[1])


def _checked_line_ups(line_ups) -> str:
    if line_ups not in LINE_UPS:
        raise SetupRefused.worded(N_("%(name)s is not a way of picking line-ups this app "
                                     "knows."), "bad_line_ups", name=str(line_ups)[:40])
    return line_ups


def _checked_squad(squad, games: tuple[str, ...]) -> int | None:
    if squad is None:
        return None
    needed = players_needed(games)
    if isinstance(squad, bool) or not isinstance(squad, int) or \
            not needed <= squad <= MAX_SQUAD:
        raise SetupRefused.worded(N_("A squad is from %(needed)s players (enough for one "
                                     "card) to %(most)s, not %(squad)s."), "bad_squad",
                                  needed=needed, most=MAX_SQUAD, squad=str(squad)[:10])
    return squad


def _checked_divisions(divisions) -> tuple[str, ...]:
    names = tuple(checked_name(name, N_("Every division needs a name.")) for name in divisions)
    if len(names) > MAX_DIVISIONS:
        raise SetupRefused.worded(N_("A league has at most %(most)s divisions."),
                                  "too_many_divisions", most=MAX_DIVISIONS)
    folded = [name.casefold() for name in names]
    if len(set(folded)) != len(folded):
        raise SetupRefused.worded(N_("Two divisions have the same name."),
                                  "duplicate_division")
    if len(names) == 1:
        raise SetupRefused.worded(N_("Divisions split a league in two or more: name at least "
                                     "two, or none."), "one_division")
    return names


def checked_name(value, missing: str, most: int = MAX_NAME) -> str:
    """A one-line name of at most `most` characters (a team, a player, a league)."""
    name = " ".join(str(value or "").split())
    if not name:
        raise SetupRefused.worded(missing, "empty_name")
    if not name.isprintable():
        raise SetupRefused.worded(N_("A name is one line of text."), "name_not_printable")
    if len(name) > most:
        raise SetupRefused.worded(Np_("%(name)s… is too long: a name has at most %(most)s "
                                      "character.", "%(name)s… is too long: a name has at "
                                      "most %(most)s characters."), "name_too_long",
                                  counted="most", name=name[:most], most=most)
    return name
