"""With REDIS_URL set, rooms go through Redis and play works the same."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import socketio

from app.config import Settings
from app.realtime.dispatch import MAX_HOPS
from tests.conftest import Accounts, Mailbox
from tests.realtime.harness import Client, cluster_settings, is_event, live_server

pytestmark = pytest.mark.redis


async def test_a_hand_is_played_through_the_redis_manager(
    settings: Settings, mailbox: Mailbox
) -> None:
    clients: list[Client] = []
    shared = cluster_settings(settings)
    async with live_server(shared) as server, \
            httpx.AsyncClient(base_url=server.url) as http:
        assert isinstance(server.realtime.sio.manager, socketio.AsyncRedisManager)
        accounts = Accounts(http, mailbox, server.app)
        try:
            for _ in range(2):
                clients.append(await Client(server.url, await accounts.player(
                    verified=False)).connect())
            created = await clients[0].ok("table:create", {"name": "r", "small_blind": 1,
                                                           "big_blind": 2})
            table_id = created["table"]["table_id"]
            for seat, client in enumerate(clients):
                await client.ok("table:sit", {"table_id": table_id, "seat": seat,
                                              "buy_in": 100})
            turn: Any = await clients[0].wait_for("table:turn", lambda t: t["legal_actions"])
            await clients[0].ok("table:action", {"table_id": table_id,
                                                 "hand_id": turn["hand_id"], "type": "fold"})
            await clients[1].wait_for("table:event", is_event("hand_ended", table_id))
            mine = [e for e in clients[1].events(table_id) if e["type"] == "hole_cards_dealt"]
            assert sorted(e["cards"] is None for e in mine) == [False, True]
        finally:
            for client in clients:
                await client.disconnect()


async def test_a_request_that_went_from_process_to_process_is_told_its_table_is_moving(
    settings: Settings, mailbox: Mailbox
) -> None:
    # While a table changes hands, a request can reach a process that no longer (or not
    # yet) runs it, and go on from there: once it has travelled as far as requests may,
    # the answer is "ask again" (table_moved), not that the table does not exist.
    shared = cluster_settings(settings)
    async with live_server(shared) as server, \
            httpx.AsyncClient(base_url=server.url) as http:
        accounts = Accounts(http, mailbox, server.app)
        client = await Client(server.url, await accounts.player(verified=False)).connect()
        try:
            created = await client.ok("table:create", {"name": "r", "small_blind": 1,
                                                       "big_blind": 2})
            table_id = created["table"]["table_id"]
            realtime = server.realtime
            # This process hands the table over: it runs it no more.
            realtime.host.live.forget(table_id)
            answer = await realtime.dispatcher.forwarded(
                "table:chat", client.sio.get_sid(), None,
                {"table_id": table_id, "text": "still there?"}, MAX_HOPS)
            assert not answer["ok"] and answer["error"]["code"] == "table_moved", answer
        finally:
            await client.disconnect()
