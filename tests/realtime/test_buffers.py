"""A client that never reads cannot grow the server: its requests are limited, the lobby is
paged, and a connection with too much unread is dropped and its memory given back."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
from engineio import packet
from engineio.async_drivers.asgi import translate_request
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.config import RateLimit, Settings
from app.realtime.buffers import (
    PACKET_OVERHEAD,
    BoundedEngine,
    OutgoingQueue,
    websocket_environ,
)
from app.realtime.schemas import TableCreate
from tests.realtime.harness import Client, LiveServer, live_server, realtime_settings

TABLES = 310
REQUESTS = 2_000
# The server process may grow by at most this much while a client that never reads
# sends 2,000 lobby:list requests. It grows by about 2 MB; with no bound on unread
# bytes it grew by 20 MB even with paged answers, and by over 120 MB with whole listings.
MEMORY_BOUND_BYTES = 8 * 1024 * 1024


def rss_bytes() -> int:
    """This process's resident memory (the server runs in it)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS in /proc/self/status")


def settled_rss() -> int:
    gc.collect()
    return rss_bytes()


async def until(condition: Callable[[], bool], *, timeout: float = 20.0) -> None:
    """Return once ``condition()`` holds; fail after ``timeout`` seconds."""
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(poll(), timeout)


async def open_lobby(server: LiveServer, count: int) -> None:
    """``count`` open tables with long names: a full listing is about 80 KB."""
    for n in range(count):
        await server.realtime.lobby.create(None, TableCreate(
            name=f"Table number {n:04} for a big lobby", small_blind=5, big_blind=10))


@asynccontextmanager
async def engine_io_socket(server: LiveServer) -> AsyncIterator[tuple[ClientConnection, str]]:
    """A raw Engine.IO WebSocket, connected to Socket.IO anonymously, that reads no more.

    Its kernel receive buffer is tiny and its client reads only one frame ahead, so
    the server's writes back up as soon as it stops reading.
    """
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(("127.0.0.1", server.port))
    raw.setblocking(False)
    url = f"ws://127.0.0.1:{server.port}/socket.io/?EIO=4&transport=websocket"
    async with connect(url, sock=raw, max_queue=1, ping_interval=None, compression=None,
                       open_timeout=10) as ws:
        opened = str(await ws.recv())
        assert opened.startswith("0{"), opened
        await ws.send("40")
        joined = str(await ws.recv())
        assert joined.startswith("40{"), joined
        yield ws, json.loads(opened[1:])["sid"]


async def flood(ws: ClientConnection) -> None:
    """2,000 ``lobby:list`` requests and pongs; nothing is read."""
    await ws.send("3")  # a pong: the client looks alive to the server
    for n in range(REQUESTS):
        await ws.send(f'42{n}["lobby:list",{{}}]')
    await ws.send("3")


async def read_until_closed(ws: ClientConnection) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for _ in ws:
            pass


async def test_a_client_that_never_reads_is_dropped_and_the_server_stays_small(
    settings: Settings,
) -> None:
    # No request limit here: every request is answered with a full page (about
    # 13 KB), 27 MB in all, so only the bound on unread bytes holds the line.
    unlimited = realtime_settings(settings, rate_limit_socket=RateLimit(100_000, 10),
                                  rate_limit_socket_ip=RateLimit(100_000, 10))
    async with live_server(unlimited) as server:
        await open_lobby(server, TABLES)
        engine: BoundedEngine = server.realtime.sio.eio
        before = settled_rss()
        async with engine_io_socket(server) as (ws, eio_sid):
            await flood(ws)
            await until(lambda: eio_sid not in engine.sockets and eio_sid not in engine.guards)
            dropped = settled_rss()
            # Reading at last, the client finds the connection closed behind what was
            # already on its way.
            await asyncio.wait_for(read_until_closed(ws), 20)
        await asyncio.sleep(0.5)
        after = settled_rss()
        assert engine.dropped == 1
        assert len(server.realtime.connections) == 0
    assert dropped - before < MEMORY_BOUND_BYTES, (before, dropped)
    assert after - before < MEMORY_BOUND_BYTES, (before, after)


async def test_with_the_default_limits_a_client_that_never_reads_costs_little(
    settings: Settings,
) -> None:
    async with live_server(realtime_settings(settings)) as server:
        await open_lobby(server, TABLES)
        before = settled_rss()
        async with engine_io_socket(server) as (ws, _eio_sid):
            await flood(ws)
            await asyncio.sleep(1.0)
            during = settled_rss()
    assert during - before < MEMORY_BOUND_BYTES, (before, during)


async def test_the_lobby_comes_in_bounded_pages(server: LiveServer, connect: Any) -> None:
    await open_lobby(server, 7)
    client: Client = await connect()
    first = await client.ok("lobby:list", {"per_page": 3})
    last = await client.ok("lobby:list", {"page": 3, "per_page": 3})
    assert (first["count"], first["page"], first["per_page"]) == (7, 1, 3)
    assert len(first["tables"]) == 3 and len(last["tables"]) == 1
    everything = await client.ok("lobby:list")
    assert everything["per_page"] == 50 and len(everything["tables"]) == 7
    assert [t["table_id"] for t in everything["tables"]][:3] == [
        t["table_id"] for t in first["tables"]]
    too_many = await client.call("lobby:list", {"per_page": 1_000})
    assert too_many["error"]["code"] == "invalid_payload"


async def test_requests_are_limited_per_connection_and_per_address(settings: Settings) -> None:
    limited = realtime_settings(settings, rate_limit_socket=RateLimit(5, 60),
                                rate_limit_socket_ip=RateLimit(8, 60))
    async with live_server(limited) as server:
        first, second = Client(server.url), Client(server.url)
        await first.connect()
        await second.connect()
        try:
            acks = [await first.call("lobby:list") for _ in range(4)]
            unknown = await first.call("no:such-event")
            acks += [await first.call("lobby:list"), await first.call("no:such-event")]
            assert [a["ok"] for a in acks] == [True] * 4 + [False, False]
            assert unknown["error"]["code"] == "invalid_payload"
            assert acks[-1]["error"]["code"] == acks[-2]["error"]["code"] == "rate_limited"
            assert acks[-1]["error"]["retry_after"] >= 1
            # The second connection has its own count but shares the address's (5 used).
            more = [await second.call("lobby:list") for _ in range(4)]
            assert [a["ok"] for a in more] == [True, True, True, False]
            assert more[-1]["error"]["code"] == "rate_limited"
        finally:
            await first.disconnect()
            await second.disconnect()


async def test_a_long_polling_client_that_never_polls_is_dropped_too(settings: Settings) -> None:
    unlimited = realtime_settings(settings, rate_limit_socket=RateLimit(100_000, 10),
                                  rate_limit_socket_ip=RateLimit(100_000, 10))
    async with live_server(unlimited) as server, httpx.AsyncClient(
            base_url=f"{server.url}/socket.io/", timeout=10) as http:
        await open_lobby(server, 100)
        engine: BoundedEngine = server.realtime.sio.eio
        opened = (await http.get("", params={"EIO": "4", "transport": "polling"})).text
        sid = json.loads(opened[1:])["sid"]
        session = {"EIO": "4", "transport": "polling", "sid": sid}
        assert (await http.post("", params=session, content="40")).text == "OK"
        assert (await http.get("", params=session)).text.startswith("40{")
        for first in range(0, REQUESTS, 16):  # Engine.IO takes 16 packets per POST
            batch = "\x1e".join(f'42{n}["lobby:list",{{}}]' for n in range(first, first + 16))
            if sid not in engine.sockets:
                break
            await http.post("", params=session, content=batch)
        await until(lambda: sid not in engine.sockets)
        assert engine.dropped == 1
        assert (await http.get("", params=session)).status_code == 400


def test_the_outgoing_queue_counts_what_waits_in_bytes() -> None:
    queue = OutgoingQueue()
    queue.put_nowait(packet.Packet(packet.MESSAGE, data="x" * 1_000))
    queue.put_nowait(packet.Packet(packet.PING))
    queue.put_nowait(None)
    assert queue.bytes == 1_000 + 2 * PACKET_OVERHEAD
    queue.get_nowait()
    assert queue.bytes == PACKET_OVERHEAD
    assert queue.discard() == 2
    assert queue.bytes == 0 and queue.empty()


async def test_a_drain_waits_until_what_is_queued_is_written_but_not_past_its_deadline(
) -> None:
    engine = BoundedEngine(async_mode="asgi")
    reader, stuck = OutgoingQueue(), OutgoingQueue()
    engine.sockets["reader"] = SimpleNamespace(queue=reader)
    reader.put_nowait(packet.Packet(packet.MESSAGE, data="hand_ended"))
    loop = asyncio.get_running_loop()

    async def writer() -> None:
        await asyncio.sleep(0.05)
        reader.get_nowait()
    writing = asyncio.create_task(writer())
    deadline = loop.time() + 30
    await engine.written(deadline)
    assert reader.empty() and loop.time() < deadline
    await writing
    # A client that never reads keeps its packet: the drain stops waiting at its deadline.
    engine.sockets["stuck"] = SimpleNamespace(queue=stuck)
    stuck.put_nowait(packet.Packet(packet.MESSAGE, data="hand_ended"))
    deadline = loop.time() + 0.1
    await engine.written(deadline)
    assert not stuck.empty() and loop.time() >= deadline


async def test_a_websocket_session_keeps_no_body_reader_and_long_polling_still_reads(
        settings: Settings) -> None:
    async with live_server(settings) as server, httpx.AsyncClient(
            base_url=f"{server.url}/socket.io/", timeout=10) as http:
        client = await Client(server.url).connect()
        try:
            assert (await client.call("lobby:list", {}))["ok"] is True
            environs = list(server.realtime.sio.environ.values())
            assert [e["asgi.scope"]["type"] for e in environs] == ["websocket"]
            assert "wsgi.input" not in environs[0]
            # A long-polling session's POST bodies are still read.
            opened = (await http.get("", params={"EIO": "4", "transport": "polling"})).text
            session = {"EIO": "4", "transport": "polling", "sid": json.loads(opened[1:])["sid"]}
            assert (await http.post("", params=session, content="40")).text == "OK"
            assert (await http.get("", params=session)).text.startswith("40{")
        finally:
            await client.disconnect()


async def test_a_websocket_environ_is_engineios_own_without_the_body_reader() -> None:
    scope = {
        "type": "websocket", "path": "/socket.io/", "query_string": b"EIO=4&transport=websocket",
        "headers": [(b"host", b"table.example"), (b"cookie", b"a=1"), (b"cookie", b"b=2"),
                    (b"content-type", b"text/plain"), (b"x-forwarded-proto", b"https"),
                    (b"x-odd", b"\xff\xfe")],
    }

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(message: Any) -> None:
        return None

    theirs = await translate_request(scope, receive, send)
    del theirs["wsgi.input"]
    gc.collect()
    gc.disable()
    try:
        ours = websocket_environ(scope, receive, send)
        assert gc.collect() == 0  # engineio's leaves its per-request class in a cycle
    finally:
        gc.enable()
    assert ours == theirs
    assert ours["HTTP_COOKIE"] == "a=1,b=2" and ours["wsgi.url_scheme"] == "https"
