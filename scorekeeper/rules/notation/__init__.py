"""How a match is written down: the tiles and their names, the table events and their one
codec (data, record text, a tile button's value), and the words a hand ends with."""
