"""The collector policy of `holdem serve`: what is alive is frozen, so no collection scans
it again, and garbage that reaches into frozen objects is found once memory has grown by
a given share (read from the process's resident memory) beyond what the connections
opened meanwhile hold."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import AsyncIterator, Callable

import pytest

from app.collector import CONNECTION_BYTES, keep_collections_short, resident_bytes

GROWTH = 0.1  # the test's own share: doubling pytest's memory would take hundreds of MiB


class Node:
    """An object that can sit in a reference cycle and be watched with a weak reference."""

    def __init__(self) -> None:
        self.other: object = None


class Connections:
    """The count of open connections the collector reads."""

    def __init__(self) -> None:
        self.open = 0

    def __call__(self) -> int:
        return self.open


@pytest.fixture
def connections() -> Connections:
    return Connections()


@pytest.fixture
async def collector(connections: Connections) -> AsyncIterator[None]:
    task = asyncio.create_task(keep_collections_short(0.01, growth=GROWTH,
                                                      connections=connections))
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
    # Up to 30 s: on a loaded machine the collector's turns come late, and a full
    # collection of a test process that ran many tests takes a while.
    deadline = asyncio.get_running_loop().time() + 30
    while asyncio.get_running_loop().time() < deadline:
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


async def cycle_through_frozen() -> weakref.ref[Node]:
    """A garbage cycle through a frozen object, watched; young collections cannot free it."""
    old = Node()
    frozen = gc.get_freeze_count()
    await until(lambda: gc.get_freeze_count() > frozen)
    young = Node()
    old.other, young.other = young, old
    watched = weakref.ref(old)
    del old, young
    await asyncio.sleep(0.1)
    assert watched() is not None
    return watched


async def grow_until_freed(watched: weakref.ref[Node], *, shares: int,
                           connections: Connections | None = None) -> list[bytearray]:
    """Grow resident memory by up to ``shares`` of the collector's share until the cycle
    is freed (with connections opened to hold each step, if given): what was grown."""
    resident = resident_bytes()
    assert resident is not None
    # Grow in steps rather than by one share: resident memory can also shrink meanwhile
    # (a thread an earlier test left behind returning its arena), so one allocation of
    # the share could fall short of the collector's baseline.
    step = int(resident * GROWTH / 8) + 1024 * 1024
    grown: list[bytearray] = []
    while watched() is not None and len(grown) < 8 * shares:
        grown.append(bytearray(step))
        if connections is not None:
            connections.open += -(-step // CONNECTION_BYTES)
        for _ in range(10):
            await asyncio.sleep(0.01)
            if watched() is None:
                break
    return grown


async def test_a_cycle_through_frozen_objects_is_found_when_memory_grows(
    collector: None
) -> None:
    watched = await cycle_through_frozen()
    grown = await grow_until_freed(watched, shares=10)
    assert watched() is None, f"not found after growing {sum(map(len, grown)) >> 20} MiB"


async def test_memory_the_connections_opened_hold_is_not_growth(
    collector: None, connections: Connections
) -> None:
    watched = await cycle_through_frozen()
    grown = await grow_until_freed(watched, shares=3, connections=connections)
    # Three shares grown, all of it held by new connections: no full collection.
    assert watched() is not None
    # Those connections close and leave what they held: now it is growth.
    connections.open = 0
    await until(lambda: watched() is None)
    del grown
