"""How a table's messages travel between processes: once to each process that has sessions
watching the table, on that process's own channel, and never to the others (three
processes on one PostgreSQL database and one Redis, every channel of the run recorded)."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import httpx
import orjson
import pytest
import redis.asyncio as redis
import socketio
from sqlalchemy import select

from app.db.models import User
from app.db.tables import ServerProcess
from app.hosting.leases import new_process_id
from app.realtime import codec
from app.realtime.cluster import Cluster as ProcessLink
from app.realtime.rooms import RedisRooms
from app.table.state import Viewer
from tests.e2e.test_cluster import (  # noqa: F401
    Cluster,
    Seat,
    _playing,
    _table_with_players,
    _until,
    cluster,
    cluster_env,
)
from tests.e2e.test_crash import _player

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

TABLE_EVENTS = ("table:event", "table:turn", "table:batch", "table:snapshot", "table:private")


class Recorder:
    """Every message published on the run's channels: (channel, body)."""

    def __init__(self, url: str, name: str) -> None:
        self.bus = redis.from_url(url)
        self.name = name
        self.messages: list[tuple[str, bytes]] = []
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Record from now on (returns once Redis confirmed every subscription)."""
        pubsub = self.bus.pubsub()
        patterns = (f"{self.name}*", f"holdem:{self.name}:*")
        await pubsub.psubscribe(*patterns)
        subscribed = asyncio.Event()
        self._task = asyncio.create_task(self._read(pubsub, len(patterns), subscribed))
        await asyncio.wait_for(subscribed.wait(), 10)

    async def _read(self, pubsub: Any, patterns: int, subscribed: asyncio.Event) -> None:
        async for message in pubsub.listen():
            if message["type"] == "psubscribe" and message["data"] >= patterns:
                subscribed.set()
            elif message["type"] == "pmessage":
                self.messages.append((message["channel"].decode(), message["data"]))

    async def stop(self) -> None:
        assert self._task is not None
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
        await self.bus.aclose()

    def deliveries(self, process_id: str) -> list[dict[str, Any]]:
        channel = f"holdem:{self.name}:process:{process_id}"
        bodies = [orjson.loads(data) for name, data in self.messages if name == channel]
        return [body for body in bodies if body.get("kind") == "deliver"]

    def on_manager_channel(self, table_id: str) -> list[bytes]:
        """What went on the Socket.IO manager's channel (read by every process) about the
        table's play."""
        return [data for name, data in self.messages if name == self.name
                and table_id.encode() in data
                and any(event.encode() in data for event in TABLE_EVENTS)]


async def test_a_table_message_reaches_only_the_processes_watching_it(
    cluster: Cluster, cluster_env: dict[str, str]  # noqa: F811
) -> None:
    recorder = Recorder(cluster_env["REDIS_URL"], cluster_env["REDIS_CHANNEL"])
    await recorder.start()
    # Two players, on the first two processes; the third process has no session.
    table_id, seats = await _table_with_players(cluster, cluster.servers[:2], size=2)
    await _playing(seats, 2)
    await recorder.stop()

    owner, _token = await cluster.lease(table_id)
    assert owner is not None
    async with cluster.database.sessions() as session:
        processes = (await session.scalars(select(ServerProcess.id))).all()
    watching = {id_ for id_ in processes
                if cluster.by_pid(id_) in cluster.servers[:2] and id_ != owner}
    assert recorder.on_manager_channel(table_id) == []
    for process_id in processes:
        delivered = recorder.deliveries(process_id)
        if process_id in watching:
            # Each of the table's messages once, with its seq.
            assert delivered, f"nothing reached the watching process {process_id}"
            texts = Counter(body["packet"] for body in delivered)
            assert max(texts.values()) == 1, texts.most_common(1)
        else:
            assert delivered == [], f"{len(delivered)} deliveries to {process_id}"
    for seat in seats:
        await seat.close()
    cluster.kill_all()
    await cluster.check_books(table_id)


async def test_a_forwarded_join_brings_its_watch_room_back_with_the_answer(
    cluster: Cluster, cluster_env: dict[str, str]  # noqa: F811
) -> None:
    # A watcher on a process that does not run the table joins it: the owner sends the
    # table's watch room back with the answer, on the watcher's process's channel, and
    # asks no process to enter it over the Socket.IO manager's channel.
    table_id, seats = await _table_with_players(cluster, cluster.servers[:2], size=2)
    await _playing(seats, 1)
    owner, _token = await cluster.lease(table_id)
    assert owner is not None
    elsewhere = next(s for s in cluster.servers if s is not cluster.by_pid(owner))
    async with httpx.AsyncClient(base_url=elsewhere.url) as http:
        watcher = Seat(await _player(http, 2))
    await watcher.connect(elsewhere)
    async with cluster.database.sessions() as session:
        processes = (await session.scalars(select(ServerProcess.id))).all()
    channel = f"holdem:{cluster_env['REDIS_CHANNEL']}:process:" + next(
        id_ for id_ in processes if cluster.by_pid(id_) is elsewhere)
    recorder = Recorder(cluster_env["REDIS_URL"], cluster_env["REDIS_CHANNEL"])
    await recorder.start()
    ack = await watcher.ok("table:join", {"table_id": table_id})

    def answers() -> list[dict[str, Any]]:
        """The answers to the join recorded on the watcher's process's channel."""
        return [body for name, data in recorder.messages if name == channel
                and (body := orjson.loads(data)).get("kind") == "answer"
                and body.get("result") == ack]

    await _until(answers, "the join's answer recorded")
    await recorder.stop()
    assert watcher.sio is not None
    assert [body["rooms"] for body in answers()] == [
        [[watcher.sio.get_sid(), f"watch:{table_id}", True]]]
    entered = [body for name, data in recorder.messages if name == recorder.name
               and (body := orjson.loads(data)).get("method") == "enter_room"]
    assert entered == []
    for seat in [*seats, watcher]:
        await seat.close()
    cluster.kill_all()
    await cluster.check_books(table_id)


class Home(socketio.AsyncServer):  # type: ignore[misc]
    """A server process of the cluster, run by the test, holding one session that has no
    client: what the cluster hands that session is kept instead of sent."""

    def __init__(self, url: str, channel: str) -> None:
        super().__init__(async_mode="asgi", client_manager=RedisRooms(url, channel=channel),
                         json=codec)
        self.link = ProcessLink(url, new_process_id(), name=channel,
                                on_request=self._refuse, on_news=self._ignore,
                                rooms=self.manager)
        self.handed: list[str] = []

    async def _refuse(self, *_request: Any) -> dict[str, Any]:
        return {"ok": False, "error": {"code": "not_here", "message": "a test process"}}

    async def _ignore(self, _news: dict[str, Any]) -> None:
        return None

    async def _send_eio_packet(self, eio_sid: str, eio_pkt: Any) -> None:
        self.handed.append(str(eio_pkt.data))

    async def session(self) -> str:
        """A session connected here (its id)."""
        return str(await self.manager.connect("eio-home", "/"))

    def watching(self, table_id: str) -> list[str]:
        """The sessions here in a table's watch room."""
        return [sid for sid, _ in self.manager.get_participants("/", f"watch:{table_id}")]

    async def stop(self) -> None:
        """Leave the cluster and stop reading the Socket.IO manager's channel."""
        await self.link.stop()
        self.manager.thread.cancel()
        await asyncio.gather(self.manager.thread, return_exceptions=True)


async def _viewer(group: Cluster, email: str) -> Viewer:
    async with group.database.sessions() as session:
        user = (await session.scalars(select(User).where(User.email == email))).one()
        return Viewer(user.id, user.public_id, user.display_name or "player", user.role)


async def test_a_join_sent_on_by_a_process_that_lost_the_table_reaches_the_sessions_process(
    cluster: Cluster, cluster_env: dict[str, str]  # noqa: F811
) -> None:
    # A session's process asks a process that no longer runs the table (its cached
    # owner), which sends the join on to the owner: the snapshot and the table's watch
    # room must come to the session's own process, not stop at the one in the middle.
    table_id, seats = await _table_with_players(cluster, cluster.servers[:2], size=2)
    await _playing(seats, 1)
    owner, _token = await cluster.lease(table_id)
    async with cluster.database.sessions() as session:
        processes = (await session.scalars(select(ServerProcess.id))).all()
    middle = next(id_ for id_ in processes if id_ != owner)
    async with httpx.AsyncClient(base_url=cluster.servers[0].url) as http:
        await _player(http, 2)
    viewer = await _viewer(cluster, "crash2@example.com")
    home = Home(cluster_env["REDIS_URL"], cluster_env["REDIS_CHANNEL"])
    await home.link.start()
    try:
        sid = await home.session()
        answer = await home.link.request(middle, "table:join", sid, viewer,
                                         {"table_id": table_id}, 1)
        assert answer.get("ok"), answer
        assert [packet for packet in home.handed if "table:snapshot" in packet], home.handed
        assert home.watching(table_id) == [sid]
    finally:
        await home.stop()
    for seat in seats:
        await seat.close()
    cluster.kill_all()
    await cluster.check_books(table_id)
