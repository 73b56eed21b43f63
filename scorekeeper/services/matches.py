"""Use cases of one match: create or import it, open it, tap, check and score a hand's end, undo.

A tap answers with a value, never an exception: Written, Repeated (a double tap
or a retry of what is stored), Stale (another phone wrote first: what it
entered), Refused (the rules' reason), Held (its league card is confirmed) or Gone
(deleted meanwhile). Nothing is written unless Written; the match a tap is given is
never changed (the rules apply it to a copy: Written holds the new match).
"""

import zlib
from dataclasses import dataclass, field

from ..league.cards.card import CONFIRMED
from ..rules import Draw, Hand, Lay, Match, RuleError, Score, Start, move_text, normal
from ..rules.errors import N_
from ..rules.match.record import IllegalRecord
from ..rules.notation.events import PASS, UNDO, Entry, Remaining, Undo, lay_from_button
from ..storage import Head, MatchGone, MatchHeld, StaleWrite, summary_json
from . import records
from .league.at_tables import Leg, leg_of
from .opened import Opened, opened, rebuilt
from .unit_of_work import UnitOfWork


@dataclass(frozen=True)
class Written:
    """The entry is stored: `stored` is the match after it."""

    stored: Opened


@dataclass(frozen=True)
class Repeated:
    """The same entry was already stored (a double tap, or a tap sent again after its answer
    was lost): nothing was written twice. `later`: what other phones entered after it."""

    stored: Opened
    later: tuple = ()


@dataclass(frozen=True)
class Stale:
    """Another phone wrote first; `entered` is what it wrote (empty: a revision never reached)."""

    stored: Opened
    entered: list[Entry]


@dataclass(frozen=True)
class Refused:
    """The rules refused the entry; `stored` is the match as it was."""

    stored: Opened
    error: RuleError


@dataclass(frozen=True)
class Previewed:
    """The end-of-hand score the entered pips would give; nothing was written."""

    stored: Opened
    score: Score


@dataclass(frozen=True)
class AskFirst:
    """An undo that would take back a scored hand (`hand`): the table asks once first."""

    stored: Opened
    hand: Hand


@dataclass(frozen=True)
class Held:
    """The match's league card is confirmed by both captains: the table changes nothing
    until the secretary, or both captains, reopen the card."""

    stored: Opened


@dataclass(frozen=True)
class OnCard:
    """The league card a match scores a game of: its teams, the game, whether the card
    holds it (confirmed) or the secretary took it off, and the leg it scores of a best-of
    game."""

    home: str
    away: str
    game: int
    held: str
    leg: Leg | None = None

    @property
    def confirmed(self) -> bool:
        return self.held == CONFIRMED


@dataclass(frozen=True)
class Gone:
    """The match was deleted after this request loaded it: there is nothing to write on."""

    match_id: str


Tapped = Written | Repeated | Stale | Refused | Held | Gone


@dataclass(frozen=True)
class Board:
    """A scoreboard opened by its viewing key: its revision is known before any rebuild;
    `names` is a digest of its setup, whose names a league may correct without a new
    revision."""

    id: str
    revision: int
    names: str
    head: Head = field(repr=False)
    """The row it was opened from, which the match is rebuilt from (the use cases')."""


def create_match(uow: UnitOfWork, match: Match) -> Opened:
    """Store a match: a new one, or one read from a record with the events it already has."""
    with uow:
        return opened(uow.matches.insert(match), match)


def import_record(uow: UnitOfWork, text: str | bytes) -> Opened:
    """Store the match of a record file; UnreadableRecord or RuleError says why not.

    A last hand whose pips are not entered yet is kept open, to be finished at the table.
    """
    return create_match(uow, records.replay(text, pending_pips=True).match)


def open_match(uow: UnitOfWork, match_id: str, key: str) -> Opened | None:
    """The match to score, if `key` is its scoring key."""
    head = uow.matches.find(match_id, key, scoring=True)
    return None if head is None else rebuilt(uow, head)


def card_of(uow: UnitOfWork, stored: Opened) -> OnCard | None:
    """The league card that links the match, if one does."""
    if stored.fixture_id is None:
        return None
    found = uow.leagues.fixture_at_table(stored.fixture_id)
    if found is None:
        return None
    return OnCard(found.home, found.away, stored.game, stored.hold, leg_of(uow, stored, found))


def open_board(uow: UnitOfWork, match_id: str, key: str) -> Board | None:
    """The match to watch, if `key` is its scoreboard key; its log is not read yet."""
    head = uow.matches.find(match_id, key, scoring=False)
    if head is None:
        return None
    return Board(head.id, head.revision, f"{zlib.crc32(head.setup.encode()):08x}", head)


def watch(uow: UnitOfWork, match_id: str, key: str) -> Opened | None:
    """The match to read, if `key` is its scoreboard key: the replay and the score sheet
    that anyone with the read-only link may open."""
    board = open_board(uow, match_id, key)
    return None if board is None else board_match(uow, board)


def board_match(uow: UnitOfWork, board: Board) -> Opened:
    """The watched match at the board's revision (from the cache when it is there)."""
    return rebuilt(uow, board.head)


def shared_board(uow: UnitOfWork, board: Board, variant: str) -> tuple[bytes, str | None] | None:
    """The scoreboard's answer at the board's revision, if a worker kept it for all."""
    return uow.boards.kept(board.id, board.revision, variant)


def share_board(uow: UnitOfWork, board: Board, variant: str, answer: tuple[bytes, str | None]
                ) -> None:
    """Keep the scoreboard's answer (body, encoding) at the board's revision for all."""
    uow.boards.keep(board.id, board.revision, variant, *answer)


def listing(uow: UnitOfWork) -> list[dict]:
    """The matches on this server, in progress first, as the home page lists them."""
    return uow.matches.listing()


def my_matches(uow: UnitOfWork, links: list) -> list[dict]:
    """The matches of the [id, scoring key] pairs a browser keeps, however many others exist."""
    return uow.matches.mine(links)


def delete_match(uow: UnitOfWork, match_id: str, key: str) -> bool:
    """Delete a match and its log for good, if `key` is its scoring key."""
    with uow:
        return uow.matches.delete(match_id, key)


def prune(uow: UnitOfWork, days: int) -> int:
    """Delete the matches nobody has played for `days` days; returns how many."""
    with uow:
        return uow.retention.prune(days)


def tap(uow: UnitOfWork, stored: Opened, seen: int, entry: Entry) -> Tapped:
    """Write `entry` on the match as the tapping phone saw it, at revision `seen`."""
    if stored.held:
        return Held(stored)
    if stored.broken:
        return Refused(stored, broken_log(stored))
    try:
        return Written(write(uow, stored, seen, entry))
    except MatchHeld:
        return Held(open_match(uow, stored.id, stored.score_key) or stored)
    except StaleWrite:
        return _stale(uow, stored, seen, entry)
    except MatchGone:
        return Gone(stored.id)
    except RuleError as error:
        return Refused(stored, error)


def write(uow: UnitOfWork, stored: Opened, seen: int, entry: Entry) -> Opened:
    """The match after `entry`, written if it is still at revision `seen`; a RuleError,
    StaleWrite, MatchHeld or MatchGone writes nothing (`tap` answers them as values).

    The usual tap names the revision its match was opened at: the rules apply the entry to
    a copy of it, and the store's conditional write checks that no other phone wrote
    since. Else the row, locked, decides, and the match is rebuilt at its revision.
    """
    with uow:
        if stored.revision == seen:
            match = stored.match.copy()
        else:  # the phone saw another revision than this read
            fresh = rebuilt(uow, uow.matches.locked_at(stored.id, seen))
            if fresh.broken:  # the log broke since the phone read it: it must see that first
                raise StaleWrite(fresh.revision)
            match = fresh.match
        try:
            entries = match.undo() if isinstance(entry, Undo) else [match.push(entry)]
        except RuleError:  # refused by the match as it was opened: is it still the stored one?
            uow.matches.locked_at(stored.id, seen)
            raise
        return _written(uow, stored, seen, list(entries), match)


def _written(uow: UnitOfWork, stored: Opened, seen: int, entries: list[Entry], match: Match
             ) -> Opened:
    """Hand the store the entries and the match's new summary; the match is kept by the
    worker once the write is committed."""
    revision = uow.matches.write(stored.id, seen, entries, summary_json(match))
    uow.matches.keep(Head(stored.id, stored.score_key, stored.view_key, revision,
                          stored.setup), match, once_committed=True)
    return stored.at(revision, match)


def broken_log(stored: Opened) -> IllegalRecord:
    """Why a stored log cannot be played on, at its place, in a record's words: `hand 3,
    move 12 (Bob 2-6): 2-6 matches neither open end (1 and 3)`."""
    broken, match = stored.broken, stored.match
    cause = broken.error
    hand = match.hand
    number = len(match.hands) if hand is not None else 1
    if isinstance(broken.event, Start):
        return IllegalRecord(N_("hand %(hand)s, starter"), cause, hand=len(match.hands) + 1)
    if isinstance(broken.event, Remaining):
        return IllegalRecord(N_("hand %(hand)s, remaining"), cause, hand=number)
    seat = match.turn
    text = move_text(broken.event)
    who = f"{match.table.players[seat]} {text}" if seat is not None else text
    return IllegalRecord(N_("hand %(hand)s, move %(move)s (%(who)s)"), cause, hand=number,
                         move=len(hand.moves) + 1 if hand is not None else 1, who=who)


def take_back_to_legal(uow: UnitOfWork, stored: Opened, seen: int) -> Tapped:
    """A broken log taken back to its legal part, in one write (an undo entry for each
    event from the first one the rules refuse)."""
    if stored.held:
        return Held(stored)
    if not stored.broken:
        return Repeated(stored)
    try:
        with uow:
            undos = [UNDO] * (stored.broken.later + 1)
            return Written(_written(uow, stored, seen, undos, stored.match.copy()))
    except MatchHeld:
        return Held(open_match(uow, stored.id, stored.score_key) or stored)
    except StaleWrite:
        now = open_match(uow, stored.id, stored.score_key)
        return Gone(stored.id) if now is None else Stale(now, [])
    except MatchGone:
        return Gone(stored.id)


def lay(uow: UnitOfWork, stored: Opened, seen: int, button: str) -> Tapped:
    """Lay the tile of a tile button (`6-3`, `6-3@L`)."""
    try:
        entry = lay_from_button(button)
    except RuleError as error:
        return Refused(stored, error)
    return tap(uow, stored, seen, entry)


def draw(uow: UnitOfWork, stored: Opened, seen: int) -> Tapped:
    """The player whose turn it is draws one tile (the Draw button draws one)."""
    return tap(uow, stored, seen, Draw(1))


def pass_turn(uow: UnitOfWork, stored: Opened, seen: int) -> Tapped:
    return tap(uow, stored, seen, PASS)


def undo(uow: UnitOfWork, stored: Opened, seen: int, confirmed: bool = True
         ) -> Tapped | AskFirst:
    """Take back one step, whatever it was (of a draw of several tiles, one tile: the step
    of the Draw button); a hand's score only once confirmed."""
    match = stored.match
    if stored.held:
        return Held(stored)
    if not confirmed and seen == stored.revision and isinstance(match.peek(), Remaining):
        return AskFirst(stored, next(hand for hand in reversed(match.hands)
                                         if hand.end is not None))
    return tap(uow, stored, seen, UNDO)


def end_hand(uow: UnitOfWork, stored: Opened, seen: int, held: dict) -> Tapped:
    """Score the end of a hand from what players still hold, {seat: pips or tiles}."""
    return tap(uow, stored, seen, Remaining.of(held))


def preview_end(stored: Opened, held: dict) -> Previewed | Refused:
    """The score `end_hand` would give, shown for checking before it is written."""
    try:
        return Previewed(stored, stored.match.preview_end(held))
    except RuleError as error:
        return Refused(stored, error)


def _stale(uow: UnitOfWork, stored: Opened, seen: int, entry: Entry
           ) -> Repeated | Stale | Gone:
    """A repeat of the tap stored first since `seen` is a success (what others entered
    after it is said); anything else is stale."""
    now = open_match(uow, stored.id, stored.score_key)
    if now is None:
        return Gone(stored.id)
    entered = _taps(uow, now, seen, uow.matches.entries_since(stored.id, seen))
    if entered and _repeats(entry, entered[0]):
        return Repeated(now, tuple(entered[1:]))
    return Stale(now, entered)


def _taps(uow: UnitOfWork, now: Opened, seen: int, entered: list[Entry]) -> list[Entry]:
    """The entries written since `seen` as the taps that wrote them: an Undo that took one
    tile of a draw back wrote the undo and the draw kept (`Match.undo`), and is one undo."""
    if not any(isinstance(entry, Undo) for entry in entered):
        return entered
    match = rebuilt(uow, Head(now.id, now.score_key, now.view_key, seen, now.setup)).match
    taps, index = [], 0
    try:
        while index < len(entered):
            taps.append(entered[index])
            index += _tap_on(match, entered[index:])
    except RuleError:  # a log the rules refuse (taken back since): each entry is one tap
        return entered
    return taps


def _tap_on(match: Match, entries: list[Entry]) -> int:
    """Apply the tap that wrote the first of `entries` to the match; how many it wrote."""
    if not isinstance(entries[0], Undo):
        match.push(entries[0])
        return 1
    step = match.copy().undo() if match.log else ()
    if len(step) > 1 and tuple(entries[:len(step)]) == step:
        match.undo()
        return len(step)
    match.pop()
    return 1


def _repeats(entry: Entry, stored: Entry) -> bool:
    """The same tap again: a tile laid without its end repeats the same tile laid at either."""
    if isinstance(entry, Lay) and isinstance(stored, Lay):
        return normal(entry.tile) == normal(stored.tile) and entry.end in (None, stored.end)
    return entry == stored
