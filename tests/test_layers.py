"""The packages of app/ stack in one direction: poker at the bottom, the tables over it,
the features built on tables over those, and the application composing them at the top.

Read from the source with ``ast``: every import counts, including those inside functions
and under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from functools import cache
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app"

# What the tables (app/realtime) build on; the features over them (tournaments, admin,
# hands, ...), the REST edges and the application itself are out of reach.
BELOW_REALTIME = ("app.realtime", "app.poker", "app.db", "app.accounts", "app.config",
                  "app.errors", "app.metrics", "app.text")
NOT_BELOW_REALTIME = ("app.accounts.router",)
# The modules of one table: the core at the bottom, the table on top.
TABLE_MODULES = frozenset(f"app.realtime.{name}" for name in
                          ("core", "projection", "waiting", "dealer", "table"))
# The stored tournament's kind and status are the tournament rules' enums.
KNOWN_CYCLE_EDGES = frozenset({("app.db.tournaments", "app.tournaments.rules")})


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(APP.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _modules() -> dict[str, Path]:
    return {_module_of(path): path for path in APP.rglob("*.py")}


def _targets(module: str, node: ast.AST) -> Iterable[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            package = module.split(".")
            if _modules()[module].name != "__init__.py":
                package = package[:-1]
            base = ".".join([*package[:len(package) - node.level + 1], base]).strip(".")
        for alias in node.names:
            # ``from app.realtime import projection`` imports the module projection.
            name = f"{base}.{alias.name}"
            yield name if name in _modules() else base


@cache
def imports() -> dict[str, frozenset[str]]:
    """Every module of app/ and the modules of app/ it imports."""
    graph = {}
    for module, path in _modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[module] = frozenset(target for node in ast.walk(tree)
                                  for target in _targets(module, node)
                                  if target == "app" or target.startswith("app."))
    return graph


def _within(name: str, prefixes: Iterable[str]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def _package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for after in edges.get(node, ()):
            if after not in index:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in stack:
                low[node] = min(low[node], index[after])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def test_the_poker_core_imports_only_itself_and_the_base_error() -> None:
    wrong = {(module, target) for module, targets in imports().items()
             if _within(module, ["app.poker"]) for target in targets
             if not _within(target, ["app.poker", "app.errors"])}
    assert wrong == set()
    assert imports()["app.errors"] == frozenset()


def test_the_tables_import_nothing_built_on_them() -> None:
    wrong = {(module, target) for module, targets in imports().items()
             if _within(module, ["app.realtime"]) for target in targets
             if not _within(target, BELOW_REALTIME) or _within(target, NOT_BELOW_REALTIME)}
    assert wrong == set()


def test_no_two_packages_import_each_other() -> None:
    edges: dict[str, set[str]] = {}
    for module, targets in imports().items():
        for target in targets:
            if (module, target) not in KNOWN_CYCLE_EDGES and _package(module) != _package(target):
                edges.setdefault(_package(module), set()).add(_package(target))
    assert _cycles(edges) == []


def test_the_modules_of_a_table_stack_in_one_direction() -> None:
    edges = {module: set(targets) for module, targets in imports().items()
             if _within(module, ["app.realtime"])}
    assert [group for group in _cycles(edges) if TABLE_MODULES & set(group)] == []
