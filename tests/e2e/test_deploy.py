"""A deploy stops a real ``holdem serve`` process with SIGTERM: its connections stay open
while the hand in play is finished, every client is told ``server:restarting``, no new hand
is dealt, and the process exits 0 at the hand's end. A hand the drain could not wait for
goes on after the restart where it was stored, instead of being voided."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
import socketio
from sqlalchemy import select

from app.admin.audit import audit
from app.db.engine import Database
from app.db.tables import TableRecord
from tests.conftest import free_port
from tests.e2e.test_crash import Server, _player, crash_env  # noqa: F401 (a fixture)

WAIT = 60.0


class Watcher:
    """A player's client recording every message; folds on its turns once told to."""

    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url, token
        self.received: list[tuple[str, dict[str, Any]]] = []
        self.folding = False
        self.folds: list[dict[str, Any]] = []  # the acks of the folds sent
        self.sio = socketio.AsyncClient(reconnection=False)
        self.sio.on("table:batch", self._batch)
        for name in ("table:event", "table:turn", "table:snapshot", "server:restarting"):
            self.sio.on(name, self._handler(name))

    def _handler(self, name: str) -> Any:
        async def handle(data: dict[str, Any]) -> None:
            await self._message(name, data)
        return handle

    async def _batch(self, batch: dict[str, Any]) -> None:
        for message in batch["messages"]:
            await self._message(message["event"], message["data"])

    async def _message(self, name: str, data: dict[str, Any]) -> None:
        self.received.append((name, data))
        turn = data.get("turn") if name == "table:snapshot" else data
        if (self.folding and name in ("table:turn", "table:snapshot") and turn
                and turn.get("legal_actions")):
            ack = await self.sio.call("table:action", {"table_id": turn["table_id"],
                                                       "hand_id": turn["hand_id"],
                                                       "type": "fold"}, timeout=15)
            self.folds.append(ack)

    async def connect(self) -> Watcher:
        await self.sio.connect(self.url, auth={"token": self.token}, transports=["websocket"])
        return self

    async def ok(self, event: str, payload: dict[str, Any]) -> dict[str, Any]:
        ack: dict[str, Any] = await self.sio.call(event, payload, timeout=15)
        assert ack["ok"], (event, ack)
        return ack

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [data for name, data in self.received
                if name == "table:event" and data["event"]["type"] == kind]

    def last(self, name: str) -> dict[str, Any] | None:
        found = [data for seen, data in self.received if seen == name]
        return found[-1] if found else None

    async def close(self) -> None:
        if self.sio.connected:
            await self.sio.disconnect()


async def _until(condition: Callable[[], Any], what: str | Callable[[], str]) -> None:
    deadline = asyncio.get_running_loop().time() + WAIT
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, \
            f"never: {what if isinstance(what, str) else what()}"
        await asyncio.sleep(0.05)


async def _heads_up(server: Server) -> tuple[str, list[Watcher], dict[str, Any]]:
    """Two players seated at a new table, and the first turn of its first hand."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        tokens = [await _player(http, n) for n in range(2)]
    players = [await Watcher(server.url, token).connect() for token in tokens]
    created = await players[0].ok("table:create", {
        "name": "Deploy", "seats": 2, "small_blind": 5, "big_blind": 10})
    table_id = created["table"]["table_id"]
    for seat, player in enumerate(players):
        await player.ok("table:sit", {"table_id": table_id, "seat": seat, "buy_in": 1000})
    await _until(lambda: players[0].last("table:turn") is not None, "a first turn")
    turn = players[0].last("table:turn")
    assert turn is not None
    return table_id, players, turn


async def _stored_hand(database: Database, table_id: str) -> str | None:
    async with database.sessions() as session:
        state = await session.scalar(select(TableRecord.state)
                                     .where(TableRecord.id == table_id))
    assert state is not None
    current = state.get("current")
    return str(current["id"]) if current else None


async def _balanced(database: Database) -> None:
    report = await audit(database)
    assert report.balanced, report.describe()


async def test_sigterm_keeps_every_socket_while_the_hand_ends_then_exits_0(
    crash_env: dict[str, str], database_url: str  # noqa: F811
) -> None:
    env = {**crash_env, "DRAIN_SECONDS": "60", "HAND_START_DELAY_SECONDS": "0.2"}
    server = Server(env, free_port())
    database = Database(database_url)
    players: list[Watcher] = []
    await server.start()
    try:
        table_id, players, turn = await _heads_up(server)
        assert server.process is not None
        server.process.terminate()
        await _until(lambda: all(p.last("server:restarting") for p in players),
                     "every player is told the server is restarting")
        for player in players:
            told = player.last("server:restarting")
            assert told is not None and 0 < told["seconds"] <= 60, told
        # The connections stay open, new ones are taken, and the hand is played on.
        assert all(p.sio.connected for p in players)
        assert server.process.poll() is None
        late = await Watcher(server.url, players[1].token).connect()
        players.append(late)
        joined = await late.ok("table:join", {"table_id": table_id})
        assert joined["seq"] >= turn["seq"]
        # The two seated players fold on their turn (not the late connection too: it is the
        # second player's, and a second fold of one turn could arrive after the hand's end
        # let the process stop, to be answered by nobody).
        for player in players[:2]:
            player.folding = True
            seen = player.last("table:turn")
            if seen is not None:
                await player._message("table:turn", seen)
        await _until(lambda: any(e["hand_id"] == turn["hand_id"]
                                 for e in players[0].events("hand_ended")),
                     lambda: f"the hand in play ends (fold acks: {[p.folds for p in players]}, "
                             f"last turns: {[p.last('table:turn') for p in players]})")
        # At the hand's end the process stops by itself, with status 0, dealing nothing.
        assert await asyncio.to_thread(server.process.wait, WAIT) == 0
        await _until(lambda: not any(p.sio.connected for p in players), "sockets closed")
        for player in players:
            assert not player.events("hand_voided")
            assert [e["hand_id"] for e in player.events("hand_started")] in (
                [], [turn["hand_id"]]), "a hand was dealt while draining"
        assert await _stored_hand(database, table_id) is None
        await _balanced(database)
    finally:
        for player in players:
            await player.close()
        if server.process is not None and server.process.poll() is None:
            server.kill()
        await database.dispose()


async def test_a_hand_the_drain_could_not_finish_goes_on_after_the_restart(
    crash_env: dict[str, str], database_url: str  # noqa: F811
) -> None:
    env = {**crash_env, "DRAIN_SECONDS": "1", "HAND_START_DELAY_SECONDS": "0.2"}
    server = Server(env, free_port())
    database = Database(database_url)
    players: list[Watcher] = []
    await server.start()
    try:
        table_id, players, turn = await _heads_up(server)
        assert server.process is not None
        # Nobody acts: the drain's time runs out with the hand in play, which is stored.
        server.process.terminate()
        assert await asyncio.to_thread(server.process.wait, WAIT) == 0
        for player in players:
            await player.close()
        assert await _stored_hand(database, table_id) == turn["hand_id"]
        await _balanced(database)
        await server.start()
        back = [await Watcher(server.url, p.token).connect() for p in players]
        players = back
        for player in back:
            await player.ok("table:join", {"table_id": table_id, "since_seq": turn["seq"]})
        # The same hand, the same player to act, with a fresh clock.
        for player in back:
            snapshot = player.last("table:snapshot")
            assert snapshot is not None and snapshot["hand_id"] == turn["hand_id"], snapshot
            assert snapshot["turn"]["seat"] == turn["seat"], snapshot["turn"]
            assert snapshot["turn"]["deadline"] > turn["deadline"]
        for player in back:
            player.folding = True
            snapshot = player.last("table:snapshot")
            assert snapshot is not None
            await player._message("table:snapshot", snapshot)
        await _until(lambda: any(e["hand_id"] == turn["hand_id"]
                                 for e in back[0].events("hand_ended")),
                     "the restored hand ends")
        assert not [e for p in back for e in p.events("hand_voided")]
        await _balanced(database)
    finally:
        for player in players:
            await player.close()
        server.stop()
        await database.dispose()
