"""Announcements reach every connected socket (players, guests, on every process), are
validated and audit-logged; a table opened with a timing profile runs its clock."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from app.config import Settings
from tests.conftest import Accounts, Mailbox
from tests.realtime.harness import Client, cluster_settings, live_server


async def test_an_announcement_reaches_every_connected_socket_and_is_audit_logged(
    players: Accounts, http: httpx.AsyncClient, connect: Callable[..., Any]
) -> None:
    admin, player = await players.admin(), await players.player()
    seated, guest = await connect(player), await connect()

    sent = await http.post("/admin/announcements", headers=admin.headers,
                           json={"text": "  The server restarts at 03:00 UTC.  ",
                                 "level": "warning"})

    assert sent.status_code == 201, sent.text
    body = sent.json()
    assert body["text"] == "The server restarts at 03:00 UTC."
    for client in (seated, guest):
        got = await client.wait_for("announcement")
        assert got == body
    log = (await http.get("/admin/audit-log?action=announce", headers=admin.headers)).json()
    assert log["count"] == 1
    assert log["items"][0]["details"] == {"announcement_id": body["id"],
                                          "text": body["text"], "level": "warning"}


@pytest.mark.parametrize("body", [
    {"text": "hi"},
    {"text": "x" * 301},
    {"text": "Restart soon", "level": "urgent"},
    {"text": "Restart soon", "colour": "red"},
    {"text": 12345},
])
async def test_a_bad_announcement_is_refused_and_sends_nothing(
    players: Accounts, http: httpx.AsyncClient, connect: Callable[..., Any],
    body: dict[str, Any],
) -> None:
    admin, player = await players.admin(), await players.player()
    client = await connect(player)
    refused = await http.post("/admin/announcements", json=body, headers=admin.headers)
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "invalid_payload"
    # An ack that follows the refusal: an announcement sent before it would be here.
    await client.ok("lobby:list", {})
    assert "announcement" not in [name for name, _ in client.received]
    log = (await http.get("/admin/audit-log?action=announce", headers=admin.headers)).json()
    assert log["count"] == 0


async def test_a_table_opened_with_a_timing_profile_takes_its_clock_unless_told_otherwise(
    players: Accounts, connect: Callable[..., Any]
) -> None:
    client = await connect(await players.player())
    fast = await client.ok("table:create", {"name": "Fast", "small_blind": 1,
                                            "big_blind": 2, "timing": "fast"})
    config = (await client.ok("table:join", {"table_id": fast["table"]["table_id"]}))
    snapshot = await client.wait_for("table:snapshot")
    assert config["ok"]
    assert snapshot["config"]["action_seconds"] == 10
    assert snapshot["config"]["time_bank"] == {"seconds": 15, "add_seconds": 5,
                                               "every_hands": 10, "max_seconds": 30}
    assert snapshot["config"]["disconnect_grace_seconds"] == 10

    slow = await client.ok("table:create", {"name": "Slow", "small_blind": 1,
                                            "big_blind": 2, "timing": "slow",
                                            "action_seconds": 25})
    await client.ok("table:join", {"table_id": slow["table"]["table_id"]})
    snapshot = await client.wait_for(
        "table:snapshot", lambda s: s["table_id"] == slow["table"]["table_id"])
    assert snapshot["config"]["action_seconds"] == 25
    assert snapshot["config"]["time_bank"]["seconds"] == 60
    assert snapshot["config"]["disconnect_grace_seconds"] == 45

    unknown = await client.call("table:create", {"name": "Odd", "small_blind": 1,
                                                 "big_blind": 2, "timing": "glacial"})
    assert unknown["ok"] is False and unknown["error"]["code"] == "invalid_payload"


@pytest.mark.redis
async def test_an_announcement_made_on_one_process_reaches_sockets_on_another(
    settings: Settings, mailbox: Mailbox
) -> None:
    shared = cluster_settings(settings)
    clients: list[Client] = []
    async with live_server(shared) as rest, live_server(shared) as other, \
            httpx.AsyncClient(base_url=rest.url) as http:
        accounts = Accounts(http, mailbox, rest.app)
        admin, player = await accounts.admin(), await accounts.player()
        try:
            here = await Client(rest.url, player).connect()
            there = await Client(other.url, player).connect()
            clients += [here, there]
            sent = await http.post("/admin/announcements", headers=admin.headers,
                                   json={"text": "Tournament at 20:00 UTC", "level": "info"})
            assert sent.status_code == 201
            for client in clients:
                assert (await client.wait_for("announcement"))["id"] == sent.json()["id"]
        finally:
            for client in clients:
                await client.disconnect()
