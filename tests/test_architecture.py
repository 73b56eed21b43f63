"""The package's rooms stay as docs/ARCHITECTURE.md draws them: each imports only the rooms
below it, no two modules import each other (even by a detour), the referee and the league's
rules import only the standard library, no folder holds more than fifteen modules, and each
rule set's name and options are written in one place."""

import ast
import re
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scorekeeper"
ROOMS = ("rules", "league", "storage", "services", "web", "server", "commands")


def test_the_rooms_keep_their_import_contracts():
    """import-linter's contracts of pyproject.toml: layers, pure rules, services without
    Flask, the web through the services only, no cycle among siblings."""
    code = ("import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports(no_cache=True))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 5 kept, 0 broken." in done.stdout


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("scorekeeper", include_external_packages=True)


def _cycles(graph) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), package inits too."""
    modules = sorted(m for m in graph.modules if m.startswith("scorekeeper"))
    edges = {m: sorted(w for w in graph.find_modules_directly_imported_by(m)
                       if w.startswith("scorekeeper")) for m in modules}
    index, low, stack, on_stack, found, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for other in edges[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                group.append(other)
                if other == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(modules)))
    for module in modules:
        if module not in index:
            visit(module)
    return found


def test_no_module_imports_itself_by_a_detour(graph):
    """Not even a package's __init__ and one of its modules (a blueprint importing the
    package that registers it), nor through an import inside a function."""
    assert _cycles(graph) == []


def test_the_cycle_check_finds_a_cycle():
    """The check above can fail: a graph with a detour back is caught."""
    made = grimp.ImportGraph()
    for name in ("scorekeeper.a", "scorekeeper.b", "scorekeeper.c"):
        made.add_module(name)
    made.add_import(importer="scorekeeper.a", imported="scorekeeper.b")
    made.add_import(importer="scorekeeper.b", imported="scorekeeper.c")
    made.add_import(importer="scorekeeper.c", imported="scorekeeper.a")
    assert _cycles(made) == [["scorekeeper.a", "scorekeeper.b", "scorekeeper.c"]]


@pytest.mark.parametrize(("room", "allowed"), [
    ("scorekeeper.rules", ()),
    ("scorekeeper.league", ("scorekeeper.rules",))])
def test_the_rules_import_only_the_standard_library(graph, room, allowed):
    """The referee and the league's rules: pure Python, nothing installed, no I/O room."""
    outside = set()
    for module in graph.find_children(room) | graph.find_descendants(room) | {room}:
        for imported in graph.find_modules_directly_imported_by(module):
            top = imported.split(".")[0]
            if imported.startswith((room, *allowed)):
                continue
            if top in sys.stdlib_module_names and top != "sqlite3":
                continue
            outside.add(f"{module} -> {imported}")
    assert sorted(outside) == []


def test_the_top_level_is_a_list_of_rooms():
    """At most three modules stand loose beside the rooms (the console script, ...)."""
    loose = sorted(path.name for path in PACKAGE.glob("*.py") if path.name != "__init__.py")
    rooms = sorted(path.name for path in PACKAGE.iterdir()
                   if path.is_dir() and (path / "__init__.py").exists())
    assert len(loose) <= 3, loose
    assert rooms == sorted(ROOMS)



MOST_MODULES_IN_A_FOLDER = 15
"""A folder with more is a list to search, not a room to read: group it by meaning."""


def test_no_folder_of_the_package_holds_more_than_fifteen_modules():
    crowded = {str(folder.relative_to(ROOT)): count
               for folder in [PACKAGE, *PACKAGE.rglob("*")] if folder.is_dir()
               if (count := len(list(folder.glob("*.py")))) > MOST_MODULES_IN_A_FOLDER}
    assert crowded == {}

def _rule_set_words() -> set[str]:
    """Every rule set's name and every value of its options, as rulesets.py writes them."""
    tree = ast.parse((PACKAGE / "rules" / "setup" / "rulesets.py").read_text())
    words = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name) and node.targets[0].id.isupper() and \
                isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            words.add(node.value.value)
        if isinstance(node, ast.keyword) and node.arg == "name" and \
                isinstance(node.value, ast.Constant):
            words.add(node.value.value)
    return words


DISTINCT = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)+$")
"""A rule-set word that cannot be mistaken for an ordinary word (`next-seat`)."""


def test_rule_set_names_and_options_are_written_only_in_rulesets_py():
    """The engine, the league, the web and the templates ask the rule set (`rules.branches`,
    `rules.leads_in_turn`, `rules.answers()`); they never test its names or option values."""
    words = _rule_set_words()
    assert {"all-fives", "fives-and-threes", "next-seat", "none", "every"} <= words
    found = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "rulesets.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and node.value in words and (
                    DISTINCT.match(node.value) or _compared(node, path)):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    option = re.compile(r"\.(spinners|scoring|going_out|blocked|pips_entered|starter|branching|"
                        r"name)\s*[!=]=\s*['\"]")
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text()
        found += [f"{path.relative_to(ROOT)}: {match.group(0)}" for match in option.finditer(text)]
        found += [f"{path.relative_to(ROOT)}: {word}" for word in sorted(words)
                  if DISTINCT.match(word) and re.search(rf"['\"]{word}['\"]", text)]
    assert found == []


def _compared(node: ast.Constant, path: Path) -> bool:
    """An ordinary word ('none', 'every') counts only where it is compared with something."""
    source = path.read_text().splitlines()[node.lineno - 1]
    return bool(re.search(rf"[!=]=\s*['\"]{node.value}['\"]|['\"]{node.value}['\"]\s*[!=]=",
                          source))


PRIVATE_IMPORT = re.compile(r"^\s*(from|import)\s+(?!scorekeeper)(\w+)(\.\w+)*\._\w+")


def test_no_private_api_of_a_dependency_is_used():
    """No private module of another package is imported, and no class of the app overrides
    a private method of the library class it extends (a minor release can change either)."""
    found = []
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text()
        found += [f"{path.relative_to(ROOT)}: {line.strip()}" for line in text.splitlines()
                  if PRIVATE_IMPORT.match(line)]
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and node.bases:
                found += [f"{path.relative_to(ROOT)}:{item.lineno}: {node.name}.{item.name}"
                          for item in node.body
                          if isinstance(item, ast.FunctionDef) and item.name.startswith("_")
                          and not item.name.startswith("__")
                          and not _own(item.name, path)]
        found += [f"{path.relative_to(ROOT)}: {hit}" for hit in
                  re.findall(r"\w+\._[A-Z]\w*__\w+", text)]  # a mangled private name
    assert found == []


def _own(name: str, path: Path) -> bool:
    """A private method the app itself calls on its own class (not one a library calls)."""
    return f".{name}(" in path.read_text() and f"def {name}(" in path.read_text()
