"""The kinds of fault the native review of issue #40 found in the Greek, Czech and Hungarian
catalogues (../shared/reviews/TRANSLATION_REVIEW.md), each checked over every message, so
that a message another branch adds is checked the day it lands:

- one word per concept: bust, knock, a tap, boneyard, spinner, chipping out, the down, a
  play-off and "best of" legs are said with one word in each language, never the word they
  drifted to (the review's G6, G10, G12, C15, C16, H14, H18, H20);
- one register per language: Greek and Hungarian speak to the reader as a friend at the
  table (πάτα, koppints), Czech as *vy* (ťukněte), as docs/TRANSLATING.md says (G11, H19);
- a plural counts its own number: every plural message rendered at n = 1, 2, 5 and 21, its
  other numbers too, never says "1 νίκες", "1 vyhraných", "το πολύ 1 παιχνίδια" (G3, G4,
  C4);
- a Greek name or date never follows a preposition or an article, which it would need
  declined (G1, G5);
- no Czech z/ze, s/se, v/ve, k/ke and no Hungarian a/az before a number or a date filled
  in later (C5, H2, H3);
- a double is one message per number, so that Hungarian gives each number its ending
  ("6-os dupla", not "dupla 6") (H16).
"""

import re
from dataclasses import dataclass, field
from gettext import c2py

import pytest
from test_i18n_catalogues import LANGUAGES, forms, messages, read_catalogue

PLACEHOLDER = re.compile(r"%\((\w+)\)s")
NEVER = r"(?!)"


def english_of(msgid) -> str:
    """The English a message shows, its placeholders left out; both forms of a plural."""
    texts = msgid if isinstance(msgid, tuple) else (msgid,)
    return " / ".join(PLACEHOLDER.sub("", text) for text in texts)


def first(msgid) -> str:
    return msgid[0] if isinstance(msgid, tuple) else msgid


@pytest.fixture(scope="module", params=LANGUAGES)
def catalogue(request):
    return request.param, messages(read_catalogue(request.param))


# --- one word per concept ------------------------------------------------------------------

@dataclass(frozen=True)
class Concept:
    """A concept: where its English is, the word each language says for it (a regex), and
    the words it drifted to, which no message says."""

    name: str
    english: str
    words: dict[str, str]
    rejected: dict[str, str] = field(default_factory=dict)


CONCEPTS = [
    Concept("bust", r"\bbusts?\b",
            {"el": r"σκάσιμ", "cs": r"přetaž", "hu": r"túllép"},
            {"el": r"υπέρβασ", "cs": r"přestřel", "hu": r"túllöv|besokall"}),
    Concept("knock", r"\bknock(s|ed|ing)?\b",
            {"el": r"πάσο", "cs": r"\bdál\b", "hu": r"passz"},
            # a knock on the table is the gesture itself (Fives and Threes)
            {"el": r"χτυπά(?! το τραπέζι)", "cs": r"\bpas\b",
             "hu": r"kopog(?! az asztalon)"}),
    Concept("tap (the screen)", r"\btap(s|ped|ping)?\b",
            {"el": r"πάτ|πατ", "cs": r"ťuk", "hu": r"koppint"},
            # Czech taps are ťuknutí on every screen; «klepne na stůl» is the knock
            {"cs": r"\bklep(?!ne na stůl)\w*|\bklikn"}),
    Concept("boneyard", r"\bboneyard\b",
            {"el": r"ρεζέρβ", "cs": r"zásob", "hu": r"tartalék"},
            {"el": r"μάνα", "cs": r"\btalon", "hu": r"\bpakli"}),
    Concept("spinner", r"\bspinners?\b",
            {"el": r"spinner", "cs": r"spinner", "hu": r"négyfelé ágazó dupl"},
            # Czech says "dublety, které se větví", never "od kterých se větví"; Hungarian
            # "négyfelé ágazó dupla", never "elágazó dupla"
            {"el": r"περιστρεφ", "cs": r"\bod\b[^.:;]*\bvětví",
             "hu": r"(?<!négyfelé )ágazó dupl|\belágazó"}),
    Concept("chipping out", r"\bchip(s|ped|ping)? out\b",
            {"el": r"ντόμινο|βγ[αεήίου]", "cs": r"dohr", "hu": r"kime|kimen|ment ki|megy ki"},
            # a first-person verb is no term (Βγαίνω)
            {"el": r"\bβγαίνω\b|τέλος των πλακιδίων", "cs": r"\bvyšel|\bvyjde",
             "hu": r"\bkiszáll"}),
    Concept("the down", r"\bthe down\b",
            {"el": r"άνοιγμα", "cs": r"zahájen", "hu": r"kezdés"},
            # the English is quoted only in brackets after the word: "Άνοιγμα (the down)"
            {lang: r"(?<!\(the )\bdown\b" for lang in LANGUAGES}),
    Concept("play-off", r"\bplay-off\b",
            {"el": r"μπαράζ", "cs": r"rozhoduj", "hu": r"helyosztó"},
            # «döntő» is the final in Hungarian sport; a play-off places tied teams
            {"hu": r"döntő találkozó"}),
    Concept("best of N legs", r"\bbest of\b",
            {"el": r"σκέλ", "cs": r"parti", "hu": r"menet"},
            # «καλύτερο των 3 σκελών» is a calque of the English
            {"el": r"καλύτερ\w* των"}),
]

# Messages that rightly say a rejected word, and why: {(concept, language): {regex of the
# English: reason}}.
REJECTED_EXCEPTIONS = {
    ("boneyard", "el"): {r"^The tiles not dealt, face down\.":
                         "the boneyard's definition names the players' other word for it"},
    ("boneyard", "cs"): {r"^The tiles not dealt, face down\.":
                         "the boneyard's definition names the players' other word for it"},
}


@pytest.mark.parametrize("concept", CONCEPTS, ids=lambda concept: concept.name)
def test_a_concept_is_said_with_one_word(concept, catalogue):
    lang, found = catalogue
    wrong = [(english_of(msgid), said) for (_context, msgid), message in found.items()
             if re.search(concept.english, english_of(msgid), re.I)
             for said in forms(message) if not re.search(concept.words[lang], said, re.I)]
    assert not wrong, f"{lang}: {concept.name!r} is not said {concept.words[lang]!r} in {wrong}"
    rejected = concept.rejected.get(lang, NEVER)
    excused = REJECTED_EXCEPTIONS.get((concept.name, lang), {})
    drifted = [(first(msgid), said) for (_context, msgid), message in found.items()
               if not any(re.search(pattern, first(msgid)) for pattern in excused)
               for said in forms(message) if re.search(rejected, said, re.I)]
    assert not drifted, f"{lang}: {concept.name!r} drifted to {rejected!r} in {drifted}"


def test_every_rejected_word_exception_is_still_needed():
    unused = []
    for (name, lang), excused in REJECTED_EXCEPTIONS.items():
        concept = next(concept for concept in CONCEPTS if concept.name == name)
        found = messages(read_catalogue(lang))
        for pattern in excused:
            if not any(re.search(pattern, first(msgid))
                       and any(re.search(concept.rejected[lang], said, re.I)
                               for said in forms(message))
                       for (_context, msgid), message in found.items()):
                unused.append((name, lang, pattern))
    assert not unused, f"exceptions no message needs any more: {unused}"


# --- one register per language -------------------------------------------------------------

# The other register's forms, which no message may use.
OTHER_REGISTER = {
    # Greek speaks in the singular (πάτα, δες, γράψε): never the plural of politeness
    # (πατήστε, δείτε, γράψτε, να τη στείλετε) nor «σας»
    "el": r"\b\w+(?:[σξψ]τε|ετε|ατε|είτε|άτε|ήστε|ίστε|ούστε|ύστε|ίτε|έτε)\b|\bσας\b",
    # Hungarian says te (koppints, válassz, add meg): never the Ön forms (koppintson, adja
    # meg, hagyja üresen, kérdezze meg, hogy elküldhesse) where a clause starts with its verb
    "hu": r"(?:^|[.:;!?]\s+|\b(?:aztán|majd|hogy)\s+)"
          r"\w+(?:ja|je|zza|zze|ssa|sse|jon|jen|jön|zzon|zzen|sszon|sszen|tson|tsen|tsön)"
          r"\b(?!\s+a\s+\w+\s+(?:játékos|csapat|kapitány))"
          r"|\bÖn(?:nek|t|é|)\b",
    # Czech says vy (ťukněte, zadejte, vyberte): never the ty imperative
    "cs": r"\b(?:ťukni|klepni|napiš|zadej|vyber|zvol|zkus|počkej|pošli|podívej|uveď|nech"
          r"|vrať|ulož|spusť|použij|nastav|otevři|stáhni|nahraj|vlož|přidej|smaž|odstraň"
          r"|změň|potvrď|zeptej se|popiš|řekni|zapiš|obnov|přesuň)\b",
}

@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_language_speaks_in_one_register(lang):
    wrong = [(first(msgid), said) for (_context, msgid), message
             in messages(read_catalogue(lang)).items()
             for said in forms(message) if re.search(OTHER_REGISTER[lang], said)]
    assert not wrong, f"{lang}: the other register in {wrong}"


# --- a plural counts its own number ----------------------------------------------------------

# What is not a number in a plural message
NOT_NUMBERS = {"name", "names", "side", "sides", "player", "team", "line", "parts", "fixture",
               "not_played", "rules", "shown", "table", "scores", "games", "worked"}
# Numbers that have a range of their own: a table has 2 to 4 players
# that is not the counted one (a range takes the form of its upper bound, which the code
# keeps at five or more: docs/TRANSLATING.md)
RANGES = {"players": (2, 4), "high": (5, 10**6), "most": (5, 10**6), "set": (28, 28)}
# Forms of words after a number that no plural message counts itself, by plural form
# (the review's "1 νίκες", "1 vyhraných"): {language: {form: words}}
KNOWN_FORMS = {
    "el": {0: {"νίκη", "παιχνίδι", "παίκτης", "παίκτη"},
           1: {"νίκες", "παιχνίδια", "παίκτες"}},
    "cs": {0: {"vyhraná", "vyhraný", "hráč", "hra"},
           1: {"vyhrané", "vyhraní", "hráči", "hry"},
           2: {"vyhraných", "hráčů", "her"}},
    "hu": {},
}


def _index(catalog, n: int) -> int:
    """The plural form a catalogue's own Plural-Forms header gives n."""
    return c2py(catalog.plural_expr)(n)


def words_by_form(lang: str, found: dict) -> dict[int, set[str]]:
    """The word after a counted number in each plural form: where the same placeholder is
    followed by different words in different forms, each word belongs to its form."""
    seen: dict[str, set[int]] = {}
    for (_context, msgid), message in found.items():
        if not isinstance(msgid, tuple):
            continue
        said = forms(message)
        after = [dict(re.findall(r"%\((\w+)\)s ([^\W\d_]+)", form)) for form in said]
        for name in set().union(*after):
            words = [following.get(name) for following in after]
            if None not in words and len(set(words)) > 1:
                for index, word in enumerate(words):
                    if word:
                        seen.setdefault(word.lower(), set()).add(index)
    for index, known in KNOWN_FORMS[lang].items():
        for word in known:
            seen.setdefault(word, set()).add(index)
    return seen


def counted_in_english(msgid: tuple) -> set[str]:
    """The placeholders whose next word the English changes with the number (tile/tiles)."""
    singular, plural = (dict(re.findall(r"%\((\w+)\)s (\w+)", form)) for form in msgid[:2])
    return {name for name in singular if singular[name] != plural.get(name)}


def test_a_plural_counts_its_own_number(catalogue):
    lang, found = catalogue
    catalog = read_catalogue(lang)
    seen = words_by_form(lang, found)
    wrong = []
    for (_context, msgid), message in found.items():
        if not isinstance(msgid, tuple):
            continue
        for n in (1, 2, 5, 21):
            index = _index(catalog, n)
            form = forms(message)[index]
            values = {}
            counted = counted_in_english(msgid)
            for name in PLACEHOLDER.findall(form):
                low, high = (n, n) if name in counted else RANGES.get(name, (n, n))
                values[name] = "Ann" if name in NOT_NUMBERS else str(min(max(n, low), high))
            text = form % values
            for number, word in re.findall(r"(?<![\d.,–-])(\d+) ([^\W\d_]+)", text):
                forms_of_word = seen.get(word.lower())
                if forms_of_word and _index(catalog, int(number)) not in forms_of_word:
                    wrong.append((first(msgid), text))
    assert not wrong, f"{lang}: a number and the form of another number in {wrong}"


# --- Greek: no name or date after a preposition or an article -----------------------------

NAMES_AND_DATES = r"%\((?:name|names|side|sides|player|players|team|starter|old|new|from|to" \
                  r"|day|first|last)\)s"
# a preposition, or an article in a case a name would have to take (ο/η before the subject
# is the nominative the name is written in; στις is a date's own article: στις 4 Ιαν)
GREEK_BEFORE = r"\b(?:για|σε|από|με|προς|χωρίς|μετά|ως|έως|μέχρι|κατά|αντί|του|της" \
               r"|των|τον|την|τη|στον|στην|στη|στο)\s+"
GREEK_EXCEPTIONS = {
    r"^Confirmed by the %\(side\)s captain": "side is the word «γηπεδούχου» or «φιλοξενούμενης»",
    r"^The %\(side\)s captain asked": "side is the word «γηπεδούχου» or «φιλοξενούμενης»",
}


def test_a_greek_name_or_date_never_follows_a_preposition_or_an_article():
    """«25 πόντοι για Γιώργος»: a Greek name after a preposition needs its article and case,
    and a date its article (στις 4 Ιαν); put it after a colon, in brackets, or after a noun
    (την ομάδα %(team)s)."""
    wrong = [(first(msgid), said) for (_context, msgid), message
             in messages(read_catalogue("el")).items()
             if not any(re.search(pattern, first(msgid)) for pattern in GREEK_EXCEPTIONS)
             for said in forms(message)
             if re.search(GREEK_BEFORE + NAMES_AND_DATES, said, re.I)]
    assert not wrong, wrong


# --- no preposition or article that depends on how a number is read -----------------------

NUMBERS_AND_DATES = r"%\((?!(?:name|names|side|sides|player|players|team|starter|old|new|tile" \
                    r"|end|where|why|what|text|league|season|rules|line|spinner|arms|ends" \
                    r"|table|database|file|folder|store|reason|place|parts|shown)\))\w+\)s"


@pytest.mark.parametrize("lang, before", [
    # z 5 is read «ze pěti», s 7 «se sedmi», v 2 «ve dvou», k 2 «ke dvěma»
    ("cs", r"(?<![)\w])(?:z|ze|s|v|ve|k|ke)\s+"),
    # a 3, az 5: the article depends on how the number is read
    ("hu", r"(?<![)\w])(?:a|az|A|Az)\s+"),
], ids=["cs z/ze s/se v/ve k/ke", "hu a/az"])
def test_no_preposition_or_article_that_depends_on_a_number_filled_in_later(lang, before):
    wrong = [(first(msgid), said) for (_context, msgid), message
             in messages(read_catalogue(lang)).items()
             for said in forms(message) if re.search(before + NUMBERS_AND_DATES, said)]
    assert not wrong, f"{lang}: {wrong}"


# --- a double is one message per number ----------------------------------------------------

HUNGARIAN_ENDINGS = {0: "s", 1: "es", 2: "es", 3: "as", 4: "es", 5: "ös", 6: "os"}
"""The ending a Hungarian number takes before a noun: a 0-s, 1-es … 6-os dupla."""


def test_no_message_fills_a_doubles_number_in_later():
    """«dupla 6» is how no Hungarian player says it: the number's ending depends on the
    number, so a double is one message per number (web/scoring/view.py's DOUBLE_SPOKEN)."""
    assert [msgid for (_context, msgid) in messages(read_catalogue("hu"))
            if re.search(r"\bdouble %\(\w+\)s", first(msgid))] == []


def test_a_hungarian_double_gives_its_number_its_own_ending():
    found = messages(read_catalogue("hu"))
    said = {number: forms(found[(None, f"double {number}")])[0] for number in range(7)}
    assert said == {number: f"{number}-{ending} dupla"
                    for number, ending in HUNGARIAN_ENDINGS.items()}
