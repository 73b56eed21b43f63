"""What the secretary's corrections of a season do to a card: home and away swapped, a
player's name corrected, a player taken off it; and what a write saw of a card, so that
two captains saving different games of one card never undo each other.
"""

import hashlib
import json
from dataclasses import replace

from ..errors import N_, CardError
from .card import Card
from .game import AWAY, HOME, Game

GAMES = "games"
"""The scope of a write that depends on every game (a confirmation)."""


def seen_print(card: Card, scope, teams: tuple[int, int]) -> str:
    """A short digest of the part of the card a write depends on: one game (its number),
    every game (GAMES), or a side's blind line-up with the games ("line-up:home"), and
    which team is home (`teams`): a page from before home and away were swapped never
    gives a game to the side it no longer means."""
    if isinstance(scope, int):
        part = card.game(scope).as_dict()
    elif scope == GAMES:
        part = [game.as_dict() for game in card.games]
    else:
        side = str(scope).removeprefix("line-up:")
        part = [dict(card.line_ups).get(side), [game.as_dict() for game in card.games]]
    return hashlib.sha256(json.dumps([list(teams), part], sort_keys=True).encode()
                          ).hexdigest()[:16]


def swapped(card: Card) -> Card:
    """The card of the same fixture with home and away exchanged: refused once a game has
    begun (its table seats the home players first), or the card counts."""
    card.unconfirmed()
    begun = [game.number for game in card.games if game.begun]
    if begun:
        raise CardError.worded(N_("Game %(game)s has begun: home and away can be swapped "
                                  "only before a game is played."), "swap_after_start",
                               game=begun[0])
    other = {HOME: AWAY, AWAY: HOME}
    return replace(card, games=tuple(replace(game, home=game.away, away=game.home)
                                     for game in card.games),
                   line_ups=tuple(sorted((other[side], line_up)
                                         for side, line_up in card.line_ups)),
                   selections=tuple(sorted((other[side], names)
                                           for side, names in card.selections)))


def renamed(card: Card, side: str, old: str, new: str) -> Card:
    """The card with one side's player `old` called `new` in every game and line-up."""
    def name(value):
        if isinstance(value, (list, tuple)):
            return tuple(name(item) for item in value)
        return new if value == old else value

    games = tuple(replace(game, **{side: name(getattr(game, side))}) for game in card.games)
    line_ups = tuple((held, name(line_up) if held == side else line_up)
                     for held, line_up in card.line_ups)
    selections = tuple((held, name(names) if held == side else names)
                       for held, names in card.selections)
    return replace(card, games=games, line_ups=line_ups, selections=selections)


def names_on(card: Card, side: str) -> set[str]:
    """Every player a side names on the card: in a game, or in a line-up handed in."""
    named = {player for game in card.games for player in getattr(game, side)}
    for held, line_up in card.line_ups + card.selections:
        if held == side:
            named |= set(_flat(line_up))
    return named


def _flat(line_up) -> list:
    return [name for item in line_up
            for name in (_flat(item) if isinstance(item, (list, tuple)) else [item])]


def without_player(card: Card, side: str, player: str) -> tuple[Card, list[Game]]:
    """The card with a side's player taken off it: each game naming them back to no
    players (a game begun loses its result: it is returned, to be told and audited), a
    line-up handed in that names them withdrawn, and they leave the players a shown
    line-up may change to. Refused on a confirmed card."""
    card.unconfirmed()
    taken_off, games = [], []
    for game in card.games:
        if player in getattr(game, side):
            if game.begun:
                taken_off.append(game)
            game = Game(game.number, game.kind)
        games.append(game)
    line_ups = tuple((held, line_up) for held, line_up in card.line_ups
                     if held != side or player not in _flat(line_up))
    selections = tuple((held, tuple(name for name in names if held != side or name != player))
                       for held, names in card.selections)
    return (replace(card, games=tuple(games), line_ups=line_ups, selections=selections),
            taken_off)
