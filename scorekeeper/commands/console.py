"""The console's words: what the commands print and refuse, in the language the
environment names (LC_ALL, else LC_MESSAGES, else LANG), from the app's own catalogues.

Plain `gettext` of the standard library reads the compiled catalogues, so `replay` speaks
Czech without loading Flask; a language the app does not speak, or C, is English.
"""

import errno
import gettext
import os
import sys

from ..rules.errors import Refusal
from ..rules.match.record import IllegalRecord
from ..rules.words import N_, InContext, Phrase, PluralInContext

TRANSLATIONS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "translations")
ENGLISH = gettext.NullTranslations()
READ_REASONS = {
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EISDIR: N_("Is a directory"),
}
"""Why a file cannot be read, for the reasons a person meets, in the catalogue: the
system's own words (strerror) are English whatever the language."""


class CannotRead(Refusal):
    """A file named on the command line that cannot be read."""

    kind = "cannot_read"


def read_file(name: str, most: int = -1) -> bytes:
    """The bytes of the file `name` (`-`: standard input), no more than `most` of them, or
    CannotRead saying why."""
    try:
        if name == "-":
            return sys.stdin.buffer.read(most)
        with open(name, "rb") as file:
            return file.read(most)
    except OSError as error:
        why = Phrase(READ_REASONS.get(error.errno, error.strerror or str(error)))
        raise CannotRead.worded(N_("cannot read %(file)s: %(why)s"), "cannot_read",
                                file=name, why=why) from None


def catalogue(environ=os.environ) -> gettext.NullTranslations:
    """The compiled catalogue of the language the environment names, as gettext reads it:
    LC_ALL, else LC_MESSAGES, else LANG (and GNU's LANGUAGE list unless that is C)."""
    chosen = next((environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG")
                   if environ.get(name)), "C")
    if chosen.split(".")[0] in ("C", "POSIX"):
        return ENGLISH
    languages = [chosen]
    if environ.get("LANGUAGE"):
        languages = environ["LANGUAGE"].split(":") + languages
    return gettext.translation("messages", TRANSLATIONS, languages, fallback=True)


def sayer(words: gettext.NullTranslations):
    """A `say` (rules/words.py) in the reader's language: a plain or contexted catalogue id
    by gettext, a pair from `Np_` or `npgettext` by the form the number `counted` takes."""
    def say(message, counted: str | None = None, **values) -> str:
        if isinstance(message, PluralInContext):
            worded = words.npgettext(message.context, *message, values[counted])
        elif isinstance(message, tuple):
            worded = words.ngettext(*message, values[counted])
        elif isinstance(message, InContext):
            worded = words.pgettext(message.context, message)
        else:
            worded = words.gettext(message)
        return worded % values if values else worded
    return say


def plural(words: gettext.NullTranslations, singular: str, plural_form: str, num: int,
           **values) -> str:
    """ngettext of the reader's catalogue, filled in; `%(num)s` is the number."""
    return words.ngettext(singular, plural_form, num) % {"num": num, **values}


def worded(error: Exception, words: gettext.NullTranslations) -> str:
    """A refusal in the reader's language where the engine gave a catalogue template (a
    record's place and reason each worded, a number's words by ngettext); else its text."""
    if isinstance(error, IllegalRecord):
        place = words.gettext(error.place_template) % error.place_facts
        return words.gettext("%(place)s: %(reason)s") % {
            "place": place, "reason": worded(error.cause, words)}
    template = getattr(error, "template", None)
    if not template:
        return str(error)
    facts = phrased(error.facts, words)
    if getattr(error, "plural", None):
        if error.context:
            return words.npgettext(error.context, template, error.plural,
                                   error.number) % facts
        return words.ngettext(template, error.plural, error.number) % facts
    return sayer(words)(template, **facts)


def phrased(values: dict, words: gettext.NullTranslations) -> dict:
    """A message's values, each that is a sentence of its own (`Phrase`) worded too."""
    return {name: phrase_worded(value, words) if isinstance(value, Phrase) else value
            for name, value in values.items()}


def phrase_worded(phrase: Phrase, words: gettext.NullTranslations) -> str:
    """A `Phrase` (a table's name, a difference) in the reader's language."""
    return sayer(words)(phrase.template, **phrased(phrase.values, words))


def number(value: int, words: gettext.NullTranslations) -> str:
    """A count as the reader's language writes it: 18,597,357; 18 597 357; 18.597.357."""
    from babel.numbers import format_decimal  # here: `replay` starts without Babel's data

    return format_decimal(value, locale=words.info().get("language") or "en")
