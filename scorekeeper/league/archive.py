"""The season archive `allfives-league/1`: setup, teams, fixtures, cards, corrections,
every game's `allfives-match/1` record, and the standings they give.

Reading checks every part against the others; an archive that disagrees with itself
(a player on no roster, a record of other players, standings that do not follow from
its cards) is refused, naming the first disagreement.
"""

from dataclasses import dataclass, field
from datetime import date

from ..rules import Match, RuleError
from ..rules.record import UnreadableRecord, read_record, write_record
from .card import ENTERED, SCORED, Card, Game, Outcome, outcome
from .errors import N_, ArchiveError, LeagueError
from .fixtures import check_fixture
from .setup import LeagueSetup, checked_name
from .standings import card_result, standings

FORMAT = "allfives-league/1"
ARCHIVED = "archived"
"""The match id of a game read from an archive, until restoring stores its match."""


@dataclass
class SeasonFixture:
    """A fixture with its card, the matches of its scored games by number, and corrections."""

    home: str
    away: str
    date: str
    card: Card
    matches: dict[int, Match] = field(default_factory=dict)
    corrections: list[dict] = field(default_factory=list)

    def outcomes(self) -> list[Outcome]:
        found = []
        for game in self.card.games:
            match = self.matches.get(game.number)
            found.append(outcome(game, match.scores, match.winner) if match else outcome(game))
        return found


@dataclass
class Season:
    """A whole season as values: what an archive holds and what the standings come from."""

    setup: LeagueSetup
    teams: dict[str, list[str]]
    fixtures: list[SeasonFixture]

    def results(self) -> list:
        return [card_result(fixture.home, fixture.away, fixture.card, fixture.outcomes())
                for fixture in self.fixtures if fixture.card.counts(fixture.outcomes())]

    def standings(self) -> list:
        return standings(list(self.teams), self.results(), self.setup.points)


def write_archive(season: Season) -> dict:
    fixtures = []
    for fixture in season.fixtures:
        games = []
        for game, found in zip(fixture.card.games, fixture.outcomes(), strict=True):
            match = fixture.matches.get(game.number)
            games.append({"kind": game.kind, "home": list(game.home), "away": list(game.away),
                          "how": found.state if found.state in (SCORED, ENTERED) else None,
                          "score": list(game.entered) if game.entered else None,
                          "record": write_record(match) if match else None})
        fixtures.append({"home": fixture.home, "away": fixture.away, "date": fixture.date,
                         "card": {"games": games, "confirmed": sorted(fixture.card.confirmed)},
                         "corrections": fixture.corrections})
    return {"format": FORMAT, "league": season.setup.as_dict(),
            "teams": [{"name": name, "players": players}
                      for name, players in season.teams.items()],
            "fixtures": fixtures,
            "standings": [row.as_dict() for row in season.standings()]}


def read_archive(doc) -> Season:
    """The season an archive describes, every part checked; ArchiveError says what is wrong."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ArchiveError.worded(N_("This file is not a league season archive."),
                                  "not_an_archive")
    try:
        setup = LeagueSetup.from_dict(doc["league"])
        teams = _read_teams(doc["teams"])
        fixtures = [_read_fixture(setup, teams, number, item)
                    for number, item in enumerate(doc["fixtures"], 1)]
    except ArchiveError:
        raise
    except LeagueError as error:
        raise _disagrees(error.template or error.message, error.facts) from None
    except (KeyError, TypeError, ValueError, AttributeError):
        raise ArchiveError.worded(N_("This league archive is damaged: a part of it is "
                                     "missing or not what it should be."),
                                  "damaged_archive") from None
    season = Season(setup, teams, fixtures)
    if "standings" in doc and doc["standings"] != [row.as_dict() for row in season.standings()]:
        raise ArchiveError.worded(N_("The archive's standings do not follow from its cards."),
                                  "standings_disagree")
    return season


def _disagrees(template: str, facts: dict) -> ArchiveError:
    error = ArchiveError(template % facts, "archive_disagrees", **facts)
    error.template = template
    return error


def _read_teams(items: list) -> dict[str, list[str]]:
    teams: dict[str, list[str]] = {}
    seen: dict[str, str] = {}
    for item in items:
        name = checked_name(item["name"], N_("Every team needs a name."))
        if name in teams:
            raise ArchiveError.worded(N_("Two teams are called %(team)s."), "archive_disagrees",
                                      team=name)
        teams[name] = []
        for player in item["players"]:
            player = checked_name(player, N_("Every player needs a name."))
            if player.casefold() in seen:
                raise ArchiveError.worded(N_("%(name)s is on two rosters."),
                                          "archive_disagrees", name=player)
            seen[player.casefold()] = name
            teams[name].append(player)
    return teams


def _read_fixture(setup: LeagueSetup, teams: dict, number: int, item: dict) -> SeasonFixture:
    home, away = item["home"], item["away"]
    if home not in teams or away not in teams:
        raise ArchiveError.worded(N_("Fixture %(fixture)s names a team the archive does not "
                                     "have."), "archive_disagrees", fixture=number)
    check_fixture(home, away)
    date.fromisoformat(item["date"])
    games = item["card"]["games"]
    if tuple(game["kind"] for game in games) != setup.games:
        raise ArchiveError.worded(N_("Fixture %(fixture)s has a card of another format."),
                                  "archive_disagrees", fixture=number)
    card, matches = Card.blank(setup.games), {}
    rosters = {"home": teams[home], "away": teams[away]}
    for game_number, game in enumerate(games, 1):
        if game["home"] or game["away"]:
            card = card.with_players(game_number, game["home"], game["away"], rosters)
        if game.get("score") is not None:
            card = card.with_entered(game_number, *game["score"], setup.target,
                                     setup.rule_set.exact_target)
        elif game.get("record") is not None:
            matches[game_number] = _read_game(setup, card.game(game_number), game["record"],
                                              number)
            card = card.started(game_number, ARCHIVED)
    fixture = SeasonFixture(home, away, item["date"], card, matches,
                            [_read_correction(c) for c in item.get("corrections", [])])
    for side in item["card"]["confirmed"]:
        fixture.card = fixture.card.with_confirmation(side, fixture.outcomes())
    return fixture


def _read_correction(item: dict) -> dict:
    """When a card was corrected, and what changed (kept as it was written)."""
    if not (isinstance(item["at"], str) and isinstance(item["kind"], str)
            and isinstance(item["facts"], dict)):
        raise TypeError("a correction is a time, a kind and its facts")
    return {"at": item["at"], "kind": item["kind"], "facts": item["facts"]}


def _read_game(setup: LeagueSetup, game: Game, record: dict, number: int) -> Match:
    """A scored game's record: readable, legal, and of this game's players and house rules."""
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
