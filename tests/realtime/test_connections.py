"""Connections are bounded per client address: all of them, and more tightly those without
a login, each refused at connect with ``connection_limit``."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
import socketio

from app.config import Settings
from tests.conftest import Accounts, Mailbox
from tests.realtime.harness import WAIT_SECONDS, Client, LiveServer, live_server, realtime_settings

TOTAL = 5
ANONYMOUS = 3


async def _refusal(client: Client) -> dict[str, Any] | None:
    """Connect; None once connected, else the ``connect_error`` data the server sent."""
    refusals: list[Any] = []
    client.sio.on("connect_error", refusals.append)
    try:
        await client.connect()
    except socketio.exceptions.ConnectionError:
        assert refusals, "refused without a connect_error"
        data: dict[str, Any] = refusals[0]["data"]
        return data
    return None


async def _connected_here(server: LiveServer, count: int) -> None:
    deadline = asyncio.get_running_loop().time() + WAIT_SECONDS
    while len(server.realtime.connections) != count:
        assert asyncio.get_running_loop().time() < deadline, len(server.realtime.connections)
        await asyncio.sleep(0.01)


@pytest.fixture
async def limited(settings: Settings) -> Any:
    tuned = realtime_settings(settings, max_sockets_per_address=TOTAL,
                              max_anonymous_sockets_per_address=ANONYMOUS)
    async with live_server(tuned) as server:
        yield server


async def test_a_flood_of_anonymous_sockets_from_one_address_gets_only_a_few_in(
    limited: LiveServer, mailbox: Mailbox
) -> None:
    flood = [Client(limited.url) for _ in range(30)]
    try:
        refusals = await asyncio.gather(*(_refusal(client) for client in flood))
        assert sum(r is None for r in refusals) == ANONYMOUS
        assert [r for r in refusals if r is not None] == [
            {"code": "connection_limit", "limit": ANONYMOUS, "message": (
                "too many connections without a login from your address: log in, or "
                "close another tab")}] * (30 - ANONYMOUS)
        await _connected_here(limited, ANONYMOUS)
        # Logged-in sockets take the rest of the address's places, then are refused too.
        async with httpx.AsyncClient(base_url=limited.url) as http:
            person = await Accounts(http, mailbox, limited.app).player(verified=False)
        members = [Client(limited.url, person) for _ in range(4)]
        flood += members
        refusals = await asyncio.gather(*(_refusal(client) for client in members))
        assert sum(r is None for r in refusals) == TOTAL - ANONYMOUS
        assert {(r["code"], r["limit"]) for r in refusals if r is not None} == {
            ("connection_limit", TOTAL)}
        # A socket that closes gives its place back.
        await next(c for c in flood if c.sio.connected and c.player is None).disconnect()
        await _connected_here(limited, TOTAL - 1)
        again = Client(limited.url)
        flood.append(again)
        assert await _refusal(again) is None
        assert (await again.ok("lobby:list"))["tables"] == []
    finally:
        for client in flood:
            if client.sio.connected:
                await client.disconnect()
