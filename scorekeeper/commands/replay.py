"""`scorekeeper replay [--json | --move H.M] FILE...`: check match records and tell each match, as a
referee reads it out; pure rules, no app and no database."""

import os
import sys

import click

from ..rules import RuleError
from ..rules.match.record import UnreadableRecord
from ..rules.words import N_
from ..services import records
from .console import CannotRead, catalogue, read_file, worded
from .told import position_lines, summary_json, text_lines

ILLEGAL, UNREADABLE = 1, 2
"""Exit statuses: a record the rules refuse, a file that is not a readable record."""


@click.command("replay", help=N_("Read allfives-match/1 records ('-' for standard input) and "
                                 "print each match move by move with every score explained."),
               short_help=N_("check match records and print each match hand by hand"))
@click.option("--json", "as_json", is_flag=True, help=N_("one JSON object per record"))
@click.option("--move", "at", metavar="H.M", callback=lambda _c, _p, value: _place(value),
              help=N_("print the position after move M of hand H (the score sheet's "
                      "numbers), with the layout in text"))
@click.argument("files", nargs=-1, required=True, metavar=N_("FILE..."))
def replay(files: tuple[str, ...], as_json: bool, at: tuple[int, int] | None) -> int:
    if as_json and at:
        raise click.UsageError(catalogue().gettext(
            "--move prints the position in words: leave out --json"))
    return replay_files(list(files), as_json, at)


def _place(value: str | None) -> tuple[int, int] | None:
    """`3.7` (hand 3, move 7) as (3, 7)."""
    if value is None:
        return None
    hand, dot, move = value.partition(".")
    if not (dot and hand.isdigit() and move.isdigit() and int(hand) and int(move)):
        raise click.BadParameter(catalogue().gettext(
            "%(value)s: write the hand and the move, like 3.7") % {"value": repr(value)})
    return int(hand), int(move)


def replay_files(files: list[str], as_json: bool, at: tuple[int, int] | None = None) -> int:
    """Replay each file; the exit status is the worst of them (0 ok, 1 illegal, 2 unreadable
    or without the move asked for). A reader that stops reading (`| head`) ends it quietly."""
    status = 0
    words = catalogue()
    try:
        for name in files:
            status = max(status, _replay_file(name, len(files) > 1, as_json, at, words))
        sys.stdout.flush()
    except BrokenPipeError:  # the rest is not wanted: no traceback, nothing more written
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return status


def _replay_file(name: str, several: bool, as_json: bool, at, words) -> int:
    """Tell one file on standard output, or say on standard error why not; its status."""
    prefix = f"{name}: " if several else ""
    try:
        text = read_file(name)
        told = replay_json(text) if as_json else replay_text(text, words, at)
    except (UnreadableRecord, CannotRead) as error:
        print(f"{prefix}{worded(error, words)}", file=sys.stderr)
        return UNREADABLE
    except RuleError as error:
        print(f"{prefix}{worded(error, words)}", file=sys.stderr)
        return ILLEGAL
    if told is None:
        print(prefix + words.gettext("hand %(hand)s has no move %(move)s") % {
            "hand": at[0], "move": at[1]}, file=sys.stderr)
        return UNREADABLE
    if not as_json and several:
        print(f"== {name}")
    print(told)
    return 0


def replay_json(text: str | bytes) -> str:
    """What `replay --json` prints for a record's text; UnreadableRecord or RuleError when it
    is not a legal record. `bench/replay.py` times it."""
    replayed = records.replay(text)
    return summary_json(replayed.match, replayed.hands)


def replay_text(text: str | bytes, words, at: tuple[int, int] | None = None) -> str | None:
    """What `replay` prints for a record's text: the match told hand by hand, or with `at`
    (hand, move) the position after that move (None: the record has no such move)."""
    replayed = records.replay(text)
    if at is not None:
        lines = position_lines(replayed.match, *at, words)
        return None if lines is None else "\n".join(lines)
    return "\n".join(text_lines(replayed.match, len(replayed.hands), words))
