"""scorekeeper: the All Fives (Muggins) scorekeeping companion."""
