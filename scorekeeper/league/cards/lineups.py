"""Line-ups handed in blind (a league's `line_ups`): each captain's is hidden from the
other until both are in; then the card's games are filled, as the captains wrote them
(`blind`) or dealt from each team's players for the night by lot (`drawn`). A team short
of players hands in fewer names and concedes the games it cannot fill; once the line-ups
are shown a captain changes only their own team's players, to players it handed in."""

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
    """Both line-ups are in (the card keeps what each side handed in), or a game has its
    players, is being played or was entered (a game given unplayed names nobody, so it
    reveals nothing)."""
    return bool(card.selections) or any(game.home or game.matches or game.entered
                                        for game in card.games)


def check_kept_line_up(setup: LeagueSetup, card: Card, number: int, side: str, home,
                       away) -> None:
    """Once blind or drawn line-ups are shown, a captain (of `side`) changes only their own
    team's players of a game, and only to players of the line-up they handed in: the
    line-ups stay as handed in. The secretary (`side` None) may override them."""
    if setup.line_ups == OPEN or not card.selections or side is None:
        return
    game = card.game(number)
    other = AWAY if side == HOME else HOME
    if tuple({HOME: home, AWAY: away}[other]) != getattr(game, other):
        raise CardError.worded(N_("Game %(game)s: the other team's players are theirs to "
                                  "change, as their captain handed them in."),
                               "not_your_players", game=number)
    chosen = dict(card.selections).get(side, ())
    for name in {HOME: home, AWAY: away}[side]:
        if name not in chosen:
            raise CardError.worded(N_("%(name)s is not in the line-up your team handed in: "
                                      "only the secretary can change it."),
                                   "not_in_line_up", name=str(name)[:40])


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
    line_up = tuple((tuple(item) if any(item) else ()) if isinstance(item, (list, tuple))
                    else item for item in line_up)
    if setup.line_ups == BLIND:
        _check_blind(card, side, line_up, rosters[side])
    else:
        line_up = tuple(name for name in line_up if name)
        _check_drawn(setup, line_up, rosters[side])
    pending = dict(card.line_ups) | {side: line_up}
    if len(pending) < len(SIDES):
        return replace(card, line_ups=tuple(sorted(pending.items())))
    games = pending if setup.line_ups == BLIND else _dealt(setup, pending, rng)
    filled = replace(card, line_ups=(), selections=tuple(
        (held, _players_of(setup, handed)) for held, handed in sorted(pending.items())))
    for game in card.games:
        home, away = (tuple(games[held][game.number - 1]) for held in SIDES)
        if game.awarded or not (home or away):
            continue  # given before, or neither team could field it: the captains decide
        if home and away:
            filled = filled.with_players(game.number, home, away, rosters)
        else:  # the side without players concedes the game it cannot fill
            filled = filled.with_awarded(game.number, HOME if home else AWAY)
    return filled


def _players_of(setup: LeagueSetup, line_up: tuple) -> tuple[str, ...]:
    """The players a line-up hands in: every game's (`blind`), or the night's (`drawn`)."""
    if setup.line_ups == BLIND:
        return tuple(sorted({name for names in line_up for name in names}))
    return tuple(sorted(line_up))


def _check_blind(card: Card, side: str, line_up: tuple, roster: list[str]) -> None:
    """Every game's players from the side's roster, by the card's rules; a game left empty
    is one the team cannot field, but a team fields one game at least."""
    if len(line_up) != len(card.games):
        raise CardError.worded(N_("A line-up names the players of every game of the card."),
                               "line_up_incomplete")
    picked = []
    for game, names in zip(card.games, line_up, strict=True):
        if game.awarded or not any(names):
            continue
        names = tuple(names)
        check_picks(game, names, roster)
        for other, others in picked:
            check_plays_once(game, names, other, others)
        picked.append((game, names))
    if not picked:
        raise CardError.worded(N_("A line-up names the players of one game at least: a team "
                                  "that fields nobody is a walkover."), "line_up_empty")


def _check_drawn(setup: LeagueSetup, players: tuple, roster: list[str]) -> None:
    """Up to a full card's players, each once: a team short of players names fewer and
    concedes the games they cannot fill."""
    needed = players_needed(setup.games)
    if not 1 <= len(players) <= needed or len(set(players)) != len(players):
        raise CardError.worded(N_("Name from 1 to %(needed)s different players for the "
                                  "night (a team short of players concedes the games it "
                                  "cannot fill)."), "line_up_incomplete", needed=needed)
    for name in players:
        if name not in roster:
            raise CardError.worded(N_("%(name)s is not on the team's roster."),
                                   "not_on_roster", name=str(name)[:40])


def _dealt(setup: LeagueSetup, selections: dict, rng: Random) -> dict:
    """Each side's players dealt into the games by lot: the singles in a shuffled order,
    the pairs from another shuffle, two by two; a side short of players has none for the
    last games of a kind (an empty tuple), which it concedes."""
    dealt = {}
    for side, players in selections.items():
        singles, pairs = list(players), list(players)
        rng.shuffle(singles)
        rng.shuffle(pairs)
        games = []
        for kind in setup.games:
            if kind == SINGLES:
                games.append((singles.pop(),) if singles else ())
            else:
                games.append((pairs.pop(), pairs.pop()) if len(pairs) > 1 else ())
        dealt[side] = games
    return dealt

