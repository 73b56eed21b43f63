"""Small helpers for the league tests: cards written as `home games–away games`."""

from scorekeeper.league import PRESETS, CardResult, GameResult, LeagueSetup, PointsScheme

TWO_PLUS_GAMES = PRESETS["two_plus_games"]
THREE_ONE = PRESETS["three_one"]


def card(home: str, away: str, home_games: int, away_games: int, target: int = 25):
    """A confirmed card: the home side won the first `home_games` games, to `target`."""
    games = [GameResult("singles", (f"{home} {n}",), (f"{away} {n}",), target, 10)
             for n in range(home_games)]
    games += [GameResult("singles", (f"{home} {n}",), (f"{away} {n}",), 10, target)
              for n in range(home_games, home_games + away_games)]
    return CardResult(home, away, tuple(games))


def scheme(preset: PointsScheme, *tie_breaks: str) -> PointsScheme:
    return PointsScheme.create(preset.per_game, preset.win, preset.draw, tie_breaks)


def setup(games="SSPP", points=TWO_PLUS_GAMES, target=25) -> LeagueSetup:
    return LeagueSetup.create("Fives League", "2026–27", games, points, target=target)


def won_at_once(table):
    """A match that the first seat wins with its lead: 2-3 counts 5, and the target is 5."""
    from scorekeeper.rules import Match, parse_tile

    match = Match(table)
    match.start(0)
    match.lay(parse_tile("2-3"))
    assert match.is_over()
    return match
