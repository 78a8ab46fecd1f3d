"""The house: pizarra's packages follow the data, with no circles and no upward imports.

The import graph is read from the sources with :mod:`ast` (every ``import``, at the top
of a module or inside a function, but not those under ``if TYPE_CHECKING:``, which
only name types). docs/architecture.md explains the layers.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "pizarra"

LAYERS = ("base", "math", "source", "check", "render", "site", "pipeline", "serve", "cli")
"""The packages in data order: each may import those before it, never one after it."""

TOP_ENTRIES = 10
"""Entries at most at the top of ``src/pizarra/``, besides ``__init__.py`` and
``__main__.py``, which Python asks for."""

MAX_LINES = 400


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_only(tree: ast.Module) -> set[int]:
    """The ids of import nodes under ``if TYPE_CHECKING:``."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            found |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return found


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The pizarra modules ``path`` imports at run time."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_only(tree)
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            names = [f"{base}.{alias.name}" for alias in node.names] + [base]
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != here and name != "pizarra":
                found.add(name)
    return found


@cache
def graph() -> dict[str, frozenset[str]]:
    files = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(files)
    return {name: frozenset(imports_of(path, modules)) for name, path in files.items()}


def layer(module: str) -> str:
    return module.split(".")[1] if "." in module else module


def cycles(edges: dict[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_graph_is_read() -> None:
    edges = graph()
    assert "pizarra.pipeline.build" in edges["pizarra.cli"] or any(
        "pizarra.pipeline" in e for e in edges["pizarra.cli"]
    )
    assert "pizarra.source.model" in edges["pizarra.source.lower"]
    assert "pizarra.pipeline.crew" not in edges["pizarra.pipeline.lesson"]  # type-only there


def test_no_module_imports_itself_round_a_circle() -> None:
    assert cycles(dict(graph())) == []


def test_the_circle_finder_finds_circles() -> None:
    edges = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset()}
    assert cycles(edges) == [["a", "b", "c"]]


def test_every_module_belongs_to_a_layer() -> None:
    whole = ("pizarra", "pizarra.__main__")
    outside = {m for m in graph() if layer(m) not in LAYERS and m not in whole}
    assert outside == set()


def test_no_package_imports_one_later_in_the_data() -> None:
    upward = sorted(
        f"{module} -> {target}"
        for module, targets in graph().items()
        for target in targets
        if layer(module) in LAYERS
        and layer(target) in LAYERS
        and LAYERS.index(layer(target)) > LAYERS.index(layer(module))
    )
    assert upward == []


def test_the_top_of_the_package_reads_as_the_pipeline() -> None:
    ignored = {"__pycache__", "__init__.py", "__main__.py"}
    entries = {p.name.removesuffix(".py") for p in PACKAGE.iterdir() if p.name not in ignored}
    assert len(entries) <= TOP_ENTRIES
    assert entries == set(LAYERS)


def test_no_module_is_over_400_lines() -> None:
    long = {
        module_name(p): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}
