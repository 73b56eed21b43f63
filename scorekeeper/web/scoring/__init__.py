"""Scoring a match: the home pages (new, imported, this phone's matches), the scoring
screen and its view-model, the scoreboard and score sheet, the layout's pictures, the
forms, and the app installed on a phone."""
