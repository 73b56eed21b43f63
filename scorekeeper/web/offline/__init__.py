"""Scoring with the connection down: the table screen drawn in the phone's browser by the
same rules engine, view-model and templates the server runs (Pyodide runs this package;
`scoring/engine.py` makes the zip a phone downloads for it)."""
