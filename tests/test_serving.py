"""``holdem serve``'s uvicorn configuration: whose forwarded client address is believed,
and what a WebSocket leaves behind."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import itertools
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.config import RateLimit, Settings
from app.main import create_app
from app.serving import uvicorn_config
from tests.realtime.harness import Client, live_server

_addresses = (f"203.0.113.{n}" for n in itertools.count(1))


def rotating_forwarded_for() -> dict[str, str]:
    """A different spoofed client address on every request."""
    return {"X-Forwarded-For": next(_addresses)}


async def login_statuses(url: str, attempts: int) -> list[int]:
    """Failed logins from loopback, each claiming another client address and account."""
    async with httpx.AsyncClient(base_url=url) as http:
        return [
            (await http.post("/auth/login", headers=rotating_forwarded_for(), json={
                "email": f"nobody{n}@example.com", "password": "wrong password"})).status_code
            for n in range(attempts)
        ]


def limited(settings: Settings, **changes: str) -> Settings:
    return dataclasses.replace(settings, rate_limit_login_ip=RateLimit(3, 300), **changes)


def test_no_proxy_is_trusted_by_default(settings: Settings) -> None:
    assert settings.forwarded_allow_ips == ""
    config = uvicorn_config(create_app(settings), settings, host="127.0.0.1", port=8000)
    assert config.proxy_headers is False


async def test_a_rotating_forwarded_for_from_loopback_does_not_bypass_the_login_ip_limit(
    settings: Settings,
) -> None:
    async with live_server(limited(settings)) as server:
        statuses = await login_statuses(server.url, 6)
    assert statuses == [401, 401, 401, 429, 429, 429]


async def test_a_configured_proxy_is_believed_about_the_client_address(
    settings: Settings,
) -> None:
    async with live_server(limited(settings, forwarded_allow_ips="127.0.0.1")) as server:
        statuses = await login_statuses(server.url, 6)
    assert statuses == [401] * 6


@contextmanager
def garbage_kept() -> Iterator[list[object]]:
    """What the collector finds unreachable inside the block, kept instead of freed."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


async def test_a_websocket_leaves_no_http_protocol_cycle_behind(settings: Settings) -> None:
    # Freed by reference counting, not left for a full collection (app/collector.py).
    async with live_server(settings) as server:
        with garbage_kept() as garbage:
            clients = [await Client(server.url).connect() for _ in range(3)]
            gc.collect()
            left = [o for o in garbage if isinstance(o, HttpToolsProtocol)]
            for client in clients:
                await client.disconnect()
    assert left == []


async def test_a_closed_websocket_leaves_nothing_for_the_full_collection(
    settings: Settings,
) -> None:
    # Neither the protocol nor the guard nor engineio's handler task waits in a cycle once
    # a player leaves: a mass disconnect frees everything by reference counting.
    async with live_server(settings) as server:
        await (await Client(server.url).connect()).disconnect()  # everything imported
        with garbage_kept() as garbage:
            clients = [await Client(server.url).connect() for _ in range(5)]
            for client in clients:
                await client.ok("lobby:list", {})
                await client.disconnect()
            await asyncio.sleep(0.5)
            gc.collect()
            left = [type(o).__qualname__ for o in garbage
                    if type(o).__module__.startswith(("uvicorn", "websockets", "app."))
                    or (isinstance(o, asyncio.Task) and "_websocket_handler"
                        in getattr(o.get_coro(), "__qualname__", ""))]
    assert left == []


def test_websockets_are_pinged_by_engine_io_only(settings: Settings) -> None:
    app = create_app(settings)
    config = uvicorn_config(app, settings, host="127.0.0.1", port=8000)
    assert config.ws_ping_interval is None
    assert app.state.realtime.sio.eio.ping_interval > 0
