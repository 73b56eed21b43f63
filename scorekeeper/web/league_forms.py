"""The league's forms, one per thing a secretary or captain does; the league checks them.
(The new league's own form is league_setup_form.py.)"""

from datetime import date

from flask_babel import lazy_gettext as _l
from flask_babel import lazy_pgettext as pgettext  # lazy, as _l is: worded when shown
from wtforms import BooleanField, DateField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, Optional, ValidationError

from ..league import SIDES
from ..league.setup import BLIND, MAX_LEGS, SINGLES, LeagueSetup
from ..rules.table import MAX_NAME, MAX_TARGET
from .catalogue import gettext as _
from .forms import MAX_POSITION, Form, WholeNumber

SCORE = _l("A score is from %(min)s to %(max)s points.")
SIDE = _l("Choose the home or the away team.")


class NameForm(Form):
    """A player joining a roster (the page labels each team's field)."""

    name = StringField(_l("Name"), validators=[Length(max=MAX_NAME)])


class TeamForm(Form):
    """A new team, in one of the league's divisions (the view gives the choices)."""

    name = StringField(_l("New team"), validators=[Length(max=MAX_NAME)])
    division = SelectField(_l("Division"), choices=[], validate_choice=False,
                           validators=[Optional(), Length(max=MAX_NAME)])


FIRST_DAY, LAST_DAY = date(2000, 1, 1), date(2099, 12, 31)
"""The league nights a form takes: a year such as 9999 overflowed the fixtures' dates."""


def _in_range(_form, field) -> None:
    if field.data is not None and not FIRST_DAY <= field.data <= LAST_DAY:
        raise ValidationError(_("Enter a date from %(first)s to %(last)s.",
                                first=FIRST_DAY.isoformat(), last=LAST_DAY.isoformat()))


def _day_field(label) -> DateField:
    """A league night's date, in range; the date picker offers only that range."""
    return DateField(label, validators=[InputRequired(), _in_range],
                     render_kw={"min": FIRST_DAY.isoformat(), "max": LAST_DAY.isoformat()})


class FixturesForm(Form):
    first = _day_field(_l("First match night"))
    every = WholeNumber(_l("Days between rounds"), default=7,
                         validators=[InputRequired(), NumberRange(1, 60)])


class FixtureForm(Form):
    home = SelectField(pgettext("home team", "Home"), coerce=int, validators=[InputRequired()])
    away = SelectField(_l("Away"), coerce=int, validators=[InputRequired()])
    day = _day_field(_l("Date"))
    play_off = BooleanField(_l("A play-off: it settles a tie on points and counts for "
                               "nothing else"))


class DayForm(Form):
    day = _day_field(_l("Date"))


class CardForm(Form):
    """Every write to a card names the revision of the card it was made on."""

    rev = WholeNumber(validators=[InputRequired(), NumberRange(0, MAX_POSITION)])


class PlayersForm(CardForm):
    home1 = StringField(validators=[Optional(), Length(max=MAX_NAME)])
    home2 = StringField(validators=[Optional(), Length(max=MAX_NAME)])
    away1 = StringField(validators=[Optional(), Length(max=MAX_NAME)])
    away2 = StringField(validators=[Optional(), Length(max=MAX_NAME)])

    def side(self, name: str) -> list[str]:
        """The players picked for one side, in seat order (a singles game has one)."""
        picked = (getattr(self, f"{name}{seat}").data for seat in (1, 2))
        return [player.strip() for player in picked if player and player.strip()]


class ScoreForm(CardForm):
    """A paper score: the game's (`home`, `away`), or each leg's of a best-of game (`home2`,
    `away2`, … for the legs after the first)."""

    home = WholeNumber(_l("Home points"), validators=[
        InputRequired(_l("Enter both teams' points.")), NumberRange(0, 2 * MAX_TARGET, SCORE)])
    away = WholeNumber(_l("Away points"), validators=[
        InputRequired(_l("Enter both teams' points.")), NumberRange(0, 2 * MAX_TARGET, SCORE)])

    def legs(self) -> list[tuple[int, int]]:
        """The legs entered, in order; a later leg with a side's points missing is left out
        (the league then says whether the game is decided)."""
        found = [(self.home.data, self.away.data)]
        for leg in range(2, MAX_LEGS + 1):
            home, away = getattr(self, f"home{leg}").data, getattr(self, f"away{leg}").data
            if home is not None and away is not None:
                found.append((home, away))
        return found


for _leg in range(2, MAX_LEGS + 1):
    for _side in SIDES:
        setattr(ScoreForm, f"{_side}{_leg}", WholeNumber(
            validators=[Optional(), NumberRange(0, 2 * MAX_TARGET, SCORE)]))


class SideForm(CardForm):
    """A game given unplayed, or a walkover: to which team."""

    side = SelectField(_l("Team"), choices=[SelectChoice(side, side) for side in SIDES],
                       validate_choice=False, validators=[InputRequired(SIDE), AnyOf(SIDES, SIDE)])


class LineUpForm(CardForm):
    """A line-up handed in blind: each game's players (`g3-1`: game 3, seat 1), or the team's
    players for the night (`player`, once each); `side` when the secretary hands it in."""

    side = StringField(validators=[Optional(), AnyOf(SIDES, SIDE)])

    def line_up(self, setup: LeagueSetup, formdata) -> list:
        if setup.line_ups == BLIND:
            return [[_name(formdata.get(f"g{number}-{seat}"))
                     for seat in range(1, (1 if kind == SINGLES else 2) + 1)]
                    for number, kind in enumerate(setup.games, 1)]
        return [_name(name) for name in formdata.getlist("player")]


def _name(value) -> str:
    return str(value or "").strip()[:MAX_NAME + 1]
