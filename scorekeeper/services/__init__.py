"""The use cases: what a person does with a match or a league, as plain functions.

The web views, the CLI and the benchmarks all call these; none of them talks to
the store directly, and nothing here knows about Flask or HTTP. `records` needs
no database (the CLI's replay); `matches` and the `league` package's modules work over
a `unit_of_work.UnitOfWork`.
"""
