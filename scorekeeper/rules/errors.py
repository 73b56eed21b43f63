"""The one error family of the rules: a message in table words, and its facts as data.

Every error carries `kind` (a stable name the app translates) and `facts`
(the player, the tile, the numbers) beside the English sentence. Errors made
with `worded` also keep their `template`, a catalogue id marked with N_, so the
app can word them in the reader's language: gettext(template, **facts). A refusal
whose words depend on a number also keeps its `plural` template and that `number`,
and the app words it with ngettext(template, plural, number, **facts), or npgettext
with its `context`. The markers are those of `words.py`.
"""

from .words import N_, Np_

__all__ = ["N_", "Np_", "Refusal", "RuleError", "BadTile", "SetupError", "IllegalMove",
           "IllegalStart", "ImpossibleHand", "HandNotOver", "HandOver", "MatchOver",
           "NothingToUndo"]


class Refusal(ValueError):
    """A refusal worded for a person: an English sentence, a kind, its facts, its template."""

    kind = "refused"

    template: str | None = None
    plural: str | None = None
    number: int | None = None
    context: str | None = None

    def __init__(self, message: str, kind: str | None = None, **facts):
        super().__init__(message)
        if kind:
            self.kind = kind
        self.facts = facts

    @classmethod
    def worded(cls, template: str | tuple[str, str], kind: str, *, counted: str | None = None,
               **facts) -> "Refusal":
        """The error with its English sentence made from a catalogue template and its facts.

        Given a pair from `Np_` (or `npgettext`, whose `context` it keeps) and the name of
        the fact that is `counted`, the English sentence takes the form English uses for that
        number (the app asks ngettext instead).
        """
        context = getattr(template, "context", None)
        template, plural = template if isinstance(template, tuple) else (template, None)
        number = facts[counted] if counted is not None else None
        english = plural if plural is not None and number != 1 else template
        error = cls(english % facts, kind, **facts)
        error.template, error.plural, error.number = template, plural, number
        error.context = context
        return error

    @property
    def message(self) -> str:
        return str(self.args[0])


class RuleError(Refusal):
    """Something the rules of the game do not allow."""

    kind = "rule"


class BadTile(RuleError):
    """Text that does not name a tile of the double-six set."""

    kind = "not_a_tile"


class SetupError(RuleError):
    """Players, partnerships, target or hand size that the rules do not allow."""

    kind = "bad_setup"


class IllegalMove(RuleError):
    """A tile, draw or pass that the table cannot make now."""

    kind = "illegal_move"


class IllegalStart(RuleError):
    """A starter who cannot lead this hand, or a hand that needs one."""

    kind = "illegal_start"


class ImpossibleHand(RuleError):
    """Tiles or pips left in a hand that cannot be true."""

    kind = "impossible_hand"


class HandNotOver(RuleError):
    """Pips entered while the hand is still being played."""

    kind = "hand_not_over"


class HandOver(RuleError):
    """A move after the hand ended, before the pips left in hands are entered."""

    kind = "hand_over"


class MatchOver(RuleError):
    """Anything but undo after a side has reached the target."""

    kind = "match_over"


class NothingToUndo(RuleError):
    """Undo on a match with no entries."""

    kind = "nothing_to_undo"
