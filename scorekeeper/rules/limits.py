"""The one home of each limit of the game and of the table; the web layer imports them."""

HIGHEST_PIP = 6
"""A double-six set: pips go from 0 to 6."""
SET_SIZE = 28
"""Tiles in a double-six set."""
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_NAME = 40
"""Characters in a player's name, after trimming."""
MIN_TARGET, MAX_TARGET = 5, 10_000
"""A target from the smallest All Fives score to a house rule no table plays past."""
