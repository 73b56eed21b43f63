"""A match: its log of table events and everything derived from it (scores, turns, undo),
and the `allfives-match/1` record that reads it in and writes it out."""
