"""Finding English left on a page or in a message: the source catalogue's sentences."""

import html
import re
from pathlib import Path

from babel.messages.pofile import read_po

TEMPLATE = Path(__file__).resolve().parents[1] / "scorekeeper" / "translations" / "messages.pot"


def english_sentences() -> re.Pattern:
    """The English text of the source catalogue, cut at its placeholders: each piece of two
    or more words, and each one-word message, as a pattern matching it as written."""
    with open(TEMPLATE, "rb") as file:
        catalog = read_po(file)
    pieces = set()
    for message in catalog:
        for text in (message.id if isinstance(message.id, tuple) else (message.id,)):
            for piece in re.split(r"%\(\w+\)s", text):
                words = re.findall(r"[A-Za-z]{2,}", piece)
                if len(words) >= 2 or (len(words) == 1 and piece.strip() == text.strip()
                                       and len(words[0]) >= 4):
                    pieces.add(piece.strip())
    longest_first = sorted(filter(None, pieces), key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, longest_first)) + r")(?!\w)")


ENGLISH = english_sentences()


def readable_text(page: str) -> str:
    """What a person reads or hears: the text, titles, alt texts and aria-labels, minus links
    and addresses (a match's key is random letters)."""
    said = re.findall(r'(?:aria-label|alt|title|placeholder)="([^"]*)"', page)
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", page)
    text = html.unescape(" ".join([text, *said]))
    text = re.sub(r"https?://\S+", " ", text)
    return re.sub(r"\s+", " ", text)


def english_left(page: str) -> list[str]:
    text = readable_text(page)
    return sorted(set(ENGLISH.findall(text)))
