"""The league's forms, one per thing a secretary or captain does; the league checks them."""

from datetime import date

from flask_babel import lazy_gettext as _l
from wtforms import (
    DateField,
    HiddenField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from ..league import PRESETS, TIE_BREAKS, LeagueSetup, PointsScheme, SetupRefused
from ..league.limits import MAX_TEAMS
from ..league.setup import DEFAULT_RULES, MAX_POINTS, PLAYABLE
from ..rules.table import MAX_NAME, MAX_TARGET, SET_SIZE
from .catalogue import gettext as _
from .forms import MAX_POSITION, Form, WholeNumber

TIE_BREAK_WORDS = {"game_difference": _l("Game difference"), "games_won": _l("Games won"),
                   "head_to_head": _l("Head to head")}
CUSTOM = "custom"


def _points_field(label):
    return WholeNumber(label, validators=[Optional(), NumberRange(-MAX_POINTS, MAX_POINTS)])


def _tie_break_field(label, default):
    return SelectField(label, default=default, choices=[
        SelectChoice("", _l("(none)")),
        *[SelectChoice(name, TIE_BREAK_WORDS[name]) for name in TIE_BREAKS]])


class NewLeagueForm(Form):
    """Name, season, the card, the points, the games' house options, and the first teams."""

    rules = HiddenField(default=DEFAULT_RULES, validators=[Length(max=40)])
    name = StringField(_l("League name"), validators=[Length(max=MAX_NAME)])
    season = StringField(_l("Season"), validators=[Length(max=MAX_NAME)])
    games = StringField(_l("The card: its games in order"), default="SSSSSSPPP",
                        validators=[Length(max=60)])
    scheme = SelectField(_l("Points"), default="two_plus_games", choices=[
        SelectChoice("two_plus_games", _l("2 for the win + 1 per game won")),
        SelectChoice("three_one", _l("3 for a win, 1 for a draw")),
        SelectChoice(CUSTOM, _l("Our own, as below"))])
    per_game = _points_field(_l("Points for each game won"))
    win = _points_field(_l("Points for winning the card"))
    draw = _points_field(_l("Points for a drawn card"))
    tie_break1 = _tie_break_field(_l("First tie-break"), "game_difference")
    tie_break2 = _tie_break_field(_l("Second tie-break"), "games_won")
    tie_break3 = _tie_break_field(_l("Third tie-break"), "head_to_head")
    target = WholeNumber(_l("Target of each game (points)"), default=250,
                          validators=[InputRequired(), NumberRange(5, MAX_TARGET)])
    singles_hand = WholeNumber(_l("Tiles dealt in singles"), default=7,
                                validators=[InputRequired(), NumberRange(1, SET_SIZE)])
    pairs_hand = WholeNumber(_l("Tiles dealt in pairs"), default=5,
                              validators=[InputRequired(), NumberRange(1, SET_SIZE)])
    teams = TextAreaField(_l("Teams, one per line"),
                          validators=[Length(max=MAX_TEAMS * (MAX_NAME + 2))])

    setup: LeagueSetup | None = None

    def team_names(self) -> list[str]:
        return [line for line in (self.teams.data or "").splitlines() if line.strip()]

    def validate(self, extra_validators=None) -> bool:
        """Field checks first, then the league's own, each shown at its field."""
        if not super().validate(extra_validators):
            return False
        try:
            self.setup = LeagueSetup.create(
                self.name.data, self.season.data, self.games.data, self._points(),
                rules=self.rules.data or DEFAULT_RULES, target=self.target.data,
                singles_hand=self.singles_hand.data, pairs_hand=self.pairs_hand.data)
        except SetupRefused as error:
            self.refused_at(error)
            return False
        return True

    def _points(self) -> PointsScheme:
        breaks = [f.data for f in (self.tie_break1, self.tie_break2, self.tie_break3) if f.data]
        if self.scheme.data in PRESETS:
            preset = PRESETS[self.scheme.data]
            return PointsScheme.create(preset.per_game, preset.win, preset.draw, breaks)
        return PointsScheme.create(self.per_game.data or 0, self.win.data or 0,
                                   self.draw.data or 0, breaks)

    def refused_at(self, error: SetupRefused) -> None:
        """Keep the refusal beside the field it is about (the view words it)."""
        field = {"per_game": self.per_game, "win": self.win, "draw": self.draw}.get(
            error.facts.get("field")) or {
            "no_points": self.win, "draw_above_win": self.draw,
            "unknown_tie_break": self.tie_break1, "repeated_tie_break": self.tie_break2,
            "bad_game_count": self.games, "bad_game_letter": self.games,
            "bad_game_setup": self.target, "duplicate_team": self.teams,
            "too_many_teams": self.teams,
            "unknown_rules": self.target,
        }.get(error.kind, self.season if self.name.data and error.kind == "empty_name"
              else self.name)
        self.refusal = (field.name, error)


def picked_rules(name):
    """The playable rule set a link or form names; the league default when none."""
    return next((rules for rules in PLAYABLE if rules.name == name), PLAYABLE[0])


class NameForm(Form):
    """A player joining a roster (the page labels each team's field)."""

    name = StringField(_l("Name"), validators=[Length(max=MAX_NAME)])


class TeamForm(Form):
    name = StringField(_l("New team"), validators=[Length(max=MAX_NAME)])


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
    home = SelectField(_l("Home"), coerce=int, validators=[InputRequired()])
    away = SelectField(_l("Away"), coerce=int, validators=[InputRequired()])
    day = _day_field(_l("Date"))


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
    home = WholeNumber(_l("Home points"), validators=[InputRequired(),
                                                       NumberRange(0, 2 * MAX_TARGET)])
    away = WholeNumber(_l("Away points"), validators=[InputRequired(),
                                                       NumberRange(0, 2 * MAX_TARGET)])
