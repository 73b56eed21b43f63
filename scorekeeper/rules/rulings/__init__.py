"""What explains a match to its players: its story step by step with the rules that
applied, and the referee's ruling on a position posed by hand."""
