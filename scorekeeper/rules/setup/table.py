"""Who sits at the table, how they form sides, and the house rules agreed for the match."""

import functools
import unicodedata
from dataclasses import dataclass, field

from ..errors import N_, Np_, SetupError
from ..limits import MAX_NAME, MAX_PLAYERS, MAX_TARGET, MIN_PLAYERS, MIN_TARGET, SET_SIZE
from .names import allowed, skeleton, visible
from .rulesets import ALL_FIVES, DEFAULT_HOUSE, HouseRules, RuleSet


def default_target(players: int, partnerships: bool, rules: RuleSet = ALL_FIVES) -> int:
    """All Fives: 250 with two players or two partnerships, 200 with three or four individuals."""
    return rules.target(players, partnerships)


def default_hand_size(players: int, rules: RuleSet = ALL_FIVES) -> int:
    """All Fives: 7 tiles each with two players, 5 each with three or four."""
    return rules.hand_size(players)


_NOT_A_NUMBER = {
    "target": N_("the target must be a whole number, not %(value)s"),
    "hand size": N_("the hand size must be a whole number, not %(value)s"),
}


def _whole_number(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise SetupError.worded(_NOT_A_NUMBER[what], "not_a_number", field=what, value=shown)
    return value


@dataclass(frozen=True)
class Table:
    """The fixed facts of one match: players in seat order, sides, target, hand size, rule set
    and the house rules switched from it."""

    players: tuple[str, ...]
    partnerships: bool
    target: int
    hand_size: int
    rules: RuleSet = ALL_FIVES
    house: HouseRules = DEFAULT_HOUSE
    sides: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    """Seats of each side, in seat order of their first player."""

    def __post_init__(self) -> None:
        sides = (((0, 2), (1, 3)) if self.partnerships
                 else tuple((seat,) for seat in range(len(self.players))))
        object.__setattr__(self, "sides", sides)

    @classmethod
    def create(cls, players, partnerships=False, target=None, hand_size=None,
               rules: RuleSet = ALL_FIVES, house=None) -> "Table":
        """Check every setup rule and fill in the defaults the rule set gives; `house` is a
        HouseRules or a record's `house` object, checked against the rule set."""
        names = _checked_names(players)
        if not isinstance(partnerships, bool):
            raise SetupError.worded(N_("partnerships must be true or false"),
                                    "bad_partnerships")
        if partnerships and len(names) != 4:
            raise SetupError.worded(N_("partnerships need 4 players, not %(players)s"),
                                    "partnerships_need_four", players=len(names))
        if target is None:
            target = rules.target(len(names), partnerships)
        target = _whole_number(target, "target")
        if not MIN_TARGET <= target <= MAX_TARGET:
            raise SetupError.worded(N_("the target must be from %(low)s to %(high)s points, "
                                       "not %(target)s"), "bad_target", target=target,
                                    low=MIN_TARGET, high=MAX_TARGET)
        if hand_size is None:
            hand_size = rules.hand_size(len(names))
        hand_size = _whole_number(hand_size, "hand size")
        if hand_size < 1 or hand_size * len(names) > SET_SIZE:
            raise SetupError.worded(
                Np_("%(players)s players × %(hand_size)s tile does not fit a set of %(set)s: "
                    "the hand size must be from 1 to %(most)s",
                    "%(players)s players × %(hand_size)s tiles does not fit a set of %(set)s: "
                    "the hand size must be from 1 to %(most)s"), "bad_hand_size",
                counted="hand_size", hand_size=hand_size, players=len(names), set=SET_SIZE,
                most=SET_SIZE // len(names))
        if isinstance(house, HouseRules):
            house = house.as_dict()
        return cls(names, partnerships, target, hand_size, rules, HouseRules.read(house, rules))

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    def side_name(self, side: int) -> str:
        """`Ann` for a single player, `Ann & Cat` for a partnership."""
        return " & ".join(self.players[seat] for seat in self.sides[side])

    def seat_of(self, name: str) -> int:
        """The seat of a player named exactly as at the table."""
        try:
            return self.players.index(name)
        except ValueError:
            shown = repr(name) if len(repr(name)) <= 40 else repr(name)[:37] + "..."
            raise SetupError.worded(N_("%(shown)s is not a player at this table (%(players)s)"),
                                    "unknown_player", name=str(name), shown=shown,
                                    players=", ".join(self.players)) from None


def _checked_names(players) -> tuple[str, ...]:
    """The players' names, checked; a table's names are checked once and remembered."""
    if isinstance(players, (list, tuple)):
        try:
            return _checked_name_tuple(tuple(players))
        except TypeError:  # a name that is a list or a dict: it cannot be remembered
            pass
    return _checked_name_list(players)


@functools.lru_cache(maxsize=256)
def _checked_name_tuple(players: tuple) -> tuple[str, ...]:
    return _checked_name_list(players)


def _checked_name_list(players) -> tuple[str, ...]:
    if (not isinstance(players, (list, tuple))
            or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS):
        count = len(players) if isinstance(players, (list, tuple)) else 0
        raise SetupError.worded(N_("a match needs %(low)s to %(high)s players, not %(players)s"),
                                "player_count", players=count, low=MIN_PLAYERS,
                                high=MAX_PLAYERS)
    names = []
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise SetupError.worded(N_("every player needs a name"), "empty_name")
        name = _checked_name(name)
        if name.casefold() in (other.casefold() for other in names):
            raise SetupError.worded(N_("two players are called %(name)s: give each a "
                                       "different name"), "duplicate_name", name=name)
        like = next((other for other in names if skeleton(other) == skeleton(name)), None)
        if like is not None:
            raise SetupError.worded(N_("%(name)s looks just like %(other)s on a phone: give "
                                       "each player a name the others can tell apart"),
                                    "confusable_name", name=name, other=like)
        names.append(name)
    return tuple(names)


def _checked_name(name: str) -> str:
    """One line of visible text, in NFC, at most MAX_NAME characters."""
    name = unicodedata.normalize("NFC", name.strip())
    if not allowed(name):
        raise SetupError.worded(N_("%(shown)s has a line break or a control character: a "
                                   "name is one line of text"), "name_not_printable",
                                name=name, shown=repr(name[:MAX_NAME]))
    if not any(visible(char) for char in name):
        raise SetupError.worded(N_("a name needs at least one letter, digit or sign that "
                                   "can be seen"), "name_invisible", name=name)
    if len(name) > MAX_NAME:
        raise SetupError.worded(Np_("%(shown)s… is too long: a name has at most %(most)s "
                                    "character", "%(shown)s… is too long: a name has at most "
                                    "%(most)s characters"), "name_too_long", counted="most",
                                name=name, shown=name[:MAX_NAME], most=MAX_NAME)
    return name
