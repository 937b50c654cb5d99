"""The hands this process's sessions play at tables other processes run.

A draining process (``SIGTERM``) keeps its connections open while the hands in play
end: those of its own tables (:meth:`app.hosting.host.TableHost.drained`), and those
its sessions play at tables run elsewhere, which would otherwise lose their players mid-hand (every
process of a cluster stopping at once, or one that runs no table). It asks each
owner, with ``internal:hands-in-play``, for the hand in play at the tables its
sessions watch (the tables' watch rooms), and waits until each of those hands has
ended, or the drain's time is up. A hand dealt after the drain began is not waited
for. An owner that cannot be asked (busy stopping too, say) is asked again: its
silence is not taken for "no hand in play", which would drop its players mid-hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from typing import Any

import socketio

from app.errors import HoldemError
from app.hosting.live import LiveTables
from app.hosting.owners import Owners
from app.realtime.rooms import NAMESPACE
from app.realtime.watchers import watch_room
from app.table.table import Table

log = logging.getLogger(__name__)

ASK = "internal:hands-in-play"
# How often a drain asks the owners whether the hands it waits for have ended.
POLL_SECONDS = 0.25
# In place of a hand id: the table's owner could not be asked (ask again).
UNKNOWN = ""


def watched_elsewhere(sio: socketio.AsyncServer, live: LiveTables) -> set[str]:
    """The tables some session of this process watches that another process runs."""
    prefix = watch_room("")
    rooms = sio.manager.rooms.get(NAMESPACE, {})
    return {room[len(prefix):] for room in rooms
            if isinstance(room, str) and room.startswith(prefix)} - set(live.tables)


async def hands_elsewhere(owners: Owners, table_ids: set[str], *, until: float
                          ) -> dict[str, str]:
    """The hand in play at each of these tables run elsewhere, as their owners answer by
    the loop time ``until`` (table id → hand id). A table between hands, or run nowhere,
    is left out; one whose owner could not be found or asked in time maps to
    :data:`UNKNOWN`."""
    if owners.peers is None:
        return {}
    left = until - asyncio.get_running_loop().time()
    try:
        return await asyncio.wait_for(_ask_owners(owners, table_ids), max(0.0, left))
    except TimeoutError:
        return dict.fromkeys(table_ids, UNKNOWN)


async def _ask_owners(owners: Owners, table_ids: set[str]) -> dict[str, str]:
    by_owner: defaultdict[str, list[str]] = defaultdict(list)
    hands: dict[str, str] = {}
    for table_id in sorted(table_ids):
        try:
            owner = await owners.owner(table_id)
        except Exception as error:  # the lease store: a database or Redis error
            log.info("draining: the owner of table %s is not known (%s)", table_id, error)
            hands[table_id] = UNKNOWN
            continue
        if owner is not None:
            by_owner[owner].append(table_id)
    assert owners.peers is not None
    for owner, tables in by_owner.items():
        try:
            answer = await owners.peers.ask(owner, ASK, {"tables": tables})
        except Exception as error:  # gone, too slow, or refusing: its own error says
            log.info("draining: %s did not say which hands are in play (%s)", owner, error)
            hands.update(dict.fromkeys(tables, UNKNOWN))
            continue
        hands.update({str(k): str(v) for k, v in dict(answer.get("hands") or {}).items()})
    return hands


async def ended(owners: Owners, hands: dict[str, str], deadline: float) -> None:
    """Wait until each of these hands (table id → hand id) run elsewhere has ended, or
    until the loop time ``deadline``."""
    loop = asyncio.get_running_loop()
    while hands and loop.time() < deadline:
        await asyncio.sleep(min(POLL_SECONDS, max(0.0, deadline - loop.time())))
        hands = still_waited_for(hands, await hands_elsewhere(owners, set(hands),
                                                              until=deadline))


def still_waited_for(waited: dict[str, str], now: dict[str, str]) -> dict[str, str]:
    """The hands to go on waiting for, given what the owners say is in play ``now``: a
    table's hand that ended is done; an owner not asked yet or not answering again keeps
    the wait; a table whose hand was not known waits for the one its owner now names."""
    still = {}
    for table_id, hand in waited.items():
        said = now.get(table_id)
        if said == UNKNOWN:
            still[table_id] = hand
        elif said is not None and hand in (said, UNKNOWN):
            still[table_id] = said
    return still


async def answer(live: LiveTables, payload: dict[str, Any]) -> dict[str, Any]:
    """``internal:hands-in-play``: the hand in play at each of the tables asked about
    that this process runs, once each has done what it is doing now. A hand's end
    clears the table's hand before its commit, and announces it after: answered in
    between, "no hand" would let the asker close its sockets before ``hand_ended``
    reached them."""
    tables = [str(t) for t in payload.get("tables") or ()]
    await asyncio.gather(*(_caught_up(table) for table_id in tables
                           if (table := live.tables.get(table_id)) is not None))
    return {"ok": True, "hands": live.hands_at(tables)}


async def _caught_up(table: Table) -> None:
    with contextlib.suppress(HoldemError):  # closed: no hand there
        await table.caught_up()
