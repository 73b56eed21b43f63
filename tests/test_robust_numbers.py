"""Every number and date of every form, and every number in a URL, refused when it is out
of range: a 4xx with its reason in the reader's language, never a 500.

Huge (a 400-digit target once overflowed WTForms' range check), negative, fractional,
exponent and non-numeric values are posted to each field of each form in turn, the rest
of the form as a person would fill it in.
"""

import re
from datetime import date

import pytest
from conftest import HTMX, create_match, read_pos
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorekeeper.web.explain import referee_forms
from scorekeeper.web.league import forms as league_forms
from scorekeeper.web.league import setup_form as league_setup_form
from scorekeeper.web.scoring import forms
from scorekeeper.web.scoring.forms import Form

LEAGUE = {"name": "Fives League", "season": "2026–27", "games": "SSP", "scheme": "custom",
          "per_game": "1", "win": "2", "draw": "1", "target": "250", "singles_hand": "7",
          "pairs_hand": "5", "teams": "Anchor\nBell\nCrown", "tie_break1": "game_difference"}
HUGE = ["9" * 400, "-" + "9" * 400, "1" + "0" * 30, str(2**63), str(2**31 + 1),
        "9" * 5000]
NOT_WHOLE = ["1.5", "2.0", "-0.5", "1e3", "5E2", "1e400", "0x10", "NaN", "inf", "-inf", "abc",
             "", " ", "٣", "３", "²", "1_000", "1,000", "12abc", "\x00", "--1", "+-1"]
NEGATIVE = ["-1", "-7", "-250", "-2147483648"]
BAD_DAYS = ["9999-12-31", "0001-01-01", "1999-12-31", "2100-01-01", "2026-02-30", "99999-01-01",
            "tomorrow", "", "2026-13-01", "31/12/2026", "2026-01-01T00:00"]
ROW_PARTS = ["0", "9" * 40, "9" * 5000, str(2**31), "-1", "1.5", "1e3", "%ff", "٣", "00"]


class World:
    """One app with a match and a league whose fixtures are made: the URLs every form of
    the app posts to, and the form a person fills in for each."""

    def __init__(self, client):
        self.client = client
        self.match = create_match(client)
        made = client.post("/league/new", data=LEAGUE)
        assert made.status_code == 303, made.text
        self.league = made.headers["Location"]
        page = client.get(self.league).text
        self.team = int(re.search(r"/teams/(\d+)/players", page).group(1))
        made = client.post(f"{self.league}/fixtures/make",
                           data={"first": date.today().isoformat(), "every": "7"})
        assert made.status_code == 303, made.text
        page = client.get(self.league).text
        self.fixture = int(re.search(r"/card/(\d+)", page).group(1))

    def pos(self) -> str:
        return str(read_pos(self.client.get(self.match).text))

    def rev(self) -> str:
        card = self.client.get(f"{self.league}/card/{self.fixture}").text
        return re.search(r'name="rev" value="(\d+)"', card).group(1)

    def posts(self) -> dict:
        """Each form: where it is posted and what a person sends (numbers as now)."""
        match, league, card = self.match, self.league, f"{self.league}/card/{self.fixture}"
        pos, rev = self.pos(), self.rev()
        game = f"{card}/game/1"
        return {
            forms.NewMatchForm: ("/new", {"count": "2", "player1": "Ann", "player2": "Bob",
                                          "target": "250", "hand_size": "7"}),
            forms.StartForm: (f"{match}/start", {"pos": pos, "seat": "0"}),
            forms.LayForm: (f"{match}/lay", {"pos": pos, "move": "6-6"}),
            forms.PositionForm: (f"{match}/undo", {"pos": pos}),
            forms.EndHandForm: (f"{match}/end", {"pos": pos, "pips_0": "5", "pips_1": "7"}),
            forms.DeleteForm: (None, {}),  # no field but its token
            forms.ImportForm: (None, {}),  # a file (test_robust_input.py)
            league_setup_form.NewLeagueForm: ("/league/new", dict(LEAGUE, teams="Dove\nEagle")),
            league_forms.NameForm: (f"{league}/teams/{self.team}/players", {"name": "Zed"}),
            league_forms.TeamForm: (f"{league}/teams", {"name": "Fox"}),
            league_forms.FixturesForm: (f"{league}/fixtures/make",
                                        {"first": "2026-09-01", "every": "7"}),
            league_forms.FixtureForm: (f"{league}/fixtures", {"home": str(self.team),
                                                              "away": str(self.team + 1),
                                                              "day": "2026-09-01"}),
            league_forms.DayForm: (f"{league}/fixtures/{self.fixture}/day",
                                   {"day": "2026-09-08"}),
            league_forms.CardForm: (f"{game}/start", {"rev": rev}),
            league_forms.PlayersForm: (f"{game}/players", {"rev": rev, "home1": "Ann",
                                                           "away1": "Bob"}),
            league_forms.ScoreForm: (f"{game}/enter", {"rev": rev, "home": "250",
                                                       "away": "100"}),
            league_forms.SideForm: (f"{game}/award", {"rev": rev, "side": "home"}),
            league_forms.LineUpForm: (f"{card}/line-up", {"rev": rev}),
            league_forms.TeamNameForm: (f"{league}/teams/{self.team}/name", {"name": "Fox"}),
            league_forms.AdjustmentForm: (f"{league}/teams/{self.team}/points",
                                          {"points": "-3", "reason": "Late", "day": "2026-01-10"}),
            league_forms.PlayerForm: (f"{league}/teams/{self.team}/players/delete",
                                      {"player": "Nobody"}),
            league_forms.PlayerNameForm: (f"{league}/teams/{self.team}/players/name",
                                          {"player": "Nobody", "name": "Zed"}),
            league_forms.MoveForm: (f"{league}/teams/{self.team}/players/move",
                                    {"player": "Nobody", "to": str(self.team + 1)}),
            league_forms.SureForm: (f"{league}/fixtures/{self.fixture}/postpone", {}),
            league_forms.ArchiveForm: (None, {}),  # a file (test_web_league_papers.py)
            league_forms.RestoreForm: (None, {}),  # the archive a preview carries (idem)
            referee_forms.RefereeForm: ("/referee", {"rules": "all-fives", "ends": "3 5",
                                                     "scores": "0 0", "tile": "3-5"}),
        }


@pytest.fixture(scope="module")
def world(tmp_path_factory, empty_database):
    import shutil

    from scorekeeper import create_app

    path = tmp_path_factory.mktemp("numbers") / "numbers.sqlite"
    shutil.copyfile(empty_database, path)
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "numbers",
                      "DATABASE": str(path)})
    return World(app.test_client())


def every_form() -> set[type]:
    found, waiting = set(), [Form]
    while waiting:
        for form in waiting.pop().__subclasses__():
            if form.__module__.startswith("scorekeeper.web"):
                found.add(form)
            waiting.append(form)
    return found


def unbound_fields(form: type, kind: type) -> list[str]:
    """The fields of a form class of this kind (WTForms keeps them unbound on the class)."""
    return sorted(name for name, value in vars_of(form).items()
                  if getattr(value, "field_class", None) is not None
                  and issubclass(value.field_class, kind))


def vars_of(form: type) -> dict:
    found = {}
    for klass in reversed(form.__mro__):
        found.update(vars(klass))
    return found


def number_fields() -> list[tuple[type, str]]:
    """Every whole-number field, and a paper score's points (text checked as digits in a
    range that depends on the game)."""
    return [(form, name) for form in sorted(every_form(), key=lambda f: f.__name__)
            for name in unbound_fields(form, (forms.WholeNumber, league_forms.PaperPoints))]


def date_fields() -> list[tuple[type, str]]:
    from wtforms import DateField

    return [(form, name) for form in sorted(every_form(), key=lambda f: f.__name__)
            for name in unbound_fields(form, DateField)]


def test_every_form_is_posted_here_and_every_number_field_reads_plain_digits(world):
    """A new form must be listed in World.posts; no number field is a plain IntegerField."""
    from wtforms import IntegerField

    assert every_form() == set(world.posts())
    plain = [(form.__name__, name) for form in every_form()
             for name in unbound_fields(form, IntegerField)
             if not issubclass(vars_of(form)[name].field_class, forms.WholeNumber)]
    # a deduction is negative, which every field below refuses: its own tests check it
    # (tests/test_web_league_secretary.py); it still reads Python's int(), so "٣" is 3
    assert plain == [("AdjustmentForm", "points")]
    assert len(number_fields()) >= 14 and len(date_fields()) == 4


def optional(form: type, field: str) -> bool:
    from wtforms.validators import Optional

    return any(isinstance(check, Optional)
               for check in vars_of(form)[field].kwargs.get("validators", ()))


def refusal(text: str) -> str:
    """The reason a refused form shows beside its field (or the error page's)."""
    found = re.search(r'class="(?:error|notice)"[^>]*>([^<]+)<', text) or re.search(
        r'class="error-page".*?<p[^>]*>([^<]+)<', text, re.S)
    return found.group(1).strip() if found else ""


def post(world, form: type, field: str, value: str, language: str = "en"):
    url, data = world.posts()[form]
    if form is league_setup_form.NewLeagueForm:
        data["name"] = f"League {value[:20]}"  # its own league each time
    headers = {"Accept-Language": language, **(HTMX if form in (forms.StartForm,) else {})}
    if form is referee_forms.RefereeForm:  # a question, asked with GET
        return world.client.get(url, query_string=dict(data, **{field: value}), headers=headers)
    return world.client.post(url, data=dict(data, **{field: value}), headers=headers)


HOSTILE_NUMBERS = st.one_of(st.sampled_from(HUGE + NOT_WHOLE + NEGATIVE),
                            st.integers(-(10**500), -1).map(str),
                            st.integers(10**12, 10**500).map(str),
                            st.floats(allow_nan=True, allow_infinity=True).map(repr),
                            st.text(max_size=12).filter(lambda t: not t.strip().isdigit()))


def test_hostile_numbers_in_every_field_of_every_form_are_refused_with_a_reason(world):
    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.sampled_from(number_fields()), HOSTILE_NUMBERS,
           st.sampled_from(["en", "el", "cs", "hu"]))
    def run(form_field, value, language):
        form, field = form_field
        assume(value.strip() or not optional(form, field))  # left empty: 0 points
        answer = post(world, form, field, value, language)
        described = f"{form.__name__}.{field}={value[:30]!r} -> {answer.status_code}"
        assert 400 <= answer.status_code < 500, described
        assert refusal(answer.text), described

    run()


@pytest.mark.parametrize("value", ["9" * 400, "-1", "1.5", "1e3", "abc"])
def test_each_number_fields_refusal_is_in_the_readers_language(world, value):
    for form, field in number_fields():
        english = refusal(post(world, form, field, value, "en").text)
        for language in ("el", "cs", "hu"):
            answer = post(world, form, field, value, language)
            assert 400 <= answer.status_code < 500, (form.__name__, field, language)
            said = refusal(answer.text)
            assert said and said != english, (form.__name__, field, language, said)


@pytest.mark.parametrize("value", BAD_DAYS)
def test_a_date_out_of_range_or_not_a_date_is_refused_with_a_reason(world, value):
    for form, field in date_fields():
        answer = post(world, form, field, value)
        assert answer.status_code == 422, (form.__name__, field, answer.status_code)
        assert refusal(answer.text), (form.__name__, field)


def test_fixtures_from_the_last_day_of_9999_are_refused_not_a_500(world):
    answer = world.client.post(f"{world.league}/fixtures/make",
                               data={"first": "9999-12-31", "every": "60"})
    assert answer.status_code == 422 and "2099-12-31" in refusal(answer.text)


@pytest.mark.parametrize("part", ROW_PARTS, ids=lambda v: v if len(v) < 12 else f"{len(v)}-digits")
def test_a_number_in_a_url_out_of_range_is_not_found(world, part):
    league = world.league
    for method, path in [
            ("GET", f"{league}/card/{part}"), ("POST", f"{league}/card/{part}/confirm"),
            ("POST", f"{league}/card/{world.fixture}/game/{part}/start"),
            ("POST", f"{league}/card/{part}/game/1/enter"),
            ("POST", f"{league}/teams/{part}/players"),
            ("POST", f"{league}/fixtures/{part}/day")]:
        answer = world.client.open(path, method=method, data={"rev": "0", "name": "Zed",
                                                              "day": "2026-09-01"})
        assert answer.status_code == 404, (method, path[:80], answer.status_code)
        assert "Not found" in answer.text
