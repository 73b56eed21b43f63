"""`scorekeeper replay [--json] FILE...`: check match records and tell each match, as a
referee reads it out; pure rules, no app and no database."""

import sys

import click

from ..rules import RuleError
from ..rules.record import UnreadableRecord
from ..services import records
from .console import catalogue, worded
from .told import summary_json, text_lines

ILLEGAL, UNREADABLE = 1, 2
"""Exit statuses: a record the rules refuse, a file that is not a readable record."""


@click.command("replay", help="Read allfives-match/1 records ('-' for standard input) and "
                              "print each match move by move with every score explained.",
               short_help="check match records and print each match hand by hand")
@click.option("--json", "as_json", is_flag=True, help="one JSON object per record")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
def replay(files: tuple[str, ...], as_json: bool) -> int:
    return replay_files(list(files), as_json)


def replay_files(files: list[str], as_json: bool) -> int:
    """Replay each file; the exit status is the worst of them (0 ok, 1 illegal, 2 unreadable)."""
    status = 0
    words = catalogue()
    for name in files:
        prefix = f"{name}: " if len(files) > 1 else ""
        try:
            text = _read(name)
            told = replay_json(text) if as_json else replay_text(text, words)
        except UnreadableRecord as error:
            print(f"{prefix}{worded(error, words)}", file=sys.stderr)
            status = max(status, UNREADABLE)
            continue
        except RuleError as error:
            print(f"{prefix}{worded(error, words)}", file=sys.stderr)
            status = max(status, ILLEGAL)
            continue
        if not as_json and len(files) > 1:
            print(f"== {name}")
        print(told)
    return status


def replay_json(text: str | bytes) -> str:
    """What `replay --json` prints for a record's text; UnreadableRecord or RuleError when it
    is not a legal record. `bench/replay.py` times it."""
    replayed = records.replay(text)
    return summary_json(replayed.match, replayed.hands)


def replay_text(text: str | bytes, words) -> str:
    """What `replay` prints for a record's text: the match told hand by hand."""
    replayed = records.replay(text)
    return "\n".join(text_lines(replayed.match, len(replayed.hands), words))


def _read(name: str) -> bytes:
    try:
        if name == "-":
            return sys.stdin.buffer.read()
        with open(name, "rb") as file:
            return file.read()
    except OSError as error:
        raise UnreadableRecord(f"cannot read {name}: {error.strerror}") from None
