"""The JSON codec of Socket.IO packets: orjson, with the interface python-socketio expects.

python-socketio and python-engineio call ``dumps(data, separators=...)`` and
``loads(text)`` on the module they are given; orjson writes the same compact
JSON several times faster, and refuses the same malformed input (its
``JSONDecodeError`` is a ``ValueError``, like the standard library's).
"""

from __future__ import annotations

import json
from typing import Any

import orjson


def dumps(data: Any, **_options: Any) -> str:
    """Compact JSON text of ``data`` (integers beyond 64 bits through the standard library)."""
    try:
        return orjson.dumps(data).decode()
    except TypeError:
        return json.dumps(data, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    """The value of a JSON text."""
    return orjson.loads(text)
