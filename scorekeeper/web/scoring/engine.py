"""What a phone downloads to score offline: the Python side of the table (`web/offline/`,
the rules, the screen's view-model, the table's templates and the catalogues)
and the pure-Python libraries it runs on, in one zip that Pyodide unpacks.

The zip is made from the installed files when a phone first asks for it, once per process,
so it can never differ from what the server runs; its address carries a hash of its
bytes, so a phone keeps it until the server changes. Pyodide itself (the CPython compiled
to WebAssembly) is vendored in `static/engine/`.
"""

import functools
import hashlib
import importlib.util
import io
import zipfile
from pathlib import Path

from ..answers.language import LANGUAGES

PACKAGE = Path(__file__).resolve().parents[2]
"""The installed `scorekeeper` package."""

MODULES = (
    "__init__.py", "rules/", "web/answers/__init__.py", "web/answers/catalogue.py",
    "web/scoring/__init__.py", "web/scoring/view.py", "web/scoring/screens.py",
    "web/scoring/kept.py", "web/scoring/sheet.py", "web/scoring/pictures.py",
    "web/scoring/drawing.py", "web/scoring/geometry.py", "web/scoring/forms.py",
    "web/offline/__init__.py", "web/offline/table.py",
)
"""The package's files the offline table imports, under `scorekeeper/`. The web package's
own `__init__` sets up the server's app (every area, the store): the phone gets it empty."""

TEMPLATES = ("match/_table.html", "_macros.html")

LIBRARIES = ("flask", "werkzeug", "jinja2", "markupsafe", "itsdangerous", "blinker", "click",
             "flask_babel", "babel", "pytz", "wtforms", "flask_wtf")
"""Pure-Python libraries the view-model and the templates run on (Flask-Babel's catalogue,
Jinja's templates, WTForms' end-of-hand form); only their source is shipped."""

LIBRARY_DATA = {"babel": ("global.dat", "locale-data/root.dat",
                          *(f"locale-data/{code}.dat" for code in LANGUAGES))}
"""The data files a library reads: Babel's number formats of the app's languages only."""

@functools.cache
def engine_zip(templates: str) -> tuple[bytes, str]:
    """The zip's bytes and the hash its address carries (`templates`: the app's folder)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in sorted(_files(Path(templates))):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    body = buffer.getvalue()
    return body, hashlib.sha256(body).hexdigest()[:16]


def _files(templates: Path):
    """(name in the zip, bytes) of everything the offline table needs."""
    for module in MODULES:
        yield from _tree(PACKAGE / module, f"scorekeeper/{module}")
    yield "scorekeeper/web/__init__.py", b""
    for template in TEMPLATES:
        yield f"templates/{template}", (templates / template).read_bytes()
    for catalogue in sorted((PACKAGE / "translations").glob("*/LC_MESSAGES/messages.mo")):
        yield f"translations/{catalogue.relative_to(PACKAGE / 'translations')}", \
            catalogue.read_bytes()
    for library in LIBRARIES:
        folder = Path(importlib.util.find_spec(library).submodule_search_locations[0])
        yield from _tree(folder, f"lib/{library}/")
        for data in LIBRARY_DATA.get(library, ()):
            yield f"lib/{library}/{data}", (folder / data).read_bytes()


def _tree(path: Path, name: str):
    """A file, or every .py file under a folder (no tests, no caches)."""
    if path.is_file():
        yield name, path.read_bytes()
        return
    for file in sorted(path.rglob("*.py")):
        relative = file.relative_to(path)
        if "__pycache__" in relative.parts or "tests" in relative.parts:
            continue
        yield f"{name}{relative.as_posix()}", file.read_bytes()


def table_urls(url_map) -> dict[str, list]:
    """The table's and the replay's addresses as the server's map has them (endpoint →
    [rule, methods]): the offline table builds its links from them."""
    return {rule.endpoint: [rule.rule, sorted(rule.methods)]
            for rule in url_map.iter_rules()
            if rule.endpoint.partition(".")[0] in ("table", "replay")}
