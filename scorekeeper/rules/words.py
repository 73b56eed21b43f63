"""How the rules mark their words for the catalogue, and word them in English by default.

The rules print nothing and know no language: a sentence is a catalogue id, marked
here for pybabel, and whoever shows it words it with the reader's catalogue through a
`say(message, counted=None, **values)` of its own (the web's gettext, the console's).
A message is one of three kinds:

- a plain id, marked with `N_`;
- a pair from `Np_` (singular, plural), worded by the number `counted` names;
- an id whose English word has more than one meaning, marked with `pgettext(context,
  message)` so that each meaning is translated on its own (an `InContext` string);
- a pair whose English shows a bare number ("→ 15 to Ann") marked with `npgettext(context,
  singular, plural)`: the context says what the number counts, so that the languages that
  name it ("15 πόντοι", "15 bodů") give it the form the number takes.

A value of a message may itself be a sentence (`Phrase`): the reader's side words it too.
"""


def N_(message: str) -> str:
    """Marks a message for the translation catalogue (pybabel -k N_); returns it as it is."""
    return message


def Np_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a singular and plural pair for the catalogue (pybabel -k Np_:1,2): a message
    whose words depend on a number; it is worded with the number `counted` names."""
    return singular, plural


class InContext(str):
    """A catalogue id that means one thing of several its English could mean: the text, as
    English shows it, and the `context` that keeps its translations apart."""

    context: str

    def __new__(cls, context: str, message: str) -> "InContext":
        text = super().__new__(cls, message)
        text.context = context
        return text


def pgettext(context: str, message: str) -> InContext:
    """Marks a message with its context (pybabel reads `pgettext` by default); returns the
    message as it is, carrying the context. It translates nothing: the reader's side does."""
    return InContext(context, message)


class PluralInContext(tuple):
    """A pair (singular, plural) from `npgettext`, carrying its `context`."""

    context: str


def npgettext(context: str, singular: str, plural: str) -> PluralInContext:
    """Marks a pair with its context (pybabel reads `npgettext` by default); as `Np_`, it is
    worded with the number `counted` names."""
    pair = PluralInContext((singular, plural))
    pair.context = context
    return pair


def english(message: str | tuple[str, str], counted: str | None = None, **values) -> str:
    """The default `say`: the English message (for a pair, the form its number takes) with
    its values filled in."""
    if isinstance(message, tuple):
        singular, plural = message
        message = singular if values[counted] == 1 else plural
    return message % values if values else str(message)


class Phrase(str):
    """A sentence that is a value of another message ("3 in the source, 5 in the
    destination"): its English text, carrying the catalogue id and the values it was made
    of, so that whoever words the outer message words this one in the same language."""

    template: str
    values: dict

    def __new__(cls, template: str, **values) -> "Phrase":
        text = super().__new__(cls, english(template, **values))
        text.template, text.values = template, values
        return text
