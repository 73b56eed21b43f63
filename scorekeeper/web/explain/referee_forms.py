"""The referee's question: a position posed by hand and a tile. It changes nothing, so it
is asked with GET and its answer has its own address."""

import re

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, NumberRange, Optional, ValidationError

from ...rules import RULE_SETS, RuleError, find_rule_set, parse_tile
from ...rules.limits import MAX_PLAYERS, MAX_TARGET, MIN_PLAYERS, MIN_TARGET
from ..scoring.forms import HOUSE_FIELDS, Form, HouseRulesFields, WholeNumber
from ..scoring.view import refusal

EVERY_GAME = "all"
"""The choice that asks all four games side by side."""
_SCORE = re.compile(r"^[−-]?\d{1,5}$")


class RefereeForm(HouseRulesFields, Form):
    """Which game, the open ends, each side's score (the side laying first), the target,
    the tile, whether it is the player's last, and the house rules switched off (each
    where the game has it)."""

    class Meta:
        csrf = False  # a question changes nothing

    rules = SelectField(_l("Game"), default=RULE_SETS[0].name, choices=[
        *[SelectChoice(rules.name, _l(rules.shown_name)) for rules in RULE_SETS],
        SelectChoice(EVERY_GAME, _l("All four games side by side"))])
    ends = StringField(_l("Open ends"), validators=[Length(max=80)])
    scores = StringField(_l("Scores, the side laying the tile first"), default="0 0",
                         validators=[Length(max=40)])
    target = WholeNumber(_l("Target (points)"), validators=[
        Optional(), NumberRange(MIN_TARGET, MAX_TARGET,
                                _l("The target must be from %(min)s to %(max)s points."))])
    tile = StringField(_l("The tile"), validators=[Length(max=16)])
    last = BooleanField(_l("It is the player's last tile: their side goes out with it"))

    def rule_sets(self) -> list:
        """The games asked about."""
        if self.rules.data == EVERY_GAME:
            return list(RULE_SETS)
        return [find_rule_set(self.rules.data)]

    def validate_tile(self, field) -> None:
        if not (field.data or "").strip():
            raise ValidationError(_l("Name the tile, like 3-5."))
        try:
            parse_tile(field.data)
        except RuleError as error:
            raise ValidationError(refusal(error)) from None

    def validate_scores(self, field) -> None:
        words = (field.data or "").split()
        if not MIN_PLAYERS <= len(words) <= MAX_PLAYERS or not all(
                _SCORE.match(word) for word in words):
            raise ValidationError(_l("Give each side's score as a whole number, the side "
                                     "laying the tile first: 2 to 4 of them, like 59 40."))

    def house_choices(self) -> list[tuple]:
        """Each house rule's checkbox, with the games that have it when not every game does."""
        choices = []
        for option, name in HOUSE_FIELDS.items():
            games = [rules for rules in RULE_SETS if option in rules.house_options]
            choices.append((getattr(self, name), games if len(games) < len(RULE_SETS) else []))
        return choices

    def side_scores(self) -> tuple[int, ...]:
        return tuple(int(word.replace("−", "-")) for word in self.scores.data.split())

    def asked(self) -> bool:
        """A tile was named: the form is a question, not yet one to fill in."""
        return bool((self.tile.data or "").strip())
