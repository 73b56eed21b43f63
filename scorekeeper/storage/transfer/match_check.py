"""The second check of a move, inside its transaction: every match of the source rebuilt from
its log as the app rebuilds it (`match_log.replayed`) on both sides, and what each side
shows compared: its revision, scores, winner, the part of a broken log the rules refuse, its
record and its `replay --json`. The first match that differs is named.

The target's side is read in the move's own transaction. The source's side, as much work
again, is made by a helper process on another core when the store is large: it reads the
source in the move's snapshot and sends back a digest of what each match shows.
"""

import hashlib
import json
import multiprocessing
import os
from collections.abc import Callable

from ...rules import Match
from ...rules.match.record import write_record
from ...rules.words import N_
from ..connection import connect_read_only
from ..errors import MoveFailed
from ..match_log import HEAD, Head, replayed, table_of
from ..matches import MatchRepository
from .table_check import difference

MATCHES_AT_ONCE = 500
HELPED_FROM = 1000
"""Fewer matches are checked in one process: a helper takes a second to start."""


def matches_in(conn) -> int:
    return conn.execute("SELECT count(*) FROM matches").fetchone()[0]


def wants_helper(count: int) -> bool:
    """A helper process pays where there is another core and enough matches to share."""
    return (os.cpu_count() or 1) > 1 and count >= HELPED_FROM


def check_matches(reader, writer, told: Callable[[Match], str] | None,
                  advance: Callable[[int], None], helper: "Helper | None" = None) -> int:
    """Rebuild every match of the source on both sides and compare what each shows; returns
    how many were compared. With a helper, the source's side is its digests."""
    mine, theirs = MatchRepository(reader), MatchRepository(writer)
    compared = 0
    for batch in reader.stream(HEAD + " ORDER BY id", MATCHES_AT_ONCE):
        ids = [row[0] for row in batch]
        marks = ", ".join("?" * len(ids))
        copied = {row[0]: Head(*row) for row in
                  writer.execute(f"{HEAD} WHERE id IN ({marks})", ids).fetchall()}
        helped = helper.next_batch() if helper is not None else [None] * len(batch)
        for row, digest in zip(batch, helped, strict=True):
            if row[0] not in copied:
                raise MoveFailed.worded(N_("match %(match)s: not in the destination"),
                                        "match_missing", match=row[0])
            shown = _shown(_rebuilt(theirs, copied[row[0]]), told)
            if digest != (row[0], _digest(shown)):
                _compare(row[0], _shown(_rebuilt(mine, Head(*row)), told), shown)
                if digest is not None:  # the source read twice, and found otherwise
                    raise MoveFailed.worded(N_("match %(match)s: the source changed during "
                                               "the move (is an app still running on it?)"),
                                            "source_changed", match=row[0])
        compared += len(batch)
        advance(len(batch))
    if helper is not None and helper.next_batch() is not None:
        raise MoveFailed.worded(N_("the source changed during the move (is an app still "
                                   "running on it?)"), "source_changed")
    return compared


NOT_THE_SAME = {
    "revision": N_("match %(match)s: not the same revision: %(difference)s"),
    "scores": N_("match %(match)s: not the same scores: %(difference)s"),
    "winner": N_("match %(match)s: not the same winner: %(difference)s"),
    "refused": N_("match %(match)s: not the same stored moves refused by the rules: "
                  "%(difference)s"),
    "record": N_("match %(match)s: not the same record: %(difference)s"),
    "replay": N_("match %(match)s: not the same replay --json: %(difference)s"),
}
"""What a match shows, each by its name, and the failure that names a difference in it."""


def _rebuilt(matches: MatchRepository, head: Head) -> tuple:
    """A match's revision, and the match and broken part its whole log folds into."""
    return (head.revision,
            *replayed(table_of(head.setup), matches.entries(head.id, 0, head.revision) or []))


def _shown(rebuilt: tuple, told) -> list[tuple[str, object]]:
    """What a match shows, each thing named (NOT_THE_SAME): its revision, scores, record
    and replay."""
    revision, match, broken = rebuilt
    refused = None if broken is None else (broken.position, broken.later, str(broken.error))
    return [("revision", revision), ("scores", match.scores), ("winner", match.winner),
            ("refused", refused),
            ("record", json.dumps(write_record(match), ensure_ascii=False)),
            ("replay", told(match) if told is not None else "")]


def _digest(shown: list) -> str:
    """The same in every process (unlike hash(), seeded anew in each); the texts (the record,
    the replay) taken as they are, not through repr, which escapes each character."""
    digest = hashlib.blake2b(digest_size=16)
    for _, value in shown:
        digest.update(value.encode() if isinstance(value, str) else repr(value).encode())
        digest.update(b"\0")
    return digest.hexdigest()


def _compare(match_id: str, mine: list, theirs: list) -> None:
    for (what, source_value), (_, target_value) in zip(mine, theirs, strict=True):
        if source_value != target_value:
            raise MoveFailed.worded(NOT_THE_SAME[what], "match_differs", match=match_id,
                                    difference=difference(source_value, target_value))


class Helper:
    """A process rebuilding the source's matches in the move's snapshot, on another core: it
    sends a digest of what each shows, a batch at a time, in the order of their ids."""

    def __init__(self, where: str, snapshot: str, told):
        context = multiprocessing.get_context("spawn")  # nothing of this process inherited
        self._sent, sending = context.Pipe(duplex=False)
        self._process = context.Process(target=_source_side, name="move-store check",
                                        args=(where, snapshot, told, sending), daemon=True)
        self._process.start()
        sending.close()

    def next_batch(self) -> list[tuple[str, str]] | None:
        """The next batch of (match id, digest), or None after the last."""
        try:
            sent = self._sent.recv()
        except EOFError:
            raise MoveFailed.worded(N_("the process rebuilding the source's matches ended"),
                                    "helper_ended") from None
        if isinstance(sent, str):
            raise MoveFailed.worded(N_("the source's matches could not be rebuilt: %(why)s"),
                                    "helper_failed", why=sent)
        return sent

    def close(self) -> None:
        self._sent.close()
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()


def _source_side(where: str, snapshot: str, told, sending) -> None:
    """The helper's work: each match of the source rebuilt, and the digest of what it shows."""
    try:
        conn = connect_read_only(where)
        conn.execute(conn.dialect.moving.join_snapshot.format(snapshot=snapshot))
        matches = MatchRepository(conn)
        for batch in conn.stream(HEAD + " ORDER BY id", MATCHES_AT_ONCE):
            sending.send([(row[0], _digest(_shown(_rebuilt(matches, Head(*row)), told)))
                          for row in batch])
        sending.send(None)
        conn.close()
    except KeyboardInterrupt:  # Ctrl+C reaches the whole terminal: the move says it
        pass
    except Exception as error:
        sending.send(f"{type(error).__name__}: {error}")
