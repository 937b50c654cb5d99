"""The collector policy of `holdem serve`: what is alive is frozen, so no collection scans
it again, and garbage that reaches into frozen objects is found once memory has grown by
a given share (read from the process's resident memory)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import AsyncIterator, Callable

import pytest

from app.collector import keep_collections_short, resident_bytes

GROWTH = 0.1  # the test's own share: doubling pytest's memory would take hundreds of MiB


class Node:
    """An object that can sit in a reference cycle and be watched with a weak reference."""

    def __init__(self) -> None:
        self.other: object = None


@pytest.fixture
async def collector() -> AsyncIterator[None]:
    task = asyncio.create_task(keep_collections_short(0.01, growth=GROWTH))
    # It starts with a full collection, and freezes what is left.
    await until(lambda: gc.get_freeze_count() > 0)
    try:
        yield
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        gc.unfreeze()
        gc.collect()


async def until(condition: Callable[[], bool]) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the collector never got there")


async def test_what_is_alive_is_frozen_and_scanned_by_no_collection(collector: None) -> None:
    kept = [Node() for _ in range(1_000)]
    frozen = gc.get_freeze_count()
    await until(lambda: gc.get_freeze_count() >= frozen + len(kept))
    # Frozen objects are in no generation: no collection scans them again.
    young = {id(o) for generation in range(3) for o in gc.get_objects(generation)}
    assert not any(id(node) in young for node in kept)


async def test_a_cycle_through_frozen_objects_is_found_when_memory_grows(
    collector: None
) -> None:
    old = Node()
    frozen = gc.get_freeze_count()
    await until(lambda: gc.get_freeze_count() > frozen)
    young = Node()
    old.other, young.other = young, old
    watched = weakref.ref(old)
    del old, young
    await asyncio.sleep(0.1)
    # The cycle runs through a frozen object: young collections cannot free it.
    assert watched() is not None
    resident = resident_bytes()
    assert resident is not None
    # Grow in steps rather than by one share: resident memory can also shrink meanwhile
    # (a thread an earlier test left behind returning its arena), so one allocation of
    # the share could fall short of the collector's baseline.
    step = int(resident * GROWTH / 8) + 1024 * 1024
    grown: list[bytearray] = []
    while watched() is not None and len(grown) < 80:  # up to ten shares
        grown.append(bytearray(step))
        for _ in range(10):
            await asyncio.sleep(0.01)
            if watched() is None:
                break
    assert watched() is None, f"not found after growing {len(grown) * step >> 20} MiB"
