"""The console speaks the language of LANG (LC_ALL, LC_MESSAGES first): what `serve`
prints when it starts, what `backup`, `prune` and `league-import` say and refuse, and a
store the app cannot use, each from the app's own catalogues (commands/console.py)."""

import os
import subprocess
import sys

import pytest

from scorekeeper.commands.console import catalogue, worded
from scorekeeper.rules import Table
from scorekeeper.rules.errors import SetupError
from scorekeeper.server.serve import where_to_go


def words(lang: str):
    return catalogue({"LANG": f"{lang}.UTF-8"})


def test_the_server_says_where_to_go_in_english_as_before():
    assert where_to_go("192.0.2.7", 8080, 3) == [
        "All Fives scorekeeper is running. On the phones at the table, open:",
        "    http://192.0.2.7:8080",
        "(On this machine itself: http://127.0.0.1:8080)",
        "3 worker processes. Stop it with Ctrl+C."]
    assert where_to_go("127.0.0.1", 8080, 1)[-1] == "1 worker process. Stop it with Ctrl+C."


@pytest.mark.parametrize(("lang", "first", "one", "three", "five"), [
    ("cs_CZ", "Počítání bodů pro Všechny pětky běží. Na telefonech u stolu otevřete:",
     "1 pracovní proces.", "3 pracovní procesy.", "5 pracovních procesů."),
    ("el_GR", "Ο μετρητής πόντων για τα Όλα τα πεντάρια τρέχει. Στα κινητά του τραπεζιού, "
              "άνοιξε:", "1 διεργασία εξυπηρέτησης.", "3 διεργασίες εξυπηρέτησης.",
     "5 διεργασίες εξυπηρέτησης."),
    ("hu_HU", "Az Ötös szorzók pontszámláló fut. Az asztalnál lévő telefonokon nyisd meg:",
     "1 munkafolyamat.", "3 munkafolyamat.", "5 munkafolyamat."),
])
def test_the_server_says_where_to_go_in_the_language_of_lang(lang, first, one, three, five):
    said = {count: where_to_go("192.0.2.7", 8080, count, words(lang)) for count in (1, 3, 5)}
    assert said[3][:2] == [first, "    http://192.0.2.7:8080"]
    assert "http://127.0.0.1:8080" in said[3][2]
    for count, start in ((1, one), (3, three), (5, five)):
        assert said[count][-1].startswith(start)


def test_a_refusal_of_the_rules_is_worded_for_the_console_with_its_plural():
    with pytest.raises(SetupError) as refused:
        Table.create(["Ann", "Bob"], hand_size=15)
    assert worded(refused.value, words("cs_CZ")).startswith(
        "2 hráči × 15 kamenů: to se do sady 28 kamenů nevejde")
    assert worded(refused.value, words("C")) == str(refused.value)


@pytest.mark.parametrize(("lang", "said"), [
    ("C", "Deleted 0 matches not played for 90 days."),
    ("cs_CZ", "Smazáno 0 zápasů bez hry déle než 90 dní."),
    ("el_GR", "Διαγράφηκαν 0 αγώνες χωρίς κίνηση εδώ και 90 ημέρες."),
    ("hu_HU", "0 mérkőzés törölve (90 napnál régebben játszva)."),
])
def test_prune_says_what_it_deleted_in_the_language_of_lang(runner, monkeypatch, lang, said):
    monkeypatch.setenv("LANG", f"{lang}.UTF-8")
    assert runner.invoke(args=["prune", "--older-than", "90d"]).output.strip() == said


def test_one_match_and_one_day_are_said_in_the_singular(runner, monkeypatch):
    monkeypatch.setenv("LANG", "cs_CZ.UTF-8")
    assert runner.invoke(args=["prune", "--older-than", "1d"]).output.strip() == (
        "Smazáno 0 zápasů bez hry déle než 1 den.")


def test_backup_refuses_in_the_language_of_lang(runner, monkeypatch, tmp_path):
    target = tmp_path / "taken.sqlite"
    target.write_text("")
    monkeypatch.setenv("LANG", "el_GR.UTF-8")
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code != 0
    assert f"το {target} υπάρχει ήδη: διάλεξε νέο όνομα αρχείου" in result.output


def test_a_store_the_app_cannot_use_is_refused_in_the_language_of_lang(tmp_path):
    environ = {name: value for name, value in os.environ.items()
               if name not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--port", "0"],
        env=environ | {"LANG": "hu_HU.UTF-8", "PYTHONIOENCODING": "utf-8",
                       "SCOREKEEPER_DATABASE_URL": "mysql://somewhere/else"},
        capture_output=True, text=True, encoding="utf-8", timeout=60, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == ("scorekeeper: nem indult el: a DATABASE_URL postgresql:// címet "
                           "vár; SQLite-fájlt a SCOREKEEPER_DATABASE változóval lehet "
                           "megadni\n")
