"""A season as it stands and as it is kept: the league and players' tables from the counted
cards, each player's figures, the season as values, and its archive."""
