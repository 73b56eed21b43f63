"""`scorekeeper move-store --from STORE --to STORE`: every match and league copied from one
store to another (a pub laptop's SQLite file to a club's PostgreSQL, or back), checked on
both sides before it is committed. It needs no app: it opens the two stores it is given.
What it prints and refuses is worded in the language of LANG (console.py)."""

import contextlib
import sys

import click

from ..rules.words import N_
from ..storage import Moved, MoveFailed, StorageRefused, describe, move_store
from ..storage.connection import named_store
from ..storage.transfer.move import quiet
from ..storage.transfer.tables import named
from .console import catalogue, number, phrase_worded, phrased, worded
from .told import summary_json


@click.command("move-store", help=N_(
    "Copy every match with its whole log, and every league with its teams, fixtures, cards "
    "and corrections, from one store to another (SQLite or PostgreSQL), with the same links. "
    "The copy is checked before it is committed: every table read back, every match rebuilt "
    "on both sides. Stop the app on both stores first."),
    short_help=N_("copy every match and league into another store"))
@click.option("--from", "source", required=True, metavar=N_("STORE"),
              help=N_("the store to copy: a SQLite file (its path, or sqlite:///path) or a "
                      "postgresql:// URL; it is only read"))
@click.option("--to", "target", required=True, metavar=N_("STORE"),
              help=N_("the store to copy into: an empty database or a new SQLite file"))
@click.option("--add", is_flag=True,
              help=N_("add to a destination that already holds matches or leagues"))
def move(source: str, target: str, add: bool) -> None:
    words = catalogue()
    try:
        source, target = named_store(source), named_store(target)
        moved = move_store(source, target, add, told=summary_json,
                           progress=_progress(sys.stderr, words))
    except MoveFailed as error:
        raise click.ClickException(words.gettext(
            "move failed, the destination was left as it was: %(why)s") % {
                "why": worded(error, words)}) from None
    except StorageRefused as error:
        raise click.ClickException(words.gettext(
            "move refused, nothing was written: %(why)s") % {
                "why": worded(error, words)}) from None
    for line in _report(moved, describe(source), describe(target), words):
        click.echo(line)


def _report(moved: Moved, source: str, target: str, words):
    """What was copied and checked: a line for each table, then the check."""
    yield words.gettext("Moved %(source)s to %(destination)s.") % {
        "source": source, "destination": target}
    names = {table: phrase_worded(named(table), words)
             for table in [*moved.tables, *moved.not_copied]}
    width = max(map(len, names.values()))
    digits = max(len(number(rows, words)) for rows in moved.tables.values())
    for table, rows in moved.tables.items():
        counted = words.ngettext("%(num)s row", "%(num)s rows", rows) % {
            "num": f"{number(rows, words):>{digits}}"}
        yield f"  {names[table]:<{width}}  {counted}"
    for table, why in moved.not_copied.items():
        yield f"  {names[table]:<{width}}  " + words.gettext("not copied: %(why)s") % {
            "why": words.gettext(why)}
    if moved.renumbered:
        yield words.gettext("Numbered after what the destination held: %(moves)s (the links "
                            "stay the same).") % {"moves": ", ".join(
                                f"{column} +{number(by, words)}"
                                for column, by in moved.renumbered.items())}
    yield words.ngettext(
        "Checked: every table read back the same, and %(num)s match rebuilt on both sides "
        "with the same revision, scores, record and replay.",
        "Checked: every table read back the same, and %(num)s matches rebuilt on both sides "
        "with the same revision, scores, record and replay.", moved.matches) % {
            "num": number(moved.matches, words)}


def _progress(shown_on, words):
    """A progress bar with counts and an estimate on a terminal, labelled in the reader's
    language; nothing otherwise."""
    if not shown_on.isatty():
        return quiet

    @contextlib.contextmanager
    def bar(label: str, total: int, **values):
        said = words.gettext(label) % phrased(values, words) if values else words.gettext(label)
        with click.progressbar(length=total, label=f"{said:<24}", file=shown_on,
                               show_pos=True, show_eta=True) as progress:
            yield progress.update

    return bar
