"""The layers hold at import time: engines and catalogue load without Flask; no import cycle
in kiosk.web, even through an import inside a function; such an import says why it is there."""

from __future__ import annotations

import ast
import io
import itertools
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

from kiosk.games import registry


@pytest.mark.parametrize(
    "module",
    [
        *(registry.engine(name).__name__ for name in registry.names()),
        "kiosk.games.registry",
        "kiosk.games.simulate",
        "kiosk.catalogue.store",
        "kiosk.catalogue.looks",
        "kiosk.cli",  # Flask is imported by the commands that need it (kiosk run, kiosk insights)
    ],
)
def test_module_loads_without_flask(module: str):
    code = (
        f"import sys, {module}; print(sorted(m for m in ('flask', 'werkzeug') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]", f"importing {module} loaded {out.strip()}"


def test_create_app_is_still_importable_from_the_package():
    from kiosk import create_app

    assert create_app({"TESTING": True, "SECRET_KEY": "x"}).name == "kiosk"


# ------------------------------------------------------------------ imports, read with ast

KIOSK = Path(__file__).resolve().parent.parent / "kiosk"
PRAGMA = re.compile(r"\b(noqa|type:\s*ignore|pragma|fmt:|isort:)\b.*", re.IGNORECASE)


def _modules() -> dict[str, Path]:
    """Every module of the kiosk package by dotted name (a package by its own name); a game's
    tests and benchmarks are not the package's."""
    found = {}
    for path in sorted(KIOSK.rglob("*.py")):
        if {"vendor", "static", "tests", "benchmarks"} & set(path.relative_to(KIOSK).parts):
            continue
        parts = path.relative_to(KIOSK.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()


def _local_nodes(tree: ast.AST) -> set[int]:
    """The ids of the import statements inside a function (run when it is called)."""
    return {
        id(node)
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(function)
        if isinstance(node, ast.Import | ast.ImportFrom)
    }


def _type_only_nodes(tree: ast.Module) -> set[int]:
    """The ids of the imports under ``if TYPE_CHECKING:``: never run."""
    return {
        id(node)
        for block in tree.body
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
        for node in ast.walk(block)
        if isinstance(node, ast.Import | ast.ImportFrom)
    }


def _imported(module: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The kiosk modules one statement imports: ``from kiosk.web import content`` is
    kiosk.web.content; ``from kiosk.web.embed import PREFIX`` is kiosk.web.embed."""
    is_package = MODULES[module].name == "__init__.py"
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".")[: len(module.split(".")) - node.level + is_package]
            base = ".".join([*package, base] if base else package)
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
    out = set()
    for name in names:
        while name and name not in MODULES:
            name = name.rpartition(".")[0]  # a name defined in a module: the module
        if name and name != module:
            out.add(name)
    return out


def _graph() -> dict[str, dict[str, int]]:
    """module -> {imported module: line}, module-level and function-local imports alike."""
    graph: dict[str, dict[str, int]] = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _type_only_nodes(tree)
        edges = graph.setdefault(module, {})
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in skipped:
                for name in _imported(module, node):
                    edges.setdefault(name, node.lineno)
    return graph


def _cycles(graph: dict[str, dict[str, int]]) -> list[tuple[set[str], list[str]]]:
    """Each strongly connected set of two or more modules, and one cycle through it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[tuple[set[str], list[str]]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = {stack.pop()}
            while v not in component:
                component.add(stack.pop())
            if len(component) > 1:
                found.append((component, _one_cycle(graph, component)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _one_cycle(graph: dict[str, dict[str, int]], component: set[str]) -> list[str]:
    """A shortest way round from the component's first module back to itself."""
    start = min(component)
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v]):
            if w == start:
                return [*paths[v], start]
            if w in component and w not in paths:
                paths[w] = [*paths[v], w]
                queue.append(w)
    raise AssertionError(component)  # a strongly connected set always has a way round


def _shown(graph: dict[str, dict[str, int]], cycle: list[str]) -> str:
    """``a (line 3) -> b (line 9) -> a``: each module, and the line that imports the next."""
    steps = [f"{a} (line {graph[a][b]})" for a, b in itertools.pairwise(cycle)]
    return " -> ".join([*steps, cycle[-1]])


def test_the_import_graph_is_read_as_python_runs_it():
    graph = _graph()
    assert "kiosk.web.modes" in graph["kiosk.web.content"]
    assert "kiosk.web.embed" in graph["kiosk.web.teach"]  # a name from a module
    assert "kiosk.web.content" in graph["kiosk.web.pages"]  # a module from a package
    assert "kiosk.web.attract" in graph["kiosk.web"]  # a function-local import
    made_up = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3, "d": 4}, "d": {}}
    assert _cycles(made_up) == [({"a", "b", "c"}, ["a", "b", "c", "a"])]


def test_no_import_cycle_in_kiosk_web_even_through_function_local_imports():
    """A function-local import that hides a cycle is still a cycle: none among kiosk.web's
    modules (``lint-imports`` holds its packages to the same)."""
    web = {m: e for m, e in _graph().items() if m == "kiosk.web" or m.startswith("kiosk.web.")}
    graph = {m: {n: line for n, line in e.items() if n in web} for m, e in web.items()}
    cycles = _cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(
        f"{', '.join(sorted(tangle))} import each other, e.g. {_shown(graph, cycle)}"
        for tangle, cycle in cycles
    )


def _comments(source: str) -> dict[int, str]:
    """Line number -> its comment's text, pragmas (noqa, type: ignore…) left out."""
    out = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            text = PRAGMA.sub("", token.string.lstrip("#")).strip()
            if text:
                out[token.start[0]] = text
    return out


def test_each_function_local_import_says_why_it_is_not_at_the_top():
    """An import inside a function has a reason (a light package, an optional or heavy
    dependency) written in a comment on its line; any other import is at the top."""
    unexplained = []
    for path in MODULES.values():
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        comments = _comments(source)
        local = _local_nodes(tree)
        for node in ast.walk(tree):
            if id(node) in local and isinstance(node, ast.Import | ast.ImportFrom):
                lines = range(node.lineno, (node.end_lineno or node.lineno) + 1)
                if not any(len(comments.get(n, "").split()) >= 3 for n in lines):
                    where = path.relative_to(KIOSK.parent)
                    unexplained.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    assert not unexplained, (
        "function-local imports without a reason in a comment on the line (move them to the"
        " top, or say why not):\n" + "\n".join(unexplained)
    )


# Words some game uses that are also ordinary words of the shared code (an HTML table, a card
# of a set, a family of cards, a link's target, a blueprint named play, a source's kind, a card
# lying face up for rules.js's data-up...).
ORDINARY = {
    *("box", "card", "claim", "family", "kind", "medium", "play", "table", "take", "target"),
    "up",
}


def _game_words(app) -> dict[str, str]:
    """Every name a registered game gives: its own, its variants, levels, actions and their
    fields, and the places its rule examples lay out, each with what it is."""
    from kiosk.games import registry
    from kiosk.web import content

    words: dict[str, str] = {}
    for name in registry.names():
        engine = registry.game(name).engine
        words[name] = "a game"
        for action, fields in engine.ACTION_FIELDS.items():
            words.setdefault(action, f"{name}'s action")
            words.update({f: f"{name}'s action field" for f in fields if f not in words})
        words.update({v: f"{name}'s variant" for v in engine.VARIANTS if v not in words})
        words.update({v: f"{name}'s level" for v in engine.LEVELS if v not in words})
    with app.app_context():
        for run in content.current().runs.values():  # the places its rule examples lay out
            for place in {name for step in run.steps for name in step.places}:
                words.setdefault(place.partition(":")[0], f"{run.game}'s place")
    return {w: what for w, what in words.items() if w not in ORDINARY}


def _strings(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]


def test_no_game_is_named_in_the_catalogue_or_the_shared_web_code(app):
    """What is a game's own (its name, variants, levels, actions, places) is said in its package
    and its web adapter only: the catalogue and the shared parts of the web read the registry."""
    words = _game_words(app)
    assert {"snap", "call-pool", "pool", "hand", "tricks", "woolworths"} <= set(words)
    root = Path(__file__).resolve().parents[1] / "kiosk"
    shared = [*(root / "catalogue").rglob("*.py"), *(root / "web").rglob("*.py")]
    found = [
        f"{path.relative_to(root)}:{line}: {text!r} is {words[text]}"
        for path in shared  # a game's own web part is in its folder, kiosk/games/<game>/
        for line, text in _strings(path)
        if text in words
    ]
    assert not found, "\n".join(found)
