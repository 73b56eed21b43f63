"""The command line speaks the reader's language in everything it prints: `--help` of the
tool and of every command, click's own words (Usage, Error, a missing option), a file it
cannot read, a record that is not JSON, `replay --move` used wrongly and the tables
`move-store` names (commands/spoken.py, commands/console.py)."""

import gettext
import json
import re
from pathlib import Path

import click
import pytest
from babel.messages.pofile import read_po
from test_i18n_catalogues import LANGUAGES, TRANSLATIONS

from scorekeeper.cli import main
from scorekeeper.commands import COMMANDS
from scorekeeper.commands.spoken import CLICK_WORDS, USAGE_WORDS
from scorekeeper.storage.transfer.tables import TABLE_NAMES, schema_tables

LOCALES = {"el": "el_GR.UTF-8", "cs": "cs_CZ.UTF-8", "hu": "hu_HU.UTF-8"}
NOT_WORDS = r"--[\w-]+|\b(?:scorekeeper|allfives-match|Muggins|SQLite|PostgreSQL|postgresql|" \
            r"sqlite|Granian|JSON|json|instance|season|Linux|DAYSd|H\.M|PORT|port|" \
            + "|".join(COMMANDS) + r")\b"
"""What the help says in every language: option and command names, products, formats, and
PORT (a port is a port in Czech and Hungarian)."""


@pytest.fixture
def said(monkeypatch, capsys):
    """Runs the command line as the console script does, with LANG set to a language;
    what it printed (both streams). Click's words are unbound again afterwards."""
    bound = gettext.bindtextdomain("messages")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)

    def run(lang: str, *args: str) -> str:
        monkeypatch.setenv("LANG", LOCALES.get(lang, "C"))
        main(list(args))
        printed = capsys.readouterr()
        return printed.out + printed.err

    yield run
    gettext.bindtextdomain("messages", bound)


def english_words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]{3,}", re.sub(NOT_WORDS, " ", text)))


@pytest.mark.parametrize("name", ["", *COMMANDS])
def test_every_help_speaks_the_language_of_lang(said, name):
    english = english_words(said("C", *filter(None, [name]), "--help"))
    assert "Usage" in english  # the check can fail
    for lang in LANGUAGES:
        shown = said(lang, *filter(None, [name]), "--help")
        assert english_words(shown) & english == set(), (lang, shown)


@pytest.mark.parametrize(("lang", "args", "shown"), [
    ("el", ["replay", "missing.json"],
     "δεν διαβάζεται το missing.json: Δεν υπάρχει τέτοιο αρχείο ή φάκελος\n"),
    ("cs", ["replay", "missing.json"],
     "nelze načíst missing.json: Soubor nebo složka neexistuje\n"),
    ("hu", ["replay", "missing.json"],
     "nem olvasható: missing.json: Nincs ilyen fájl vagy mappa\n"),
    ("el", ["replay", "--move", "x", "r.json"],
     "Σφάλμα: Λάθος τιμή για το '--move': 'x': γράψε τον γύρο και την κίνηση, π.χ. 3.7\n"),
    ("cs", ["replay", "--json", "--move", "1.1", "r.json"],
     "Chyba: --move vypisuje pozici slovy: vynechte --json\n"),
    ("hu", ["move-store", "--to", "x.sqlite"], "Hiba: Hiányzó kapcsoló: '--from'.\n"),
    ("cs", ["league-import", "missing.json"],
     "Chyba: nelze načíst missing.json: Soubor nebo složka neexistuje\n"),
])
def test_a_command_refuses_in_the_language_of_lang(said, tmp_path, monkeypatch, lang, args,
                                                    shown):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.json").write_text("{}")
    assert said(lang, *args).endswith(shown)


@pytest.mark.parametrize(("lang", "shown"), [
    ("C", "not JSON: Expecting property name enclosed in double quotes: line 1 column 2 "
          "(char 1)\n"),
    ("el", "δεν είναι JSON: εδώ θέλει όνομα πεδίου σε διπλά εισαγωγικά: γραμμή 1, στήλη 2 "
           "(χαρακτήρας 1)\n"),
    ("cs", "není JSON: čeká se název pole ve dvojitých uvozovkách: řádek 1, sloupec 2 "
           "(znak 1)\n"),
    ("hu", "nem JSON: idézőjelek közötti mezőnév kellene: sor: 1, oszlop: 2 (karakter: 1)\n"),
])
def test_a_record_that_is_not_json_is_said_in_the_language_of_lang(said, tmp_path, lang,
                                                                     shown):
    record = tmp_path / "broken.json"
    record.write_text("{nope")
    assert said(lang, "replay", str(record)) == shown


def test_click_still_says_each_message_the_catalogue_translates():
    """CLICK_WORDS are click's own ids: a click that words one otherwise fails here."""
    source = "\n".join(path.read_text(encoding="utf-8")
                       for path in Path(click.__file__).parent.glob("*.py"))
    assert [said for said in CLICK_WORDS if json.dumps(said) not in source
            and repr(said) not in source] == []
    defaults = click.Group("g")
    assert {attribute: getattr(defaults, attribute) for attribute in USAGE_WORDS} == USAGE_WORDS


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_brace_placeholder_is_one_of_its_messages_own(lang):
    """Click fills in {message} with str.format: a name its msgid lacks would fail there."""
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as file:
        catalog = read_po(file, locale=lang)
    braces = re.compile(r"\{(\w+)[^}]*\}")
    wrong = [(message.id, message.string) for message in catalog
             if "python-brace-format" in message.flags
             and not set(braces.findall(message.string)) <= set(braces.findall(message.id))]
    assert wrong == []


def test_every_stored_table_has_its_name_in_the_catalogue():
    """move-store names each table it copies in the reader's words: a new table needs its."""
    assert set(schema_tables()) <= set(TABLE_NAMES)
