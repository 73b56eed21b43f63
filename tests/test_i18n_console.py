"""The console speaks the language of LANG (LC_ALL, LC_MESSAGES first): what `serve`
prints when it starts, what `backup`, `prune`, `league-import` and `move-store` say and
refuse (a move's progress and the difference that stops it too), and a store the app
cannot use, each from the app's own catalogues (commands/console.py)."""

import io
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner
from season import small_store

from scorekeeper.commands import command
from scorekeeper.commands.console import catalogue, worded
from scorekeeper.commands.move import _progress, _report
from scorekeeper.rules import Table
from scorekeeper.rules.errors import SetupError
from scorekeeper.server.serve import where_to_go
from scorekeeper.storage import Moved, MoveFailed, move_store
from scorekeeper.storage.transfer import tables
from scorekeeper.storage.transfer.match_check import NOT_THE_SAME
from scorekeeper.storage.transfer.table_check import difference


def words(lang: str):
    return catalogue({"LANG": f"{lang}.UTF-8"})


def test_the_server_says_where_to_go_in_english_as_before():
    assert where_to_go("192.0.2.7", 8080, 3) == [
        "All Fives scorekeeper is running. On the phones at the table, open:",
        "    http://192.0.2.7:8080",
        "3 worker processes. Stop it with Ctrl+C."]
    assert where_to_go("127.0.0.1", 8080, 1)[-1] == "1 worker process. Stop it with Ctrl+C."


def test_a_server_on_one_lan_address_does_not_offer_the_loopback_one():
    """127.0.0.1 answers only when the server listens on every address."""
    said = where_to_go("192.0.2.7", 8080, 3)
    assert not any("127.0.0.1" in line for line in said)
    assert any("http://127.0.0.1:8080" in line for line in where_to_go("0.0.0.0", 8080, 3))


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1"])
def test_a_server_bound_to_loopback_says_the_phones_cannot_reach_it_and_how_to_change_that(host):
    said = where_to_go(host, 8080, 1)
    assert said[0] == ("All Fives scorekeeper is running for this machine only; the phones at "
                       "the table cannot reach it. On this machine, open:")
    assert said[1] == ("    http://[::1]:8080" if host == "::1" else f"    http://{host}:8080")
    assert "--host 0.0.0.0" in said[2] and "docs/DEPLOY.md" in said[2]
    assert not any("On the phones at the table, open" in line for line in said)


@pytest.mark.parametrize(("lang", "cannot"), [
    ("cs_CZ", "telefony u stolu se k němu nedostanou"),
    ("el_GR", "τα κινητά του τραπεζιού δεν μπορούν να συνδεθούν"),
    ("hu_HU", "az asztalnál lévő telefonok nem érik el"),
])
def test_the_loopback_warning_is_in_the_language_of_lang(lang, cannot):
    said = where_to_go("127.0.0.1", 8080, 1, words(lang))
    assert cannot in said[0]
    assert "--host 0.0.0.0" in said[2] and "For the phones" not in said[2]


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
    assert "http://127.0.0.1:8080" in where_to_go("0.0.0.0", 8080, 3, words(lang))[-2]
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


@pytest.mark.parametrize(("lang", "done", "refused"), [
    ("el_GR", "Ο έλεγχος ολοκληρώθηκε: κάθε πίνακας διαβάστηκε ξανά ίδιος, και 4 αγώνες "
              "ξαναχτίστηκαν", "Error: η μεταφορά απορρίφθηκε, δεν γράφτηκε τίποτα: ο "
                               "προορισμός έχει ήδη δεδομένα (αγώνες: 4, κινήσεις: "),
    ("cs_CZ", "Zkontrolováno: každá tabulka se načetla zpět stejná a 4 zápasy byly na obou "
              "stranách znovu sestaveny", "Error: přesun odmítnut, nic nebylo zapsáno: cíl už "
                                          "obsahuje data (zápasy: 4, tahy: "),
    ("hu_HU", "Ellenőrizve: minden tábla ugyanúgy olvasható vissza, és 4 mérkőzés mindkét "
              "oldalon újraépítve", "Error: az áthelyezés elutasítva, semmi sem íródott: a "
                                    "cél már tartalmaz adatokat (mérkőzések: 4, lépések: "),
])
def test_move_store_says_what_it_moved_and_refuses_in_the_language_of_lang(
        monkeypatch, tmp_path, lang, done, refused):
    monkeypatch.setenv("LANG", f"{lang}.UTF-8")
    source, target = str(tmp_path / "pub.sqlite"), str(tmp_path / "club.sqlite")
    small_store(source)
    moved = CliRunner().invoke(command("move-store"), ["--from", source, "--to", target])
    assert moved.exit_code == 0, moved.output
    lines = moved.output.splitlines()
    assert lines[-1].startswith(done)
    boards = words(lang).pgettext("stored table", "boards")
    said = next(line for line in lines[1:-1] if line.startswith(f"  {boards}  "))
    assert said.split("  ")[-1] == words(lang).gettext("not copied: %(why)s") % {
        "why": words(lang).gettext(tables.NOT_MOVED["boards"])}
    again = CliRunner().invoke(command("move-store"), ["--from", source, "--to", target])
    assert again.exit_code == 1 and again.output.startswith(refused)


@pytest.mark.parametrize(("lang", "rows", "matches"), [
    ("C", "entries  18,597,357 rows", "and 100,000 matches rebuilt"),
    ("cs_CZ", "tahy    18\xa0597\xa0357 řádků", "a 100\xa0000 zápasů bylo"),
    ("el_GR", "κινήσεις  18.597.357 γραμμές", "και 100.000 αγώνες ξαναχτίστηκαν"),
    ("hu_HU", "lépések     18\xa0597\xa0357 sor", "és 100\xa0000 mérkőzés"),
])
def test_a_moves_counts_are_written_as_the_language_writes_numbers(lang, rows, matches):
    moved = Moved({"matches": 100_000, "entries": 18_597_357}, 100_000, {}, {})
    lines = list(_report(moved, "pub.sqlite", "club.sqlite", words(lang)))
    assert f"  {rows}" in lines and matches in lines[-1]
    assert lines[1].rindex(" ") == lines[2].rindex(" ")  # the counts right-aligned


def test_a_moves_progress_is_labelled_in_the_language_of_lang(tmp_path):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    source, shown_on = str(tmp_path / "pub.sqlite"), Terminal()
    small_store(source)
    move_store(source, str(tmp_path / "club.sqlite"), progress=_progress(shown_on,
                                                                      words("cs_CZ")))
    for label in ("Kopírování: tahy", "Kontrola: tahy", "Kontrola všech zápasů"):
        assert label in shown_on.getvalue()


@pytest.mark.parametrize(("lang", "said"), [
    ("C", "match qDKSStP6: not the same scores: [5, 10] in the source, [5, 15] in the "
          "destination"),
    ("cs_CZ", "zápas qDKSStP6: liší se stav: [5, 10] ve zdroji, [5, 15] v cíli"),
    ("hu_HU", "qDKSStP6 mérkőzés: nem ugyanaz az állás: a forrásban [5, 10], a célban "
              "[5, 15]"),
])
def test_the_difference_that_stops_a_move_is_worded_inside_its_sentence(lang, said):
    """The difference is a sentence of its own (a Phrase) in the failure's: both worded."""
    failure = MoveFailed.worded(NOT_THE_SAME["scores"], "match_differs", match="qDKSStP6",
                                difference=difference([5, 10], [5, 15]))
    assert worded(failure, words(lang)) == said
    long = difference("x" * 70 + "a", "x" * 70 + "b")
    assert worded(MoveFailed.worded(NOT_THE_SAME["record"], "match_differs", match="m",
                                    difference=long), words("el_GR")) == (
        "αγώνας m: δεν είναι ίδιο το αρχείο αγώνα: από τον χαρακτήρα 70: 'a' στην πηγή, 'b' "
        "στον προορισμό")
