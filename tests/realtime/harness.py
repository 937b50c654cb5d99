"""A real server on loopback and real Socket.IO clients, for realtime and end-to-end tests.

:class:`LiveServer` runs the application under uvicorn on a free port in the
test's event loop; :class:`Client` is a ``socketio.AsyncClient`` that records
every event it receives, so a test can wait for one and check them all.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, cast

import httpx
import pytest
import socketio
import uvicorn
from fastapi import FastAPI
from pydantic import BaseModel, ValidationError

from app.config import RateLimit, Settings
from app.db.engine import Database
from app.db.models import User
from app.main import create_app
from app.protocol import SERVER_EVENTS
from app.realtime.server import Realtime
from app.serving import uvicorn_config
from tests.conftest import Accounts, Mailbox, Player, assert_ledger_reconciles, free_port
from tests.poker.stacked_decks import Decks

WAIT_SECONDS = 10.0
DOCUMENTED: dict[str, type[BaseModel]] = dict(SERVER_EVENTS)
Received = tuple[str, Any]


def cluster_settings(settings: Settings, **changes: Any) -> Settings:
    """:func:`realtime_settings` for the processes of one site sharing Redis
    (``TEST_REDIS_URL``) on a channel of their own, so concurrent runs never hear each
    other; the test is skipped without it."""
    url = os.environ.get("TEST_REDIS_URL")
    if not url:
        pytest.skip("Redis runs are off: set TEST_REDIS_URL, e.g. redis://127.0.0.1:6379/0")
    return realtime_settings(settings, redis_url=url,
                             redis_channel=f"holdem-test-{uuid.uuid4().hex}", **changes)


def realtime_settings(settings: Settings, **changes: Any) -> Settings:
    """Test settings with table timings short enough for tests, long enough to act."""
    values: dict[str, Any] = {
        "action_seconds": 30.0, "min_action_seconds": 0.05, "time_bank_seconds": 0.0,
        "showdown_seconds": 30.0, "hand_start_delay_seconds": 0.3,
        "sit_out_limit_seconds": 600.0, "seat_offer_seconds": 30.0, "bot_delay_seconds": 0.0,
        "rate_limit_chat": RateLimit(5, 10),
        # Many clients share loopback and some send hundreds of requests a second: the
        # per-connection and per-address limits (requests and connections) have tests of
        # their own.
        "rate_limit_socket": RateLimit(1_000_000, 10),
        "rate_limit_socket_ip": RateLimit(1_000_000, 10),
        "max_sockets_per_address": 1_000_000,
        "max_anonymous_sockets_per_address": 1_000_000,
    }
    values.update(changes)
    return dataclasses.replace(settings, **values)


class LiveServer:
    """The application served by uvicorn on 127.0.0.1."""

    def __init__(self, app: FastAPI, port: int) -> None:
        self.app = app
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.decks = Decks()
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def realtime(self) -> Realtime:
        """The realtime side of the running app."""
        return cast(Realtime, self.app.state.realtime)

    @property
    def database(self) -> Database:
        """The app's database."""
        return cast(Database, self.app.state.database)

    async def balance(self, user_id: int) -> int:
        """The credits an account holds now, as stored."""
        async with self.database.sessions() as session:
            user = await session.get(User, user_id)
            assert user is not None
            return user.balance

    async def start(self) -> None:
        """Serve until :meth:`stop`; tables deal from :attr:`decks`."""
        self.realtime.host.services.deck_factory = self.decks
        # Configured the way `holdem serve` configures it (proxy headers included).
        config = uvicorn_config(self.app, self.app.state.settings, host="127.0.0.1",
                                port=self.port, log_level="warning", lifespan="on",
                                ws="websockets-sansio")
        self._server = uvicorn.Server(config)
        self._task = asyncio.create_task(self._server.serve())
        while not self._server.started:
            if self._task.done():
                await self._task
                raise RuntimeError("uvicorn stopped while starting")
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        """Shut down gracefully (connections closed, lifespan shutdown run)."""
        assert self._server is not None and self._task is not None
        self._server.should_exit = True
        await self._task


@asynccontextmanager
async def live_server(settings: Settings) -> AsyncIterator[LiveServer]:
    """A started :class:`LiveServer` for ``settings``; the ledger must reconcile after it."""
    server = LiveServer(create_app(settings), free_port())
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    await assert_ledger_reconciles(settings.database_url)


class Client:
    """A Socket.IO client that records every event it receives."""

    def __init__(self, url: str, player: Player | None = None) -> None:
        self.url = url
        self.player = player
        self.sio = socketio.AsyncClient(reconnection=False)
        self.received: list[Received] = []
        self.off_schema: list[str] = []
        self._arrived = asyncio.Event()
        self._gone = asyncio.Event()
        self.sio.on("*", self._record)
        self.sio.on("disconnect", self._disconnected)

    async def _disconnected(self, *_reason: Any) -> None:
        self._gone.set()

    async def _record(self, event: str, data: Any = None) -> None:
        if event == "table:batch":
            self._check(event, data)
            for message in data["messages"]:
                await self._record(message["event"], message["data"])
            return
        self.received.append((event, data))
        self._check(event, data)
        self._arrived.set()

    def _check(self, event: str, data: Any) -> None:
        model = DOCUMENTED.get(event)
        if model is None:
            self.off_schema.append(f"{event}: not a documented event")
        else:
            try:
                model.model_validate(data)
            except ValidationError as error:
                self.off_schema.append(f"{event}: {error}")

    async def connect(self, token: str | None = None) -> Client:
        """Connect over WebSocket, with the player's token unless told otherwise."""
        if token is None and self.player is not None:
            token = self.player.token
        auth = {"token": token} if token else None
        await self.sio.connect(self.url, auth=auth, transports=["websocket"], wait_timeout=5)
        return self

    async def disconnect(self) -> None:
        """Close the connection."""
        await self.sio.disconnect()

    async def wait_disconnected(self, *, timeout: float = WAIT_SECONDS) -> None:
        """Return once the server has ended this connection."""
        try:
            await asyncio.wait_for(self._gone.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"still connected after {timeout}s") from None

    async def call(self, event: str, data: Any = None, *, timeout: float = WAIT_SECONDS) -> Any:
        """Send an event and return its ack."""
        args = () if data is None else (data,)
        return await self.sio.call(event, *args, timeout=timeout) if args else (
            await self.sio.call(event, timeout=timeout))

    async def ok(self, event: str, data: Any = None) -> dict[str, Any]:
        """Send an event that must succeed; its ack."""
        ack = await self.call(event, data)
        assert ack["ok"], (event, data, ack)
        return cast(dict[str, Any], ack)

    async def wait_for(
        self,
        event: str,
        where: Callable[[Any], bool] = lambda _: True,
        *,
        after: int = 0,
        timeout: float = WAIT_SECONDS,
    ) -> Any:
        """The first ``event`` (from index ``after``) whose payload satisfies ``where``."""
        async def find() -> Any:
            while True:
                for name, data in self.received[after:]:
                    if name == event and where(data):
                        return data
                self._arrived.clear()
                await self._arrived.wait()

        try:
            return await asyncio.wait_for(find(), timeout)
        except TimeoutError:
            tail = [name for name, _ in self.received[-20:]]
            raise AssertionError(f"no {event} within {timeout}s; last events: {tail}") from None

    def events(self, table_id: str | None = None) -> list[dict[str, Any]]:
        """The ``event`` bodies of every ``table:event`` received (for one table)."""
        return [data["event"] for name, data in self.received
                if name == "table:event" and (table_id is None or data["table_id"] == table_id)]

    def payloads(self) -> list[Any]:
        """Every payload received."""
        return [data for _, data in self.received]


def is_event(kind: str, table_id: str | None = None) -> Callable[[Any], bool]:
    """A ``wait_for`` filter: a ``table:event`` of this type (at this table)."""
    return lambda data: data["event"]["type"] == kind and (
        table_id is None or data["table_id"] == table_id)


class PlayingTable:
    """A table seen from the players seated at it: whose turn, and acting for them."""

    def __init__(self, table_id: str, seats: dict[int, Client], players: dict[int, Player]):
        self.id = table_id
        self.seats = seats
        self.players = players
        self.last_turn = 0

    @property
    def observer(self) -> Client:
        """A client that sees every public message of the table."""
        return next(iter(self.seats.values()))

    async def turn(self) -> dict[str, Any]:
        """The next ``table:turn``, as the player to act received it (with legal actions)."""
        public = await self.observer.wait_for(
            "table:turn", lambda t: t["table_id"] == self.id and t["seq"] > self.last_turn)
        self.last_turn = public["seq"]
        actor = self.seats.get(public["seat"])
        if actor is None:
            return cast(dict[str, Any], public)
        return cast(dict[str, Any], await actor.wait_for(
            "table:turn", lambda t: t["table_id"] == self.id and t["seq"] == public["seq"]))

    async def act(self, kind: str, amount: int | None = None, *, seat: int | None = None
                  ) -> dict[str, Any]:
        """Wait for the next turn and take ``kind`` (it must be ``seat``'s turn when given)."""
        turn = await self.turn()
        assert seat is None or turn["seat"] == seat, (turn, seat)
        payload: dict[str, Any] = {"table_id": self.id, "hand_id": turn["hand_id"],
                                   "type": kind}
        if amount is not None:
            payload["amount"] = amount
        await self.seats[turn["seat"]].ok("table:action", payload)
        return turn

    async def hand_ended(self, client: Client | None = None, *, after: int = 0) -> Any:
        """The next ``hand_ended`` event."""
        return await (client or self.observer).wait_for(
            "table:event", is_event("hand_ended", self.id), after=after)


async def seat_players(
    accounts: Accounts,
    connect: Callable[..., Any],
    buy_ins: list[int],
    **config: Any,
) -> PlayingTable:
    """New players in seats 0, 1, ... of a new table, each buying in for ``buy_ins[i]``."""
    people = [await accounts.player(verified=False) for _ in buy_ins]
    clients: list[Client] = [await connect(person) for person in people]
    table = {"name": "test table", "small_blind": 5, "big_blind": 10, "min_buy_in": 100,
             "max_buy_in": 2000, **config}
    created = await clients[0].ok("table:create", table)
    table_id = created["table"]["table_id"]
    for seat, (client, buy_in) in enumerate(zip(clients, buy_ins, strict=True)):
        await client.ok("table:sit", {"table_id": table_id, "seat": seat, "buy_in": buy_in})
    return PlayingTable(table_id, dict(enumerate(clients)), dict(enumerate(people)))


# --- fixtures (imported by tests/realtime/conftest.py and tests/e2e/conftest.py) ------


@pytest.fixture
async def server(settings: Settings) -> AsyncIterator[LiveServer]:
    """The application on a free loopback port with short table timings."""
    async with live_server(realtime_settings(settings)) as running:
        yield running


@pytest.fixture
async def http(server: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client talking to the live server over loopback."""
    async with httpx.AsyncClient(base_url=server.url, timeout=WAIT_SECONDS) as client:
        yield client


@pytest.fixture
def players(server: LiveServer, mailbox: Mailbox, http: httpx.AsyncClient) -> Accounts:
    """Sign-up and login against the live server."""
    return Accounts(http, mailbox, server.app)


@pytest.fixture
async def connect(server: LiveServer) -> AsyncIterator[Callable[..., Any]]:
    """``await connect(player)``: a connected :class:`Client` (disconnected after the test)."""
    made: list[Client] = []

    async def open_client(player: Player | None = None, token: str | None = None) -> Client:
        client = Client(server.url, player)
        made.append(client)
        return await client.connect(token)

    yield open_client
    for client in made:
        if client.sio.connected:
            await client.disconnect()
    off_schema = [problem for client in made for problem in client.off_schema]
    assert not off_schema, off_schema
