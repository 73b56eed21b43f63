"""The rule sets a table can pick (RULESETS.md): each a value that answers the same questions.

As python-chess keeps its variants: one value per game, all in `RULE_SETS`, found
by name with `find_rule_set`. The engine asks the rule set; it never tests names.
"""

from dataclasses import dataclass, field

from ..errors import N_, SetupError
from ..words import pgettext
from .topics import BLOCKED, COUNT, DEALT, LEADS, OUT, PIPS, SPINNERS, TARGET, UNDEALT

# Which doubles branch (RULESETS.md §1).
NO_SPINNER = "none"
FIRST_DOUBLE = "first"
EVERY_DOUBLE = "every"
BRANCHING = (NO_SPINNER, FIRST_DOUBLE, EVERY_DOUBLE)

# How a count of the open ends scores.
MULTIPLES_OF_FIVE = "fives"  # a multiple of five scores itself
FIVES_PLUS_THREES = "fives-and-threes"  # n/5 if 5 divides n, plus n/3 if 3 divides n

# What going out scores.
OPPONENTS_ROUNDED = "opponents-rounded"  # each opponent's pips rounded to five
OWN_SUBTRACTED = "own-subtracted"  # nobody scores; each player's own rounded pips come off
OPPONENTS_UNROUNDED = "opponents-unrounded"  # the opponents' pips as they are
PLUS_ONE = "plus-one"  # +1 to the side (partnerships: when both partners are out)

# What a blocked hand scores.
FEWEST_ROUNDED = "fewest-rounded"  # fewest side: others' rounded − own rounded
FEWEST_UNROUNDED = "fewest-unrounded"  # fewest side: others' pips − own pips
NOTHING = "nothing"  # nobody scores
# (OWN_SUBTRACTED serves for a blocked hand too: the same subtraction as going out.)

# Whose pips are entered at the end of a hand.
OPPONENTS_OF_WINNER = "opponents"  # the winner's opponents (every player when blocked)
ALL_BUT_OUT = "all-but-out"  # every player but the one who went out
NO_PIPS = "none"

# Who leads a hand.
WINNER_LEADS = "winner"  # the table names the starter; after going out, whoever went out
NAMED_EVERY_HAND = "named"  # the table names the starter every hand
NEXT_SEAT = "next-seat"  # the table names the first starter; then the next seat leads

# How the table finds who leads when it names the starter.
HIGHEST_DOUBLE = "highest-double"  # whoever holds the highest double (the table says)
BY_LOT = "by-lot"  # the table chooses, by lot

# The house rules a table or a league may switch (RULESETS.md §5), as a record names them.
LAST_TILE_POINT = "last_tile_point"  # Fives and Threes: chipping out scores +1
WIN_ON_THE_DOWN = "win_on_the_down"  # the lead of a hand may win the match

COUNT_LIMIT = 169
"""Above every count a layout can show: no count exceeds the 168 pips of the whole set."""


@dataclass(frozen=True)
class RuleSet:
    """One game's answers to the questions of RULESETS.md's table."""

    name: str  # as a record and the app's storage write it: `all-fives`
    shown_name: str  # as the table says it; a catalogue id (N_)
    hand_sizes: tuple[int, int, int]  # tiles dealt with 2, 3 and 4 players
    draws: bool  # True: the undealt tiles are a boneyard drawn from; False: sleeping
    spinners: str  # NO_SPINNER, FIRST_DOUBLE or EVERY_DOUBLE
    scoring: str  # MULTIPLES_OF_FIVE or FIVES_PLUS_THREES
    going_out: str  # OPPONENTS_ROUNDED, OWN_SUBTRACTED, OPPONENTS_UNROUNDED or PLUS_ONE
    blocked: str  # FEWEST_ROUNDED, OWN_SUBTRACTED, FEWEST_UNROUNDED or NOTHING
    pips_entered: str  # OPPONENTS_OF_WINNER, ALL_BUT_OUT or NO_PIPS
    targets: tuple[int, int]  # default target: two players or pairs, and three or four players
    exact_target: bool  # True: a play that would pass the target scores nothing (a bust)
    starter: str  # WINNER_LEADS, NAMED_EVERY_HAND or NEXT_SEAT
    chooses: str  # HIGHEST_DOUBLE or BY_LOT: how the table finds a starter it names
    count_points: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """What each count of the open ends scores, by count: a table, read on the hot path."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "count_points",
                           tuple(self._points_of(count) for count in range(COUNT_LIMIT)))

    def _points_of(self, count: int) -> int:
        if self.scoring == FIVES_PLUS_THREES:
            return (count // 5 if count % 5 == 0 else 0) + (count // 3 if count % 3 == 0 else 0)
        return count if count % 5 == 0 else 0

    def points(self, count: int) -> int:
        """What a count of the open ends scores (RULES.md §6, RULESETS.md §2)."""
        return self.count_points[count]

    def hand_size(self, players: int) -> int:
        """The tiles dealt to each player by default."""
        return self.hand_sizes[players - 2]

    def target(self, players: int, partnerships: bool) -> int:
        """The default target: the first with two players or partnerships, else the second."""
        return self.targets[0] if players == 2 or partnerships else self.targets[1]

    @property
    def house_options(self) -> tuple[str, ...]:
        """The house rules that change this game: the point for the last tile only where
        going out scores one."""
        if self.going_out == PLUS_ONE:
            return (LAST_TILE_POINT, WIN_ON_THE_DOWN)
        return (WIN_ON_THE_DOWN,)

    @property
    def knocks(self) -> bool:
        """A player who cannot play passes at any time: there is nothing to draw."""
        return not self.draws

    @property
    def is_default(self) -> bool:
        """The game a table plays unless it picks another (a link needs not name it)."""
        return self is DEFAULT_RULE_SET

    @property
    def leads_in_turn(self) -> bool:
        """The table names the first starter only: then the lead moves one seat a hand."""
        return self.starter == NEXT_SEAT

    @property
    def starter_by_lot(self) -> bool:
        """The table chooses a starter it names by lot, not by the highest double."""
        return self.chooses == BY_LOT

    @property
    def branches(self) -> bool:
        """Doubles branch: an end is named by the laid tile it touches, not L or R."""
        return self.spinners != NO_SPINNER

    def answers(self) -> list[tuple[str, str, dict]]:
        """RULESETS.md's questions and this game's answers, in catalogue words: (question,
        answer, the answer's values), as the rules page sets the games side by side."""
        return [(question, answer, values) for _topic, question, answer, values
                in self.topics()]

    def topics(self) -> list[tuple[str, str, str, dict]]:
        """The answers with the topic of each (`rules/setup/topics.py`), which names its paragraph
        on the rules page (`<name>-<topic>`): (topic, question, answer, values)."""
        two, more = self.targets
        if self.exact_target:
            target = (N_("exactly %(target)s: a play that would pass it scores nothing"),
                      {"target": two})
        elif two == more:
            target = ("%(target)s", {"target": two})
        else:
            target = (N_("%(two)s (2 players or pairs) / %(more)s"), {"two": two, "more": more})
        return [
            (DEALT, N_("Tiles dealt: 2 / 3 / 4 players"), "%(sizes)s",
             {"sizes": " / ".join(map(str, self.hand_sizes))}),
            (UNDEALT, N_("Tiles not dealt"), N_("a boneyard, drawn from") if self.draws else
             N_("sleeping: never drawn; a player who cannot play knocks"), {}),
            (SPINNERS, N_("Doubles that branch (spinners)"), _SPINNER_WORDS[self.spinners], {}),
            (COUNT, N_("A count scores"), _SCORING_WORDS[self.scoring], {}),
            (OUT, N_("Going out"), _GOING_OUT_WORDS[self.going_out], {}),
            (BLOCKED, N_("Blocked hand"), _BLOCKED_WORDS[self.blocked], {}),
            (PIPS, N_("Pips entered at the end of a hand"), _PIPS_WORDS[self.pips_entered], {}),
            (TARGET, N_("Target"), *target),
            (LEADS, N_("Who leads"), _STARTER_WORDS[self.starter, self.chooses], {}),
        ]

    def answer(self, topic: str) -> tuple[str, str, dict]:
        """This game's answer to the question of `topic`: (question, answer, values)."""
        return next((question, answer, values) for name, question, answer, values
                    in self.topics() if name == topic)


def side_by_side(rule_sets) -> list[tuple[str, list[tuple[str, dict]]]]:
    """The questions, each with every game's answer (and its values), in order."""
    answers = [rules.answers() for rules in rule_sets]
    return [(row[0][0], [(answer, values) for _question, answer, values in row])
            for row in zip(*answers, strict=True)]


_SPINNER_WORDS = {NO_SPINNER: pgettext("no double branches", "none"),
                  FIRST_DOUBLE: N_("the first double of the hand"),
                  EVERY_DOUBLE: N_("every double")}
_SCORING_WORDS = {MULTIPLES_OF_FIVE: N_("a multiple of 5: the count"),
                  FIVES_PLUS_THREES: N_("n/5 if 5 divides n, plus n/3 if 3 divides n")}
_GOING_OUT_WORDS = {
    OPPONENTS_ROUNDED: N_("the opponents' pips, each rounded to 5"),
    OWN_SUBTRACTED: N_("nobody scores; each player's own pips, rounded to 5, come off their "
                       "side"),
    OPPONENTS_UNROUNDED: N_("the opponents' pips, not rounded"),
    PLUS_ONE: N_("+1 to the side (partners: once both are out)")}
_BLOCKED_WORDS = {
    FEWEST_ROUNDED: N_("fewest pips: the others' rounded pips minus its own"),
    OWN_SUBTRACTED: N_("the same subtraction as going out"),
    FEWEST_UNROUNDED: N_("fewest pips: the others' pips minus its own, not rounded; a tie "
                         "scores nothing"),
    NOTHING: N_("nobody scores")}
_PIPS_WORDS = {OPPONENTS_OF_WINNER: N_("the winner's opponents (everyone when blocked)"),
               ALL_BUT_OUT: N_("every player but the one who went out"),
               NO_PIPS: pgettext("nobody's pips are entered", "none")}
_STARTER_WORDS = {
    (WINNER_LEADS, HIGHEST_DOUBLE): N_("whoever holds the highest double (the table says); "
                                       "after going out, whoever went out"),
    (WINNER_LEADS, BY_LOT): N_("the table chooses by lot; after going out, whoever went out"),
    (NAMED_EVERY_HAND, HIGHEST_DOUBLE): N_("whoever holds the highest double, every hand "
                                           "(the table says)"),
    (NEXT_SEAT, BY_LOT): N_("first hand: the table chooses; then the next seat")}


ALL_FIVES = RuleSet(
    name="all-fives", shown_name=N_("All Fives"), hand_sizes=(7, 5, 5), draws=True,
    spinners=NO_SPINNER, scoring=MULTIPLES_OF_FIVE, going_out=OPPONENTS_ROUNDED,
    blocked=FEWEST_ROUNDED, pips_entered=OPPONENTS_OF_WINNER, targets=(250, 200),
    exact_target=False, starter=WINNER_LEADS, chooses=HIGHEST_DOUBLE)

ALL_FIVES_SPINNER = RuleSet(
    name="all-fives-spinner", shown_name=N_("All Fives with a spinner"), hand_sizes=(9, 7, 5),
    draws=True, spinners=FIRST_DOUBLE, scoring=MULTIPLES_OF_FIVE, going_out=OWN_SUBTRACTED,
    blocked=OWN_SUBTRACTED, pips_entered=ALL_BUT_OUT, targets=(250, 200),
    exact_target=False, starter=WINNER_LEADS, chooses=BY_LOT)

OLA_5 = RuleSet(
    name="ola-5", shown_name=N_("Όλα 5"), hand_sizes=(7, 5, 5), draws=True,
    spinners=EVERY_DOUBLE, scoring=MULTIPLES_OF_FIVE, going_out=OPPONENTS_UNROUNDED,
    blocked=FEWEST_UNROUNDED, pips_entered=OPPONENTS_OF_WINNER, targets=(100, 100),
    exact_target=False, starter=NAMED_EVERY_HAND, chooses=HIGHEST_DOUBLE)

FIVES_AND_THREES = RuleSet(
    name="fives-and-threes", shown_name=N_("Fives and Threes"), hand_sizes=(7, 5, 5),
    draws=False, spinners=NO_SPINNER, scoring=FIVES_PLUS_THREES, going_out=PLUS_ONE,
    blocked=NOTHING, pips_entered=NO_PIPS, targets=(61, 61), exact_target=True,
    starter=NEXT_SEAT, chooses=BY_LOT)

RULE_SETS: tuple[RuleSet, ...] = (ALL_FIVES, ALL_FIVES_SPINNER, OLA_5, FIVES_AND_THREES)
"""Every rule set, the default first."""

DEFAULT_RULE_SET = ALL_FIVES
"""The game a table plays unless it picks another (a record without `rules` plays it)."""

_BY_NAME = {rules.name: rules for rules in RULE_SETS}


def find_rule_set(name) -> RuleSet:
    """The rule set called `name` (`all-fives`, `fives-and-threes`, ...); else SetupError."""
    rules = _BY_NAME.get(name) if isinstance(name, str) else None
    if rules is None:
        shown = repr(name) if len(repr(name)) <= 40 else repr(name)[:37] + "..."
        raise SetupError.worded(N_("%(name)s is not a rule set: the rule sets are %(known)s"),
                                "unknown_rules", name=shown,
                                known=", ".join(rules.name for rules in RULE_SETS))
    return rules


HOUSE_OPTIONS = (LAST_TILE_POINT, WIN_ON_THE_DOWN)
"""Every house rule, in the order the screens and records list them."""

_HOUSE_WORDS = {LAST_TILE_POINT: N_("no point for the last tile"),
                WIN_ON_THE_DOWN: N_("no win on the down")}


@dataclass(frozen=True)
class HouseRules:
    """The house rules of a match (RULESETS.md §5): each True, the default, unless the
    table or its league switched it off."""

    last_tile_point: bool = True
    win_on_the_down: bool = True

    @classmethod
    def read(cls, options, rules: RuleSet) -> "HouseRules":
        """A record's or a setup's `house` object, checked: known options that apply to
        the rule set, each true or false; None or {} is every default."""
        if options is None:
            return DEFAULT_HOUSE
        if not isinstance(options, dict):
            raise SetupError.worded(N_("the house rules must be an object of named options"),
                                    "bad_house")
        for name, value in options.items():
            if name not in HOUSE_OPTIONS:
                raise SetupError.worded(N_("%(name)s is not a house rule: the house rules are "
                                           "%(known)s"), "unknown_house_rule",
                                        name=_shown(name), known=", ".join(HOUSE_OPTIONS))
            if name not in rules.house_options:
                raise SetupError.worded(N_("%(name)s is not a house rule of %(rules)s"),
                                        "house_rule_not_here", name=name, rules=rules.name)
            if not isinstance(value, bool):
                raise SetupError.worded(N_("the house rule %(name)s must be true or false, not "
                                           "%(value)s"), "bad_house_value", name=name,
                                        value=_shown(value))
        house = cls(**options)
        return DEFAULT_HOUSE if house == DEFAULT_HOUSE else house

    @property
    def is_default(self) -> bool:
        return self == DEFAULT_HOUSE

    def as_dict(self) -> dict:
        """The options that differ from the defaults, as a record writes them."""
        return {name: getattr(self, name) for name in HOUSE_OPTIONS
                if getattr(self, name) != getattr(DEFAULT_HOUSE, name)}

    def switched(self) -> list[str]:
        """The house rules in force, in catalogue words (`no point for the last tile`)."""
        return [_HOUSE_WORDS[name] for name in self.as_dict()]


DEFAULT_HOUSE = HouseRules()
"""The rules as the rule set has them: no house rule switched."""


def _shown(value) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."
