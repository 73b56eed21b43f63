"""The rules a referee cites, by topic: each is one paragraph of the rules page.

The first nine are the questions every rule set answers (`RuleSet.topics`), each game
its own way; the others are rules every game shares (the rules card, or the card of
the games whose doubles branch).
"""

DEALT, UNDEALT, SPINNERS, COUNT, OUT, BLOCKED, PIPS, TARGET, LEADS = (
    "dealt", "undealt", "spinners", "count", "out", "blocked", "pips", "target", "leads")
ANSWERED = (DEALT, UNDEALT, SPINNERS, COUNT, OUT, BLOCKED, PIPS, TARGET, LEADS)
"""The questions of RULESETS.md's table, in its order."""

LEAD, ENDS, DOUBLE, BRANCH, FITS, DRAW, PASS, WON = (
    "lead", "ends", "double", "branch", "fits", "draw", "pass", "won")
"""The rules every game shares: the lead's count, counting the open ends, a double at an
end, a spinner's unstarted side, where a tile fits, drawing, passing, reaching the target."""
