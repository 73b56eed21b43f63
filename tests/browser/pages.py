"""What a person does and sees on the scorekeeper, in Playwright terms.

`Scorer` taps through a match as the phone on the table does; the functions
below measure what a test asserts about any screen (accessibility, touch
targets, text size, width, colours) and save its picture.
"""

import os
import re
from gettext import NullTranslations
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

SCREENSHOTS = Path(__file__).resolve().parents[1] / "screenshots"
DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
NAMES = ("Ann", "Bob", "Cat", "Dan")
ENGLISH = NullTranslations()
"""The app's own words; a test in another language passes its catalogue (replay.catalogue)."""

_CSP_LISTENER = """document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`);
});"""


class Watcher:
    """Collects console errors, uncaught exceptions and CSP violations of one page."""

    def __init__(self, page: Page):
        self.seen: list[str] = []
        self.allowed: list[str] = []
        page.add_init_script(_CSP_LISTENER)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.seen.append(f"page error: {error}"))

    def _console(self, message) -> None:
        if message.type == "error":
            self.seen.append(f"console error: {message.text} ({message.location.get('url')})")

    def expect(self, text: str) -> None:
        """An error containing `text` is part of the scenario (e.g. a 409 answer)."""
        self.allowed.append(text)

    def unexpected(self) -> list[str]:
        return [seen for seen in self.seen if not any(text in seen for text in self.allowed)]


ENDS = [f"on the {value}" for value in range(7)] + [f"on the {value}-{value}"
                                                    for value in range(7)]
"""A line's open ends as the tile buttons name them: one catalogue message each."""
IN_CONTEXT = {"Draw": "take a tile from the boneyard"}
"""Buttons whose English word has more than one meaning: the catalogue's context of each."""


def tile_name(tile: str, end: str | None = None, words=ENGLISH) -> re.Pattern:
    """The accessible name of a tile button: `3-5`, with the number it covers when it fits
    two ends (`3-5 on the 3`, `3-5 on the 3-3`), then the points it would score (or `bust`).

    `end` is written as the English button says it (`on the 3`); `words` the language
    the phone speaks.
    """
    if end:
        where = " " + re.escape(words.gettext(end))
    else:
        where = "(?: (?:" + "|".join(re.escape(words.gettext(each)) for each in ENDS) + "))?"
    bust = re.escape(words.gettext("bust"))
    return re.compile(rf"^{re.escape(tile)}{where}(?: \+\d+| {bust})?$")


class Scorer:
    """The scoring screen of one match, driven by taps only."""

    def __init__(self, page: Page, words=ENGLISH):
        self.page = page
        self.words = words
        self.say = words.gettext

    @property
    def pos(self):
        return self.page.locator("#table input[name=pos]").first

    @property
    def revision(self) -> int:
        return int(self.pos.input_value())

    @property
    def url(self) -> str:
        return self.page.url

    @property
    def match_id(self) -> str:
        return self.page.url.split("/match/")[1].split("/")[0]

    @property
    def heading(self):
        return self.page.locator("#table h1")

    @property
    def announcement(self):
        return self.page.locator("#table .announce")

    def tile(self, tile: str, end: str | None = None):
        return self.page.get_by_role("button", name=tile_name(tile, end, self.words))

    def button(self, name: str):
        """A button named in the app's words (`Draw`), or a player's name."""
        said = (self.words.pgettext(IN_CONTEXT[name], name) if name in IN_CONTEXT
                else self.say(name))
        return self.page.get_by_role("button", name=said, exact=True)

    def _tap(self, locator, written: int = 1) -> None:
        """Tap, then wait until the table (swapped or reloaded) shows the revision `written`
        entries on (an Undo of one tile of a record's `draw 3` writes two)."""
        before = self.revision
        if getattr(self.page, "javascript", True):
            # a new table ignores taps for a moment (the double-tap guard in app.css):
            # wait for exactly that, not for Playwright's retries
            locator.evaluate("(el) => Promise.all(el.getAnimations().map((a) => a.finished))")
        locator.tap()
        expect(self.pos).to_have_value(str(before + written))

    def start(self, name: str) -> None:
        self._tap(self.button(name))

    def lay(self, tile: str, end: str | None = None) -> None:
        self._tap(self.tile(tile, end))

    def draw(self) -> None:
        self._tap(self.button("Draw"))

    def pass_turn(self) -> None:
        self._tap(self.button("Pass"))

    def knock(self) -> None:
        self._tap(self.button("Knock"))

    def undo(self, written: int = 1) -> None:
        self._tap(self.button("Undo"), written)

    def pips_field(self, name: str):
        group = self.page.get_by_role("group", name=re.compile(rf"^{re.escape(name)} \("))
        return group.get_by_label(self.say("Pips"))

    def enter_pips(self, check: bool = False, **pips: int) -> None:
        """Type each player's pips; then tap Check (a preview) or Score the hand."""
        for name, value in pips.items():
            self.pips_field(name).fill(str(value))
        if check:
            self.button("Check").tap()
            expect(self.page.locator("#table .preview")).to_be_visible()
        else:
            self._tap(self.button("Score the hand"))

    def side_score(self, side_name: str):
        side = self.page.locator("#table .side").filter(
            has=self.page.locator(".side-name", has_text=re.compile(
                rf"^{re.escape(side_name)}$")))
        return side.locator(".side-score")


def settled(page: Page) -> None:
    """Wait until htmx has finished swapping and settling (its classes are gone)."""
    busy = page.locator(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")
    expect(busy).to_have_count(0)  # (wait_for_function would need eval, which the CSP blocks)


def new_match(page: Page, players: int = 2, *, hand_size: int | None = None,
              target: int | None = None, partnerships: bool = False,
              rules: str | None = None, words=ENGLISH) -> Scorer:
    """Fill in the new-match form by touch and start the match (the labels in `words`)."""
    say = words.gettext
    page.goto("/new")
    if rules is not None:
        page.get_by_role("link", name=rules).tap()
        expect(page.get_by_role("link", name=rules)).to_have_attribute("aria-current", "true")
        settled(page)
    if players != 2:
        count = words.ngettext("%(num)s player", "%(num)s players", players)
        page.get_by_role("link", name=count % {"num": players}).tap()
        expect(page.get_by_label(say(f"Seat {players}"))).to_be_visible()
        settled(page)
    for seat, name in enumerate(NAMES[:players], 1):
        page.get_by_label(say(f"Seat {seat}")).fill(name)
    together = page.get_by_label(say("Partnerships: seats 1 & 3 against seats 2 & 4"))
    if partnerships:
        together.tap()
        expect(together).to_be_checked()
        # with JavaScript the form comes back with the partnerships' default target
        expect(page.get_by_label(say("Target (points)"))).to_have_value("250")
    if target is not None:
        page.get_by_label(say("Target (points)")).fill(str(target))
    if hand_size is not None:
        page.get_by_label(say("Tiles dealt to each player")).fill(str(hand_size))
    page.get_by_role("button", name=say("Start the match")).tap()
    page.wait_for_url("**/match/**")
    return Scorer(page, words)


# -- what every screen is checked for ----------------------------------------

_axe = None


def serious_axe_violations(page: Page, rules: list[str] | None = None) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now (all rules,
    or only those named).

    axe runs inside the page: not in a context with JavaScript disabled (it would hang).
    """
    global _axe
    if _axe is None:
        _axe = Axe()
    options = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": rules}
    results = _axe.run(page, options=options)
    return [f"{violation['id']} ({violation['impact']}): {violation['help']} at "
            + ", ".join(str(node["target"]) for node in violation["nodes"][:5])
            for violation in results.response["violations"]
            if violation["impact"] in ("serious", "critical")]


def assert_accessible(page: Page, where: str, rules: list[str] | None = None) -> None:
    problems = serious_axe_violations(page, rules)
    assert not problems, f"{where}: " + "\n".join(problems)


_SMALL_TARGETS = """(minimum) => {
  const targets = "button, .button, input:not([type=hidden]), select, textarea, summary, "
    + "a[href]";
  const rect = (el) => {
    // a checkbox is tapped through its label as well
    const label = el.type === "checkbox" && (el.closest("label") || el.labels?.[0]);
    if (!label) return el.getBoundingClientRect();
    const a = el.getBoundingClientRect(), b = label.getBoundingClientRect();
    const left = Math.min(a.left, b.left), top = Math.min(a.top, b.top);
    return {width: Math.max(a.right, b.right) - left, height: Math.max(a.bottom, b.bottom) - top};
  };
  return [...document.querySelectorAll(targets)]
    .filter((el) => el.checkVisibility() && el.getClientRects().length)
    .map((el) => ({el, r: rect(el)}))
    .filter(({r}) => r.width < minimum - 0.5 || r.height < minimum - 0.5)
    .map(({el, r}) => `${el.outerHTML.slice(0, 90)} is ${Math.round(r.width)}x`
                      + `${Math.round(r.height)}`);
}"""

_SMALL_TEXT = """(minimum) => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el.checkVisibility() || el.closest(".sr, [aria-hidden=true]"))
      continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < minimum - 0.01)
      small.push(`"${node.textContent.trim().slice(0, 40)}" in `
                 + `<${el.tagName.toLowerCase()} class="${el.className}"> is ${size}px`);
  }
  return small;
}"""


def comfort_problems(page: Page) -> list[str]:
    """Touch targets under 44×44 CSS px and text under 16 px, each as one line."""
    return ([f"small target: {found}" for found in small_touch_targets(page)]
            + [f"small text: {found}" for found in small_text(page)])


def assert_comfortable(page: Page, where: str) -> None:
    problems = comfort_problems(page)
    assert not problems, f"{where}:\n" + "\n".join(problems)


def small_touch_targets(page: Page, minimum: int = 44) -> list[str]:
    return page.evaluate(_SMALL_TARGETS, minimum)


def small_text(page: Page, minimum: int = 16) -> list[str]:
    return page.evaluate(_SMALL_TEXT, minimum)


def scroll_width(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def luminance(css_color: str) -> float:
    """Relative luminance (WCAG) of an `rgb(...)` / `rgba(...)` computed colour."""
    red, green, blue = (int(value) / 255 for value in re.findall(r"[\d.]+", css_color)[:3])

    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def colours(page: Page, selector: str = "body") -> tuple[float, float]:
    """(background, text) luminance of the element; background from the nearest painted one."""
    background, text = page.evaluate("""(selector) => {
      let el = document.querySelector(selector);
      const text = getComputedStyle(el).color;
      while (el && getComputedStyle(el).backgroundColor === "rgba(0, 0, 0, 0)")
        el = el.parentElement;
      return [el ? getComputedStyle(el).backgroundColor : "rgb(255, 255, 255)", text];
    }""", selector)
    return luminance(background), luminance(text)


def shoot(page: Page, name: str, docs: bool = False, at: str | None = None) -> Path:
    """Save the screen in tests/screenshots/ (git-ignored, the whole page).

    With UPDATE_DOCS_SCREENSHOTS=1, a `docs` screen is also saved, as the phone
    shows it without scrolling (from its top, or from the element `at` selects, as a link
    to a part of a page opens it), in docs/screenshots/ for the README.
    """
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=path, full_page=True, scale="css", animations="disabled")
    if docs and os.environ.get("UPDATE_DOCS_SCREENSHOTS") == "1":
        DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        if at is None:
            page.evaluate("window.scrollTo(0, 0)")  # the top of the screen, as a person opens it
        else:
            page.locator(at).first.evaluate("(element) => element.scrollIntoView()")
        page.screenshot(path=DOCS_SCREENSHOTS / f"{name}.png", full_page=False, scale="css",
                        animations="disabled")
    return path


def first_answered(page: Page, pattern: str, answer) -> list:
    """Route the first request matching `pattern` to `answer(route)` and let the others
    through; returns the list of URLs it answered (one once it has)."""
    answered = []

    def route(request_route):
        if answered:
            return request_route.continue_()
        answered.append(request_route.request.url)
        return answer(request_route)

    page.route(pattern, route)
    return answered
