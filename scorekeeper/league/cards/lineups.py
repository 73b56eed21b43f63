"""Line-ups handed in blind (a league's `line_ups`): each captain's is hidden from the
other until both are in; then the card's games are filled, as the captains wrote them
(`blind`) or dealt from each team's players for the night by lot (`drawn`)."""

from dataclasses import replace
from random import Random

from ..errors import N_, CardError
from ..terms.setup import BLIND, OPEN, SINGLES, LeagueSetup, players_needed
from .card import Card, check_picks, check_plays_once
from .game import AWAY, HOME, SIDES


def check_open(setup: LeagueSetup, card: Card) -> None:
    """Refuse picking a game's players while blind line-ups are still being handed in."""
    if setup.line_ups != OPEN and not revealed(card):
        raise CardError.worded(N_("This league's line-ups are handed in blind: each captain "
                                  "hands in the whole line-up, and the card shows both once "
                                  "both are in."), "line_ups_blind")


def revealed(card: Card) -> bool:
    """Both line-ups are in (the games hold their players), or a game is being played or
    was entered (a game given unplayed names nobody, so it reveals nothing)."""
    return any(game.home or game.matches or game.entered for game in card.games)


def handed_in(card: Card) -> list[str]:
    """The sides whose blind line-up is in, waiting for the other's."""
    return [side for side, _ in card.line_ups]


def with_line_up(card: Card, setup: LeagueSetup, side: str, line_up, rosters: dict,
                 rng: Random) -> Card:
    """A captain hands in (or hands in again) a blind line-up: for `blind` the players of
    each game in order, for `drawn` the team's players for the night. Once both are in,
    the games are filled and nobody's line-up is hidden any more."""
    card.unconfirmed()
    if setup.line_ups == OPEN:
        raise CardError.worded(N_("This league picks the players game by game."),
                               "line_ups_open")
    if side not in SIDES:
        raise CardError.worded(N_("Only the two captains of a fixture hand in line-ups."),
                               "not_a_captain")
    if revealed(card):
        raise CardError.worded(N_("Both line-ups are in and the card shows them: change a "
                                  "game's players on the card."), "line_ups_revealed")
    line_up = tuple(tuple(item) if isinstance(item, (list, tuple)) else item
                    for item in line_up)
    if setup.line_ups == BLIND:
        _check_blind(card, side, line_up, rosters[side])
    else:
        _check_drawn(setup, line_up, rosters[side])
    pending = dict(card.line_ups) | {side: line_up}
    if len(pending) < len(SIDES):
        return replace(card, line_ups=tuple(sorted(pending.items())))
    games = pending if setup.line_ups == BLIND else _dealt(setup, pending, rng)
    filled = replace(card, line_ups=())
    for game in card.games:
        if not game.awarded:
            filled = filled.with_players(game.number, games[HOME][game.number - 1],
                                         games[AWAY][game.number - 1], rosters)
    return filled


def _check_blind(card: Card, side: str, line_up: tuple, roster: list[str]) -> None:
    """Every game's players from the side's roster, by the card's rules."""
    if len(line_up) != len(card.games):
        raise CardError.worded(N_("A line-up names the players of every game of the card."),
                               "line_up_incomplete")
    picked = []
    for game, names in zip(card.games, line_up, strict=True):
        if game.awarded:
            continue
        names = tuple(names)
        check_picks(game, names, roster)
        for other, others in picked:
            check_plays_once(game, names, other, others)
        picked.append((game, names))


def _check_drawn(setup: LeagueSetup, players: tuple, roster: list[str]) -> None:
    needed = players_needed(setup.games)
    if len(players) != needed or len(set(players)) != len(players) or not all(players):
        raise CardError.worded(N_("Name %(needed)s different players for the night."),
                               "line_up_incomplete", needed=needed)
    for name in players:
        if name not in roster:
            raise CardError.worded(N_("%(name)s is not on the team's roster."),
                                   "not_on_roster", name=str(name)[:40])


def _dealt(setup: LeagueSetup, selections: dict, rng: Random) -> dict:
    """Each side's players dealt into the games by lot: the singles in a shuffled order,
    the pairs from another shuffle, two by two."""
    dealt = {}
    for side, players in selections.items():
        singles, pairs = list(players), list(players)
        rng.shuffle(singles)
        rng.shuffle(pairs)
        games = []
        for kind in setup.games:
            if kind == SINGLES:
                games.append((singles.pop(),))
            else:
                games.append((pairs.pop(), pairs.pop()))
        dealt[side] = games
    return dealt

