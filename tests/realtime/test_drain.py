"""A draining process deals no new hand, even one whose start was under way when the
drain began: the start ends without a hand, and nothing of one is stored or sent."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import Accounts
from tests.realtime.harness import LiveServer


async def test_a_start_under_way_when_the_drain_begins_deals_no_hand(
    server: LiveServer, players: Accounts, connect: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first, second = (await connect(await players.player(verified=False)),
                     await connect(await players.player(verified=False)))
    created = await first.ok("table:create", {"name": "draining", "small_blind": 5,
                                              "big_blind": 10})
    table_id = created["table"]["table_id"]
    await first.ok("table:sit", {"table_id": table_id, "seat": 0, "buy_in": 500})
    host = server.realtime.host
    table = host.live.get(table_id)
    # The start fills free seats with bots first (a commit, awaited): the process is told
    # to stop right then, as a SIGTERM may come at any moment.
    fill = table.bots.fill
    drain_began = asyncio.Event()

    async def fill_as_the_drain_begins() -> None:
        host.begin_drain()
        drain_began.set()
        await fill()

    monkeypatch.setattr(table.bots, "fill", fill_as_the_drain_begins)
    await second.ok("table:sit", {"table_id": table_id, "seat": 1, "buy_in": 500})
    await drain_began.wait()
    await table.caught_up()  # the start has run to its end, and sent what it made

    assert table.state.current is None and host.live.hands_in_play() == 0
    record = await host.services.store.table(table_id)
    assert record is not None and record.state["current"] is None
    assert record.state["hand_number"] == 0
    sent = [data["event"]["type"] for client in (first, second)
            for name, data in client.received if name == "table:event"]
    assert "hand_started" not in sent, sent


async def test_a_table_restored_here_as_the_drain_begins_deals_no_hand(
    server: LiveServer, players: Accounts, connect: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A table comes to this process (a move, a takeover) and the drain begins while it is
    # being restored, before the process counts it among its tables.
    first, second = (await connect(await players.player(verified=False)),
                     await connect(await players.player(verified=False)))
    created = await first.ok("table:create", {"name": "arriving", "small_blind": 5,
                                              "big_blind": 10})
    table_id = created["table"]["table_id"]
    host = server.realtime.host
    leaving = host.live.get(table_id)
    leaving.drain()  # stored between hands, with two players ready to be dealt in
    for seat, client in enumerate((first, second)):
        await client.ok("table:sit", {"table_id": table_id, "seat": seat, "buy_in": 500})
    host.live.forget(table_id)
    await leaving.stop()

    store = host.services.store
    escrowed_at = store.escrowed_at

    async def read_as_the_drain_begins(table: str) -> int:
        host.begin_drain()
        return await escrowed_at(table)

    monkeypatch.setattr(store, "escrowed_at", read_as_the_drain_begins)
    await host.owners.take_handed(table_id)
    arrived = host.live.tables[table_id]
    await arrived.caught_up()  # it has resumed: the next hand would be scheduled now

    assert arrived.state.current is None and len(arrived.state.players) == 2
    assert not arrived.core.mailbox.has("start"), "a hand is due at a draining process"
