"""The season archive `allfives-league/1`: setup, teams in their divisions with their former
players, fixtures (play-offs and postponed ones marked), cards with walkovers, games given
unplayed, line-ups still hidden and those shown (the players each side handed in),
corrections, the league's record of its changes, every game's (every leg's)
`allfives-match/1` record, and the standings they give.

Reading checks every part against the others; an archive that disagrees with itself
(a player on no roster, a record of other players, standings that do not follow from
its cards) is refused, naming the first disagreement. A part added after the first
archives (legs, walkovers, divisions, ...) is written only where it is used, so an
archive of a season that used none of them is written as before.
"""

import json
from dataclasses import replace
from datetime import date

from ...rules import Match, RuleError
from ...rules.match.record import UnreadableRecord, read_record, write_record
from ..cards.card import Card
from ..cards.game import AWARDED, ENTERED, SCORED, SIDES, Game, outcome
from ..cards.lineups import with_line_up
from ..errors import N_, ArchiveError, LeagueError
from ..limits import check_fixtures, check_former, check_roster, check_teams
from ..terms.fixtures import check_fixture
from ..terms.setup import MAX_GAMES, LeagueSetup, checked_name
from .adjustments import adjustments
from .bounded_json import ITEM, read_bounded
from .season import Season, SeasonFixture

FORMAT = "allfives-league/1"
ARCHIVED = "archived"
MAX_CHANGES = 5000
"""The changes and corrections an archive may hold in one list: years of a busy secretary's."""
MAX_FACTS = 20_000
"""The characters one change's facts may take (a team deleted with its whole season's
fixtures and results takes a few thousand)."""
"""The match id of a game read from an archive, until restoring stores its match."""


def write_archive(season: Season) -> dict:
    fixtures = [_written_fixture(season.setup, fixture) for fixture in season.fixtures]
    teams = []
    for name, players in season.teams.items():
        team = {"name": name, "players": players}
        if season.division_of(name):
            team["division"] = season.division_of(name)
        if season.former.get(name):
            team["former"] = season.former[name]
        teams.append(team)
    written = {"format": FORMAT, "league": season.setup.as_dict(), "teams": teams,
               "fixtures": fixtures,
               "standings": [row.as_dict() for row in season.standings()]}
    if season.changes:
        written["changes"] = season.changes
    return written


def _written_fixture(setup: LeagueSetup, fixture: SeasonFixture) -> dict:
    card = fixture.card
    games = [_written_game(setup, game, found, fixture.matches.get(game.number, ()))
             for game, found in zip(card.games, fixture.outcomes(setup), strict=True)]
    written = {"games": games, "confirmed": sorted(card.confirmed)}
    extra = card.as_dict()
    written.update({key: extra[key] for key in ("reopen_asked", "walkover", "line_ups",
                                                 "selections") if key in extra})
    kept = {"home": fixture.home, "away": fixture.away, "date": fixture.date,
            "card": written, "corrections": fixture.corrections}
    if fixture.play_off:
        kept["play_off"] = True
    if fixture.postponed:
        kept["postponed"] = True
    return kept


def _written_game(setup: LeagueSetup, game: Game, found, matches) -> dict:
    best_of = setup.format_of(game.kind).legs > 1
    written = {"kind": game.kind, "home": list(game.home), "away": list(game.away),
               "how": found.state if found.state in (SCORED, ENTERED, AWARDED) else None,
               "score": list(game.entered[0]) if game.entered and not best_of else None,
               "record": write_record(matches[0]) if matches and not best_of else None}
    if best_of and (game.entered or matches):
        written["legs"] = ([{"score": list(leg)} for leg in game.entered] or
                           [{"record": write_record(match)} for match in matches])
    if game.awarded:
        written["awarded"] = game.awarded
    return written


def parse_archive(text: str):
    """An archive's JSON, each of its lists refused as soon as it grows past the league's
    limit (teams, a roster, former players, fixtures, a card's games, changes): before the
    rest of it is read. ValueError (RecursionError): not JSON."""
    try:
        return read_bounded(text, {
            ("teams", ITEM): check_teams, ("teams", ITEM, "players", ITEM): check_roster,
            ("teams", ITEM, "former", ITEM): check_former,
            ("fixtures", ITEM): check_fixtures,
            ("fixtures", ITEM, "card", "games", ITEM): _at_most(MAX_GAMES),
            ("fixtures", ITEM, "corrections", ITEM): _at_most(MAX_CHANGES),
            ("changes", ITEM): _at_most(MAX_CHANGES)})
    except ArchiveError:
        raise
    except LeagueError as error:
        raise _disagrees(error.template or error.message, error.facts) from None


def _at_most(most: int):
    """A list's check: longer than `most`, the archive is damaged."""
    def check(count: int) -> None:
        if count > most:
            raise _damaged()
    return check


def read_archive(doc) -> Season:
    """The season an archive describes, every part checked; ArchiveError says what is wrong."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ArchiveError.worded(N_("This file is not a league season archive."),
                                  "not_an_archive")
    try:
        setup = LeagueSetup.from_dict(doc["league"])
        teams, divisions, former = _read_teams(doc["teams"], setup)
        season = Season(setup, teams, [], divisions, former,
                        _read_corrections(doc.get("changes", [])))
        adjustments(season.changes)  # each one readable
        season.fixtures = [_read_fixture(season, number, item)
                           for number, item in enumerate(doc["fixtures"], 1)]
    except ArchiveError:
        raise
    except LeagueError as error:
        raise _disagrees(error.template or error.message, error.facts) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        raise _damaged() from None
    if "standings" in doc and doc["standings"] != [row.as_dict() for row in season.standings()]:
        raise ArchiveError.worded(N_("The archive's standings do not follow from its cards."),
                                  "standings_disagree")
    return season


def _damaged() -> ArchiveError:
    return ArchiveError.worded(N_("This league archive is damaged: a part of it is missing "
                                  "or not what it should be."), "damaged_archive")


def _disagrees(template: str, facts: dict) -> ArchiveError:
    error = ArchiveError(template % facts, "archive_disagrees", **facts)
    error.template = template
    return error


def _read_teams(items: list, setup: LeagueSetup) -> tuple[dict, dict, dict]:
    """Each team's players, division and former players: a name is once in a team (two
    teams may each have a player of one name), a squad counts them all."""
    teams: dict[str, list[str]] = {}
    divisions: dict[str, str] = {}
    former: dict[str, list[str]] = {}
    for item in items:
        name = checked_name(item["name"], N_("Every team needs a name."))
        if name in teams:
            raise ArchiveError.worded(N_("Two teams are called %(team)s."), "archive_disagrees",
                                      team=name)
        division = item.get("division", "")
        if division not in (setup.divisions or ("",)):
            raise ArchiveError.worded(N_("%(team)s plays in a division the league does not "
                                         "have."), "archive_disagrees", team=name)
        teams[name], divisions[name] = [], division
        former[name] = [checked_name(player, N_("Every player needs a name."))
                        for player in item.get("former", [])]
        if setup.squad is not None and \
                len(item["players"]) + len(former[name]) > setup.squad:
            raise ArchiveError.worded(N_("%(team)s has more players than a squad may."),
                                      "archive_disagrees", team=name)
        seen: set[str] = set()
        for player in item["players"]:
            player = checked_name(player, N_("Every player needs a name."))
            if player.casefold() in seen or player in former[name]:
                raise ArchiveError.worded(N_("%(name)s is twice in %(team)s."),
                                          "archive_disagrees", name=player, team=name)
            seen.add(player.casefold())
            teams[name].append(player)
    return teams, divisions, {team: names for team, names in former.items() if names}


def _read_fixture(season: Season, number: int, item: dict) -> SeasonFixture:
    setup, teams = season.setup, season.teams
    home, away = item["home"], item["away"]
    if home not in teams or away not in teams:
        raise ArchiveError.worded(N_("Fixture %(fixture)s names a team the archive does not "
                                     "have."), "archive_disagrees", fixture=number)
    check_fixture(home, away)
    if season.division_of(home) != season.division_of(away):
        raise ArchiveError.worded(N_("Fixture %(fixture)s is between teams of two "
                                     "divisions."), "archive_disagrees", fixture=number)
    date.fromisoformat(item["date"])
    written = item["card"]
    if tuple(game["kind"] for game in written["games"]) != setup.games:
        raise ArchiveError.worded(N_("Fixture %(fixture)s has a card of another format."),
                                  "archive_disagrees", fixture=number)
    rosters = {side: teams[team] + season.former.get(team, [])
               for side, team in (("home", home), ("away", away))}
    fixture = SeasonFixture(home, away, item["date"], Card.blank(setup.games), {},
                            _read_corrections(item.get("corrections", [])),
                            item.get("play_off", False) is True,
                            item.get("postponed", False) is True)
    if written.get("walkover"):
        fixture.card = fixture.card.with_walkover(written["walkover"])
    for game_number, game in enumerate(written["games"], 1):
        _read_game(setup, fixture, number, game_number, game, rosters)
    for side, line_up in sorted(written.get("line_ups", {}).items()):
        if fixture.card.line_ups:
            raise ArchiveError.worded(N_("Fixture %(fixture)s holds both line-ups unread."),
                                      "archive_disagrees", fixture=number)
        fixture.card = with_line_up(fixture.card, setup, side, line_up, rosters, None)
    fixture.card = _with_selections(fixture.card, written.get("selections", {}), rosters,
                                    number)
    for side in written["confirmed"]:
        fixture.card = fixture.card.with_confirmation(side, fixture.outcomes(setup))
    for side in written.get("reopen_asked", ()):
        fixture.card = fixture.card.with_reopen_asked(side)
    return fixture


def _with_selections(card: Card, selections: dict, rosters: dict, number: int) -> Card:
    """The players each side handed in, once the line-ups were shown: from its roster."""
    kept = []
    for side, names in sorted(selections.items()):
        if side not in SIDES or card.line_ups or not set(names) <= set(rosters[side]):
            raise ArchiveError.worded(N_("Fixture %(fixture)s holds a line-up of players not "
                                         "on the team's roster."), "archive_disagrees",
                                      fixture=number)
        kept.append((side, tuple(checked_name(name, N_("Every player needs a name."))
                                 for name in names)))
    return replace(card, selections=tuple(kept))


def _read_game(setup: LeagueSetup, fixture: SeasonFixture, number: int, game_number: int,
               game: dict, rosters: dict) -> None:
    """One game of a card, as the card's own rules would have let it be written."""
    card = fixture.card
    if game.get("awarded") in SIDES:
        fixture.card = card.with_awarded(game_number, game["awarded"])
        return
    if game["home"] or game["away"]:
        card = card.with_players(game_number, game["home"], game["away"], rosters)
    played = setup.format_of(card.game(game_number).kind)
    legs = game.get("legs") or []
    if game.get("score") is not None or legs and "score" in legs[0]:
        scores = [game["score"]] if game.get("score") is not None else \
            [leg["score"] for leg in legs]
        card = card.with_entered(game_number, scores, played, setup.rule_set.exact_target)
    else:
        records = [game["record"]] if game.get("record") is not None else \
            [leg["record"] for leg in legs]
        matches: list[Match] = []
        for record in records:
            match = _read_record(setup, card.game(game_number), record, number)
            if matches:  # a later leg: only once the last is over and nobody has won
                found = outcome(card.game(game_number),
                                [(leg.scores, leg.winner) for leg in matches], played)
                card = card.with_next_leg(game_number, ARCHIVED, found)
            else:
                card = card.started(game_number, ARCHIVED)
            matches.append(match)
        if matches:
            fixture.matches[game_number] = tuple(matches)
    fixture.card = card


def _read_corrections(items: list) -> list[dict]:
    _at_most(MAX_CHANGES)(len(items))
    return [_read_correction(item) for item in items]


def _read_correction(item: dict) -> dict:
    """When a card (or the league's setup) was corrected, and what changed (kept as it was
    written, bounded: the pages word what they can read of it)."""
    if not (isinstance(item["at"], str) and isinstance(item["kind"], str)
            and isinstance(item["facts"], dict) and len(item["at"]) <= 40
            and len(item["kind"]) <= 40 and len(json.dumps(item["facts"])) <= MAX_FACTS):
        raise TypeError("a correction is a time, a kind and its facts")
    return {"at": item["at"], "kind": item["kind"], "facts": item["facts"]}


def _read_record(setup: LeagueSetup, game: Game, record: dict, number: int) -> Match:
    """A scored leg's record: readable, legal, and of this game's players and house rules."""
    try:
        match = read_record(record, pending_pips=True)
    except (UnreadableRecord, RuleError) as error:
        raise ArchiveError.worded(N_("Fixture %(fixture)s, game %(game)s: %(why)s"),
                                  "archive_disagrees", fixture=number, game=game.number,
                                  why=str(error)) from None
    if match.table != setup.table(game.kind, game.players):
        raise ArchiveError.worded(N_("Fixture %(fixture)s, game %(game)s: the record is of "
                                     "another table than the card."), "archive_disagrees",
                                  fixture=number, game=game.number)
    return match
