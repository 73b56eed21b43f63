"""`scorekeeper move-store --from STORE --to STORE`: every match and league copied from one
store to another (a pub laptop's SQLite file to a club's PostgreSQL, or back), checked on
both sides before it is committed. It needs no app: it opens the two stores it is given."""

import contextlib

import click

from ..storage import Moved, MoveFailed, StorageRefused, describe, move_store
from ..storage.connection import named_store
from ..storage.transfer import quiet
from .told import summary_json


@click.command("move-store", short_help="copy every match and league into another store")
@click.option("--from", "source", required=True, metavar="STORE",
              help="the store to copy: a SQLite file (its path, or sqlite:///path) or a "
                   "postgresql:// URL; it is only read")
@click.option("--to", "target", required=True, metavar="STORE",
              help="the store to copy into: an empty database or a new SQLite file")
@click.option("--add", is_flag=True,
              help="add to a target that already holds matches or leagues")
def move(source: str, target: str, add: bool) -> None:
    """Copy every match with its whole log, and every league with its teams, fixtures, cards
    and corrections, from one store to another (SQLite or PostgreSQL), with the same links.
    The copy is checked before it is committed: every table read back, every match rebuilt
    on both sides. Stop the app on both stores first."""
    try:
        source, target = named_store(source), named_store(target)
        moved = move_store(source, target, add, told=summary_json,
                           progress=_progress(click.get_text_stream("stderr")))
    except MoveFailed as error:
        raise click.ClickException(f"move failed, the target was left as it was: "
                                   f"{error}") from None
    except StorageRefused as error:
        raise click.ClickException(f"move refused, nothing was written: {error}") from None
    for line in _report(moved, describe(source), describe(target)):
        click.echo(line)


def _report(moved: Moved, source: str, target: str):
    """What was copied and checked: a line for each table, then the check."""
    yield f"Moved {source} to {target}."
    width = max(len(table) for table in [*moved.tables, *moved.not_copied])
    digits = max(len(f"{rows:,}") for rows in moved.tables.values())
    for table, rows in moved.tables.items():
        yield f"  {table:<{width}}  {rows:>{digits},} row{'s' if rows != 1 else ''}"
    for table, why in moved.not_copied.items():
        yield f"  {table:<{width}}  not copied: {why}"
    if moved.renumbered:
        moves = ", ".join(f"{column} +{by:,}" for column, by in moved.renumbered.items())
        yield (f"Numbered after what the target held: {moves} (the links stay the same).")
    yield (f"Checked: every table read back the same, and {moved.matches:,} "
           f"match{'es' if moved.matches != 1 else ''} rebuilt on both sides with the same "
           f"revision, scores, record and replay.")


def _progress(shown_on):
    """A progress bar with counts and an estimate on a terminal; nothing otherwise."""
    if not shown_on.isatty():
        return quiet

    @contextlib.contextmanager
    def bar(label: str, total: int):
        with click.progressbar(length=total, label=f"{label:<24}", file=shown_on,
                               show_pos=True, show_eta=True) as progress:
            yield progress.update

    return bar
