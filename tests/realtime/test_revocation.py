"""Revoking a user's sessions ends their open sockets, on every process."""

from __future__ import annotations

import dataclasses
import os
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest

from app.config import Settings
from tests.conftest import PASSWORD, Accounts, Mailbox, Player, token_of
from tests.realtime.harness import Client, LiveServer, live_server, realtime_settings

NEW_PASSWORD = "an entirely new passphrase"
Revoke = Callable[[httpx.AsyncClient, Accounts, Player], Awaitable[None]]


async def log_out(http: httpx.AsyncClient, accounts: Accounts, player: Player) -> None:
    response = await http.post("/auth/logout", headers=player.headers)
    assert response.status_code == 204, response.text


async def change_password(http: httpx.AsyncClient, accounts: Accounts, player: Player) -> None:
    response = await http.post("/users/me/password", headers=player.headers, json={
        "current_password": PASSWORD, "new_password": NEW_PASSWORD})
    assert response.status_code == 200, response.text


async def reset_password(http: httpx.AsyncClient, accounts: Accounts, player: Player) -> None:
    await http.post("/auth/forgot-password", json={"email": player.email})
    token = token_of(await accounts.mailbox.wait_for(player.email, "reset your password"))
    response = await http.post("/auth/reset-password", json={
        "token": token, "new_password": NEW_PASSWORD})
    assert response.status_code == 200, response.text


async def delete_account(http: httpx.AsyncClient, accounts: Accounts, player: Player) -> None:
    response = await http.request("DELETE", "/users/me", headers=player.headers,
                                  json={"password": PASSWORD})
    assert response.status_code == 204, response.text


async def ban(http: httpx.AsyncClient, accounts: Accounts, player: Player) -> None:
    admin = await accounts.admin()
    response = await http.post(f"/admin/users/{player.id}/ban", json={"reason": "abuse"},
                               headers=admin.headers)
    assert response.status_code == 200, response.text


async def assert_ended(client: Client) -> None:
    """The socket hears ``session_ended`` and the server closes it."""
    await client.wait_for("user:notice", lambda n: n["kind"] == "session_ended")
    await client.wait_disconnected()


@pytest.mark.parametrize("revoke", [log_out, change_password, reset_password, delete_account,
                                    ban])
async def test_every_revocation_disconnects_the_users_open_sockets(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient, revoke: Revoke
) -> None:
    player, bystander = await players.player(), await players.player()
    tabs: list[Client] = [await connect(player), await connect(player)]
    other: Client = await connect(bystander)
    await tabs[0].ok("table:create", {"name": "before", "small_blind": 1, "big_blind": 2})
    await revoke(http, players, player)
    for tab in tabs:
        await assert_ended(tab)
    assert server.realtime.connections.sids(player.id) == []
    assert (await other.ok("lobby:list"))["ok"]
    assert not [n for n, d in other.received if n == "user:notice"
                and d["kind"] == "session_ended"]


async def test_demoting_an_admin_ends_their_open_sockets_and_the_admin_role_they_carry(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    demoted, boss = await players.admin(), await players.admin()
    tab: Client = await connect(demoted)
    assert server.realtime.connections.sids(demoted.id) != []
    response = await http.post(f"/admin/users/{demoted.id}/demote", headers=boss.headers)
    assert response.status_code == 200, response.text
    await assert_ended(tab)
    assert server.realtime.connections.sids(demoted.id) == []


async def test_logging_out_on_one_process_disconnects_a_socket_on_another(
    settings: Settings, mailbox: Mailbox
) -> None:
    url = os.environ.get("TEST_REDIS_URL")
    if not url:
        pytest.skip("Redis runs are off: set TEST_REDIS_URL, e.g. redis://127.0.0.1:6379/0")
    # A channel of its own, so concurrent runs on the same Redis never hear each other.
    shared = dataclasses.replace(realtime_settings(settings), redis_url=url,
                                 redis_channel=f"holdem-test-{uuid.uuid4().hex}")
    async with live_server(shared) as first, live_server(shared) as second, \
            httpx.AsyncClient(base_url=first.url) as http:
        accounts = Accounts(http, mailbox, first.app)
        player = await accounts.player()
        client = await Client(second.url, player).connect()
        try:
            await client.ok("lobby:list")
            await log_out(http, accounts, player)
            await assert_ended(client)
            assert second.realtime.connections.sids(player.id) == []
        finally:
            if client.sio.connected:
                await client.disconnect()
