"""Use cases of a match record that need no database: read one and check it."""

from dataclasses import dataclass

from ..rules import Match
from ..rules.match.record import load_record, read_record


@dataclass(frozen=True)
class Replayed:
    """A record read and every one of its table events checked; `hands` as the record wrote them."""

    match: Match
    hands: list


def replay(text: str | bytes, pending_pips: bool = False) -> Replayed:
    """The match a record's text describes; UnreadableRecord or RuleError says why not.

    With `pending_pips`, a last hand may end without its pips, to be entered at the table.
    """
    doc = load_record(text)
    return Replayed(read_record(doc, pending_pips=pending_pips), doc["hands"])
