"""What a league agrees before its season: the game's rules and house rules, each kind of
game on the card, the points and tie-breaks, real leagues' formats to start from, its time
zone, the teams in their divisions, and who hosts whom."""
