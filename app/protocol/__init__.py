"""The whole Socket.IO protocol: the tables' part and the tournaments' part, and
docs/PROTOCOL.md generated from them (``holdem protocol --write``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from app.errors import HoldemError
from app.protocol import page
from app.protocol.page import Request
from app.protocol.tables import TABLES
from app.protocol.tournaments import TOURNAMENTS

DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"
PARTS = (TABLES, TOURNAMENTS)

REQUESTS: tuple[Request, ...] = tuple(r for part in PARTS for r in part.requests)
SERVER_EVENTS: tuple[tuple[str, type[BaseModel]], ...] = tuple(
    event for part in PARTS for event in part.server_events)
ERROR_CLASSES: tuple[type[HoldemError], ...] = tuple(
    cls for part in PARTS for cls in part.errors)
REQUEST_EXAMPLES: dict[str, dict[str, Any]] = {
    name: example for part in PARTS for name, example in part.request_examples.items()}


def render() -> str:
    """The whole page."""
    return page.render(PARTS)


def write(path: Path = DOC_PATH) -> Path:
    """Write the page to ``path`` (docs/PROTOCOL.md by default)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(), encoding="utf-8")
    return path
