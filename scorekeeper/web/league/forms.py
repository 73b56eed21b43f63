"""The league's forms, one per thing a secretary or captain does; the league checks them.
(The new league's own form is setup_form.py.)"""

from datetime import date

from flask_babel import lazy_gettext as _l
from flask_babel import lazy_pgettext as pgettext  # lazy, as _l is: worded when shown
from flask_wtf.file import FileField, FileRequired
from wtforms import BooleanField, DateField, IntegerField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import (
    AnyOf,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    Regexp,
    StopValidation,
    ValidationError,
)

from ...league import SIDES
from ...league.cards.game import paper_ceiling
from ...league.terms.setup import BLIND, MAX_LEGS, SINGLES, LeagueSetup
from ...rules.setup.table import MAX_NAME, MAX_TARGET
from ..answers.catalogue import gettext as _
from ..scoring.forms import MAX_POSITION, Form, WholeNumber

POINTS = _l("a whole number from 0 to %(max)s")
"""The rule a side's paper points break, beside the field named by the team's name."""
SIDE = _l("Choose the home or the away team.")
SEEN = 32
"""The longest digest of a card's part a write may carry (card_edits.seen_print)."""


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
class ArchiveForm(Form):
    """A season archive to restore (season.json, or season.json.gz)."""

    archive = FileField(_l("The season archive (season.json)"), validators=[
        FileRequired(_l("Choose the season archive to restore."))])


class RestoreForm(Form):
    """The archive a preview showed, carried back compressed (base64) to be restored."""

    archive = StringField(validators=[InputRequired(), Length(max=1_400_000)])


class AdjustmentForm(Form):
    """Points deducted (negative) or awarded to a team, with a reason and a date."""

    points = IntegerField(_l("Points (a deduction is negative, as -3)"),
                          validators=[InputRequired()])
    reason = StringField(_l("Reason"), validators=[InputRequired(), Length(max=200)])
    day = _day_field(_l("Date"))


class TeamNameForm(Form):
    name = StringField(_l("Team name"), validators=[Length(max=MAX_NAME)])


class PlayerForm(Form):
    """A player of a team's roster, deleted (`sure` once it has asked first)."""

    player = StringField(validators=[InputRequired(), Length(max=MAX_NAME)])
    sure = StringField(validators=[Optional(), Length(max=SEEN)])


class PlayerNameForm(Form):
    player = StringField(validators=[InputRequired(), Length(max=MAX_NAME)])
    name = StringField(_l("New name"), validators=[Length(max=MAX_NAME)])


class MoveForm(Form):
    """A player to another team (its id), or out of the league ("")."""

    player = StringField(validators=[InputRequired(), Length(max=MAX_NAME)])
    to = StringField(_l("Move to"), validators=[
        Optional(), Regexp(r"^\d{1,18}$", message=_l("Choose one of the league's teams."))])

    def team(self) -> int | None:
        return int(self.to.data) if self.to.data else None


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


class SureForm(Form):
    """A deletion: confirmed (`sure`, the digest of the results it was shown) once it has
    asked first."""

    sure = StringField(validators=[Optional(), Length(max=SEEN)])


class CardForm(Form):
    """Every write to a card names the revision of the card it was made on, and, where it
    concerns a game (or every game), what it saw of it (`seen`)."""

    rev = WholeNumber(validators=[InputRequired(), NumberRange(0, MAX_POSITION)])
    seen = StringField(validators=[Optional(), Length(max=SEEN)])


class PlayersForm(CardForm):
    """A game's players, seat by seat on each side."""

    home1 = StringField(validators=[Optional(), Length(max=MAX_NAME)])
    home2 = StringField(validators=[Optional(), Length(max=MAX_NAME)])
    away1 = StringField(validators=[Optional(), Length(max=MAX_NAME)])
    away2 = StringField(validators=[Optional(), Length(max=MAX_NAME)])

    def side(self, name: str) -> list[str]:
        """The players picked for one side, in seat order (a singles game has one)."""
        picked = (getattr(self, f"{name}{seat}").data for seat in (1, 2))
        return [player.strip() for player in picked if player and player.strip()]

    def typed(self) -> dict:
        """What was chosen, to show it again."""
        return {name: (field.data or "").strip() for name, field in self._fields.items()
                if name.startswith(SIDES)}


def _paper_points(form, field) -> None:
    """A side's points as typed: a whole number from 0 to the game's ceiling (a later leg's
    may be left empty: its field is Optional)."""
    text = (field.data or "").strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 6) or \
            int(text) > form.ceiling:
        raise StopValidation(str(POINTS) % {"max": form.ceiling})


class PaperPoints(StringField):
    """A side's points of a paper score, as typed: plain digits from 0 to the game's ceiling
    (`_paper_points`), the field named by the team it is for (ScoreForm.for_game)."""


class ScoreForm(CardForm):
    """A paper score: the game's (`home`, `away`), or each leg's of a best-of game (`home2`,
    `away2`, … for the legs after the first). `for_game` names each field by its team and
    sets the game's ceiling, before it is checked."""

    home = PaperPoints(_l("Home points"), validators=[_paper_points])
    away = PaperPoints(_l("Away points"), validators=[_paper_points])
    ceiling = paper_ceiling(MAX_TARGET)

    def for_game(self, home: str, away: str, target: int) -> "ScoreForm":
        self.ceiling = paper_ceiling(target)
        for leg in range(1, MAX_LEGS + 1):
            suffix = "" if leg == 1 else str(leg)
            for side, team in (("home", home), ("away", away)):
                getattr(self, side + suffix).label.text = (
                    _("%(team)s points", team=team) if leg == 1 else
                    _("%(team)s points, leg %(leg)s", team=team, leg=leg))
        return self

    def legs(self) -> list[tuple[int, int]]:
        """The legs entered, in order; a later leg with a side's points missing is left out
        (the league then says whether the game is decided)."""
        found = []
        for leg in range(1, MAX_LEGS + 1):
            suffix = "" if leg == 1 else str(leg)
            home = (getattr(self, "home" + suffix).data or "").strip()
            away = (getattr(self, "away" + suffix).data or "").strip()
            if home and away:
                found.append((int(home), int(away)))
        return found

    def typed(self) -> dict:
        """What was typed, to show it again."""
        return {name: field.data for name, field in self._fields.items()
                if name.startswith(SIDES)}


for _leg in range(2, MAX_LEGS + 1):
    for _side in SIDES:
        setattr(ScoreForm, f"{_side}{_leg}", PaperPoints(validators=[Optional(),
                                                                     _paper_points]))


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
