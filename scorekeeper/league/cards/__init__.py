"""A fixture's match card: its games (who plays each, how each is scored and stands), the
card itself with its confirmations and walkovers, the line-ups handed in for it, and what
the secretary's corrections do to it."""
