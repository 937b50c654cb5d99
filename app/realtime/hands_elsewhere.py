"""The hands this process's sessions play at tables other processes run.

A draining process (``SIGTERM``) keeps its connections open while the hands in play
end: those of its own tables (:meth:`TableHost.drained`), and those its sessions play
at tables run elsewhere, which would otherwise lose their players mid-hand (every
process of a cluster stopping at once, or one that runs no table). It asks each
owner, with ``internal:hands-in-play``, for the hand in play at the tables its
sessions watch (the tables' watch rooms), and waits until each of those hands has
ended, or the drain's time is up. A hand dealt after the drain began is not waited
for.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from typing import Any

from app.realtime.hosting import TableHost, watch_room
from app.realtime.rooms import NAMESPACE

log = logging.getLogger(__name__)

ASK = "internal:hands-in-play"
# How often a drain asks the owners whether the hands it waits for have ended.
POLL_SECONDS = 0.25


def watched_elsewhere(host: TableHost) -> set[str]:
    """The tables some session of this process watches that another process runs."""
    prefix = watch_room("")
    rooms = host.sio.manager.rooms.get(NAMESPACE, {})
    return {room[len(prefix):] for room in rooms
            if isinstance(room, str) and room.startswith(prefix)} - set(host.tables)


async def hands_elsewhere(host: TableHost, table_ids: set[str] | None = None, *,
                          until: float) -> dict[str, str]:
    """The hand in play at each table run elsewhere that this process's sessions watch
    (``table_ids``: only those), as their owners answer by the loop time ``until``
    (table id → hand id). A table whose owner cannot be found or asked in time is left
    out: nothing to wait for."""
    if host.cluster is None:
        return {}
    tables = watched_elsewhere(host) if table_ids is None else table_ids
    left = until - asyncio.get_running_loop().time()
    try:
        return await asyncio.wait_for(_ask_owners(host, tables), max(0.0, left))
    except TimeoutError:
        return {}


async def _ask_owners(host: TableHost, table_ids: set[str]) -> dict[str, str]:
    by_owner: defaultdict[str, list[str]] = defaultdict(list)
    for table_id in sorted(table_ids):
        try:
            owner = await host.owner(table_id)
        except Exception:
            continue
        if owner is not None:
            by_owner[owner].append(table_id)
    hands: dict[str, str] = {}
    for owner, tables in by_owner.items():
        try:
            answer = await host.ask_process(owner, ASK, {"tables": tables})
        except Exception as error:
            log.info("draining: %s did not say which hands are in play (%s)", owner, error)
            continue
        hands.update({str(k): str(v) for k, v in dict(answer.get("hands") or {}).items()})
    return hands


async def ended(host: TableHost, hands: dict[str, str], deadline: float) -> None:
    """Wait until each of these hands (table id → hand id) run elsewhere has ended, or
    until the loop time ``deadline``."""
    loop = asyncio.get_running_loop()
    while hands and loop.time() < deadline:
        await asyncio.sleep(min(POLL_SECONDS, max(0.0, deadline - loop.time())))
        still = await hands_elsewhere(host, set(hands), until=deadline)
        hands = {table_id: hand for table_id, hand in hands.items()
                 if still.get(table_id) == hand}


def answer(host: TableHost, payload: dict[str, Any]) -> dict[str, Any]:
    """``internal:hands-in-play``: the hand in play at each of the tables asked about
    that this process runs."""
    return {"ok": True, "hands": host.hands_at(str(t) for t in payload.get("tables") or ())}
