"""Players' names as people read them: one Unicode form, visible, and not look-alikes.

Names are kept in NFC, so "Zoé" typed two ways is one name. Zero-width joiners
may stand inside a name (a family emoji, a Persian name), other format characters
may not. Two names are confusable when their skeletons match: the name in NFKC,
with the Cyrillic and Greek letters that look Latin read as Latin, without format
characters, case-folded (a small part of Unicode's confusables, the part a
table is likely to meet).
"""

import unicodedata

JOINERS = frozenset("\u200c\u200d")
"""Zero-width non-joiner and joiner: part of emoji sequences and of Persian and Indic words."""

BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
"""Letters and symbols that draw nothing (Hangul fillers, the blank braille pattern...)."""

LOOK_ALIKES = str.maketrans(
    "АВЕКМНОРСТХЅІЈаеорсухѕіјԁһԛԝ"  # Cyrillic
    "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧοιⅰνρκχυ",  # Greek (and a Roman numeral)
    "ABEKMHOPCTXSIJaeopcyxsijdhqw"
    "ABEZHIKMNOPTYXoiivpkxu")


def visible(char: str) -> bool:
    """A character that draws something: not a space, a control, a format mark or a blank."""
    return unicodedata.category(char)[0] in "LMNPS" and char not in BLANKS


def allowed(name: str) -> bool:
    """Printable, except that joiners may stand between two other characters."""
    inner = name[1:-1] if len(name) > 2 else ""
    if name[:1] in JOINERS or name[-1:] in JOINERS:
        return False
    return "".join(c for c in inner if c not in JOINERS).isprintable() and (
        name[:1] + name[-1:]).isprintable()


def skeleton(name: str) -> str:
    """What a name looks like, for telling two names apart: see the module's docstring."""
    folded = unicodedata.normalize("NFKC", name).translate(LOOK_ALIKES)
    shown = "".join(c for c in folded if unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFKC", shown.casefold())
