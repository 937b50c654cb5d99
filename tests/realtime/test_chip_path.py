"""No chip moves between a balance and a table outside the table's one chip path."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"
TABLE_MOVES = {"escrow", "release", "remove_from_table"}


def _calls(path: Path, on: str) -> list[tuple[str, int]]:
    """``(method, line)`` of every call ``<...>.on.method(...)`` in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if name == on:
                found.append((node.func.attr, node.lineno))
    return found


def test_only_the_table_store_moves_chips_to_and_from_tables() -> None:
    movers = {
        f"{path.relative_to(APP)}:{line}"
        for path in APP.rglob("*.py") if path.name != "ledger.py"
        for name, line in _calls(path, "ledger") if name in TABLE_MOVES
    }
    assert {m.split(":")[0] for m in movers} == {"realtime/store.py"}, movers


def test_only_the_table_core_commits_chip_movements() -> None:
    committers = {
        str(path.relative_to(APP))
        for path in APP.rglob("*.py")
        for name, _ in _calls(path, "store") if name == "commit"
    }
    assert committers == {"realtime/core.py"}
