"""Phones set to Greek, Czech and Hungarian: a whole hand in Greek, the end of a hand in
Czech and in Hungarian, and every screen at 320 px with no button clipped in any language.

Each phone only has its language set (as a new user's would): the app follows the
browser's Accept-Language. The words the test expects come from the same catalogues.
"""

import pytest
from english import english_left
from playwright.sync_api import expect

from scorekeeper.commands.console import catalogue
from scorekeeper.rules import Match

from .pages import Scorer, assert_accessible, new_match, scroll_width, shoot

pytestmark = pytest.mark.browser

PHONE_LOCALES = {"en": "en-GB", "el": "el-GR", "cs": "cs-CZ", "hu": "hu-HU"}


def words(lang: str):
    return catalogue({"LANG": f"{lang}.UTF-8"})


def phone_in(open_phone, lang: str, **options):
    page = open_phone(locale=PHONE_LOCALES[lang], **options)
    page.words = words(lang)
    return page


def said(page, message: str, **values) -> str:
    return page.words.gettext(message) % values


def assert_no_english(page, where: str) -> None:
    left = english_left(page.content())
    assert not left, f"{where}: English left: {left}"


def test_a_whole_hand_in_greek_by_tapping(open_phone):
    page = phone_in(open_phone, "el")
    table = new_match(page, 2, hand_size=3, words=page.words)
    expect(page.locator("html")).to_have_attribute("lang", "el")
    expect(table.heading).to_have_text("Γύρος 1: ποιος έχει το μεγαλύτερο διπλό;")

    table.start("Ann")
    expect(table.heading).to_have_text("Ανοίγει: Ann")
    table.lay("2-3")
    expect(table.announcement).to_have_text("+5 Ann — άνοιγμα 2-3: 2 + 3 = 5")
    expect(table.heading).to_have_text("Παίζει: Bob")
    table.draw()
    expect(page.locator("#table .held")).to_contain_text("Bob 4")
    expect(page.locator("#table .held")).to_contain_text("Ρεζέρβα")
    table.lay("2-5")
    expect(table.announcement).to_have_text("Bob: 5 + 3 = 8, χωρίς πόντους")
    expect(table.tile("3-5", "on the 3")).to_have_accessible_name("3-5 στο 3 +10")
    assert_accessible(page, "the table in Greek")
    assert_no_english(page, "the table in Greek")
    shoot(page, "table-el", docs=True)

    table.lay("3-5", "on the 3")
    expect(table.announcement).to_have_text("+10 Ann — 5 + 5 = 10")
    table.lay("5-6")
    table.lay("4-5")
    expect(table.heading).to_have_text("Ann βγήκε.")
    expect(page.get_by_role("group", name="Bob (2 πλακίδια)")).to_be_visible()

    table.pips_field("Bob").fill("40")
    page.watcher.expect("status of 422")
    table.button("Check").tap()
    expect(page.locator("#table .error")).to_have_text(
        "Bob δεν μπορεί να έχει 40 σε 2 πλακίδια: 2 πλακίδια που δεν παίχτηκαν σε αυτόν τον "
        "γύρο έχουν από 1 έως 22 βούλες")
    table.enter_pips(check=True, Bob=13)
    expect(page.locator("#table .preview")).to_have_text(
        "Ann βγήκε. Bob 13 → 15: 15 πόντοι: Ann")
    assert_no_english(page, "the end of a hand in Greek")
    table.enter_pips(Bob=13)
    expect(table.side_score("Ann")).to_have_text("40")
    expect(table.heading).to_have_text("Ανοίγει: Ann")

    page.get_by_role("link", name="Φύλλο πόντων").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Φύλλο πόντων")
    expect(page.locator(".scores li")).to_have_text([
        "Γύρος 1, κίνηση 1 Ann άνοιξε με 2-3: άνοιγμα 2-3: 2 + 3 = 5 → 5 πόντοι: Ann",
        "Γύρος 1, κίνηση 4 Ann έπαιξε 3-5 στο 3: 5 + 5 = 10 → 10 πόντοι: Ann",
        "Γύρος 1, κίνηση 6 Ann έπαιξε 4-5 στο 5: 6 + 4 = 10 → 10 πόντοι: Ann",
        "Γύρος 1, τέλος Ann βγήκε. Bob 13 → 15: 15 πόντοι: Ann",
    ])
    assert_accessible(page, "the score sheet in Greek")
    assert_no_english(page, "the score sheet in Greek")


def went_out() -> Match:
    """Ann goes out with her second tile (0-0 on the 0); Bob holds two tiles."""
    match = Match.create(["Ann", "Bob"], hand_size=2)
    match.start(0)
    match.lay((5, 5))
    match.draw()
    match.lay((5, 0), "L")
    match.lay((0, 0), "L")
    return match


@pytest.mark.parametrize(("lang", "expected"), [
    ("cs", {"heading": "Ann hlásí domino.", "group": "Bob (2 kameny)",
            "refused": "Bob nemůže mít 40 na 2 kamenech: 2 kameny, které v tomto kole "
                       "nebyly zahrány, mají od 3 do 23 ok",
            "preview": "Ann hlásí domino. Bob 13 → 15, celkem 15 bodů: Ann",
            "next": "Zahajuje Ann"}),
    ("hu", {"heading": "Ann kiment.", "group": "Bob (2 kő)",
            "refused": "Bob 2 kövén nem lehet 40 pötty: ennyi, ebben a leosztásban le nem "
                       "rakott kövön 3–23 pötty van",
            "preview": "Ann kiment. Bob 13 → 15: Ann kap 15 pontot",
            "next": "Ann kezd"}),
])
def test_the_end_of_a_hand_in_czech_and_hungarian(open_phone, server, lang, expected):
    page = phone_in(open_phone, lang)
    page.goto(server.store_match(went_out())["table"])
    table = Scorer(page, page.words)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(table.heading).to_have_text(expected["heading"])
    expect(page.get_by_role("group", name=expected["group"])).to_be_visible()

    table.pips_field("Bob").fill("40")
    page.watcher.expect("status of 422")
    table.button("Check").tap()
    expect(page.locator("#table .error")).to_have_text(expected["refused"])
    table.enter_pips(check=True, Bob=13)
    expect(page.locator("#table .preview")).to_have_text(expected["preview"])
    assert_accessible(page, f"the end of a hand in {lang}")
    assert_no_english(page, f"the end of a hand in {lang}")
    shoot(page, f"end-of-hand-{lang}", docs=True)
    table.enter_pips(Bob=13)
    expect(table.side_score("Ann")).to_have_text("35")  # 10 + 10 in play, then 15
    expect(table.heading).to_have_text(expected["next"])


_OVERFLOWING = """() => {
  const width = document.documentElement.clientWidth;
  const seen = "button, .button, summary, label, legend, .counts a, .top a, .languages a, h1";
  return [...document.querySelectorAll(seen)]
    .filter((el) => el.checkVisibility() && el.getClientRects().length)
    .filter((el) => {
      const r = el.getBoundingClientRect();
      return r.right > width + 0.5 || r.left < -0.5
             || (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1);
    })
    .map((el) => `${el.outerHTML.slice(0, 100)} (${Math.round(el.getBoundingClientRect().width)}`
                 + ` px, its text ${el.scrollWidth} px)`);
}"""


def _playing() -> Match:
    """Bob to play on 6-6 with the boneyard empty: Pass is offered beside the tiles."""
    match = Match.create(["Ann", "Bob", "Cat", "Dan"], partnerships=True, hand_size=7)
    match.start(0)
    match.lay((6, 6))
    return match


def _drawing() -> Match:
    match = Match.create(["Ann", "Bob"], hand_size=3)
    match.start(0)
    match.lay((2, 3))
    return match


@pytest.fixture(scope="module")
def narrow_screens(server) -> dict:
    playing, drawing, ended = (server.store_match(make())
                               for make in (_playing, _drawing, went_out))
    return {"home": "/", "new match": "/new?players=4&partnerships=y", "rules": "/rules",
            "not found": "/match/nothing/here", "table, pass": playing["table"],
            "table, draw": drawing["table"], "end of a hand": ended["table"],
            "score sheet": playing["sheet"], "scoreboard": playing["board"]}


@pytest.mark.parametrize("lang", ["hu", "el", "cs", "en"])
def test_no_button_is_clipped_at_320_px(open_phone, narrow_screens, lang):
    """Hungarian and Greek words run 30–40 % longer than English: every screen still fits."""
    page = phone_in(open_phone, lang, viewport={"width": 320, "height": 640})
    page.watcher.expect("status of 404")
    for screen, url in narrow_screens.items():
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        page.locator("details.languages summary").tap()
        problems = page.evaluate(_OVERFLOWING)
        assert not problems, f"{screen} in {lang} at 320 px:\n" + "\n".join(problems)
        assert scroll_width(page) <= 320, f"{screen} in {lang} scrolls sideways at 320 px"
        if lang == "hu":
            shoot(page, f"320-hu-{screen.replace(', ', '-').replace(' ', '-')}")
