"""The shared GLOSSARY.md is the authority for the words of the table: where a message's
English says a glossary term, every form of its Greek, Czech and Hungarian says the
glossary's word, and each term has one rendering in each language (the words it drifted
to are refused anywhere, and a word kept for one term is used for no other).

The catalogues are read as they are, so a message another branch adds is checked the day
it lands. An exception is listed with its reason, and an exception no message needs any
more fails too (docs/TRANSLATING.md says how to review a catalogue).
"""

import re
from dataclasses import dataclass, field

import pytest
from test_i18n_catalogues import LANGUAGES, forms, messages, read_catalogue

PLACEHOLDER = re.compile(r"%\(\w+\)s")
NEVER = r"(?!)"


@dataclass(frozen=True)
class Term:
    """A term: where its English is, the word each language says for it (a regex), the
    English that uses the same word in another sense, the renderings it drifted to, and
    words no other term may use."""

    name: str
    english: str
    words: dict[str, str]
    unlike: str = NEVER
    drift: dict[str, str] = field(default_factory=dict)
    reserved: dict[str, str] = field(default_factory=dict)


GLOSSARY = [
    Term("game name", r"\bAll Fives\b",
         {"el": r"Όλα τα πεντάρια", "cs": r"Všech\w* pět", "hu": r"Ötös szorzók"}),
    Term("tile", r"\btiles?\b", {"el": r"πλακ[ιί]δ", "cs": r"\bk[aá]m", "hu": r"kő|köv"},
         drift={"el": r"κεραμίδ|πλακάκ|τουβλάκ", "cs": r"\bkostk", "hu": r"lapocsk"}),
    Term("double", r"\bdoubles?\b", {"el": r"διπλ", "cs": r"dublet", "hu": r"dupl"}),
    Term("boneyard", r"\bboneyard\b", {"el": r"ρεζέρβ", "cs": r"zásob", "hu": r"tartalék"},
         drift={"el": r"μάνα", "cs": r"\btalon|\bzáloh"}),
    Term("draw (from the boneyard)", r"\bdraw(s|ing)?\b|\bdrew\b",
         {"el": r"τρ[αά]β", "cs": r"lí[zž]", "hu": r"húz"},
         unlike=r"\bfor a draw\b|\bdrawn\b|Draw lots"),
    Term("pass / knock", r"\bpass(es|ed)?\b|\bknock(s|ed)?\b",
         {"el": r"πάσο|χάνει τη σειρά", "cs": r"\bdál\b", "hu": r"passz|nem tud lépni"},
         unlike=r"would pass|\bpass it\b"),
    Term("open end", r"\bopen ends?\b",
         {"el": r"ανοιχτ\w* άκρ", "cs": r"otevřen\w* kon", "hu": r"nyitott vég"}),
    # a line-up is a team's players for a fixture, not the line of play
    Term("line of play", r"\bline('s)?\b(?!-up)", {"el": r"σειρ", "cs": r"řad", "hu": r"\bsor"},
         unlike=r"line break|line of text|per line|a line of its own"),
    Term("spinner", r"\bspinners?\b",
         {"el": r"spinner", "cs": r"spinner", "hu": r"négyfelé ágazó dupl"},
         drift={"el": r"περιστρεφ", "hu": r"(?<!négyfelé )ágazó|elágazó"}),
    Term("going out",
         r"\b(go|goes|going|went) out\b|\b(is|are) out\b(?! of)|\bchip(s|ped|ping)? out\b",
         {"el": r"βγ[αεήίου]|ντόμινο", "cs": r"dohr|domino|zbav",
          "hu": r"kime|kimen|ment ki|megy ki|mentek ki"},
         drift={"el": r"τέλος των πλακιδίων|τελ[εέ][ιί]\w* τα πλακίδι|\bέξοδ"}),
    Term("blocked", r"\bblocked\b",
         {"el": r"μπλοκαρισμέν", "cs": r"zablokovan", "hu": r"elakadt"}),
    Term("hand (one deal)",
         # "Hand in the line-up" is the verb
         r"\b(this|the|a|each|every|next|first|one|earlier|later|blocked) hands?\b"
         r"|\bhands? (%|is|are|ends|has|after)|^Hand\b(?! in\b)|\bhand %",
         {"el": r"γύρ", "cs": r"\bkol", "hu": r"leoszt"},
         unlike=r"\bin (their |the |a )?hands?\b|in each hand|'s hand\b(?! score)"
                r"|partner's hand|hand size"),
    Term("hand (the tiles held)",
         r"\bin (their |the |a )?hands?\b|'s hand\b|\btwo hands\b|\bother hands\b",
         {"el": r"χέρ", "cs": r"\bru[kc]", "hu": r"kez|kéz"},
         unlike=r"\bin (this|the|a|each) hand\b(?! is)|in the hand\.|in a hand\b"),
    Term("match", r"\bmatch(es)?\b", {"el": r"αγών", "cs": r"zápas", "hu": r"mérkőzés"},
         # a league's points for a match won, drawn or lost are the fixture's result, as a
         # card won or drawn is (below): said with the fixture's own word
         unlike=r"\bmatch (card|record|night)|must match|matches (neither|no)"
                r"|\bpoints for (a drawn|losing the|winning the) match\b"
                r"|\bmatch is lost by\b|\b\d+ for the match\b"),
    Term("match card (the league's)", r"\bcards?\b|\bMatch card\b",
         {"el": r"φύλλ\w* αγώνα", "cs": r"\bzápis", "hu": r"jegyzőkönyv"},
         # a card won, drawn or lost is the fixture's result: said with the fixture's own word
         # (a "lost" card is no misplaced sheet)
         unlike=r"\b(drawn|won|lost|winning the) card\b|\bcard may be lost\b"
                r"|card with an even number",
         reserved={"el": r"φύλλ\w* αγώνα", "cs": r"\bzápis", "hu": r"jegyzőkönyv"}),
    Term("match record (the file)", r"\brecords?\b",
         {"el": r"αρχεί", "cs": r"záznam", "hu": r"mérkőzésfájl"},
         # "Record the fixture as a walkover" is the verb
         unlike=r"\bthe record is of another table|\brecord the fixture\b"),
    Term("score sheet", r"\bscore sheet\b",
         {"el": r"φύλλο πόντων", "cs": r"přehled bodů", "hu": r"pontlap"},
         reserved={"el": r"φύλλο πόντων", "cs": r"přehled bodů", "hu": r"pontlap"}),
    Term("scoreboard", r"\bscoreboards?\b",
         {"el": r"πίνακ\w* σκορ", "cs": r"výsledkov\w* tabul", "hu": r"eredményjelző"}),
    Term("target", r"\btarget\b", {"el": r"στόχ", "cs": r"\bcíl", "hu": r"\bcél"}),
    Term("partnerships / pairs", r"\bpartnerships?\b|\bpairs\b",
         {"el": r"ζευγ[αά]ρ", "cs": r"dvojic", "hu": r"\bpár"}),
    Term("partner", r"\bpartners?\b|\bpartner's\b",
         {"el": r"συμπαίκτ|ζευγ[αά]ρ", "cs": r"partner|dvojic", "hu": r"\btárs|\bpár"}),
    Term("pips", r"\bpips?\b",
         {"el": r"βο[υύ]λ", "cs": r"\bok(a|o|y|u|em|ům|ách)?\b", "hu": r"pötty"}),
    Term("points", r"\bpoints?\b", {"el": r"πόντ|βαθμ", "cs": r"\bbod", "hu": r"\bpont"}),
    Term("lead", r"\blead(s|ing)?\b|\bled\b",
         {"el": r"άνοιγμα|ανο[ιί]γ|άνοιξ", "cs": r"zah[aá]j", "hu": r"kezd"}),
    Term("round to the nearest five", r"\bround(ed|ing)?\b",
         {"el": r"στρογγ[υύ]λ", "cs": r"zaokrouhl", "hu": r"kerek"},
         unlike=r"\bround the table|goes round|\brounds\b"),
    Term("player", r"\bplayers?\b", {"el": r"πα[ιί]κτ", "cs": r"hráč", "hu": r"játékos"},
         # "a player who…" is a pronoun in each language (όποιος, kdo, aki), as it would be
         # at the table; "with two players" a number of them (ve dvou, két játékosnál)
         unlike=r"\b(a|every|each|that) player\b|format, players|is not a player"
                r"|each with two players"),
]

# Messages whose English says the term but whose translation rightly does not, and why.
# Keyed by (term, language): {a regex of the English message: the reason}.
EXCEPTIONS = {
    ("draw (from the boneyard)", "el"): {
        r"^%\(text\)s is not a move": "draw is the record's keyword, quoted as written"},
    ("draw (from the boneyard)", "cs"): {
        r"^%\(text\)s is not a move": "draw is the record's keyword, quoted as written"},
    ("draw (from the boneyard)", "hu"): {
        r"^%\(text\)s is not a move": "draw is the record's keyword, quoted as written"},
    ("pass / knock", "el"): {
        r"^%\(text\)s is not a move": "pass is the record's keyword, quoted as written"},
    ("pass / knock", "cs"): {
        r"^%\(text\)s is not a move": "pass is the record's keyword, quoted as written"},
    ("pass / knock", "hu"): {
        r"^%\(text\)s is not a move": "pass is the record's keyword, quoted as written"},
    ("pips", "el"): {r"pip install": "the installer's name, not a tile's pips"},
    ("pips", "cs"): {r"pip install": "the installer's name, not a tile's pips"},
    ("pips", "hu"): {r"pip install": "the installer's name, not a tile's pips"},
    ("line of play", "el"): {r"^%\(reason\)s: line %\(line\)s": "a line of a record's text"},
    ("line of play", "cs"): {r"^%\(reason\)s: line %\(line\)s": "a line of a record's text"},
    ("double", "cs"): {r"in double quotes$": "quotation marks, not a tile"},
    ("double", "hu"): {r"in double quotes$": "quotation marks, not a tile"},
}


def english_of(msgid) -> str:
    """The English a message shows, its placeholders left out; both forms of a plural."""
    texts = msgid if isinstance(msgid, tuple) else (msgid,)
    return " / ".join(PLACEHOLDER.sub("", text) for text in texts)


def says(term: Term, msgid) -> bool:
    english = english_of(msgid)
    return bool(re.search(term.english, english, re.I)) and not re.search(
        term.unlike, english, re.I)


def excused(term: Term, lang: str, msgid) -> str | None:
    english = msgid[0] if isinstance(msgid, tuple) else msgid
    return next((reason for pattern, reason in EXCEPTIONS.get((term.name, lang), {}).items()
                 if re.search(pattern, english)), None)


@pytest.fixture(scope="module", params=LANGUAGES)
def catalogue(request):
    return request.param, messages(read_catalogue(request.param))


@pytest.mark.parametrize("term", GLOSSARY, ids=lambda term: term.name)
def test_a_glossary_term_is_said_with_the_glossarys_word(term, catalogue):
    lang, found = catalogue
    wrong = [(msgid, said) for (_context, msgid), message in found.items()
             if says(term, msgid) and not excused(term, lang, msgid)
             for said in forms(message) if not re.search(term.words[lang], said, re.I)]
    assert not wrong, f"{lang}: {term.name!r} is not said {term.words[lang]!r} in {wrong}"


@pytest.mark.parametrize("term", GLOSSARY, ids=lambda term: term.name)
def test_a_glossary_term_has_one_rendering_in_each_language(term, catalogue):
    lang, found = catalogue
    drift = term.drift.get(lang, NEVER)
    drifted = [said for (_context, msgid), message in found.items() if says(term, msgid)
               for said in forms(message) if re.search(drift, said, re.I)]
    assert not drifted, f"{lang}: {term.name!r} drifted to {drift!r} in {drifted}"
    reserved = term.reserved.get(lang, NEVER)
    borrowed = [(msgid, said) for (_context, msgid), message in found.items()
                if not re.search(term.english, english_of(msgid), re.I)
                for said in forms(message) if re.search(reserved, said, re.I)]
    assert not borrowed, f"{lang}: the word of {term.name!r} says something else in {borrowed}"


def test_every_exception_is_still_needed():
    """An exception names a message that exists and says the term without its word."""
    unused = []
    for (name, lang), excused_messages in EXCEPTIONS.items():
        term = next(term for term in GLOSSARY if term.name == name)
        found = messages(read_catalogue(lang))
        for pattern in excused_messages:
            needed = [msgid for (_context, msgid), message in found.items()
                      if says(term, msgid)
                      and re.search(pattern, msgid[0] if isinstance(msgid, tuple) else msgid)
                      and not all(re.search(term.words[lang], said, re.I)
                                  for said in forms(message))]
            if not needed:
                unused.append((name, lang, pattern))
    assert not unused, f"exceptions no message needs any more: {unused}"


def test_pips_are_never_called_points():
    """Points are a score; a tile's pips are βούλες, oka, pötty (GLOSSARY.md, Cautions)."""
    points = {"el": r"πόντ", "cs": r"\bbod", "hu": r"\bpont(?:ok|ot|ja|jai|tal|ban)?\b"}
    for lang in LANGUAGES:
        for (_context, msgid), message in messages(read_catalogue(lang)).items():
            english = english_of(msgid)
            if re.search(r"\bpips?\b", english) and not re.search(
                    r"\bpoints?\b|scor|pip install|\bwin\b|\bwins\b", english):
                for said in forms(message):
                    assert not re.search(points[lang], said), (lang, english, said)


def test_the_arrow_means_gives_or_rounds_to_and_nothing_else():
    """→ is the arithmetic's "gives / rounds to" (13 → 15): a translation has one where
    its English has one, never to say where a tile goes."""
    for lang in LANGUAGES:
        for (_context, msgid), message in messages(read_catalogue(lang)).items():
            english = msgid if isinstance(msgid, str) else msgid[0]
            for said in forms(message):
                assert said.count("→") == english.count("→"), (lang, english, said)


@pytest.mark.parametrize("lang, article", [("hu", r"\ba\(z\)|\bA\(z\)")])
def test_no_article_is_left_for_the_reader_to_choose(lang, article):
    """Hungarian a/az depends on how the next word is read: a translation is written so that
    no article stands before a number or a name it cannot know (never "a(z)")."""
    for (_context, msgid), message in messages(read_catalogue(lang)).items():
        for said in forms(message):
            assert not re.search(article, said), (msgid, said)
