"""The use cases: what a person does with a match, as plain functions over a unit of work.

The web views, the CLI and the benchmarks all call these; none of them talks
to the store directly. Nothing here knows about Flask or HTTP.
"""

from .unit_of_work import UnitOfWork

__all__ = ["UnitOfWork"]
