"""One form class per thing a user does; the rules themselves are checked by the engine."""

import re
import unicodedata

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from werkzeug.routing import IntegerConverter
from wtforms import BooleanField, HiddenField, IntegerField, StringField
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, Optional

from ...rules import (
    ALL_FIVES,
    RULE_SETS,
    ImpossibleHand,
    RuleSet,
    SetupError,
    Table,
    find_rule_set,
    normal,
    parse_tile,
)
from ...rules.errors import N_
from ...rules.limits import MAX_NAME, MAX_PLAYERS, MAX_TARGET, MIN_TARGET, SET_SIZE
from ...rules.setup.rulesets import LAST_TILE_POINT, WIN_ON_THE_DOWN
from ..answers.catalogue import gettext as _
from ..answers.catalogue import wtforms_catalogue
from .view import refusal


class Form(FlaskForm):
    """Every form of the app: WTForms' messages from a catalogue loaded once per language."""

    class Meta:
        def get_translations(self, form):
            return wtforms_catalogue()


NAME_FIELDS = ("player1", "player2", "player3", "player4")
LONG = _l("A name has at most %(max)s characters.")


MAX_DIGITS = 12
"""Digits a number field reads: more than any field allows, far fewer than a float holds
(WTForms' range check compares through a float, and 400 digits overflowed it: a 500)."""
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+")


class WholeNumber(IntegerField):
    """A whole number written in plain digits, as a number input sends it.

    "1e3", "1.5", "٣" or "1_000" are refused as not a number (Python's int() reads the
    last two); a number longer than MAX_DIGITS is not converted but stands for one past
    every range, so the field's range check refuses it with the field's own reason.
    """

    def __init__(self, label=None, validators=None, **kwargs):
        kwargs.setdefault("invalid_value_message", _l("Enter a whole number, in digits."))
        super().__init__(label, validators, **kwargs)

    def process_formdata(self, valuelist) -> None:
        if not valuelist:
            return
        text = str(valuelist[0]).strip()
        if not _PLAIN_NUMBER.fullmatch(text):
            self.data = None
            raise ValueError(str(self.invalid_value_message))
        digits = text.lstrip("+-").lstrip("0") or "0"
        size = int(digits) if len(digits) <= MAX_DIGITS else 10 ** MAX_DIGITS
        self.data = -size if text.startswith("-") else size


class WholeNumberField(WholeNumber):
    """A whole number, required; missing or not a number, it says so in the catalogue's words."""

    def __init__(self, label, asking, validators=(), **kwargs):
        super().__init__(label, [InputRequired(asking), *validators],
                         invalid_value_message=asking, **kwargs)


def picked_rules(name) -> RuleSet:
    """The rule set a form or link names; All Fives when it names none of them."""
    return next((rules for rules in RULE_SETS if rules.name == name), ALL_FIVES)


class HouseRulesFields:
    """The house rules' checkboxes (RULESETS.md §5), each ticked to switch its rule off: of a
    new match, or of every game of a new league."""

    no_last_point = BooleanField(_l("No point for the last tile: chipping out scores nothing "
                                    "of its own"))
    no_win_on_the_down = BooleanField(_l("No win on the down: the lead of a hand cannot win "
                                         "the match"))

    def house_fields(self, rules: RuleSet) -> list:
        """The house rules this rule set can switch, as checkboxes."""
        return [getattr(self, HOUSE_FIELDS[option]) for option in rules.house_options]

    def house(self, rules: RuleSet) -> dict:
        """The house rules ticked, as a record writes them: each switched off."""
        return {option: False for option in rules.house_options
                if getattr(self, HOUSE_FIELDS[option]).data}


class NewMatchForm(HouseRulesFields, Form):
    """The rule set, players in seat order, partnerships, and the house rules for target and
    hand size (the rule set's defaults filled in) and for scoring."""

    rules = HiddenField(validators=[Optional(), AnyOf(
        [rules.name for rules in RULE_SETS],
        message=_l("This app does not referee that game yet: pick one of the games offered."))])
    count = HiddenField(validators=[InputRequired(), AnyOf(["2", "3", "4"])])
    player1 = StringField(_l("Seat 1"), validators=[Optional(), Length(max=MAX_NAME, message=LONG)])
    player2 = StringField(_l("Seat 2"), validators=[Optional(), Length(max=MAX_NAME, message=LONG)])
    player3 = StringField(_l("Seat 3"), validators=[Optional(), Length(max=MAX_NAME, message=LONG)])
    player4 = StringField(_l("Seat 4"), validators=[Optional(), Length(max=MAX_NAME, message=LONG)])
    partnerships = BooleanField(_l("Partnerships: seats 1 & 3 against seats 2 & 4"))
    target = WholeNumberField(
        _l("Target (points)"), _l("Enter the target: a whole number of points."),
        validators=[NumberRange(MIN_TARGET, MAX_TARGET,
                                _l("The target must be from %(min)s to %(max)s points."))])
    hand_size = WholeNumberField(
        _l("Tiles dealt to each player"), _l("Enter how many tiles each player is dealt."),
        validators=[NumberRange(1, SET_SIZE,
                                _l("Each player is dealt from %(min)s to %(max)s tiles."))])

    table: Table | None = None

    def player_count(self) -> int:
        return int(self.count.data) if self.count.data in ("2", "3", "4") else 2

    def name_fields(self):
        return [getattr(self, name) for name in NAME_FIELDS[:self.player_count()]]

    def validate(self, extra_validators=None) -> bool:
        """Field checks first, then the engine's setup rules, each shown at its field."""
        if not super().validate(extra_validators):
            return False
        names = [(field.data or "").strip() or default_name(seat)
                 for seat, field in enumerate(self.name_fields(), 1)]
        rules = find_rule_set(self.rules.data or ALL_FIVES.name)
        try:
            self.table = Table.create(names, bool(self.partnerships.data) and len(names) == 4,
                                      self.target.data, self.hand_size.data, rules,
                                      self.house(rules))
        except SetupError as error:
            self._field_for(error).errors.append(refusal(error))
            return False
        return True

    def _field_for(self, error: SetupError):
        if error.kind in ("empty_name", "duplicate_name", "name_too_long", "name_not_printable",
                          "name_invisible", "confusable_name"):
            fields = self.name_fields()
            if error.kind == "empty_name":
                return next(f for f in fields if not (f.data or "").strip())
            name = unicodedata.normalize("NFC", error.facts.get("name", "")).casefold()
            matching = [f for f in fields
                        if unicodedata.normalize("NFC", (f.data or "").strip()).casefold() == name]
            return matching[-1] if matching else fields[0]
        return {"bad_target": self.target, "bad_hand_size": self.hand_size,
                "partnerships_need_four": self.partnerships}.get(error.kind, self.player1)


HOUSE_FIELDS = {LAST_TILE_POINT: "no_last_point", WIN_ON_THE_DOWN: "no_win_on_the_down"}
"""The checkbox that switches each house rule off (RULESETS.md §5)."""


def default_name(seat: int) -> str:
    """The name of a seat left empty, so a table can start without typing names."""
    return _("Player %(n)s", n=seat)


MAX_POSITION = 2**31
"""No match gets near this many entries; a larger pos would overflow SQLite's integers."""
MAX_ROW = 2**31 - 1
"""The largest row number a URL may name (PostgreSQL's INTEGER): a larger one overflowed
SQLite's integers (a 500); a URL past it, or with more digits, is not found (404)."""


class RowNumber(IntegerConverter):
    """`<row:fixture_id>`: a team, fixture or game number in a URL, 1 to MAX_ROW."""

    regex = r"[0-9]{1,10}"

    def __init__(self, url_map):
        super().__init__(url_map, min=1, max=MAX_ROW)


class PositionForm(Form):
    """Every write names the revision it was made against, so a stale tap is caught.

    Its token is checked before the view by CSRFProtect, as on every POST of the app: the
    form does not build and check it a second time on every tap.
    """

    class Meta:
        csrf = False

    pos = WholeNumber(validators=[InputRequired(), NumberRange(0, MAX_POSITION)])


class StartForm(PositionForm):
    seat = WholeNumber(validators=[InputRequired(), NumberRange(0, MAX_PLAYERS - 1)])


class LayForm(PositionForm):
    """The tile button tapped: `6-3`, or `6-3@L` where it is offered once per end."""

    move = StringField(validators=[InputRequired(), Length(max=8)])


PIPS_DIGITS = 3
"""The pips field's length: no hand holds more than the 168 pips of the whole set."""


class EndHandForm(PositionForm):
    """Check or enter the end of a hand; fields pips_N and tiles_N are read by `held_in`."""

    check = BooleanField()


def held_in(players, formdata) -> dict:
    """pips_N (a number) or tiles_N (the tiles tapped) for each seat of an end-of-hand form;
    the engine checks them. Read the same whatever the match's phase, so a repeated tap makes
    the same event (the offline table reads its taps with it too)."""
    held = {}
    for seat, name in enumerate(players):
        tiles = formdata.getlist(f"tiles_{seat}")
        pips = formdata.get(f"pips_{seat}", "").strip()
        if tiles and any(tiles):
            held[seat] = tuple(normal(parse_tile(text)) for text in tiles if text)
        elif pips:
            if not (pips.isascii() and pips.isdigit()) or len(pips) > PIPS_DIGITS:
                raise ImpossibleHand.worded(
                    N_("%(name)s's pips must be a whole number, not %(value)s"),
                    "pips_not_number", name=name, value=pips[:20])
            held[seat] = int(pips)
    return held


class DeleteForm(Form):
    """Deleting a match: only the form's token, checked by Flask-WTF."""


class ImportForm(Form):
    record = FileField(_l("Match record (.json)"), validators=[
        FileRequired(_l("Choose a match record file (.json) to import."))])
