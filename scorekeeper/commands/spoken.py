"""`--help` and click's own messages ("Usage:", "Error:", "Missing option") in the
language the environment names (console.py).

A command's help, its options' help and its metavars are catalogue ids (`N_`), and so are
click's [OPTIONS] and COMMAND [ARGS]...: the command that runs is a copy with each worded.
Click words its own messages with the standard library's gettext in the default domain,
`messages`, the name of the app's own catalogues: bound to them, click speaks the reader's
language too. CLICK_WORDS lists the ids it uses that a person of this command line can
meet, so that they are extracted and translated (tests/test_i18n_command_line.py checks
that click still says each).
"""

import copy
import gettext

import click

from ..rules.words import N_
from .console import ENGLISH, TRANSLATIONS

CLICK_WORDS = (
    N_("Usage:"),
    N_("Options"),
    N_("Commands"),
    N_("Show this message and exit."),
    N_("Error: {message}"),
    N_("Try '{command} {option}' for help."),
    N_("Missing argument"),
    N_("Missing option"),
    N_("Missing command."),
    N_("Invalid value for {param_hint}: {message}"),
    N_("Invalid value: {message}"),
    N_("No such option {name!r}."),
    N_("No such command {name!r}."),
    N_("Did you mean {possibility}?"),
    N_("(Did you mean one of: {possibilities}?)"),
    N_("Got unexpected extra argument ({args})"),
    N_("Got unexpected extra arguments ({args})"),
    N_("Option {name!r} requires an argument."),
    N_("Option {name!r} does not take a value."),
    N_("{value!r} is not a valid {number_type}."),
    N_("default: {default}"),
    N_("required"),
    N_("file"),
    N_("{name} {filename!r} is a directory."),
    N_("{name} {filename!r} is not writable."),
)
"""Click's own messages that this command line can show (click 8.x's wording)."""
USAGE_WORDS = {
    "options_metavar": N_("[OPTIONS]"),
    "subcommand_metavar": N_("COMMAND [ARGS]..."),
}
"""The words click writes into a usage line, by the attribute that holds each."""


def speak(words: gettext.NullTranslations) -> None:
    """Click's own messages in the reader's language: the default gettext domain bound to
    the app's catalogues (left unbound for English, which is what click writes)."""
    if words is not ENGLISH:
        gettext.bindtextdomain("messages", TRANSLATIONS)


def spoken(command: click.Command, words: gettext.NullTranslations) -> click.Command:
    """A copy of `command` whose help, short help, options' help and metavars are worded."""
    told = copy.copy(command)
    # click keeps a command's --help option once made, worded then: the copy makes its own
    told._help_option = None
    for attribute in ("help", "short_help"):
        if getattr(command, attribute):
            setattr(told, attribute, words.gettext(getattr(command, attribute)))
    for attribute, english in USAGE_WORDS.items():
        if getattr(command, attribute, None) == english:
            setattr(told, attribute, words.gettext(english))
    told.params = [_spoken_parameter(parameter, words) for parameter in command.params]
    return told


def _spoken_parameter(parameter: click.Parameter, words) -> click.Parameter:
    told = copy.copy(parameter)
    if getattr(parameter, "help", None):
        told.help = words.gettext(parameter.help)
    if parameter.metavar:
        told.metavar = words.gettext(parameter.metavar)
    return told
