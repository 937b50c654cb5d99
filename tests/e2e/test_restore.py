"""A restarted server restores its tables: seats keep their stacks, an interrupted hand goes on."""

from __future__ import annotations

from typing import Any

import httpx

from app.config import Settings
from app.db import ledger
from app.main import create_app
from tests.conftest import Accounts, Mailbox, free_port
from tests.realtime.harness import (
    Client,
    LiveServer,
    live_server,
    realtime_settings,
    seat_players,
)


async def _held_and_audit(server: LiveServer, table_id: str) -> tuple[int, bool]:
    async with server.database.sessions() as session:
        held = await ledger.escrowed_at(session, table_id)
        audit = await ledger.audit(session)
    return held, audit.balanced


async def test_a_restart_resumes_the_hand_in_play_and_keeps_every_seat_and_stack(
    settings: Settings, mailbox: Mailbox
) -> None:
    settings = realtime_settings(settings)
    clients: list[Client] = []

    async def connect(player: Any = None) -> Client:
        client = Client(first.url, player)
        clients.append(client)
        return await client.connect()

    async with live_server(settings) as first, httpx.AsyncClient(base_url=first.url) as http:
        first.decks.stack_seats({0: "AsAh", 1: "KsKh"}, "2c3d4h9s8c")
        table = await seat_players(Accounts(http, mailbox, first.app), connect, [1000, 600])
        await table.act("raise", 100, seat=0)
        turn = await table.turn()
        assert turn["seat"] == 1
        last_seq = turn["seq"]
        for client in clients:
            await client.disconnect()

    async with live_server(settings) as second:
        held, balanced = await _held_and_audit(second, table.id)
        assert held == 1600 and balanced
        assert [t["table_id"] for t in (await second.realtime.host.listing.tables())] == [table.id]
        again = Client(second.url, table.players[1])
        await again.connect()
        try:
            # The events before the restart are gone: the client gets a snapshot instead.
            ack = await again.ok("table:join", {"table_id": table.id, "since_seq": last_seq})
            assert ack["seq"] > last_seq and ack["replayed"] is None
            snapshot = await again.wait_for("table:snapshot")
            stacks = {s["seat"]: s["stack"] for s in snapshot["seats"]}
            assert stacks == {0: 1000, 1: 600}
            # The hand goes on where it stood: the same hand, the raise in its pot, the
            # same player to act, whose legal actions and fresh clock the snapshot holds.
            assert snapshot["hand_id"] == turn["hand_id"]
            assert snapshot["turn"]["seat"] == 1 and snapshot["turn"]["legal_actions"]
            await again.ok("table:action", {"table_id": table.id,
                                            "hand_id": turn["hand_id"], "type": "fold"})
            ended = await again.wait_for("table:event",
                                         lambda e: e["event"]["type"] == "hand_ended")
            assert ended["hand_id"] == turn["hand_id"]
            assert not [e for e in again.events(table.id) if e["type"] == "hand_voided"]
            left = await again.ok("table:leave", {"table_id": table.id})
            assert left["at_hand_end"] or left["cashed_out"] in (590, 595)  # a blind lost
            assert (await _held_and_audit(second, table.id))[1]
        finally:
            await again.disconnect()


class Watched:
    """Director's work that notes how many tables the process had when it was loaded and
    when it was started."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.tables_when: dict[str, int] = {}

    async def resume(self) -> None:
        self.tables_when["resumed"] = len(self.server.realtime.host.live.tables)

    def start(self) -> None:
        self.tables_when["started"] = len(self.server.realtime.host.live.tables)

    async def stop(self) -> None:
        return None


async def test_the_tournaments_load_before_the_tables_are_restored_and_run_after(
    settings: Settings, mailbox: Mailbox
) -> None:
    # A restored tournament table deals from its tournament's standings: were its table
    # restored first, its first hand would start before they were loaded.
    settings = realtime_settings(settings)

    async def connect(player: Any = None) -> Client:
        return await Client(first.url, player).connect()

    async with live_server(settings) as first, httpx.AsyncClient(base_url=first.url) as http:
        table = await seat_players(Accounts(http, mailbox, first.app), connect, [500, 500])
    second = LiveServer(create_app(settings), free_port())
    watched = Watched(second)
    second.realtime.directed.add(watched)
    await second.start()
    try:
        assert table.id in second.realtime.host.live.tables
        assert watched.tables_when == {"resumed": 0, "started": 1}
    finally:
        await second.stop()
