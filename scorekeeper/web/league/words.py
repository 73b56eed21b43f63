"""The league's words for states, kinds, sides, roles, line-ups, tie-breaks, points schemes,
corrections and the season's changes, in the reader's language, with times where the
league plays: what the league templates show instead of the domain's names."""

from babel.dates import format_date, format_time, get_datetime_format
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l

from ...league import (
    AWARDED,
    AWAY,
    BLIND,
    DRAWN,
    ENTERED,
    HOME,
    OPEN,
    PAIRS,
    PLAY_OFF,
    PLAYING,
    SCORED,
    SINGLES,
    WAITING,
    LeagueSetup,
)
from ...league.terms.calendar import local_moment
from ...league.terms.setup import CAPTAIN, PUBLIC, SECRETARY
from ..answers.catalogue import gettext as _
from ..answers.catalogue import ngettext
from ..answers.language import day_words
from ..scoring.view import house_line
from .season_words import change_words, loss_words, worded_facts

STATE_WORDS = {WAITING: _l("not started"), PLAYING: _l("being scored at a table"),
               SCORED: _l("scored"), ENTERED: _l("entered from paper"),
               AWARDED: _l("not played: given to a side")}
KIND_WORDS = {SINGLES: _l("singles"), PAIRS: _l("pairs")}
SIDE_WORDS = {HOME: _l("home"), AWAY: _l("away")}
ROLE_WORDS = {SECRETARY: _l("Secretary's page"), CAPTAIN: _l("Captain's page"),
              PUBLIC: _l("League page")}
TIE_BREAK_WORDS = {"game_difference": _l("Game difference"), "games_won": _l("Games won"),
                   "head_to_head": _l("Head to head"), PLAY_OFF: _l("A play-off")}
LINE_UP_WORDS = {OPEN: _l("Picked game by game on the card"),
                 BLIND: _l("Handed in blind: each captain's whole line-up, shown once both "
                           "are in"),
                 DRAWN: _l("Drawn: each captain names the team's players for the night, "
                           "blind; the games are dealt from them by lot")}
PLAY_OFF_WORDS = {"due": _l("level on points: a play-off decides"),
                  "played": _l("placed by a play-off")}


def points_words(setup: LeagueSetup) -> str:
    """The league's points as a rule sheet says them: `3 points for a win; 1 point for
    losing 5–4`."""
    return "; ".join(_term_words(what, points, facts)
                     for what, points, facts in setup.points.terms(len(setup.games)))


def _term_words(what: str, points: int, facts: dict) -> str:
    if what == "win":
        return ngettext("%(num)s point for a win", "%(num)s points for a win", points)
    if what == "draw":
        return ngettext("%(num)s point for a draw", "%(num)s points for a draw", points)
    if what == "loss":
        return ngettext("%(num)s point for a defeat", "%(num)s points for a defeat", points)
    if what == "per_game":
        return ngettext("%(num)s point for each game won", "%(num)s points for each game won",
                        points)
    scores = facts["scores"]
    if len(scores) == 1:
        lost, won = scores[0]
        score = f"{won}–{lost}"  # the match's score, the winner's games first
        return ngettext("%(num)s point for losing %(score)s",
                        "%(num)s points for losing %(score)s", points, score=score)
    return ngettext("%(num)s point for losing by at most %(margin)s games",
                    "%(num)s points for losing by at most %(margin)s games", points,
                    margin=facts["margin"])


def format_words(setup: LeagueSetup) -> list[str]:
    """How each kind of game of the card is played: `Singles: Fives and Threes to 61, 9
    tiles each`, `Pairs: … best of 3 legs`."""
    lines = []
    for kind in (SINGLES, PAIRS):
        if kind not in setup.games:
            continue
        played = setup.format_of(kind)
        values = {"rules": _(setup.rule_set.shown_name), "target": played.target,
                  "tiles": played.hand, "legs": played.legs}
        if kind == SINGLES:
            line = ngettext("Singles: %(rules)s to %(target)s, %(tiles)s tile each",
                            "Singles: %(rules)s to %(target)s, %(tiles)s tiles each",
                            played.hand, **values)
        else:
            line = ngettext("Pairs: %(rules)s to %(target)s, %(tiles)s tile each",
                            "Pairs: %(rules)s to %(target)s, %(tiles)s tiles each",
                            played.hand, **values)
        if played.legs > 1:
            line = _("%(line)s; best of %(legs)s legs", line=line, legs=played.legs)
        lines.append(line)
    return lines


def rules_words(setup: LeagueSetup) -> list[str]:
    """The season's rules as the league page, the printed card and a restore's preview
    say them: each kind of game, the house rules, the points, the walkover's score, the
    line-ups and the squads."""
    lines = [*format_words(setup), house_line(setup.house),
             _("Points: %(points)s", points=points_words(setup))]
    if setup.walkover:
        lines.append(_("A walkover counts as a %(won)s–%(lost)s win", won=setup.walkover[0],
                       lost=setup.walkover[1]))
    if setup.line_ups != OPEN:
        lines.append(_("Line-ups: %(how)s", how=LINE_UP_WORDS[setup.line_ups]))
    if setup.squad:
        lines.append(ngettext("Squads of at most %(num)s player a season",
                              "Squads of at most %(num)s players a season", setup.squad))
    return [line for line in lines if line]


def correction_words(correction: dict, teams: dict) -> str:
    """What a correction changed, in the reader's language (`teams`: the fixture's team
    names, by side)."""
    return worded_facts(lambda: _correction_words(correction, teams), correction["kind"])


def _correction_words(correction: dict, teams: dict) -> str:
    kind, facts = correction["kind"], correction
    if kind == "players":
        return _("Game %(game)s: players set to %(home)s v %(away)s", game=facts["game"],
                 home=" & ".join(facts["home"]), away=" & ".join(facts["away"]))
    if kind == "started":
        return _("Game %(game)s started at a table", game=facts["game"])
    if kind == "entered" and "legs" in facts:
        return _("Game %(game)s: paper legs %(legs)s entered", game=facts["game"],
                 legs=", ".join(f"{home}–{away}" for home, away in facts["legs"]))
    if kind == "entered":
        return _("Game %(game)s: paper score %(home)s–%(away)s entered", game=facts["game"],
                 home=facts["home"], away=facts["away"])
    if kind == "awarded":
        return _("Game %(game)s given unplayed to %(team)s", game=facts["game"],
                 team=teams[facts["to"]])
    if kind == "walkover":
        return _("Walkover to %(team)s", team=teams[facts["to"]])
    if kind == "walkover_taken_back":
        return _("Walkover taken back: the fixture is to be played")
    if kind == "cleared":
        return _cleared_words(facts)
    if kind in FIXTURE_WORDS:
        return FIXTURE_WORDS[kind](facts, teams)
    if facts.get("by") == CAPTAIN:
        return _("Card reopened by both captains")
    return _("Card reopened by the secretary")


def _cleared_words(facts: dict) -> str:
    taken = facts.get("taken_off")
    if taken and taken.get("state") in (SCORED, ENTERED, AWARDED):
        return _("Game %(game)s: result %(home)s–%(away)s taken off the card",
                 game=facts["game"], home=taken["home"], away=taken["away"])
    if taken:
        return _("Game %(game)s: taken off the card at %(home)s–%(away)s, unfinished",
                 game=facts["game"], home=taken["home"], away=taken["away"])
    return _("Game %(game)s: result taken off the card", game=facts["game"])


FIXTURE_WORDS = {
    "moved": lambda facts, _teams: _("Moved from %(from)s to %(to)s",
                                     **{"from": day_words(facts["from"]),
                                        "to": day_words(facts["to"])}),
    "postponed": lambda facts, _teams: _("Postponed: not played on %(day)s",
                                         day=day_words(facts["day"])),
    "rearranged": lambda facts, _teams: _("Rearranged to %(to)s (postponed from %(from)s)",
                                          **{"from": day_words(facts["from"]),
                                             "to": day_words(facts["to"])}),
    "swapped": lambda _facts, _teams: _("Home and away swapped"),
    "player_removed": lambda facts, teams: _player_removed(facts, teams),
}
"""How the card's corrections of its fixture read (`teams`: the names by side)."""


def _player_removed(facts: dict, teams: dict) -> str:
    games = facts["games"]
    if not games:
        return _("%(name)s deleted from %(team)s: taken off the card", name=facts["name"],
                 team=teams[facts["side"]])
    return ngettext("%(name)s deleted from %(team)s: taken off the card, and game %(games)s's "
                    "result with them", "%(name)s deleted from %(team)s: taken off the card, "
                    "and the results of games %(games)s with them", len(games),
                    name=facts["name"], team=teams[facts["side"]],
                    games=", ".join(map(str, games)))


def moment(stored: str, setup: LeagueSetup) -> str:
    """A moment the store kept (in UTC), as the reader's language writes it where the
    league plays: `1. 12. 2026 19:14`."""
    found = local_moment(setup.time_zone, stored)
    if found is None:
        return str(stored)
    locale = get_locale()
    return get_datetime_format("medium", locale=locale).replace(
        "{1}", format_date(found, "medium", locale=locale)).replace(
        "{0}", format_time(found, "short", locale=locale))


def game_line(game: dict, card: dict) -> str:
    """How a game of a card stands, in a line: `Ann v Bob · being scored at a table 3–1`."""
    if game["awarded"]:
        return _("given to %(team)s unplayed", team=card[game["awarded"]])
    who = _("%(home)s v %(away)s", home=" & ".join(game["home"]) or "…",
            away=" & ".join(game["away"]) or "…")
    state = STATE_WORDS[game["state"]]
    if game["state"] == WAITING:
        return f"{who} · {state}"
    return f"{who} · {state} {game['home_points']}–{game['away_points']}"


def words() -> dict:
    return {"state_words": STATE_WORDS, "kind_words": KIND_WORDS, "side_words": SIDE_WORDS,
            "role_words": ROLE_WORDS, "tie_break_words": TIE_BREAK_WORDS,
            "line_up_words": LINE_UP_WORDS, "play_off_words": PLAY_OFF_WORDS,
            "rules_words": rules_words, "game_line": game_line,
            "correction_words": correction_words, "change_words": change_words,
            "loss_words": loss_words}
