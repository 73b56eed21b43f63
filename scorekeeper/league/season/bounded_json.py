"""JSON read with its long lists bounded while it is read: a crafted archive (a team of a
million former players, gzip-packed into 20 KB) is refused at the first element past its
limit, before the rest is parsed or anything is built, so a refusal costs milliseconds,
not the minute that parsing and then checking the whole of it took.

Only the lists that `limits` names, and the lists and objects that lead to them, are
walked here; every other value is read whole by the standard library's C scanner, at its
speed (it is bounded by the size of the text, as `json.loads` is).
"""

import re
from collections.abc import Callable
from json import JSONDecoder
from json.decoder import scanstring
from json.scanner import make_scanner

MOST_ITEMS = 10_000
"""Elements of a list walked that the limits do not count."""
MOST_MEMBERS = 100
"""Members of an object walked."""
ITEM = "*"
"""A list's element in a path: ("teams", "*", "players") is every team's roster."""
SPACE = re.compile(r"[ \t\n\r]*")
NEXT = re.compile(r"[ \t\n\r]*([,\]}])[ \t\n\r]*")
"""The comma or bracket after an element, and the space around it."""
PLAIN_KEY = re.compile(r'"([^"\\\x00-\x1f]*)"[ \t\n\r]*:[ \t\n\r]*')
"""A member's name without escapes, and its colon (others go through the scanner)."""


class TooLarge(ValueError):
    """A list or an object larger than any the file may hold."""


def read_bounded(text: str, limits: dict[tuple, Callable[[int], None]]):
    """The JSON value of `text`; each list at a path of `limits` has its count checked by
    that path's check as it grows (the check raises to refuse it)."""
    reader = _Reader(text, limits)
    value, end = reader.value(SPACE.match(text).end(), ())
    if SPACE.match(text, end).end() != len(text):
        raise ValueError("extra data after the JSON value")
    return value


class _Reader:
    """Each reading method starts at a value's first character (space skipped) and returns
    the value and where the space after it ends."""

    def __init__(self, text: str, limits: dict):
        self.text, self.limits = text, limits
        self.walked = {path[:end] for path in limits for end in range(len(path))}
        """The paths of the lists and objects walked: those of the lists counted, and of
        the values that hold them."""
        self.scan = make_scanner(JSONDecoder())

    def value(self, at: int, path: tuple):
        opening = self.text[at:at + 1]
        if opening in ("[", "{") and path in self.walked:
            reading = self.array if opening == "[" else self.object
            return reading(SPACE.match(self.text, at + 1).end(), path)
        try:
            return self.scan(self.text, at)
        except StopIteration:
            raise ValueError(f"no JSON value at {at}") from None

    def array(self, at: int, path: tuple):
        items, path = [], path + (ITEM,)
        check = self.limits.get(path)
        if self.text[at:at + 1] == "]":
            return items, at + 1
        while True:
            if len(items) == MOST_ITEMS:
                raise TooLarge("a list too long")
            if check:
                check(len(items) + 1)
            item, at = self.value(at, path)
            items.append(item)
            at, closed = self.after(at, "]")
            if closed:
                return items, at

    def object(self, at: int, path: tuple):
        members = {}
        if self.text[at:at + 1] == "}":
            return members, at + 1
        while True:
            if len(members) == MOST_MEMBERS:
                raise TooLarge("an object too large")
            key, at = self.key(at)
            members[key], at = self.value(at, path + (key,))
            at, closed = self.after(at, "}")
            if closed:
                return members, at

    def key(self, at: int) -> tuple[str, int]:
        """A member's name, and where its value starts."""
        plain = PLAIN_KEY.match(self.text, at)
        if plain:
            return plain.group(1), plain.end()
        if self.text[at:at + 1] != '"':
            raise ValueError(f"no member name at {at}")
        key, at = scanstring(self.text, at + 1)
        colon = SPACE.match(self.text, at).end()
        if self.text[colon:colon + 1] != ":":
            raise ValueError(f"no colon at {colon}")
        return key, SPACE.match(self.text, colon + 1).end()

    def after(self, at: int, closing: str) -> tuple[int, bool]:
        """Past the comma or the closing bracket that follows an element, and whether it
        was the closing one."""
        found = NEXT.match(self.text, at)
        if not found or found.group(1) not in (",", closing):
            raise ValueError(f"no comma or {closing} at {at}")
        return found.end(), found.group(1) == closing
