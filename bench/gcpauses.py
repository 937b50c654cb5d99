"""Time the server's garbage collections, for bench/load.py's report.

:func:`record` hooks ``gc.callbacks`` and, when the process ends (uvicorn
re-raises SIGTERM after its graceful shutdown), writes per generation the
number of collections, their total and their longest pause to a JSON file, with the
longest pauses of the run and the wall-clock time each ended (so bench/load.py can tell
those of its measured window). It also writes the file after every full collection and
at most once a second otherwise, so a server killed because it took too long to close
thousands of connections still reports.
"""

from __future__ import annotations

import atexit
import gc
import heapq
import json
import signal
import time
from pathlib import Path
from typing import Any

# The longest pauses kept, with when they ended, so a run can pick those of its window.
KEPT_PAUSES = 200


def record(path: str) -> None:
    """Time every collection from now on; write the totals to ``path`` at exit."""
    started, written = [0.0], [0.0]
    stats = {g: {"collections": 0, "total_ms": 0.0, "max_ms": 0.0} for g in range(3)}
    longest: list[tuple[float, float, int]] = []  # (pause ms, wall time it ended, generation)

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        pause = (time.perf_counter() - started[0]) * 1000
        entry = stats[info["generation"]]
        entry["collections"] += 1
        entry["total_ms"] += pause
        entry["max_ms"] = max(entry["max_ms"], pause)
        if len(longest) < KEPT_PAUSES or pause > longest[0][0]:
            if len(longest) == KEPT_PAUSES:
                heapq.heappop(longest)
            heapq.heappush(longest, (pause, time.time(), info["generation"]))
        now = time.perf_counter()
        if info["generation"] == 2 or now - written[0] > 1.0:
            written[0] = now
            write()

    def write() -> None:
        totals: dict[str, Any] = {f"gen{g}": {k: round(v, 2) for k, v in s.items()}
                                  for g, s in stats.items()}
        totals["longest"] = [[round(ms, 2), round(at, 3), g] for ms, at, g in sorted(longest)]
        Path(path).write_text(json.dumps(totals))

    def stop(*_: Any) -> None:
        raise SystemExit(0)

    gc.callbacks.append(callback)
    atexit.register(write)
    signal.signal(signal.SIGTERM, stop)


def in_window(stats: dict[str, Any] | None, start: float, end: float) -> dict[str, Any] | None:
    """The kept pauses that ended between two wall-clock times: how many took over 10, 50
    and 100 ms, and the longest (ms, generation)."""
    if not stats or "longest" not in stats:
        return None
    pauses = [(ms, g) for ms, at, g in stats["longest"] if start <= at <= end]
    return {"over_10ms": sum(ms > 10 for ms, _ in pauses),
            "over_50ms": sum(ms > 50 for ms, _ in pauses),
            "over_100ms": sum(ms > 100 for ms, _ in pauses),
            "longest": max(pauses, default=None)}
