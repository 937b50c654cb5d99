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
are only found by a full collection over the unfrozen heap. It runs one when the frozen
objects have grown by ``growth`` since the last: the rule CPython itself uses to space
full collections, so they come no more often than without freezing, and in steady play,
where cycles are rare, the frozen heap hardly grows.
"""

from __future__ import annotations

import asyncio
import gc

# The frozen heap may grow by this share before a full collection looks through it.
FULL_GROWTH = 0.25
# How often `holdem serve` freezes what is alive.
FREEZE_SECONDS = 1.0


async def keep_collections_short(every: float, *, growth: float = FULL_GROWTH) -> None:
    """Freeze what is alive every ``every`` seconds, and collect everything when the frozen
    objects grew by ``growth`` since the last full collection (until cancelled)."""
    gc.collect()
    gc.freeze()
    baseline = gc.get_freeze_count()
    while True:
        await asyncio.sleep(every)
        if gc.get_freeze_count() > baseline * (1 + growth):
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            baseline = gc.get_freeze_count()
        else:
            gc.freeze()
