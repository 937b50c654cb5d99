"""Time the server's garbage collections, for bench/load.py's report.

:func:`record` hooks ``gc.callbacks`` and, when the process ends (uvicorn
re-raises SIGTERM after its graceful shutdown), writes per generation the
number of collections, their total and their longest pause to a JSON file. It also
writes the file after every full collection and at most once a second otherwise, so a
server killed because it took too long to close thousands of connections still reports.
"""

from __future__ import annotations

import atexit
import gc
import json
import signal
import time
from pathlib import Path
from typing import Any


def record(path: str) -> None:
    """Time every collection from now on; write the totals to ``path`` at exit."""
    started, written = [0.0], [0.0]
    stats = {g: {"collections": 0, "total_ms": 0.0, "max_ms": 0.0} for g in range(3)}

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        pause = (time.perf_counter() - started[0]) * 1000
        entry = stats[info["generation"]]
        entry["collections"] += 1
        entry["total_ms"] += pause
        entry["max_ms"] = max(entry["max_ms"], pause)
        now = time.perf_counter()
        if info["generation"] == 2 or now - written[0] > 1.0:
            written[0] = now
            write()

    def write() -> None:
        Path(path).write_text(json.dumps({f"gen{g}": {k: round(v, 2) for k, v in s.items()}
                                          for g, s in stats.items()}))

    def stop(*_: Any) -> None:
        raise SystemExit(0)

    gc.callbacks.append(callback)
    atexit.register(write)
    signal.signal(signal.SIGTERM, stop)
