"""A step of a match's story as the replay shows it: where it is, what happened, the count
with its arithmetic and what it scored, the rules that applied (each linked to its
paragraph of the rules page), the layout drawn, and who plays next."""

from typing import NamedTuple

from markupsafe import Markup

from ...rules import DOMINO, WON, Lay, Match, RuleSet
from ...rules.errors import N_
from ...rules.placement.laid import laid_tiles
from ...rules.rulings import story as rules_story
from ...rules.rulings.story import END, MOVE, START, Step
from ...rules.setup.topics import ANSWERED, BRANCH, DOUBLE, DRAW, ENDS, FITS, LEAD, PASS
from ...rules.setup.topics import WON as REACHED
from ..answers.catalogue import format_number, npgettext
from ..answers.catalogue import gettext as _
from ..scoring.pictures import ends_said, hand_picture
from ..scoring.view import explained, move_words

SHARED_RULES = {
    LEAD: N_("The lead counts all its pips."),
    FITS: N_("A tile must match the number at an open end; its other half is then the new "
             "open end."),
    ENDS: N_("After every tile, the open ends are counted."),
    DOUBLE: N_("A double at an open end lies crosswise and counts both its halves."),
    BRANCH: N_("A spinner's side that no tile has started counts nothing."),
    DRAW: N_("A player who cannot play draws from the boneyard, one tile at a time, until "
             "they can play or it is empty."),
    PASS: N_("A player passes only once the boneyard is empty and no tile fits."),
    REACHED: N_("The match ends the moment a side reaches the target: nothing more is "
                "played or scored."),
}
"""The rules every game shares, in catalogue words (`rules/topics.py`)."""
SHARED_PARAGRAPHS = {LEAD: "scoring", ENDS: "scoring", DOUBLE: "scoring", BRANCH: "spinners",
                     FITS: "play", DRAW: "play", PASS: "play", REACHED: "target"}
"""Where the rules page says each: its anchor (the spinners' card where doubles branch)."""


def cited(rules: RuleSet, topics) -> list[tuple[str, str]]:
    """The rules of `topics` in the reader's words, each with its anchor on the rules page:
    a question every game answers is this game's answer, at `<game>-<topic>`."""
    found = []
    for topic in topics:
        if topic in ANSWERED:
            question, answer, values = rules.answer(topic)
            found.append((f"{_(question)}: {_(answer, **values)}", f"{rules.name}-{topic}"))
        else:
            anchor = SHARED_PARAGRAPHS[topic]
            if rules.branches and topic in (ENDS, DOUBLE, FITS):
                anchor = "spinners"
            found.append((_(SHARED_RULES[topic]), anchor))
    return found


class Shown(NamedTuple):
    """A step as the replay shows it (`at` is the match as it stood after it)."""

    step: Step
    at: Match
    place: str
    what: str
    why: str | None
    scored: bool
    ended: str | None
    rules: list[tuple[str, str]]
    picture: Markup | None
    counted: str | None
    then: str


def shown(match: Match, step: Step) -> Shown:
    """What the replay shows of `step` of `match`."""
    at = rules_story.position(match, step.number)
    hand = at.hands[step.hand - 1]
    players = at.table.players
    why, scored, ended, latest = None, False, None, None
    if step.kind == START:
        what = _("%(name)s leads", name=players[hand.starter])
    elif step.kind == END:
        what, scored = explained(hand.end, at), hand.end.points > 0
    else:
        index = step.move - 1
        what = move_words(at, hand, index)
        if isinstance(hand.moves[index].move, Lay):
            score = at.move_score(hand, index)
            why, scored, latest = explained(score, at), score.points > 0, index
        if index == len(hand.moves) - 1:
            ended = _ended(at, hand)
    picture = hand_picture(at, hand, "large", latest) if step.kind != START else None
    counted = picture and ends_said(at.table, laid_tiles(hand.moves), tuple(hand.moves))
    return Shown(step, at, place(step), what, why, scored, ended,
                 cited(at.table.rules, rules_story.applied(at, step)), picture, counted,
                 _then(at))


def place(step: Step) -> str:
    """Where a step is, as the score sheet numbers it: `Hand 3, move 7`."""
    if step.kind == MOVE:
        return _("Hand %(n)s, move %(move)s", n=step.hand, move=step.move)
    if step.kind == START:
        return _("Hand %(n)s: who leads", n=step.hand)
    return _("Hand %(n)s, end", n=step.hand)


def _ended(at: Match, hand) -> str | None:
    """How the hand ended at its last move, where it did."""
    if hand.outcome is None:
        return None
    if hand.result == WON:
        side = at.winner
        return npgettext("points", "%(name)s won the match with %(score)s!",
                         "%(name)s won the match with %(score)s!", at.scores[side],
                         name=at.table.side_name(side), score=format_number(at.scores[side]))
    if hand.result == DOMINO:
        return _("%(side)s went out.", side=at.table.side_name(hand.outcome.side))
    return _("Blocked: nobody can play.")


def _then(at: Match) -> str:
    """What comes next at this position."""
    phase = at.phase
    if phase == "over":
        return _("%(name)s won the match!", name=at.table.side_name(at.winner))
    if phase == "end":
        return _("End of hand %(n)s: counting the pips", n=at.hand.number)
    if phase == "start":
        return _("Waiting for the next hand")
    return _("%(name)s to play", name=at.table.players[at.turn])

