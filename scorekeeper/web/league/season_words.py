"""The season's changes in the reader's language: what the secretary renamed, moved or
deleted (the league's audit), the links given out again, and the results a deletion
would take away, a line each."""

from ...league import PLAYING
from ...league.terms.setup import CAPTAIN, PUBLIC, SECRETARY
from ..answers.catalogue import gettext as _
from ..answers.catalogue import ngettext
from ..answers.language import day_words

LINK_WORDS = {
    SECRETARY: lambda facts: _("The secretary's link given out again; the old one "
                                 "withdrawn"),
    PUBLIC: lambda facts: _("The public page's link given out again; the old one "
                              "withdrawn"),
    CAPTAIN: lambda facts: _("%(team)s's captain's link given out again; the old one "
                               "withdrawn", team=facts.get("team", "")),
}


def change_words(change) -> str:
    """A change of the league's audit (`kind`, `facts`), in a line."""
    words = CHANGE_WORDS.get(change.kind)
    return worded_facts(lambda: words(change.facts), change.kind) if words else change.kind


def worded_facts(words, kind: str) -> str:
    """A change's line, or, when its facts cannot be read (an archive restored from
    elsewhere may hold anything its checks let through), a line that says so: the page
    still opens."""
    try:
        return words()
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return _("A change this page cannot show (%(kind)s)", kind=kind)


def _results(facts: dict, line: str) -> str:
    """A deletion's line, with how many results went with it."""
    results = len(facts.get("results", ())) + sum(
        len(fixture.get("results", ())) for fixture in facts.get("fixtures", ()))
    if not results:
        return line
    return ngettext("%(line)s, with %(num)s result", "%(line)s, with %(num)s results",
                    results, line=line)


CHANGE_WORDS = {
    "team_renamed": lambda facts: _("Team %(old)s renamed %(new)s", old=facts["from"],
                                    new=facts["to"]),
    "team_deleted": lambda facts: _results(facts, ngettext(
        "Team %(team)s deleted, with %(num)s fixture", "Team %(team)s deleted, with %(num)s "
        "fixtures", len(facts["fixtures"]), team=facts["team"])),
    "player_renamed": lambda facts: _("%(old)s of %(team)s renamed %(new)s", old=facts["from"],
                                      team=facts["team"], new=facts["to"]),
    "player_deleted": lambda facts: _results(facts, _("%(name)s deleted from %(team)s",
                                                      name=facts["name"], team=facts["team"])),
    "player_moved": lambda facts: _("%(name)s moved from %(old)s to %(new)s",
                                    name=facts["name"], old=facts["from"], new=facts["to"]),
    "player_left": lambda facts: _("%(name)s left %(team)s", name=facts["name"],
                                   team=facts["from"]),
    "fixture_deleted": lambda facts: _results(facts, _(
        "Fixture %(home)s v %(away)s of %(day)s deleted", home=facts["home"],
        away=facts["away"], day=day_words(facts["day"]))),
    "link_reissued": lambda facts: LINK_WORDS[facts["role"]](facts),
    "fixture_moved": lambda facts: _(
        "Fixture %(home)s v %(away)s moved from %(old)s to %(new)s", home=facts["home"],
        away=facts["away"], old=day_words(facts["from"]), new=day_words(facts["to"])),
    "fixture_postponed": lambda facts: _(
        "Fixture %(home)s v %(away)s of %(day)s postponed", home=facts["home"],
        away=facts["away"], day=day_words(facts["day"])),
    "fixture_rearranged": lambda facts: _(
        "Fixture %(home)s v %(away)s rearranged to %(new)s (postponed from %(old)s)",
        home=facts["home"], away=facts["away"], old=day_words(facts["from"]),
        new=day_words(facts["to"])),
    "fixture_swapped": lambda facts: _(
        "Fixture %(home)s v %(away)s of %(day)s: home and away swapped", home=facts["home"],
        away=facts["away"], day=day_words(facts["day"])),
    "points_adjusted": lambda facts: _(
        "%(team)s: %(points)s points on %(day)s: %(reason)s", team=facts["team"],
        points=f"{facts['points']:+d}", day=day_words(facts["day"]), reason=facts["reason"]),
    "line_up_overridden": lambda facts: _(
        "%(home)s v %(away)s of %(day)s, game %(game)s: the secretary changed the players "
        "handed in to %(now)s (were %(was)s)", home=facts["home"], away=facts["away"],
        day=day_words(facts["day"]), game=facts["game"], now=_players(facts["to"]),
        was=_players(facts["from"])),
}
"""How each kind of change reads."""


def _players(sides: list) -> str:
    """A game's players, home first: `Ann & Amy v Bob & Ben`."""
    home, away = (" & ".join(names) or "…" for names in sides)
    return _("%(home)s v %(away)s", home=home, away=away)


def loss_words(loss: dict) -> str:
    """A result a deletion would take away: `Anchor v Bell, 30 Nov 2026: game 1, Ann v
    Bob, 5–0, scored`."""
    where = _("%(home)s v %(away)s, %(day)s", home=loss["home"], away=loss["away"],
              day=day_words(loss["day"]))
    if "walkover" in loss:
        return _("%(fixture)s: walkover to %(team)s", fixture=where,
                 team=loss[loss["walkover"]])
    if loss.get("awarded"):
        return _("%(fixture)s: game %(game)s given to %(team)s unplayed", fixture=where,
                 game=loss["game"], team=loss[loss["awarded"]])
    home, away = (" & ".join(names) for names in loss["players"])
    template = (_("%(fixture)s: game %(game)s, %(home)s v %(away)s, %(score)s so far")
                if loss["state"] == PLAYING else
                _("%(fixture)s: game %(game)s, %(home)s v %(away)s, %(score)s"))
    return template % {"fixture": where, "game": loss["game"], "home": home, "away": away,
                       "score": f"{loss['home_points']}–{loss['away_points']}"}
