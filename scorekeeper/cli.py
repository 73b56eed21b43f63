"""The `scorekeeper` console script: `serve` the app, `replay [--json] FILE...` records."""

import argparse
import sys

from .replay import catalogue, summary_json, text_lines
from .rules import RuleError
from .rules.record import IllegalRecord, UnreadableRecord
from .services import records

ILLEGAL, UNREADABLE = 1, 2


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="scorekeeper", description="All Fives (Muggins) scorekeeper tools.")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser(
        "replay", help="check match records and print each match hand by hand",
        description="Read allfives-match/1 records ('-' for standard input) and print "
                    "each match move by move with every score explained.")
    replay.add_argument("--json", action="store_true", help="one JSON object per record")
    replay.add_argument("files", nargs="+", metavar="FILE")
    serve = commands.add_parser(
        "serve", help="serve the app to the phones on this network",
        description="Serve the app with Granian on every network address of this machine "
                    "and print the addresses the phones should open. Creates the instance "
                    "folder (database, secret key) on first start.")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (0.0.0.0: all)")
    serve.add_argument("--port", type=int, default=8080)
    serve.add_argument("--workers", type=int, default=None,
                       help="worker processes, each serving one request at a time "
                            "(default: one more than the cores; one on Windows)")
    args = parser.parse_args(argv)
    if args.command == "serve":
        return serve_app(args.host, args.port, args.workers)
    return replay_files(args.files, args.json)


def serve_app(host: str, port: int, workers: int | None = None) -> int:
    """Start the app, refusing with one line when its storage cannot be used (each worker
    then opens its own)."""
    from . import create_app
    from .db import StorageRefused
    from .serve import run

    try:
        create_app()
    except StorageRefused as error:
        print(f"scorekeeper: not started: {error}", file=sys.stderr)
        return UNREADABLE
    run(host, port, workers)
    return 0


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
            print(f"{prefix}{_worded(error, words)}", file=sys.stderr)
            status = max(status, UNREADABLE)
            continue
        except RuleError as error:
            print(f"{prefix}{_worded(error, words)}", file=sys.stderr)
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


def _worded(error: Exception, words) -> str:
    """The refusal in the reader's language where the engine gave a catalogue template: a
    record's place and reason each worded, a number's words by ngettext."""
    if isinstance(error, IllegalRecord):
        place = words.gettext(error.place_template) % error.place_facts
        return words.gettext("%(place)s: %(reason)s") % {
            "place": place, "reason": _worded(error.cause, words)}
    template = getattr(error, "template", None)
    if not template:
        return str(error)
    if getattr(error, "plural", None):
        return words.ngettext(template, error.plural, error.number) % error.facts
    return words.gettext(template) % error.facts


def _read(name: str) -> bytes:
    try:
        if name == "-":
            return sys.stdin.buffer.read()
        with open(name, "rb") as file:
            return file.read()
    except OSError as error:
        raise UnreadableRecord(f"cannot read {name}: {error.strerror}") from None


if __name__ == "__main__":
    sys.exit(main())
