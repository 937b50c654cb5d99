"""/metrics counts what the tables do, and /health says whether this process is ready."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import replace
from typing import Any

import httpx

from app.config import Settings
from tests.conftest import Accounts, Mailbox
from tests.realtime.harness import (
    LiveServer,
    is_event,
    live_server,
    realtime_settings,
    seat_players,
)


def sample(text: str, name: str, labels: str = "") -> float:
    """The value of one sample in the Prometheus text format."""
    pattern = rf"^{re.escape(name)}{re.escape('{' + labels + '}') if labels else ''} (\S+)$"
    found = re.search(pattern, text, re.MULTILINE)
    assert found, f"{name}{{{labels}}} not in:\n{text}"
    return float(found.group(1))


async def test_metrics_count_tables_players_actions_and_commits(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    before = (await http.get("/metrics")).text
    assert sample(before, "holdem_tables") == 0 and sample(before, "holdem_players") == 0
    table = await seat_players(players, connect, [500, 500])
    await table.seats[0].wait_for("table:event", is_event("hand_started", table.id))
    await table.act("fold")
    await table.hand_ended()
    await table.seats[0].ok("table:chat", {"table_id": table.id, "text": "gg"})
    answer = await http.get("/metrics")
    assert answer.headers["content-type"].startswith("text/plain")
    text = answer.text
    assert sample(text, "holdem_tables") == 1
    assert sample(text, "holdem_players") == 2
    assert sample(text, "holdem_connections") >= 2
    assert sample(text, "holdem_actions_total", 'outcome="ok"') == 1
    assert sample(text, "holdem_action_seconds_count") == 1
    assert sample(text, "holdem_commits_total", 'kind="chips"') >= 3  # two buy-ins, a hand
    assert sample(text, "holdem_commits_total", 'kind="states"') >= 1
    refused = await table.seats[0].call("table:action", {"table_id": table.id,
                                                         "hand_id": "nope", "type": "fold"})
    assert refused["ok"] is False
    text = (await http.get("/metrics")).text
    assert sample(text, "holdem_actions_total", f'outcome="{refused["error"]["code"]}"') == 1


async def test_the_event_loop_lag_shows_a_stall_of_the_server(
    server: LiveServer, http: httpx.AsyncClient
) -> None:
    def over(text: str, bound: str) -> float:
        return (sample(text, "holdem_event_loop_lag_seconds_count")
                - sample(text, "holdem_event_loop_lag_seconds_bucket", f'le="{bound}"'))

    before = (await http.get("/metrics")).text
    # The server runs on this test's event loop: blocking it stalls the server.
    time.sleep(0.35)
    await asyncio.sleep(0.2)
    after = (await http.get("/metrics")).text
    assert over(after, "0.3") >= over(before, "0.3") + 1
    assert sample(after, "holdem_event_loop_lag_seconds_count") > sample(
        before, "holdem_event_loop_lag_seconds_count")


async def test_metrics_can_require_a_token_or_be_off(
    settings: Settings, mailbox: Mailbox
) -> None:
    guarded = replace(realtime_settings(settings), metrics_token="scrape-me-0123456789")
    async with live_server(guarded) as server, httpx.AsyncClient(base_url=server.url) as http:
        assert (await http.get("/metrics")).status_code == 401
        wrong = await http.get("/metrics", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        ok = await http.get("/metrics",
                            headers={"Authorization": "Bearer scrape-me-0123456789"})
        assert ok.status_code == 200 and "holdem_tables" in ok.text
    off = replace(realtime_settings(settings), metrics_enabled=False)
    async with live_server(off) as server, httpx.AsyncClient(base_url=server.url) as http:
        assert (await http.get("/metrics")).status_code == 404


async def test_health_reports_readiness(server: LiveServer, http: httpx.AsyncClient) -> None:
    body = (await http.get("/health")).json()
    assert body["status"] == "ok" and body["database"] == "up" and body["redis"] == "off"
    assert body["tables"] == "running" and body["leases"] == 0 and body["draining"] is False
    assert body["process"] == server.realtime.host.leases.process_id
