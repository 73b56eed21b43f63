"""The new-league form: a league's whole format as its rule sheet writes it, field by field,
each refusal shown beside the field it is about; a real league's format can fill it in."""

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, HiddenField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from ...league import (
    LINE_UPS,
    PRESET_NAMES,
    PRESETS,
    TIE_BREAKS,
    LeagueSetup,
    PointsScheme,
    SetupRefused,
)
from ...league.limits import MAX_TEAMS
from ...league.terms.calendar import PUB_ZONES
from ...league.terms.formats import LeagueFormat
from ...league.terms.points import MAX_POINTS
from ...league.terms.setup import (
    DEFAULT_RULES,
    MAX_DIVISIONS,
    MAX_GAMES,
    MAX_LEAGUE_NAME,
    MAX_LEGS,
    MAX_SQUAD,
    PLAYABLE,
)
from ...league.terms.teams import read_team_lines
from ...rules import RuleSet
from ...rules.setup.table import MAX_NAME, MAX_TARGET, MIN_TARGET, SET_SIZE
from ..scoring.forms import Form, HouseRulesFields, WholeNumber
from .words import LINE_UP_WORDS, TIE_BREAK_WORDS

CUSTOM = "custom"
LEGS = [SelectChoice(str(legs), _l("best of %(legs)s legs", legs=legs) if legs > 1
                     else _l("one game")) for legs in range(1, MAX_LEGS + 1, 2)]
GAMES = _l("From %(min)s to %(max)s games.")


def _points_field(label):
    return WholeNumber(label, validators=[Optional(), NumberRange(
        0, MAX_POINTS, _l("From %(min)s to %(max)s points."))])


def _games_field(label, low=0):
    return WholeNumber(label, validators=[Optional(), NumberRange(low, MAX_GAMES, GAMES)])


def _tie_break_field(label, default):
    return SelectField(label, default=default, choices=[
        SelectChoice("", _l("(none)")),
        *[SelectChoice(name, TIE_BREAK_WORDS[name]) for name in TIE_BREAKS]])


def _target_field(label, required=True):
    return WholeNumber(label, validators=[
        InputRequired(_l("Enter the target: a whole number of points.")) if required
        else Optional(),
        NumberRange(MIN_TARGET, MAX_TARGET, _l("The target must be from %(min)s to %(max)s "
                                               "points."))])


def _hand_field(label):
    return WholeNumber(label, validators=[
        InputRequired(_l("Enter how many tiles each player is dealt.")),
        NumberRange(1, SET_SIZE, _l("Each player is dealt from %(min)s to %(max)s tiles."))])


def picked_rules(name) -> RuleSet:
    """The playable rule set a link or form names; the league default when none."""
    return next((rules for rules in PLAYABLE if rules.name == name), PLAYABLE[0])


class NewLeagueForm(HouseRulesFields, Form):
    """Name, season, teams in divisions, the card and how each kind of its games is played,
    house rules, points and tie-breaks, walkovers, line-ups and squads."""

    rules = HiddenField(default=DEFAULT_RULES, validators=[Length(max=40)])
    name = StringField(_l("League name"), validators=[Length(max=MAX_LEAGUE_NAME)])
    season = StringField(_l("Season"), validators=[Length(max=MAX_NAME)])
    teams = TextAreaField(_l("Teams, one per line"),
                          validators=[Length(max=(MAX_TEAMS + MAX_DIVISIONS) * (MAX_NAME + 3))])
    games = StringField(_l("The card: its games in order"), default="SSSSSSPPP",
                        validators=[Length(max=60)])
    target = _target_field(_l("Singles: target (points)"))
    singles_hand = _hand_field(_l("Singles: tiles dealt to each player"))
    singles_legs = SelectField(_l("Singles: each game is"), choices=LEGS, default="1")
    pairs_target = _target_field(_l("Pairs: target (points)"), required=False)
    pairs_hand = _hand_field(_l("Pairs: tiles dealt to each player"))
    pairs_legs = SelectField(_l("Pairs: each game is"), choices=LEGS, default="1")
    scheme = SelectField(_l("Points"), default="two_plus_games", choices=[
        *[SelectChoice(name, _l(PRESET_NAMES[name])) for name in PRESETS],
        SelectChoice(CUSTOM, _l("Our own, as below"))])
    win = _points_field(_l("Points for winning the match (the card)"))
    draw = _points_field(_l("Points for a drawn match"))
    loss = _points_field(_l("Points for losing the match"))
    per_game = _points_field(_l("Points for each game won"))
    bonus = _points_field(_l("Losing bonus: points for a close defeat"))
    bonus_margin = _games_field(_l("…when the match is lost by at most (games)"), low=1)
    tie_break1 = _tie_break_field(_l("First tie-break"), "game_difference")
    tie_break2 = _tie_break_field(_l("Second tie-break"), "games_won")
    tie_break3 = _tie_break_field(_l("Third tie-break"), "head_to_head")
    walkover_for = _games_field(_l("A walkover counts as: games to the team that turned up"))
    walkover_against = _games_field(_l("…and games to the team that did not"))
    line_ups = SelectField(_l("Line-ups"), default=LINE_UPS[0],
                           choices=[SelectChoice(way, LINE_UP_WORDS[way]) for way in LINE_UPS])
    squad = WholeNumber(_l("Squad: the most players a team may register"),
                        validators=[Optional(), NumberRange(
                            1, MAX_SQUAD, _l("From %(min)s to %(max)s players."))])
    transfers = BooleanField(_l("Transfers: a player who has played for one team may later "
                                "play for another"))
    time_zone = SelectField(_l("Where the league plays (its dates and times)"),
                            default=PUB_ZONES[0],
                            choices=[SelectChoice(zone, zone) for zone in PUB_ZONES])

    setup: LeagueSetup | None = None
    team_lines: list[tuple[str, str]] = []

    def fill(self, rules: RuleSet, format_: LeagueFormat | None) -> None:
        """A blank form: the rule set's own target and hand sizes (the pairs' target left
        empty: it follows the singles'), or a league's format."""
        if format_ is None:
            self.target.data = rules.target(2, False)
            self.singles_hand.data, self.pairs_hand.data = rules.hand_size(2), rules.hand_size(4)
            return
        self.games.data = format_.games
        self.target.data, self.singles_hand.data = format_.singles.target, format_.singles.hand
        self.pairs_target.data, self.pairs_hand.data = format_.pairs.target, format_.pairs.hand
        self.singles_legs.data, self.pairs_legs.data = (str(format_.singles.legs),
                                                        str(format_.pairs.legs))
        self.scheme.data, self.line_ups.data, self.squad.data = (format_.points,
                                                                 format_.line_ups, format_.squad)
        self.walkover_for.data, self.walkover_against.data = format_.walkover or (None, None)
        for field, name in zip((self.tie_break1, self.tie_break2, self.tie_break3),
                               [*format_.tie_breaks, "", "", ""], strict=False):
            field.data = name
        for option, field in zip(rules.house_options, self.house_fields(rules), strict=True):
            field.data = option in dict(format_.house)
        self.teams.data = "".join(f"{division}:\n\n" for division in format_.divisions)

    def validate(self, extra_validators=None) -> bool:
        """Field checks first, then the league's own, each shown at its field."""
        if not super().validate(extra_validators):
            return False
        try:
            divisions, self.team_lines = read_team_lines((self.teams.data or "").splitlines())
        except SetupRefused as error:
            self.refusal = ("teams", error)
            return False
        rules = picked_rules(self.rules.data)
        walkover = None
        if self.walkover_for.data is not None or self.walkover_against.data is not None:
            walkover = (self.walkover_for.data or 0, self.walkover_against.data or 0)
        try:
            self.setup = LeagueSetup.create(
                self.name.data, self.season.data, self.games.data, self._points(),
                self.rules.data or DEFAULT_RULES, self.target.data, self.singles_hand.data,
                self.pairs_hand.data, pairs_target=self.pairs_target.data,
                singles_legs=int(self.singles_legs.data), pairs_legs=int(self.pairs_legs.data),
                house=self.house(rules), walkover=walkover, line_ups=self.line_ups.data,
                squad=self.squad.data, divisions=divisions, time_zone=self.time_zone.data,
                transfers=self.transfers.data)
        except SetupRefused as error:
            self.refused_at(error)
            return False
        return True

    def _points(self) -> PointsScheme:
        breaks = [f.data for f in (self.tie_break1, self.tie_break2, self.tie_break3) if f.data]
        if self.scheme.data in PRESETS:
            preset = PRESETS[self.scheme.data]
            return PointsScheme.create(preset.per_game, preset.win, preset.draw, breaks,
                                       preset.loss, preset.bonus, preset.bonus_margin)
        return PointsScheme.create(self.per_game.data or 0, self.win.data or 0,
                                   self.draw.data or 0, breaks, self.loss.data or 0,
                                   self.bonus.data or 0, self.bonus_margin.data or 0)

    def refused_at(self, error: SetupRefused) -> None:
        """Keep the refusal beside the field it is about (the view words it)."""
        field = error.facts.get("field")
        if field not in self._fields:
            field = _REFUSED_AT.get(error.kind, "name")
        if error.kind == "bad_game_setup":
            field = "target" if error.facts.get("games") == "singles" else "pairs_target"
        if error.kind == "empty_name" and self.name.data:
            field = "season"
        self.refusal = (field, error)


_REFUSED_AT = {
    "no_points": "win", "draw_above_win": "draw", "loss_above_win": "loss",
    "bonus_half_given": "bonus", "bad_bonus_margin": "bonus_margin",
    "unknown_tie_break": "tie_break1", "repeated_tie_break": "tie_break2",
    "bad_game_count": "games", "bad_game_letter": "games", "duplicate_team": "teams",
    "too_many_teams": "teams", "unknown_rules": "target", "bad_house_rules": "target",
    "bad_legs": "singles_legs",
    "bad_walkover": "walkover_for", "bad_line_ups": "line_ups", "bad_squad": "squad",
    "one_division": "teams", "duplicate_division": "teams", "too_many_divisions": "teams",
    "bad_time_zone": "time_zone",
}
"""Where the new-league page shows each refusal of the league's setup rules."""
