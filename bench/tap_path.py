"""The package's files one tap crosses, and the calls of its code it makes: a tracer
(`sys.setprofile`) around one test-client POST of a lay on a match in progress, counting
the distinct scorekeeper/ files whose code runs and the call events of that code.

A warm-up tap is made first, so the figures are of a tap as a running server sees it
(templates compiled, the match kept by the worker), not the first one.

    python bench/tap_path.py [--before /path/to/old/checkout] [--files]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COUNT = """
import json, os, sys, tempfile
from scorekeeper import create_app
package = os.path.dirname(sys.modules["scorekeeper"].__file__) + os.sep
folder = tempfile.mkdtemp()
app = create_app({"DATABASE": os.path.join(folder, "db.sqlite"), "SECRET_KEY": "bench",
                  "TESTING": True, "WTF_CSRF_ENABLED": False})
client = app.test_client()
made = client.post("/new", data={"count": "2", "target": "61", "hand_size": "7",
                                 "player1": "Ann", "player2": "Bob"})
url = made.headers["Location"]
htmx = {"HX-Request": "true"}
client.post(url + "/start", data={"seat": 0, "pos": 0}, headers=htmx)
client.post(url + "/lay", data={"move": "6-6", "pos": 1}, headers=htmx)  # warm-up
files, calls = set(), 0

def trace(frame, event, arg):
    global calls
    if event == "call" and frame.f_code.co_filename.startswith(package):
        calls += 1
        files.add(frame.f_code.co_filename[len(package):])

sys.setprofile(trace)
answer = client.post(url + "/lay", data={"move": "6-3", "pos": 2}, headers=htmx)
sys.setprofile(None)
assert answer.status_code == 200, answer.status_code
print(json.dumps({"files": sorted(files), "calls": calls}))
"""


def counted(checkout: Path) -> dict:
    """The files and calls of one tap in a checkout, counted in a fresh interpreter."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run([sys.executable, "-c", COUNT], env=env, cwd=folder,
                              capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="another checkout, counted the same way")
    parser.add_argument("--files", action="store_true", help="list the files crossed")
    args = parser.parse_args()
    checkouts = ([("before", args.before.resolve())] if args.before else []) \
        + [("this checkout", ROOT)]
    for name, checkout in checkouts:
        found = counted(checkout)
        print(f"{name}: {len(found['files'])} files, {found['calls']} calls")
        if args.files:
            print("  " + "\n  ".join(found["files"]))


if __name__ == "__main__":
    main()
