"""The readable clock at a live table: a time bank that refills every few hands up to its
cap, and a short grace, not the bank, for a player disconnected on their turn."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.admin.audit import audit
from app.config import Settings
from tests.conftest import Accounts
from tests.realtime.harness import (
    Client,
    LiveServer,
    PlayingTable,
    is_event,
    live_server,
    realtime_settings,
    seat_players,
)

GRACE_SECONDS = 1.0


@pytest.fixture
async def server(settings: Settings) -> AsyncIterator[LiveServer]:
    """A live server giving disconnected players a one-second grace."""
    changed = realtime_settings(settings, disconnect_grace_seconds=GRACE_SECONDS)
    async with live_server(changed) as running:
        yield running


def turns_of(client: Client, table: PlayingTable, seat: int) -> list[dict[str, Any]]:
    """Every ``table:turn`` of ``seat`` the client saw."""
    return [d for name, d in client.received
            if name == "table:turn" and d["table_id"] == table.id and d["seat"] == seat]


async def test_the_bank_refills_every_n_hands_dealt_in_up_to_its_cap(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000], time_bank_seconds=1,
                               time_bank_add_seconds=2, time_bank_every_hands=2,
                               time_bank_max_seconds=4)
    banks = []
    for _ in range(6):
        turn = await table.act("fold")
        banks.append(turn["bank"])
        await table.observer.wait_for("table:event", lambda d, seq=turn["seq"]: is_event(
            "hand_ended", table.id)(d) and d["seq"] > seq)
    # Both seats are dealt into every hand: +2 at the start of hands 2, 4 and 6, at most 4.
    assert banks == [1, 3, 3, 4, 4, 4]
    client = table.seats[0]
    await client.ok("table:join", {"table_id": table.id})
    snapshot = [d for name, d in client.received if name == "table:snapshot"][-1]
    assert snapshot["config"]["time_bank"] == {"seconds": 1, "add_seconds": 2,
                                               "every_hands": 2, "max_seconds": 4}
    assert snapshot["you"]["time_bank"] == 4
    assert not client.off_schema
    assert (await audit(server.database)).balanced


async def test_a_table_refuses_a_starting_bank_over_its_cap(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    client: Client = await connect(await players.player(verified=False))
    refused = await client.call("table:create", {
        "name": "slow", "small_blind": 5, "big_blind": 10, "time_bank_seconds": 30,
        "time_bank_max_seconds": 20})
    assert refused["error"]["code"] == "invalid_payload"
    too_long = await client.call("table:create", {
        "name": "slow", "small_blind": 5, "big_blind": 10, "time_bank_every_hands": -1})
    assert too_long["error"]["code"] == "invalid_payload"


async def test_a_player_disconnected_on_their_turn_times_out_after_the_grace_bank_kept(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000], time_bank_seconds=30)
    turn = await table.turn()
    assert turn["seat"] == 0 and turn["bank"] == 30 and not turn["grace"]
    watcher = table.seats[1]
    await table.seats[0].disconnect()
    grace = await watcher.wait_for("table:turn", lambda t: t["seat"] == 0 and t["grace"])
    assert grace["deadline"] <= turn["deadline"] and not grace["time_bank"]
    timed_out = await watcher.wait_for("table:event", is_event("player_timed_out", table.id))
    assert timed_out["event"]["seat"] == 0
    await watcher.wait_for("table:event", lambda d: is_event("player_acted", table.id)(d)
                           and d["event"]["seat"] == 0)
    assert [t["time_bank"] for t in turns_of(watcher, table, 0)] == [False, False]

    back: Client = await connect(table.players[0])
    await back.ok("table:join", {"table_id": table.id})
    snapshot = await back.wait_for("table:snapshot")
    assert snapshot["you"]["time_bank"] == 30
    assert not watcher.off_schema and not back.off_schema


async def test_a_player_back_within_the_grace_gets_their_bank_after_it(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000], time_bank_seconds=30)
    turn = await table.turn()
    assert turn["seat"] == 0
    watcher = table.seats[1]
    await table.seats[0].disconnect()
    grace = await watcher.wait_for("table:turn", lambda t: t["seat"] == 0 and t["grace"])
    back: Client = await connect(table.players[0])
    await back.ok("table:join", {"table_id": table.id})
    again = await watcher.wait_for("table:turn", lambda t: t["seat"] == 0
                                   and t["seq"] > grace["seq"])
    assert not again["grace"] and again["deadline"] == grace["deadline"]
    banked = await back.wait_for("table:turn", lambda t: t["seat"] == 0 and t["time_bank"])
    assert banked["bank"] == 30 and banked["legal_actions"]
    await back.ok("table:action", {"table_id": table.id, "hand_id": turn["hand_id"],
                                   "type": "call"})
    assert not [e for e in watcher.events(table.id) if e["type"] == "player_timed_out"]


async def test_a_bank_running_when_the_player_leaves_stops_and_the_rest_is_kept(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000], time_bank_seconds=30,
                               action_seconds=0.2)
    watcher = table.seats[1]
    banked = await watcher.wait_for("table:turn", lambda t: t["seat"] == 0 and t["time_bank"])
    await table.seats[0].disconnect()
    grace = await watcher.wait_for("table:turn", lambda t: t["seat"] == 0 and t["grace"])
    assert not grace["time_bank"] and grace["deadline"] < banked["deadline"]
    await watcher.wait_for("table:event", is_event("player_timed_out", table.id))
    back: Client = await connect(table.players[0])
    await back.ok("table:join", {"table_id": table.id})
    snapshot = await back.wait_for("table:snapshot")
    assert 0 < snapshot["you"]["time_bank"] < 30
