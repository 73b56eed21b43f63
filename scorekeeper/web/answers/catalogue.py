"""The reader's words and numbers: gettext over this request's catalogue, found once.

Flask-Babel looks the catalogue up again for every word (about 8 µs: the locale,
its name, the cache), and a table screen says dozens of words on every tap. The
locale is Flask-Babel's (`language.select_locale`, once per request); this module
only remembers what it found, for as long as Flask-Babel remembers the locale.
"""

import functools

from babel.numbers import format_decimal
from babel.support import Translations
from flask import g
from flask_babel import get_locale, get_translations
from jinja2 import pass_eval_context
from markupsafe import Markup
from wtforms.i18n import messages_path

from ...rules.words import InContext, Phrase, PluralInContext


def catalogue():
    """This request's translations (a null catalogue outside a request)."""
    try:
        return g.catalogue
    except AttributeError:  # the request's first word
        g.catalogue = found = get_translations()
        return found
    except RuntimeError:  # outside an app context: Flask-Babel's own answer
        return get_translations()


def gettext(string: str, **variables) -> str:
    """Flask-Babel's gettext: the translated template, filled in with `variables`; a message
    the rules marked (rules/words.py) is worded as `say` words it, so that gettext can be
    the rules' `say` too."""
    if string.__class__ is not str:
        return say(string, **variables)
    text = catalogue().ugettext(string)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables) -> str:
    """Flask-Babel's ngettext: the plural form `num` takes; `%(num)s` is the number."""
    variables.setdefault("num", num)
    return catalogue().ungettext(singular, plural, num) % variables


def pgettext(context: str, string: str, **variables) -> str:
    """Flask-Babel's pgettext: the meaning of an ambiguous English word that `context`
    names ("Home": the home page, or the home team)."""
    text = catalogue().upgettext(context, string)
    return text % variables if variables else text


def npgettext(context: str, singular: str, plural: str, num: int, **variables) -> str:
    variables.setdefault("num", num)
    return catalogue().unpgettext(context, singular, plural, num) % variables


def say(message, counted: str | None = None, **variables) -> str:
    """The rules' `say` (rules/words.py) in the reader's words: a plain or contexted id by
    gettext, a pair from `Np_` or `npgettext` by the form the number `counted` takes."""
    if message.__class__ is PluralInContext:
        return npgettext(message.context, *message, variables[counted], **variables)
    if isinstance(message, tuple):
        return ngettext(*message, variables[counted], **variables)
    if message.__class__ is InContext:
        return pgettext(message.context, message, **variables)
    text = catalogue().ugettext(message)
    return text % variables if variables else text


def phrased(values: dict) -> dict:
    """A message's values, each that is a sentence of its own (`Phrase`: why a record is not
    JSON) worded in the reader's language too."""
    return {name: say(value.template, **phrased(value.values)) if isinstance(value, Phrase)
            else value for name, value in values.items()}


def format_number(value: int) -> str:
    """Flask-Babel's format_number (`1,234`, `1 234`), remembered per locale and value."""
    return _formatted(value, locale_name())


@functools.lru_cache(maxsize=4096)
def _formatted(value: int, locale: str) -> str:
    return format_decimal(value, locale=locale)


def format_tenths(value: float) -> str:
    """A figure to one decimal place as the reader writes it: `2.5`, `2,5`."""
    return _tenths(value, locale_name())


@functools.lru_cache(maxsize=4096)
def _tenths(value: float, locale: str) -> str:
    return format_decimal(value, format="#,##0.0", locale=locale)


def locale_name() -> str:
    """The reader's locale as text (`el`), found once per request."""
    try:
        return g.locale_name
    except AttributeError:
        g.locale_name = name = str(get_locale())
        return name


def wtforms_catalogue():
    """WTForms' own messages ("Not a valid integer value.") in the reader's language.

    Flask-WTF reads them from disk again on every request that builds a form.
    """
    return _wtforms_catalogue(locale_name())


@functools.lru_cache(maxsize=16)
def _wtforms_catalogue(locale: str):
    return Translations.load(messages_path(), [locale], domain="wtforms")


@pass_eval_context
def _template_gettext(eval_ctx, string: str, **variables) -> str:
    """Jinja's new-style gettext in one call (its `_` is an alias calling `gettext`): the
    template is markup, the variables are escaped into it."""
    text = (catalogue().upgettext(string.context, string) if string.__class__ is InContext
            else catalogue().ugettext(string))
    return (Markup(text) if eval_ctx.autoescape else text) % variables


@pass_eval_context
def _template_ngettext(eval_ctx, singular: str, plural: str, num: int, **variables) -> str:
    variables.setdefault("num", num)
    text = catalogue().ungettext(singular, plural, num)
    return (Markup(text) if eval_ctx.autoescape else text) % variables


@pass_eval_context
def _template_pgettext(eval_ctx, context: str, string: str, **variables) -> str:
    text = catalogue().upgettext(context, string)
    return (Markup(text) if eval_ctx.autoescape else text) % variables


@pass_eval_context
def _template_npgettext(eval_ctx, context: str, singular: str, plural: str, num: int,
                        **variables) -> str:
    variables.setdefault("num", num)
    text = catalogue().unpgettext(context, singular, plural, num)
    return (Markup(text) if eval_ctx.autoescape else text) % variables


def install(app) -> None:
    """Templates' `_`, `gettext`, `ngettext`, `pgettext`, `npgettext`, `numberformat` and
    `tenths` go through the catalogue."""
    app.jinja_env.newstyle_gettext = True
    app.jinja_env.globals.update(_=_template_gettext, gettext=_template_gettext,
                                 ngettext=_template_ngettext, pgettext=_template_pgettext,
                                 npgettext=_template_npgettext)
    app.jinja_env.filters["numberformat"] = format_number
    app.jinja_env.filters["tenths"] = format_tenths
