"""Short collector pauses for a server that holds many long-lived objects.

CPython's cyclic collector scans a generation's every object, and what a busy server
keeps alive for a while (each connection's waiting coroutines and futures, a table's
latest state and messages) replaces older objects one for one: the count that triggers
a young collection hardly moves while the young generation fills with survivors, so a
collection, when it comes, scans a quarter of a million of them (200 ms at 3,000
players), and a full one scans every object of every connection (about a second).

:func:`keep_collections_short` instead freezes every ``every`` seconds what is alive
(``gc.freeze()``, which costs nothing: the collector ignores those objects from then
on, and reference counting still frees each when its last reference goes), so no
collection ever scans more than a second's worth of objects. What it gives up: garbage
cycles that were frozen, or that reach into frozen objects (a closed connection's, say),
are only found by a full collection over the unfrozen heap. It runs one when the
process's resident memory has doubled since the last, so uncollected cycles never hold
more than the live heap (the spacing Go's collector keeps by default; CPython's own is
a quarter), counting as live what the connections opened since then may hold
(``CONNECTION_BYTES`` each). A full collection scans every object, about a microsecond
each on the machine measured: 0.65-0.8 s at 3,000 players. Growth alone is not garbage:
while a server fills up its heap grows by what the new players hold, and a doubling
counted without them came within the first minute of play at 3,000 players, stalling
every table for that long (bench/RESULTS.md, "One malloc arena; no full collection for
players arriving"). The full collection comes instead once players leave: when so
many connections have closed that what is resident is twice what the last one left,
beyond what the open connections hold.

Neither play nor seating nor a connection closing leaves a garbage cycle. The sources
found are gone, each held by a test: the error that ended each WebSocket, whose
traceback held engineio's handler and everything it served (about 90 objects, 16 KB a
closed connection: app/realtime/buffers.py), uvicorn's HTTP protocol and its parser at
the upgrade (app/serving.py), Engine.IO's per-request class at connect
(app/realtime/buffers.py), the SQL statements of a buy-in (app/db/ledger.py). So players
leaving, even all at once, free what they held by reference counting, and resident
memory does not grow with connections closed.

Counting the frozen objects instead of reading resident memory would walk all of them:
``gc.get_freeze_count()`` takes 100 ms at 3,000 players. Where resident memory cannot be
read, a full collection runs every ``FULL_SECONDS``.
"""

from __future__ import annotations

import asyncio
import gc
import os
import time
from collections.abc import Callable

# Resident memory may grow by this share before a full collection looks through it all.
FULL_GROWTH = 1.0
# How often `holdem serve` freezes what is alive.
FREEZE_SECONDS = 1.0
# Without /proc: how often a full collection runs.
FULL_SECONDS = 3600.0
# What a connection opened since the last full collection may add to resident memory
# without being counted as growth: a playing player holds about 50 KiB at 3,000.
CONNECTION_BYTES = 64 * 1024
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int | None:
    """This process's resident memory (None where /proc cannot tell)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


async def keep_collections_short(every: float, *, growth: float = FULL_GROWTH,
                                 connections: Callable[[], int] = lambda: 0) -> None:
    """Freeze what is alive every ``every`` seconds, and collect everything when resident
    memory grew by ``growth`` since the last full collection, beyond what the
    ``connections()`` opened since then hold (until cancelled)."""
    baseline, since = _collect_all()
    opened = connections()
    while True:
        await asyncio.sleep(every)
        resident = resident_bytes()
        if resident is None or baseline is None:
            due = time.monotonic() - since > FULL_SECONDS
        else:
            arrived = max(0, connections() - opened) * CONNECTION_BYTES
            due = resident > baseline * (1 + growth) + arrived
        if due:
            baseline, since = _collect_all()
            opened = connections()
        else:
            gc.freeze()


def _collect_all() -> tuple[int | None, float]:
    """A full collection, then everything left frozen; the resident memory after it."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    return resident_bytes(), time.monotonic()
