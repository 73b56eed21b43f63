"""What the screens show, read off a Match; display only, every rule comes from the engine."""

from collections import Counter
from typing import NamedTuple

from ...rules import (
    BLOCKED,
    DOMINO,
    WON,
    Draw,
    Hand,
    Lay,
    Match,
    Pass,
    Remaining,
    RuleError,
    RuleSet,
    Score,
    Side,
    Start,
    Undo,
    explain,
    normal,
    parse_tile,
    pips,
    tile_text,
)
from ...rules.hands.remaining import determined_pips
from ...rules.match.record import IllegalRecord
from ...rules.notation.events import button_value
from ...rules.placement import places
from ...rules.placement.laid import covered_by, covered_index, end_text
from ...rules.placement.layout import terms
from ...rules.words import N_
from ..answers.catalogue import format_number, ngettext, npgettext, phrased, say
from ..answers.catalogue import gettext as _

HELD_BY_CARD = N_("Not applied: this game's card is confirmed, so the table can change "
                  "nothing.")
"""A tap on a table whose league card is confirmed (the server's and the offline table's)."""


def explained(score: Score, match: Match, award: bool = True) -> str:
    """The engine's explanation of a score, worded in the reader's language."""
    return explain(score, match.table, award, say=say)


ECHO_LIMIT = 300
"""A refusal quotes what it refuses; a 200 kB field is quoted no further than this."""


def bounded(text: str, limit: int = ECHO_LIMIT) -> str:
    """The text, cut with an ellipsis where a quoted value makes it longer than `limit`."""
    return text if len(text) <= limit else text[:limit] + "…"


def number(value: int) -> str:
    """A score in the reader's number format, with a minus sign below zero (−15)."""
    return f"−{format_number(-value)}" if value < 0 else format_number(value)


def signed(value: int) -> str:
    """Points of a hand with their sign: +15, −15 (a subtraction), +0."""
    return f"−{format_number(-value)}" if value < 0 else f"+{format_number(value)}"


def refusal(error: Exception) -> str:
    """Why the rules (or a record) refused something, in the reader's language: the engine
    gives a catalogue template and its facts (and, where the words depend on a number, a
    plural template and the number); a record's refusal also words its place."""
    if isinstance(error, IllegalRecord):
        place = _(error.place_template, **error.place_facts)
        return _("%(place)s: %(reason)s", place=place, reason=refusal(error.cause))
    if getattr(error, "plural", None):
        if error.context:
            return bounded(npgettext(error.context, error.template, error.plural,
                                     error.number, **error.facts))
        return bounded(ngettext(error.template, error.plural, error.number, **error.facts))
    template = getattr(error, "template", None)
    if template:
        return bounded(_(template, **phrased(error.facts)))
    return bounded(str(error))


def card_words(card) -> dict | None:
    """What a table says of the league card that links its match (`matches.OnCard`): the
    card's confirmed, so nothing can change and who can reopen it; or the game was taken
    off the card; and which leg of a best-of game it scores, and the next leg's number
    once that leg may start here."""
    if card is None or not (card.held or card.leg):
        return None
    fixture = _("%(home)s v %(away)s", home=card.home, away=card.away)
    words = {"held": card.confirmed, "text": None, "leg": None, "next_leg": None}
    if card.confirmed:
        words["text"] = _(
            "Game %(game)s of %(fixture)s: both captains have confirmed the card, so this "
            "table can change nothing, Undo included. The league secretary, or both captains "
            "together, can reopen the card.", game=card.game, fixture=fixture)
    elif card.held:
        words["text"] = _(
            "The league secretary took this game off the card of %(fixture)s (it was game "
            "%(game)s): what is scored here no longer counts for the league.", game=card.game,
            fixture=fixture)
    if card.leg and not card.held:
        words["leg"] = _("Leg %(leg)s of game %(game)s of %(fixture)s, a best of %(legs)s "
                         "legs", leg=card.leg.number, game=card.game, fixture=fixture,
                         legs=card.leg.best_of)
        words["next_leg"] = card.leg.number + 1 if card.leg.next_due else None
    return words


def rule_set_line(match: Match) -> str:
    """Which game the match is refereed by, and its house rules, as every screen of a match
    says it."""
    rules = match.table.rules
    if rules.exact_target:
        line = _("%(rules)s · first to exactly %(target)s", rules=_(rules.shown_name),
                 target=match.table.target)
    else:
        line = _("%(rules)s · first to %(target)s", rules=_(rules.shown_name),
                 target=match.table.target)
    house = house_line(match.table.house)
    return f"{line} · {house}" if house else line


def house_line(house) -> str:
    """The house rules in force (`House rules: no point for the last tile`); empty when the
    table plays the rule set as it is."""
    switched = house.switched()
    if not switched:
        return ""
    return _("House rules: %(rules)s", rules="; ".join(_(word) for word in switched))


def target_hint(rules: RuleSet) -> str:
    """The default target of a rule set, and whether it must be hit exactly."""
    two, more = rules.targets
    if rules.exact_target:
        return _("Default: exactly %(target)s; a play that would pass it scores nothing.",
                 target=two)
    if two == more:
        return _("Default: %(target)s.", target=two)
    return _("Default: %(two)s; %(more)s with 3 or 4 on their own.", two=two, more=more)


def hand_size_hint(rules: RuleSet) -> str:
    """The tiles a rule set deals by default."""
    two, three, four = rules.hand_sizes
    if three == four:
        return _("Default: %(two)s each with two players, else %(more)s.", two=two, more=three)
    return _("Default: %(two)s each with two players, %(three)s with three, %(four)s with "
             "four.", two=two, three=three, four=four)


class SideShown(NamedTuple):
    """A side's name and score (`shown` in the reader's numbers, `bar` kept within the
    progress bar's 0 to target): a value, so the screen drawn from it can be kept."""

    name: str
    score: int
    shown: str
    bar: int
    won: bool


def sides(match: Match) -> tuple[SideShown, ...]:
    """Each side's name and score."""
    table = match.table
    return tuple(SideShown(table.side_name(side), score, number(score),
                           max(min(score, table.target), 0), match.winner == side)
                 for side, score in enumerate(match.scores))


def announcement(match: Match) -> dict | None:
    """The last entry's score, to be read out: `+15 Ann — 6-6 (12) + 3 = 15`.

    `scored` is False for a tile that made no score: the screen shows it quietly. `hand`
    and `move` (None: the hand's end) place it, for a link to it in the replay.
    """
    if match.log and isinstance(match.log[-1], Remaining):
        ended = next(hand for hand in reversed(match.hands) if hand.end is not None)
        return {"text": explained(ended.end, match), "scored": ended.end.points > 0,
                "hand": ended.number, "move": None}
    hand = moved_hand(match)
    if hand is None or not hand.moves or not isinstance(hand.moves[-1].move, Lay):
        return None
    score = match.move_score(hand, len(hand.moves) - 1)
    player = match.table.players[hand.moves[-1].seat]
    place = {"hand": hand.number, "move": len(hand.moves)}
    if score.facts["bust"] or score.facts["down"]:  # no score by the target's own rule
        return {"text": explained(score, match), "scored": False, "bust": True, **place}
    arithmetic = explained(score, match, award=False)
    if score.points:
        return {"text": _("+%(points)s %(name)s — %(sum)s", points=score.points, name=player,
                          sum=arithmetic), "scored": True, **place}
    return {"text": _("%(name)s: %(sum)s, no score", name=player, sum=arithmetic),
            "scored": False, **place}


def end_name(end: Side) -> str:
    """An open end as a person sees it on the table: the number it shows, `3-3` for a double."""
    return end_text(end)


DOUBLE_SPOKEN = (
    N_("double 0"),
    N_("double 1"),
    N_("double 2"),
    N_("double 3"),
    N_("double 4"),
    N_("double 5"),
    N_("double 6"),
)
"""A double as a person says it, one message per number: Hungarian gives each number its
own ending ("6-os dupla", "5-ös dupla"), as rules/placement/places.py does for a place."""


def end_spoken(end: Side) -> str:
    """An open end as a person says it: the number, `double 3` for a double (a screen
    reader would read `3-3` as "3 minus 3")."""
    return _(DOUBLE_SPOKEN[end.value]) if end.double else str(end.value)


def on_end(end: Side, tree: bool = False) -> str:
    """Where a tile goes, in the reader's words: "on the 3" on a line, "on 5-3" or "on the
    spinner 5-5" where doubles branch (rules/placement/places.py has a message for each place)."""
    return places.on_end(end, tree, say)


def branching(match: Match) -> bool:
    """Whether doubles branch in the match's rule set: ends are then named by laid tiles."""
    return match.table.rules.branches


def tile_order(tile) -> tuple:
    """The one order of tiles on every screen: doubles first, then high to low (6-5, 6-4…)."""
    low, high = tile
    return (low != high, -high, -low)


class TileButton(NamedTuple):
    """A tile button: the tile, the move it sends, the end it names when the tile fits two,
    what it scores and whether it would bust (pass an exact target: no score, said before
    the tap); a value, so the button drawn from it can be kept."""

    text: str
    low: int
    high: int
    move: str
    key: str
    end_word: str
    points: int
    bust: bool = False


def placements(match: Match) -> list[TileButton]:
    """The tile buttons: each names the end it covers only when the tile fits two ends."""
    hand = match.hand
    found = match.placements()
    offers = Counter(placement.tile for placement in found)
    tree = branching(match)
    buttons = []
    for placement in found:
        low, high = placement.tile
        text = tile_text(placement.tile)
        covered = _end_at(hand.ends, placement.end, placement.tile)
        where = placement.end if tree else end_name(covered) if covered else ""
        button = TileButton(
            text, low, high, button_value(placement.tile, placement.end),
            f"lay {text} {where}" if covered else f"lay {text}",
            on_end(covered, tree) if offers[placement.tile] > 1 else "", placement.points,
            placement.bust)
        buttons.append(((*tile_order(placement.tile), covered or ()), button))
    return [button for _order, button in sorted(buttons, key=lambda pair: pair[0])]


def _end_at(ends: tuple[Side, ...] | None, end: str | None, tile) -> Side | None:
    """The open side a move's end names (`rules.laid.covered_index`)."""
    index = covered_index(ends, end, tile) if ends is not None else None
    return None if index is None else ends[index]


class Arm(NamedTuple):
    """One arm's open end where doubles branch: the laid tile, the number it shows, whether
    it is a spinner or a spinner's side, and where it is as a screen reader says it."""

    tile: str
    low: int
    high: int
    value: int
    spinner: bool
    branch: bool
    where: str


class Layout(NamedTuple):
    """The open ends (a value, so the layout drawn from it can be kept): a line's two ends,
    their names as shown and as said; with spinners the arms, the spinners and the count's
    terms."""

    line: bool
    sides: tuple[Side, ...]
    count: int
    names: tuple[str, ...] = ()
    spoken: tuple[str, ...] = ()
    arms: tuple[Arm, ...] = ()
    spinners: tuple = ()
    sum: str = ""


def layout(match: Match) -> Layout | None:
    """The open ends as the table sees them: a line's two ends and their names; with spinners
    each arm's open end, the spinners marked, and the count with all its terms."""
    hand = match.hand
    if hand is None or not hand.ends or match.phase != "play":
        return None
    sides = hand.ends
    laid = next(index for index in range(len(hand.moves) - 1, -1, -1)
                if hand.moves[index].count is not None)
    count = hand.moves[laid].count
    if not branching(match):
        return Layout(True, sides, count, names=tuple(end_name(side) for side in sides),
                      spoken=tuple(end_spoken(side) for side in sides))
    arms = tuple(
        Arm(tile_text(side.tile), side.tile[0], side.tile[1], side.value, side.spinner,
            side.branch, on_end(side, tree=True))
        for side in terms(sides) + tuple(side for side in sides if side.branch))
    return Layout(False, sides, count, arms=arms, spinners=tuple(hand.spinners()),
                  sum=explained(match.move_score(hand, laid), match, award=False))


def players(match: Match) -> list[dict]:
    hand = match.hand
    return [{"seat": seat, "name": name,
             "held": hand.held[seat] if hand is not None and match.phase != "start" else None,
             "turn": match.turn == seat}
            for seat, name in enumerate(match.table.players)]


def end_of_hand(match: Match, entered: dict | None = None) -> dict | None:
    """The seats whose pips are needed, what is entered for each, and the tiles they could
    hold. A seat with nothing entered whose pips only one value fits gets that value."""
    if match.phase != "end":
        return None
    required, _optional = match.needed_remaining()
    hand = match.hand
    entered = entered or {}
    known = determined_pips(hand, [seat for seat in required if seat not in entered])
    unplayed = [{"text": tile_text(tile), "low": tile[0], "high": tile[1]}
                for tile in sorted(hand.unplayed(), key=tile_order)]
    names = match.table.players
    how = (_("%(name)s went out.", name=names[hand.outcome.seat]) if hand.result == DOMINO
           else _("Blocked: nobody can play."))
    seats = [dict(_entry(entered.get(seat)), seat=seat, name=names[seat],
                  held=hand.held[seat]) for seat in required]
    for seat in seats:
        if seat["seat"] in known:
            seat["pips"] = str(known[seat["seat"]])
            seat["filled"] = ngettext("%(name)s must hold exactly %(num)s pip: filled in.",
                                      "%(name)s must hold exactly %(num)s pips: filled in.",
                                      known[seat["seat"]], name=seat["name"])
    return {"how": how, "unplayed": unplayed, "seats": seats}


def _entry(entered: dict | None) -> dict:
    """What was typed or ticked for a seat; ticked tiles show their sum in the pips box."""
    if not entered:
        return {"pips": "", "ticked": []}
    ticked = [text for text in entered.get("tiles", []) if text]
    pips_text = entered.get("pips", "")
    try:
        if ticked:
            pips_text = str(sum(pips(parse_tile(text)) for text in ticked))
    except RuleError:
        pass
    return {"pips": pips_text, "ticked": ticked}


def entered_in_form(form, match: Match) -> dict:
    """The pips typed and tiles ticked per seat in an end-of-hand form, as text."""
    return {seat: {"pips": form.get(f"pips_{seat}", "")[:8],
                   "tiles": form.getlist(f"tiles_{seat}")[:28]}
            for seat in range(len(match.table.players))
            if form.get(f"pips_{seat}") or form.getlist(f"tiles_{seat}")}


def entered_in_event(event: Remaining) -> dict:
    """The pips or tiles of an end-of-hand entry, as the form shows them (kept by undo)."""
    return {seat: ({"tiles": [tile_text(tile) for tile in value]} if isinstance(value, tuple)
                   else {"pips": str(value)})
            for seat, value in event.held}


def describe_entry(event, match: Match) -> str:
    """A table event or an undo in a few words, for the notice about what the other phone
    entered."""
    names = match.table.players
    if isinstance(event, Undo):
        return _("an undo")
    if isinstance(event, Lay):
        return _lay_text(match, event)
    if isinstance(event, Draw):
        return _("a draw")
    if isinstance(event, Pass):
        return _("a knock") if match.table.rules.knocks else _("a pass")
    if isinstance(event, Start):
        return _("%(name)s leads", name=names[event.seat])
    return _("the pips left in hands")


def _lay_text(match: Match, event: Lay) -> str:
    """`3-5 on the 3` for a tile of the hand under way, else the tile alone."""
    hand = moved_hand(match)
    index = next((index for index, played in enumerate(hand.moves) if played.move == event),
                 None) if hand is not None else None
    covered = covered_by(hand, index) if index is not None else None
    text = tile_text(normal(event.tile))
    return f"{text} {on_end(covered, branching(match))}" if covered else text


def move_words(match: Match, hand: Hand, index: int) -> str:
    """One move of a hand as a person says it: `Ann laid 3-5 on the 3`, `Bob drew 1 tile`."""
    played = hand.moves[index]
    name = match.table.players[played.seat]
    move = played.move
    if isinstance(move, Lay):
        tile = tile_text(normal(move.tile))
        if index == 0:
            return _("%(name)s led %(tile)s", name=name, tile=tile)
        return _("%(name)s laid %(tile)s %(where)s", name=name, tile=tile,
                 where=on_end(covered_by(hand, index), branching(match)))
    if isinstance(move, Draw):
        return ngettext("%(name)s drew %(num)s tile", "%(name)s drew %(num)s tiles",
                        move.count, name=name)
    if match.table.rules.knocks:
        return _("%(name)s knocked", name=name)
    return _("%(name)s passed", name=name)


def moved_hand(match: Match) -> Hand | None:
    """The hand of the last move: the one under way, or the one it just ended (a rule set
    that counts no pips opens the next hand at once)."""
    if not match.log or not isinstance(match.log[-1], (Lay, Draw, Pass)):
        return match.hand
    return next(hand for hand in reversed(match.hands) if hand.moves)


def hand_over(match: Match) -> str | None:
    """How the hand the last move ended finished, where no pips are entered to say it."""
    hand = moved_hand(match)
    if hand is None or hand is match.hand or hand.outcome is None or hand.result == WON:
        return None
    leads = match.table.players[match.hand.starter]
    if hand.result == BLOCKED:
        return _("Hand %(number)s is blocked: nobody scores. %(name)s leads the next hand.",
                 number=hand.number, name=leads)
    return _("%(side)s went out. %(name)s leads the next hand.",
             side=match.table.side_name(hand.outcome.side), name=leads)


def last_action(match: Match) -> str | None:
    """The last move of the hand in words ("Dan drew 2 tiles"), so no tap goes unseen;
    a player's draws in a row are said together."""
    hand = moved_hand(match)
    if hand is None or not hand.moves:
        return None
    played = hand.moves[-1]
    if not isinstance(played.move, Draw):
        return move_words(match, hand, len(hand.moves) - 1)
    drawn = 0
    for before in reversed(hand.moves):
        if not isinstance(before.move, Draw) or before.seat != played.seat:
            break
        drawn += before.move.count
    return ngettext("%(name)s drew %(num)s tile", "%(name)s drew %(num)s tiles", drawn,
                    name=match.table.players[played.seat])


def took_back(match: Match) -> str:
    """What an undo of the last entry takes back: "Undid: Ann 6-4 (+10)"."""
    event = match.log[-1]
    names = match.table.players
    if isinstance(event, Remaining):
        hand = next(hand for hand in reversed(match.hands) if hand.end is not None)
        return _("Undid: the pips left in hand %(number)s (%(score)s)", number=hand.number,
                 score=explained(hand.end, match))
    if isinstance(event, Start):
        return _("Undid: %(name)s leads hand %(number)s", name=names[event.seat],
                 number=match.hand.number)
    hand = moved_hand(match)
    played = hand.moves[-1]
    name = names[played.seat]
    if isinstance(event, Lay):
        what = f"{name} {_lay_text(match, event)}"
        if played.points:
            return _("Undid: %(what)s (+%(points)s)", what=what, points=played.points)
        return _("Undid: %(what)s", what=what)
    if isinstance(event, Draw) and event.count > 1:  # one tile of a record's `draw 3`
        return _("Undid: one tile %(name)s drew", name=name)
    if isinstance(event, Draw):
        return _("Undid: %(name)s's draw", name=name)
    if match.table.rules.knocks:
        return _("Undid: %(name)s's knock", name=name)
    return _("Undid: %(name)s's pass", name=name)
