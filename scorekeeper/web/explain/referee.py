"""Ask the referee: pose a position (a game, or all four side by side; the open ends; each
side's score) and a tile, and get a ruling: can it be laid, where, and what each place
scores, with the arithmetic and the rules that applied. The question is a GET form, so
every ruling has its own address to send to the other table."""

from typing import NamedTuple

from flask import request

from ...rules import RuleError, RuleSet, explain, parse_tile
from ...rules.rulings.referee import Option, Ruling, read_ends, rule, token
from ..answers.area import PUBLIC, Area, Policy
from ..answers.catalogue import gettext as _
from ..answers.pages import screen
from ..answers.sharing import shared_url
from ..scoring.forms import default_name
from ..scoring.view import house_line, number, on_end, refusal
from .referee_forms import RefereeForm
from .story import cited

bp = Area("referee", __name__, Policy(PUBLIC), url_prefix="/referee")


class Place(NamedTuple):
    """One place the tile can go, in words: where, the arithmetic, what else it does, the
    scores after it and the rules that applied."""

    where: str
    worked: str
    scored: bool
    notes: list[str]
    after: str
    rules: list[tuple[str, str]]


class Ruled(NamedTuple):
    """A game's ruling in words: why it cannot rule (a position that game cannot show), or
    its verdict and each place."""

    rules: RuleSet
    house: str
    refused: str | None
    verdict: str | None
    places: list[Place]


@bp.get("")
def ask():
    form = RefereeForm(request.args)
    rulings, status = None, 200
    if form.asked():
        if form.validate():
            rulings = [_ruled(form, rules) for rules in form.rule_sets()]
        else:
            status = 422
    address = shared_url("referee.ask", **request.args) if rulings else None
    return screen("referee/referee.html", "referee/_referee.html", form=form, rulings=rulings,
                  address=address), status


def _ruled(form: RefereeForm, rules: RuleSet) -> Ruled:
    """One game's ruling on the form's question, or why that game cannot rule on it."""
    scores = form.side_scores()
    names = tuple(default_name(seat) for seat in range(1, len(scores) + 1))
    try:
        sides = read_ends(form.ends.data, rules)
        ruling = rule(rules, names, form.target.data, sides, scores, bool(form.last.data),
                      parse_tile(form.tile.data), form.house(rules))
    except RuleError as error:
        return Ruled(rules, "", refusal(error), None, [])
    return Ruled(rules, house_line(ruling.table.house), None, _verdict(ruling),
                 [_place(ruling, option) for option in ruling.options])


def _verdict(ruling: Ruling) -> str:
    tile = f"{ruling.tile[0]}-{ruling.tile[1]}"
    if ruling.laid:
        return _("No: %(tile)s is already on the table.", tile=tile)
    if not ruling.options:
        ends = ", ".join(token(side) for side in ruling.sides)
        return _("No: %(tile)s matches none of the open ends (%(ends)s).", tile=tile,
                 ends=ends)
    if ruling.options[0].end is None:
        return _("Yes: %(tile)s is the lead.", tile=tile)
    return _("Yes: %(tile)s can be laid %(where)s.", tile=tile, where=_(" or ").join(
        _where(option) for option in ruling.options))


def _place(ruling: Ruling, option: Option) -> Place:
    table = ruling.table
    notes = []
    if option.won:
        notes.append(_("%(side)s reaches the target and wins the match.",
                       side=table.side_name(0)))
    elif option.out:
        notes.append(_("%(side)s goes out: the hand ends.", side=table.side_name(0)))
    after = ", ".join(f"{table.side_name(side)} {number(score)}"
                      for side, score in enumerate(option.scores))
    return Place(_where(option), explain(option.score, table, say=_), option.score.points > 0,
                 notes,
                 _("Scores after it: %(scores)s", scores=after),
                 cited(table.rules, option.topics))


def _where(option: Option) -> str:
    """Where a place is, as the table says it: on the 3, on the spinner 5-5, as the lead."""
    end = option.end
    if end is None:
        return _("as the lead")
    return on_end(end, tree=end.spinner)
