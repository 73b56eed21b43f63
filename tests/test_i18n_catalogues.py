"""The Greek, Czech and Hungarian catalogues: complete, in step with the code, with the
plural forms each language needs (the glossary's words: test_i18n_glossary.py).

When one of these fails after you add or change a message, follow README.md,
"Translations": extract, update, translate, compile.
"""

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from scorekeeper.commands.console import catalogue
from scorekeeper.web.answers.language import LANGUAGES as MENU

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
LANGUAGES = tuple(code for code in MENU if code != "en")
"""Every language the menu offers but English, the code's own: a language added there (one
line) is checked by every i18n test the day it is added."""
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "_l": None, "N_": None,
            "Np_": (1, 2), "say": None, "pgettext": ((1, "c"), 2),
            "npgettext": ((1, "c"), 2, 3)}
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
HOW_TO = "run the commands of README.md, Translations"


def read_catalogue(lang: str):
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as file:
        return read_po(file, locale=lang)


def messages(catalog) -> dict:
    """(context, message id (a pair for a plural)) -> message; a compiled catalogue lists
    plurals."""
    return {(message.context,
             tuple(message.id) if isinstance(message.id, list | tuple) else message.id): message
            for message in catalog if message.id}


def forms(message) -> tuple:
    string = message.string
    return tuple(string) if isinstance(string, list | tuple) else (string,)


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def code_messages() -> set:
    """Every message the code marks for translation, read as pybabel extract reads it."""
    found = set()
    mapping = [("scorekeeper/**.py", "python"), ("templates/**.html", "jinja2")]
    for _file, _line, message, _comments, context in extract_from_dir(
            str(ROOT), mapping, keywords=KEYWORDS):
        found.add((context, message if isinstance(message, str) else tuple(message[:2])))
    return found


@pytest.fixture(scope="module")
def template():
    with open(TRANSLATIONS / "messages.pot", "rb") as file:
        return messages(read_po(file))


@pytest.fixture(scope="module", params=LANGUAGES)
def translated(request):
    return request.param, read_catalogue(request.param)


def test_the_catalogue_template_lists_exactly_the_messages_of_the_code(template):
    in_code = code_messages()
    assert not in_code - set(template), f"messages not extracted yet: {HOW_TO}"
    assert not set(template) - in_code, f"messages the code no longer has: {HOW_TO}"


def test_every_message_has_a_translation_and_none_is_fuzzy(template, translated):
    lang, catalog = translated
    found = messages(catalog)
    missing = [msgid for msgid in template if msgid not in found
               or not all(form.strip() for form in forms(found[msgid]))]
    fuzzy = [msgid for msgid, message in found.items() if message.fuzzy]
    assert not missing, f"{lang}: untranslated ({HOW_TO}): {missing}"
    assert not fuzzy, f"{lang}: fuzzy (check the translation, then drop the flag): {fuzzy}"
    assert not set(found) - set(template), f"{lang}: messages no longer used: {HOW_TO}"


def test_every_translation_keeps_the_placeholders_of_its_message(translated):
    lang, catalog = translated
    for (_context, msgid), message in messages(catalog).items():
        singular, plural = (msgid, msgid[1]) if isinstance(msgid, tuple) else (msgid, msgid)
        singular = singular[0] if isinstance(singular, tuple) else singular
        for number, form in enumerate(forms(message)):
            expected = placeholders(plural if number else singular)
            if number == 0 and isinstance(msgid, tuple):  # "a tile" may say its number
                expected = placeholders(singular) | ({"num"} & placeholders(form))
            assert placeholders(form) == expected, (lang, msgid, form)
            form % dict.fromkeys(expected, 1)  # no stray % sign


def test_the_plural_forms_are_those_of_each_language():
    assert read_catalogue("cs").num_plurals == 3  # 1 kámen, 2–4 kameny, 5+ kamenů
    assert read_catalogue("el").num_plurals == 2
    assert read_catalogue("hu").num_plurals == 2


@pytest.mark.parametrize("lang, expected", [
    ("cs", ["1 kámen", "2 kameny", "4 kameny", "5 kamenů", "22 kamenů"]),
    ("el", ["1 πλακίδιο", "2 πλακίδια", "4 πλακίδια", "5 πλακίδια", "22 πλακίδια"]),
    ("hu", ["1 kő", "2 kő", "4 kő", "5 kő", "22 kő"]),
])
def test_a_number_of_tiles_is_worded_as_the_language_says_it(lang, expected):
    words = catalogue({"LANG": f"{lang}.UTF-8"})
    said = [words.ngettext("%(num)s tile", "%(num)s tiles", n) % {"num": n}
            for n in (1, 2, 4, 5, 22)]
    assert said == expected


def test_the_compiled_catalogues_are_those_of_the_po_files(translated):
    lang, catalog = translated
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo", "rb") as file:
        compiled = messages(read_mo(file))
    written = {msgid: forms(message) for msgid, message in messages(catalog).items()}
    assert {msgid: forms(message) for msgid, message in compiled.items()} == written, (
        f"{lang}: messages.mo is older than messages.po: "
        "pybabel compile -d scorekeeper/translations")


@pytest.mark.parametrize("lang, name", [("el", "Όλα τα πεντάρια"), ("cs", "Všechny pětky"),
                                        ("hu", "Ötös szorzók")])
def test_the_game_has_its_own_name_in_each_language(lang, name):
    assert messages(read_catalogue(lang))[None, "All Fives"].string == name


def test_every_language_of_the_menu_has_a_catalogue_and_every_catalogue_is_in_the_menu():
    """A new language is its catalogue and its line in web/answers/language.py: nothing
    else lists the languages (docs/TRANSLATING.md)."""
    found = sorted(path.parent.parent.name
                   for path in TRANSLATIONS.glob("*/LC_MESSAGES/messages.po"))
    assert found == sorted(LANGUAGES)
