"""The use cases: what a person does with a match, as plain functions over a unit of work.

The web views, the CLI and the benchmarks all call these; none of them talks to
the store directly, and nothing here knows about Flask or HTTP. `records` needs
no database (the CLI's replay); `matches` works over a `unit_of_work.UnitOfWork`.
"""
