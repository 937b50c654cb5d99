"""No chip moves between a balance and a table outside the table's one chip path.

Read from the syntax trees of every module under ``app/``: the ledger's table moves
(``escrow``, ``release``) are reached only by the table store, and
the store's ``commit`` only by the table core (:mod:`app.table.core`), however they are
imported (``from app.db import ledger``, ``from app.db.ledger import escrow as e``,
``import app.db.ledger as l``, relative imports) or referred to (a call, a bound name,
``getattr``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "app"
LEDGER = "app.db.ledger"
TABLE_MOVES = frozenset({"escrow", "release"})
STORE = "table/store.py"
CORE = "table/core.py"


def _module_name(path: Path) -> str:
    """``app.db.ledger`` for app/db/ledger.py, ``app.db.__init__`` for its package."""
    return ".".join(path.relative_to(APP.parent).with_suffix("").parts)


def _absolute(module: str, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` reads from, relative imports resolved."""
    if not node.level:
        return node.module or ""
    base = module.split(".")[:-node.level]  # level 1: the module's own package
    return ".".join([*base, *([node.module] if node.module else [])])


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


class Uses(ast.NodeVisitor):
    """Every place one module reaches a ledger table move or a store's ``commit``."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.names: dict[str, str] = {}  # local name -> the absolute dotted name it stands for
        self.moves: list[str] = []
        self.commits: list[str] = []

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.names[alias.asname] = alias.name
            else:
                top = alias.name.split(".")[0]
                self.names[top] = top

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        source = _absolute(self.module, node)
        for alias in node.names:
            full = f"{source}.{alias.name}"
            self.names[alias.asname or alias.name] = full
            if source == LEDGER and alias.name in TABLE_MOVES | {"*"}:
                self.moves.append(f"line {node.lineno}: from {source} import {alias.name}")

    def _resolve(self, dotted: str) -> str:
        head, _, rest = dotted.partition(".")
        full = self.names.get(head, head)
        return f"{full}.{rest}" if rest else full

    def visit_Attribute(self, node: ast.Attribute) -> None:
        owner = _dotted(node.value)
        if owner is not None:
            if self._resolve(owner) == LEDGER and node.attr in TABLE_MOVES:
                self.moves.append(f"line {node.lineno}: {owner}.{node.attr}")
            if node.attr == "commit" and "store" in owner.lower():
                self.commits.append(f"line {node.lineno}: {owner}.commit")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if (isinstance(node.func, ast.Name) and node.func.id == "getattr"
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)):
            owner, name = _dotted(node.args[0]), node.args[1].value
            if owner is not None and self._resolve(owner) == LEDGER and name in TABLE_MOVES:
                self.moves.append(f"line {node.lineno}: getattr({owner}, {name!r})")
            if owner is not None and name == "commit" and "store" in owner.lower():
                self.commits.append(f"line {node.lineno}: getattr({owner}, 'commit')")
        self.generic_visit(node)


def uses(source: str, module: str) -> Uses:
    """What ``source``, the text of ``module``, reaches of the chip path."""
    found = Uses(module)
    found.visit(ast.parse(source))
    return found


def _everywhere() -> dict[str, Uses]:
    return {str(path.relative_to(APP)): uses(path.read_text(encoding="utf-8"),
                                             _module_name(path))
            for path in sorted(APP.rglob("*.py")) if path.name != "ledger.py"}


def test_only_the_table_store_moves_chips_to_and_from_tables() -> None:
    movers = {path: found.moves for path, found in _everywhere().items() if found.moves}
    assert set(movers) == {STORE}, movers


def test_only_the_table_core_commits_chip_movements() -> None:
    committers = {path: found.commits for path, found in _everywhere().items()
                  if found.commits and path != STORE}
    assert set(committers) == {CORE}, committers


@pytest.mark.parametrize("source", [
    "from app.db import ledger\nasync def f(s):\n    await ledger.escrow(s, 1, 't', 5)",
    "from app.db import ledger as books\nmove = books.release",
    "from app.db.ledger import escrow",
    "from app.db.ledger import release as take\n",
    "from app.db.ledger import *",
    "import app.db.ledger\napp.db.ledger.release(None, 1, 't', 5)",
    "import app.db.ledger as l\nl.escrow",
    "from app import db\ndb.ledger.escrow",
    "from ..db import ledger\nledger.release",
    "from ..db.ledger import escrow",
    "from app.db import ledger\ngetattr(ledger, 'escrow')",
])
def test_every_way_of_reaching_a_table_move_is_seen(source: str) -> None:
    assert uses(source, "app.admin.house").moves, source


@pytest.mark.parametrize("source", [
    "self.services.store.commit('t', m, {}, token=1)",
    "commit = table_store.commit",
    "getattr(store, 'commit')",
])
def test_every_way_of_committing_through_a_store_is_seen(source: str) -> None:
    assert uses(source, "app.table.table").commits, source


def test_other_ledger_calls_and_session_commits_are_not_chip_moves() -> None:
    found = uses("from app.db import ledger\nasync def f(session):\n"
                 "    await ledger.credit(session, 1, 5, reason='x')\n"
                 "    await session.commit()\n", "app.accounts.service")
    assert not found.moves and not found.commits
