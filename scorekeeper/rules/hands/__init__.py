"""One hand from its lead to its score: the hand in play, a move (lay, draw, pass, knock),
its end and the pips left in hands, the scores it makes, and a line's moves at speed."""
