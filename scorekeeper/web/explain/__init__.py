"""A match's moves explained: the replay, step by step, and the referee, which rules on a
position typed in; both tell each move in the table's words (story.py)."""
