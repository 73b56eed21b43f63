"""The benchmarks' library: clients, the people at a table, the server, the league night run.

The scripts in bench/ are thin command lines over it. Importing it first puts
this checkout on the path, so `python bench/NAME.py` measures this checkout's app.
"""

import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]
for _place in (str(_ROOT), str(_ROOT / "tests")):  # the app, and the tests' simulation
    if _place not in sys.path:
        sys.path.insert(0, _place)
