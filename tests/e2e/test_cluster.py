"""Three server processes on one PostgreSQL database and one Redis: players connected to
different processes play at the same table while its owner is killed (SIGKILL), paused
past its lease (SIGSTOP) or stopped (SIGTERM). The table moves, play goes on, no table
ever has two owners, and the ledger balances.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import sys
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta
from email import message_from_bytes, message_from_string, policy
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import redis.asyncio as redis
import socketio
from sqlalchemy import func, select

from app.admin.audit import audit
from app.db import ledger
from app.db.engine import Database
from app.db.models import MailStatus, OutboxMail, utcnow
from app.db.tables import HandRecord, ServerProcess, TableRecord
from app.tournaments.tables import table_id as tournament_table
from tests.conftest import free_port, fresh_postgres_database, random_secret
from tests.e2e.test_crash import Server, _player
from tests.e2e.test_outage import Outage

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

LEASE_SECONDS = 2.0
LOGINS = 6  # per address, counted in Redis by every process together
WAIT = 30.0
# How long the database is away in the outage tests: several leases.
OUTAGE_SECONDS = 10.0
# Sessions that join a table together just before its owner is killed.
LATE_JOINERS = 6


async def _retry_later(ack: dict[str, Any]) -> bool:
    """Whether a refused request is one a client sends again (the table moving, the
    database away, too many retries meanwhile), after waiting as it is told."""
    error = ack.get("error", {})
    if error.get("code") == "rate_limited":
        await asyncio.sleep(min(2.0, float(error.get("retry_after") or 1)))
        return True
    if error.get("code") in ("table_moved", "service_unavailable"):
        await asyncio.sleep(0.3)
        return True
    return False


class Seat:
    """A player's client: acts on every turn, records every table message, and can move
    to another process and resume from the last seq it saw."""

    def __init__(self, token: str) -> None:
        self.token = token
        self.events: list[dict[str, Any]] = []
        self.seq = 0
        self.sio: socketio.AsyncClient | None = None
        self.server: Server | None = None
        self.acted = 0
        self.snapshots = 0
        # The last ``table:snapshot`` received.
        self.snapshot: dict[str, Any] | None = None
        # (arrival time, seq) of every table message with a seq.
        self.arrivals: list[tuple[float, int]] = []
        # Every ``server:restarting`` received.
        self.restarting: list[dict[str, Any]] = []
        # While holding, a turn is kept (``held``) and acted on at ``release``.
        self.holding = False
        self.held: dict[str, Any] | None = None
        self._acting: set[asyncio.Future[None]] = set()

    async def connect(self, server: Server, *, table: str | None = None) -> None:
        """Connect to ``server`` (``table``: for that table, as the browser's table page
        does, in the connection's query)."""
        self.server = server
        sio = socketio.AsyncClient(reconnection=False)
        sio.on("table:batch", self._batch)
        for name in ("table:event", "table:turn", "table:snapshot", "table:private"):
            sio.on(name, self._handler(name))
        sio.on("server:restarting", self._restarting)
        url = server.url + (f"?table={table}" if table else "")
        await sio.connect(url, auth={"token": self.token}, transports=["websocket"])
        self.sio = sio

    def _handler(self, name: str) -> Any:
        async def handle(data: dict[str, Any]) -> None:
            await self._message(name, data)
        return handle

    async def _batch(self, batch: dict[str, Any]) -> None:
        for message in batch["messages"]:
            await self._message(message["event"], message["data"])

    async def _restarting(self, data: dict[str, Any]) -> None:
        self.restarting.append(data)

    async def _message(self, name: str, data: dict[str, Any]) -> None:
        seq = data.get("seq")
        if isinstance(seq, int):
            self.seq = max(self.seq, seq)
            self.arrivals.append((asyncio.get_running_loop().time(), seq))
        if name == "table:snapshot":
            self.snapshots += 1
            self.snapshot = data
        if name == "table:event":
            self.events.append({"hand_id": data.get("hand_id"), **data["event"]})
        if name == "table:snapshot" and data.get("turn"):
            # A snapshot (a re-join after a takeover) carries the turn being waited for.
            name, data = "table:turn", data["turn"]
        if name == "table:turn" and data.get("legal_actions"):
            if self.holding:
                self.held = data
            else:
                self._take(data)

    def _take(self, turn: dict[str, Any]) -> None:
        kinds = [a["action"] for a in turn["legal_actions"]]
        kind = next(k for k in ("check", "call", "show", "muck", "fold") if k in kinds)
        acting = asyncio.ensure_future(self._act(turn, kind))
        self._acting.add(acting)
        acting.add_done_callback(self._acting.discard)

    def release(self) -> None:
        """Stop holding: act on the turn held, if any, and on every turn from now on."""
        self.holding = False
        if self.held is not None:
            turn, self.held = self.held, None
            self._take(turn)

    async def _act(self, turn: dict[str, Any], kind: str) -> None:
        for _ in range(20):
            ack = await self.call("table:action", {"table_id": turn["table_id"],
                                                   "hand_id": turn["hand_id"], "type": kind})
            if ack.get("ok"):
                self.acted += 1
                return
            if not await _retry_later(ack):
                return

    async def call(self, event: str, payload: dict[str, Any]) -> dict[str, Any]:
        assert self.sio is not None
        try:
            answer: dict[str, Any] = await self.sio.call(event, payload, timeout=15)
        except Exception as error:
            return {"ok": False, "error": {"code": "no_answer", "message": str(error)}}
        return answer

    async def ok(self, event: str, payload: dict[str, Any]) -> dict[str, Any]:
        for _ in range(40):
            ack = await self.call(event, payload)
            if ack.get("ok"):
                return ack
            if not await _retry_later(ack):
                raise AssertionError(f"{event} refused: {ack}")
        raise AssertionError(f"{event} never went through")

    async def move_to(self, server: Server, table_id: str) -> None:
        """Reconnect to another process and resume from the last seq seen."""
        await self.close()
        await self.connect(server)
        await self.ok("table:join", {"table_id": table_id, "since_seq": self.seq})

    def count(self, kind: str) -> int:
        return sum(1 for e in self.events if e["type"] == kind)

    async def close(self) -> None:
        if self.sio is not None and self.sio.connected:
            await self.sio.disconnect()


class Cluster:
    """Three (``count``) ``holdem serve`` processes sharing a database and a Redis."""

    def __init__(self, env: dict[str, str], count: int = 3) -> None:
        logs = Path(env["OUTBOX_DIR"]).parent
        self.servers = [Server(env, free_port(), logs / f"server{n}.log")
                        for n in range(count)]
        self.database = Database(env["DATABASE_URL"])

    def kill_all(self) -> None:
        """Kill every process still running (a hand left in play goes on with the next
        owner, which the books allow for)."""
        for server in self.servers:
            if server.process is not None and server.process.poll() is None:
                server.kill()

    def by_pid(self, owner: str) -> Server:
        pid = int(owner.rsplit("-", 2)[1])
        return next(s for s in self.servers if s.process and s.process.pid == pid)

    async def lease(self, table_id: str) -> tuple[str | None, int]:
        async with self.database.sessions() as session:
            row = (await session.execute(select(TableRecord.lease_owner, TableRecord.lease_token)
                                         .where(TableRecord.id == table_id))).one()
            return row.lease_owner, row.lease_token

    async def leased(self, table_id: str) -> bool:
        """Whether the table is stored with a process owning it."""
        async with self.database.sessions() as session:
            return await session.scalar(select(TableRecord.lease_owner)
                                        .where(TableRecord.id == table_id)) is not None

    async def stored(self, table_id: str) -> dict[str, Any]:
        """The table's state as last committed."""
        async with self.database.sessions() as session:
            state = await session.scalar(select(TableRecord.state)
                                         .where(TableRecord.id == table_id))
            assert state is not None
            return dict(state)

    async def moved(self, table_id: str, away_from: str) -> tuple[str, int]:
        """Wait until another live process owns the table."""
        deadline = asyncio.get_running_loop().time() + WAIT
        while asyncio.get_running_loop().time() < deadline:
            owner, token = await self.lease(table_id)
            if owner is not None and owner != away_from:
                return owner, token
            await asyncio.sleep(0.1)
        raise AssertionError("the table never moved")

    async def tables_of(self, owner: str) -> int:
        async with self.database.sessions() as session:
            count = await session.scalar(select(ServerProcess.tables)
                                         .where(ServerProcess.id == owner))
            return int(count or 0)

    async def check_books(self, table_id: str, *, hands: bool = True) -> None:
        """Hand numbers never repeat (one dealer at a time) and the ledger balances."""
        async with self.database.sessions() as session:
            numbers = Counter((await session.scalars(
                select(HandRecord.number).where(HandRecord.table_id == table_id))).all())
            assert not hands or (numbers and max(numbers.values()) == 1), numbers
            report = await ledger.audit(session)
            assert report.balanced, report
            assert await session.scalar(select(func.count()).select_from(TableRecord)) == 1


@pytest.fixture
def cluster_env(tmp_path: Path, postgres_template: str) -> Iterator[dict[str, str]]:
    redis_url = os.environ.get("TEST_REDIS_URL")
    if not redis_url:
        pytest.skip("Redis runs are off: set TEST_REDIS_URL, e.g. redis://127.0.0.1:6379/0")
    with fresh_postgres_database("holdem_cluster", template=postgres_template) as url:
        yield {**os.environ, "ENV": "development", "DATABASE_URL": url,
               "REDIS_URL": redis_url, "REDIS_CHANNEL": f"cluster-{secrets.token_hex(4)}",
               "SECRET_KEY": random_secret(),
               "RATE_LIMITS_ENABLED": "1", "RATE_LIMIT_LOGIN_IP": f"{LOGINS}/300",
               "OUTBOX_DIR": str(tmp_path / "outbox"),
               "ARGON2_TIME_COST": "1", "ARGON2_MEMORY_KIB": "64", "ARGON2_PARALLELISM": "1",
               "HAND_START_DELAY_SECONDS": "0.2", "SHOWDOWN_SECONDS": "60",
               "ACTION_SECONDS": "60", "BOT_DELAY_SECONDS": "0.05", "SMTP_HOST": "",
               "LEASE_SECONDS": str(LEASE_SECONDS), "LEASE_HEARTBEAT_SECONDS": "0.5",
               "DRAIN_SECONDS": "20", "MAIL_CLAIM_SECONDS": "1",
               # One test client signs every account up (one device mark).
               "SEPARATE_LINKED_ACCOUNTS": "false"}


@contextlib.asynccontextmanager
async def _running(env: dict[str, str], count: int = 3) -> AsyncIterator[Cluster]:
    group = Cluster(env, count)
    try:
        # The first to start runs the tournaments (tests ask the others to forward to it).
        await group.servers[0].start()
        async with asyncio.TaskGroup() as starting:
            for server in group.servers[1:]:
                starting.create_task(server.start())
        yield group
    finally:
        group.kill_all()
        await group.database.dispose()


@pytest.fixture
async def cluster(cluster_env: dict[str, str]) -> AsyncIterator[Cluster]:
    async with _running(cluster_env) as group:
        yield group


@pytest.fixture
async def default_cluster(cluster_env: dict[str, str]) -> AsyncIterator[Cluster]:
    """The cluster with the production lease settings (LEASE_SECONDS and
    LEASE_HEARTBEAT_SECONDS left at their defaults)."""
    env = {k: v for k, v in cluster_env.items()
           if k not in ("LEASE_SECONDS", "LEASE_HEARTBEAT_SECONDS")}
    async with _running(env) as group:
        yield group


async def _table_with_players(cluster: Cluster, servers: list[Server] | None = None, *,
                              size: int = 4) -> tuple[str, list[Seat]]:
    """A table with a person connected to each of ``servers`` (by default one on each
    process; they check and call, so nobody busts)."""
    servers = servers or cluster.servers
    async with httpx.AsyncClient(base_url=cluster.servers[0].url) as http:
        tokens = [await _player(http, n) for n in range(len(servers))]
    seats = [Seat(token) for token in tokens]
    for seat, server in zip(seats, servers, strict=True):
        await seat.connect(server)
    created = await seats[0].ok("table:create", {
        "name": "Shared", "seats": size, "small_blind": 5, "big_blind": 10})
    table_id = created["table"]["table_id"]
    for n, seat in enumerate(seats):
        await seat.ok("table:sit", {"table_id": table_id, "seat": n, "buy_in": 1000})
    return table_id, seats


async def _until(condition: Any, what: Any) -> None:
    deadline = asyncio.get_running_loop().time() + WAIT
    while asyncio.get_running_loop().time() < deadline:
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what() if callable(what) else what}")


async def _playing(seats: list[Seat], hands: int) -> None:
    """Every player sees ``hands`` more hands end."""
    goals = [seat.count("hand_ended") + hands for seat in seats]
    def seen() -> str:
        return "; ".join(f"{s.count('hand_started')} started, {s.count('hand_ended')} ended, "
                         f"{s.acted} acted, seq {s.seq}, last "
                         f"{s.events[-4:]}" for s in seats)

    await _until(lambda: all(s.count("hand_ended") >= g for s, g in zip(seats, goals,
                                                                        strict=True)),
                 lambda: f"{hands} more hands for everyone ({seen()})")


async def _survivor(cluster: Cluster, gone: Server) -> Server:
    return next(s for s in cluster.servers if s is not gone)


async def _first_after(seats: list[Seat], seq: int) -> float:
    """When the first table message past ``seq`` reached any of these players."""
    def first() -> float | None:
        times = [t for seat in seats for t, s in seat.arrivals if s > seq]
        return min(times) if times else None
    await _until(lambda: first() is not None, f"a message past seq {seq}")
    found = first()
    assert found is not None
    return found


async def test_play_goes_on_when_the_owner_is_killed(default_cluster: Cluster) -> None:
    cluster = default_cluster
    table_id, seats = await _table_with_players(cluster)
    await _playing(seats, 2)
    # Mid-hand: the committed state has a hand in play when the owner dies.
    await _until_async(lambda: cluster.stored(table_id), lambda s: s["current"] is not None,
                       "a hand in play")
    owner, token = await cluster.lease(table_id)
    assert owner is not None
    victim = cluster.by_pid(owner)
    others = [seat for seat in seats if seat.server is not victim]
    killed = asyncio.get_running_loop().time()
    victim.kill()
    left = await cluster.stored(table_id)  # nobody writes it until the next owner
    assert left["current"] is not None, "the hand ended before the kill"
    _new_owner, new_token = await cluster.moved(table_id, owner)
    took_over = asyncio.get_running_loop().time() - killed
    # Every message past what the dead owner stored comes from the new owner.
    resumed = await _first_after(others, left["seq"]) - killed
    print(f"failover: table {table_id} taken over {took_over:.2f} s and playing "
          f"{resumed:.2f} s after the SIGKILL")
    assert new_token == token + 1
    assert took_over <= 5.0, f"the table moved {took_over:.2f} s after the kill"
    assert resumed <= 5.0, f"play resumed {resumed:.2f} s after the kill"
    for seat in seats:
        if seat.server is victim:
            await seat.move_to(await _survivor(cluster, victim), table_id)
    await _playing(seats, 2)
    for seat in seats:
        await seat.close()
    cluster.kill_all()
    await cluster.check_books(table_id)


async def test_a_takeover_ends_or_announces_the_hand_it_found_in_play(
    default_cluster: Cluster
) -> None:
    cluster = default_cluster
    table_id, seats = await _table_with_players(cluster)
    await _playing(seats, 1)
    await _until_async(lambda: cluster.stored(table_id), lambda s: s["current"] is not None,
                       "a hand in play")
    owner, _token = await cluster.lease(table_id)
    assert owner is not None
    victim = cluster.by_pid(owner)
    victim.kill()
    left = await cluster.stored(table_id)
    assert left["current"] is not None, "the hand ended before the kill"
    hand_id = left["current"]["id"]
    await cluster.moved(table_id, owner)
    # The players who stayed connected are re-joined by the new owner; the others come
    # back through a live process. For everyone the hand the dead owner left in play
    # goes on to its end, or is voided and said so: it never just disappears.
    watched = [seat for seat in seats if seat.server is not victim]
    for seat in seats:
        if seat.server is victim:
            await seat.move_to(await _survivor(cluster, victim), table_id)

    def closed(seat: Seat) -> bool:
        return any(e["hand_id"] == hand_id and e["type"] in ("hand_ended", "hand_voided")
                   for e in seat.events)

    await _until(lambda: all(closed(seat) for seat in watched),
                 lambda: f"hand {hand_id} closed for every re-joined player "
                         f"({[seat.events[-3:] for seat in watched]})")
    await _playing(seats, 1)
    for seat in seats:
        await seat.close()
    cluster.kill_all()
    await cluster.check_books(table_id)


async def test_sessions_that_join_just_before_the_owner_dies_are_rejoined(
    cluster: Cluster
) -> None:
    # Watchers on the two other processes join (their joins forwarded to the owner), and
    # the owner is killed the moment the last join is acked: each must still be re-joined
    # by the new owner (a fresh snapshot), whenever it joined.
    table_id, seats = await _table_with_players(cluster)
    await _playing(seats, 1)
    owner, _token = await cluster.lease(table_id)
    assert owner is not None
    victim = cluster.by_pid(owner)
    elsewhere = [server for server in cluster.servers if server is not victim]
    async with httpx.AsyncClient(base_url=elsewhere[0].url) as http:
        tokens = [await _player(http, n) for n in (3, 4)]
    # Sessions of two people (within the cluster's login limit), several each.
    watchers = [Seat(tokens[n % 2]) for n in range(LATE_JOINERS)]
    for n, watcher in enumerate(watchers):
        await watcher.connect(elsewhere[n % 2])
    await asyncio.gather(*(w.ok("table:join", {"table_id": table_id}) for w in watchers))
    victim.kill()
    joined = [watcher.snapshots for watcher in watchers]
    await cluster.moved(table_id, owner)
    await _until(lambda: all(w.snapshots > n for w, n in zip(watchers, joined, strict=True)),
                 lambda: "every late joiner re-joined; not: "
                         f"{[n for n, w in enumerate(watchers) if w.snapshots <= joined[n]]}")
    for seat in [*seats, *watchers]:
        await seat.close()
    cluster.kill_all()
    await cluster.check_books(table_id)


class Stored:
    """Samples a table's committed seq, hand number and lease while something happens."""

    def __init__(self, cluster: Cluster, table_id: str) -> None:
        self.cluster, self.table_id = cluster, table_id
        self.samples: list[tuple[int, int, str | None, int]] = []
        self._task = asyncio.ensure_future(self._sample())

    async def _sample(self) -> None:
        while True:
            state = await self.cluster.stored(self.table_id)
            owner, token = await self.cluster.lease(self.table_id)
            self.samples.append((state["seq"], state["hand_number"], owner, token))
            await asyncio.sleep(0.02)

    async def stop(self) -> list[tuple[int, int, str | None, int]]:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        return self.samples


async def test_a_paused_owner_loses_its_table_and_every_write(cluster: Cluster) -> None:
    table_id, seats = await _table_with_players(cluster)
    await _playing(seats, 1)
    owner, _token = await cluster.lease(table_id)
    assert owner is not None
    paused = cluster.by_pid(owner)
    assert paused.process is not None and paused.log is not None
    # A second tab of a player, left connected to the owner: it speaks while the owner is
    # stopped, so the first thing the owner does when it wakes is change the table.
    stale_tab = Seat(next(s for s in seats if s.server is paused).token)
    await stale_tab.connect(paused)
    await stale_tab.ok("table:join", {"table_id": table_id})
    paused.process.send_signal(signal.SIGSTOP)
    try:
        new_owner, new_token = await cluster.moved(table_id, owner)
        for seat in seats:
            if seat.server is paused:
                await seat.move_to(await _survivor(cluster, paused), table_id)
        await _playing(seats, 1)
        stored = Stored(cluster, table_id)
        said = asyncio.ensure_future(stale_tab.call(
            "table:chat", {"table_id": table_id, "text": "said to a stopped server"}))
        await asyncio.sleep(0.3)  # the request waits in the stopped process's socket
    finally:
        paused.process.send_signal(signal.SIGCONT)
    # Back, the old owner runs the chat on its copy of the table: the database refuses
    # the write (stale token), the old owner lets the table go, and the request follows
    # the table to its new owner.
    deadline = asyncio.get_running_loop().time() + WAIT
    while await cluster.tables_of(owner) != 0:
        assert asyncio.get_running_loop().time() < deadline, "the paused owner kept its table"
        await asyncio.sleep(0.1)
    answer = await said
    await _playing(seats, 2)
    samples = await stored.stop()
    log = paused.log.read_text(encoding="utf-8", errors="replace")
    assert f"table {table_id}: write refused by the database" in log, log[-3000:]
    assert answer.get("ok") or answer["error"]["code"] == "table_moved", answer
    # The new owner's table was never overwritten: the committed seq and hand number only
    # grew, the lease stayed the new owner's, and the line said once is stored once.
    assert samples and {(o, t) for _, _, o, t in samples} == {(new_owner, new_token)}
    for column in (0, 1):
        grown = [sample[column] for sample in samples]
        assert grown == sorted(grown), samples
    chat = [line["text"] for line in (await cluster.stored(table_id))["chat"]]
    assert chat.count("said to a stopped server") == (1 if answer.get("ok") else 0), chat
    assert await cluster.lease(table_id) == (new_owner, new_token)
    for seat in [*seats, stale_tab]:
        await seat.close()
    cluster.kill_all()
    await cluster.check_books(table_id)


async def test_new_tables_open_on_the_least_loaded_process(cluster: Cluster) -> None:
    async with httpx.AsyncClient(base_url=cluster.servers[0].url) as http:
        token = await _player(http, 0)
    creator = Seat(token)
    await creator.connect(cluster.servers[0])
    owners = []
    for n in range(3):
        created = await creator.ok("table:create", {
            "name": f"Placed {n}", "seats": 6, "small_blind": 5, "big_blind": 10})
        owner, _ = await cluster.lease(created["table"]["table_id"])
        owners.append(owner)
        await asyncio.sleep(2 * 0.5 + 0.2)  # two heartbeats: every process's count is known
    # Each table went to a process that ran none: all three processes run one.
    assert len(set(owners)) == 3 and None not in owners, owners
    assert sorted([await cluster.tables_of(o) for o in owners if o]) == [1, 1, 1]
    await creator.close()


async def test_sigterm_drains_without_voiding_a_hand(cluster: Cluster) -> None:
    table_id, seats = await _table_with_players(cluster)
    await _playing(seats, 1)
    await _until(lambda: seats[0].count("hand_started") > seats[0].count("hand_ended"),
                 "a hand in play")
    owner, _token = await cluster.lease(table_id)
    assert owner is not None
    stopping = cluster.by_pid(owner)
    assert stopping.process is not None
    stopping.process.terminate()
    # Its sockets stay open while the hand in play is finished, then close: those
    # players come back through another process, which runs the table from then on.
    for seat in seats:
        if seat.server is stopping:
            await _until(lambda seat=seat: not seat.sio.connected, "the socket closed")
            await seat.move_to(await _survivor(cluster, stopping), table_id)
    await cluster.moved(table_id, owner)
    assert await asyncio.to_thread(stopping.process.wait, WAIT) == 0
    await _playing(seats, 2)
    assert all(seat.count("hand_voided") == 0 for seat in seats)
    for seat in seats:
        await seat.close()
    cluster.kill_all()
    await cluster.check_books(table_id)


async def test_sigterm_to_every_process_at_once_voids_no_hand(cluster: Cluster) -> None:
    # A player on each process, at a table one of them runs; the hand in play waits for
    # a player when every process is told to stop.
    table_id, seats = await _table_with_players(cluster)
    await _playing(seats, 1)
    for seat in seats:
        seat.holding = True
    await _until(lambda: any(seat.held for seat in seats), "a turn waiting in a hand")
    hand_id = next(seat.held["hand_id"] for seat in seats if seat.held)
    # The players on other processes may hear of the hand a moment after the one to act.
    await _until(lambda: all(hand_id in _hands(seat, "hand_started") for seat in seats),
                 f"every player told hand {hand_id} started")
    dealt = {seat: _hands(seat, "hand_started") for seat in seats}
    for server in cluster.servers:
        assert server.process is not None
        server.process.terminate()
    await _until(lambda: all(seat.restarting for seat in seats),
                 "every player told the server is restarting")
    assert all(0 < seat.restarting[0]["seconds"] <= 20 for seat in seats)
    # Every process keeps its sockets while the hand is played to its end.
    for seat in seats:
        seat.release()
    await _until(lambda: all(hand_id in _hands(seat, "hand_ended") for seat in seats),
                 lambda: f"hand {hand_id} ended for every player, on the socket it began "
                         f"on ({[seat.events[-2:] for seat in seats]})")
    for server in cluster.servers:
        assert server.process is not None
        assert await asyncio.to_thread(server.process.wait, WAIT) == 0
    await _until(lambda: not any(seat.sio and seat.sio.connected for seat in seats),
                 "every socket closed")
    assert all(_hands(seat, "hand_started") == dealt[seat] for seat in seats), \
        f"a hand was dealt while draining: {[_hands(s, 'hand_started') - dealt[s] for s in seats]}"
    assert (await cluster.stored(table_id))["current"] is None
    await cluster.check_books(table_id)
    # The whole cluster starts again: the players come back and play on.
    await cluster.servers[0].start()
    await asyncio.gather(*(server.start() for server in cluster.servers[1:]))
    for seat in seats:
        assert seat.server is not None
        await seat.move_to(seat.server, table_id)
    await _playing(seats, 2)
    assert all(seat.count("hand_voided") == 0 for seat in seats)
    for seat in seats:
        await seat.close()
    cluster.kill_all()
    await cluster.check_books(table_id)


async def test_a_hand_in_play_when_every_process_stopped_goes_on_after_they_restart(
    cluster_env: dict[str, str]
) -> None:
    # Nobody acts before the drain's time is up: the hand is stored as it stood, and once
    # every process has started again it goes on, instead of being voided.
    async with _running({**cluster_env, "DRAIN_SECONDS": "2"}) as cluster:
        table_id, seats = await _table_with_players(cluster)
        await _playing(seats, 1)
        for seat in seats:
            seat.holding = True
        await _until(lambda: any(seat.held for seat in seats), "a turn waiting in a hand")
        hand_id = next(seat.held["hand_id"] for seat in seats if seat.held)
        for server in cluster.servers:
            assert server.process is not None
            server.process.terminate()
        for server in cluster.servers:
            assert server.process is not None
            assert await asyncio.to_thread(server.process.wait, WAIT) == 0
        await _until(lambda: all(seat.restarting for seat in seats),
                     "every player told the server is restarting")
        assert (await cluster.stored(table_id))["current"]["id"] == hand_id
        await cluster.check_books(table_id)
        await cluster.servers[0].start()
        await asyncio.gather(*(server.start() for server in cluster.servers[1:]))
        for seat in seats:
            assert seat.server is not None
            await seat.move_to(seat.server, table_id)
            seat.release()
        await _until(lambda: all(hand_id in _hands(seat, "hand_ended") for seat in seats),
                     f"the stored hand {hand_id} played to its end")
        await _playing(seats, 1)
        assert all(seat.count("hand_voided") == 0 for seat in seats)
        for seat in seats:
            await seat.close()
        cluster.kill_all()
        await cluster.check_books(table_id)


def _hands(seat: Seat, kind: str) -> set[str]:
    """The hands of which a player saw an event of this kind."""
    return {str(e["hand_id"]) for e in seat.events if e["type"] == kind}


async def test_tournaments_answer_on_every_process(cluster: Cluster,
                                                   cluster_env: dict[str, str]) -> None:
    async with httpx.AsyncClient(base_url=cluster.servers[0].url) as http:
        tokens = [await _player(http, n) for n in range(2)]
    await _promote(cluster_env, "crash0@example.com")
    created = []
    for server in cluster.servers[1:]:
        async with httpx.AsyncClient(base_url=server.url,
                                     headers={"Authorization": f"Bearer {tokens[0]}"}) as http:
            answer = await http.post("/admin/tournaments", json={
                "name": f"Heads-up {server.port}", "kind": "sit_and_go", "table_size": 2,
                "buy_in": 10, "bots": 1})
            assert answer.status_code == 201, answer.text
            created.append(answer.json()["id"])
    player = Seat(tokens[1])
    await player.connect(cluster.servers[2])
    listed = await player.ok("tournament:list", {})
    assert {t["id"] for t in listed["tournaments"]} >= set(created)
    await player.ok("tournament:register", {"tournament_id": created[0]})
    for server in cluster.servers:
        async with httpx.AsyncClient(base_url=server.url) as http:
            seen = (await http.get(f"/tournaments/{created[0]}")).json()
            assert seen["entrants"] == 2, seen
            assert (await http.get("/tournaments/nothing-here")).json()["error"]["code"] == \
                "tournament_not_found"
    async with httpx.AsyncClient(base_url=cluster.servers[1].url) as http:
        await _until_async(lambda: http.get(f"/tournaments/{created[0]}"),
                           lambda r: r.json()["status"] != "registering", "the sit & go started")
    await player.close()


async def test_a_takeover_of_a_tournament_table_announces_the_hand_it_voided(
    cluster: Cluster, cluster_env: dict[str, str]
) -> None:
    # A heads-up sit & go of two people, each connected to a process that does not run
    # it: a tournament's tables run on the process that runs the tournaments, so killing
    # the table's owner kills the director too, and both roles move. A tournament's hand
    # cannot go on after a takeover (its standings are only known to agree with the table
    # between hands): it is voided, and the players who stayed connected are told so.
    director, *elsewhere = cluster.servers  # the first to start runs the tournaments
    async with httpx.AsyncClient(base_url=elsewhere[0].url) as http:
        tokens = [await _player(http, n) for n in range(2)]
    await _promote(cluster_env, "crash0@example.com")
    seats = [Seat(token) for token in tokens]
    for seat, server in zip(seats, elsewhere, strict=True):
        await seat.connect(server)
        seat.holding = True
    admin = {"Authorization": f"Bearer {tokens[0]}"}
    async with httpx.AsyncClient(base_url=elsewhere[0].url, headers=admin) as http:
        created = await http.post("/admin/tournaments", json={
            "name": "Killed heads-up", "kind": "sit_and_go", "table_size": 2, "buy_in": 10})
        assert created.status_code == 201, created.text
    tournament_id = created.json()["id"]
    for seat in seats:
        await seat.ok("tournament:register", {"tournament_id": tournament_id})
    table_id = tournament_table(tournament_id, 1)

    async def opened() -> int:
        async with cluster.database.sessions() as session:
            return int(await session.scalar(select(func.count()).select_from(TableRecord)
                                            .where(TableRecord.id == table_id)) or 0)

    await _until_async(opened, lambda count: count == 1, "the sit & go's table opened")
    for seat in seats:
        await seat.ok("table:join", {"table_id": table_id})
    await _until(lambda: any(seat.held for seat in seats), "a turn waiting in a hand")
    owner, _token = await cluster.lease(table_id)
    assert owner is not None and cluster.by_pid(owner) is director
    left = await cluster.stored(table_id)
    assert left["current"] is not None, "no hand in play"
    hand_id = left["current"]["id"]
    assert {seat.held["hand_id"] for seat in seats if seat.held} == {hand_id}
    # The blinds are in the pot; voided, the hand gives every seat back what it began with.
    in_play = left["current"]["hand"]["seats"]
    assert sum(s["contributed"] for s in in_play) > 0, in_play
    began = {s["number"]: s["starting_stack"] for s in in_play}
    assert {p["seat"]: p["stack"] for p in left["players"]} == began
    director.kill()
    assert (await cluster.stored(table_id))["current"]["id"] == hand_id
    await cluster.moved(table_id, owner)

    def voided(seat: Seat) -> list[str]:
        return [str(e["hand_id"]) for e in seat.events if e["type"] == "hand_voided"]

    await _until(lambda: all(voided(seat) for seat in seats),
                 lambda: f"every connected player told hand {hand_id} was voided "
                         f"({[seat.events[-3:] for seat in seats]})")
    assert all(voided(seat) == [hand_id] for seat in seats), [voided(s) for s in seats]
    assert not any(hand_id in _hands(seat, "hand_ended") for seat in seats)

    def next_hand(seat: Seat) -> dict[str, Any] | None:
        after = next(n for n, e in enumerate(seat.events) if e["type"] == "hand_voided")
        return next((e for e in seat.events[after:] if e["type"] == "hand_started"), None)

    # The tournament goes on, from the stacks the voided hand began with.
    await _until(lambda: all(next_hand(seat) for seat in seats),
                 "a next hand dealt after the voided one")
    for seat in seats:
        started = next_hand(seat)
        assert started is not None and started["hand_id"] != hand_id
        assert {s["seat"]: s["stack"] for s in started["seats"]} == began, (started, began)
    async with httpx.AsyncClient(base_url=elsewhere[1].url) as http:
        standings = (await http.get(f"/tournaments/{tournament_id}")).json()
    assert {p["seat"]: p["chips"] for p in standings["players"]} == began, standings
    # What a client that loads the table now sees.
    seen = seats[0].snapshots
    await seats[0].ok("table:join", {"table_id": table_id})
    await _until(lambda: seats[0].snapshots > seen, "a fresh snapshot")
    snapshot = seats[0].snapshot
    assert snapshot is not None and snapshot["hand_id"] != hand_id
    assert {s["seat"]: s["stack"] for s in snapshot["seats"]} == began, snapshot
    for seat in seats:
        seat.release()
    await _playing(seats, 1)
    for seat in seats:
        await seat.close()
    cluster.kill_all()
    # The new director neither opened the table again beside the stored one, nor found
    # the table's seats and the standings apart.
    for server in elsewhere:
        assert server.log is not None
        said = server.log.read_text(encoding="utf-8", errors="replace")
        for trouble in ("failed; the others play on", "the tournament says"):
            assert trouble not in said, said[-3000:]
    await cluster.check_books(table_id)
    report = await audit(cluster.database)
    assert report.balanced, report.describe()


async def _promote(env: dict[str, str], email: str) -> None:
    promoted = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "app.cli", "create-admin", email, "--no-prompt", env=env,
        stdout=asyncio.subprocess.DEVNULL)
    assert await promoted.wait() == 0


async def _until_async(probe: Any, done: Any, what: str) -> None:
    deadline = asyncio.get_running_loop().time() + WAIT
    while asyncio.get_running_loop().time() < deadline:
        if done(await probe()):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"never: {what}")


def _not_moving(response: httpx.Response, answers: list[httpx.Response]) -> bool:
    answers.append(response)
    return not (response.status_code == 503
                and response.json()["error"]["code"] == "table_moved")


async def test_quick_seat_finds_the_table_another_process_runs(
    cluster: Cluster, cluster_env: dict[str, str]
) -> None:
    closed_answers: list[httpx.Response] = []
    async with httpx.AsyncClient(base_url=cluster.servers[0].url) as http:
        tokens = [await _player(http, n) for n in range(3)]
    seats = [Seat(token) for token in tokens]
    for seat, server in zip(seats, cluster.servers, strict=True):
        await seat.connect(server)
    asked = {"small_blind": 25, "big_blind": 50, "bots": False, "buy_in": 2000}
    tables = [(await seat.ok("table:quick-seat", asked))["table_id"] for seat in seats]
    assert len(set(tables)) == 1
    owner, _ = await cluster.lease(tables[0])
    assert owner is not None
    for server in cluster.servers:
        async with httpx.AsyncClient(base_url=server.url) as http:
            health = (await http.get("/health")).json()
            assert health["redis"] == "up" and health["status"] == "ok", health
            assert health["leases"] == (1 if health["process"] == owner else 0), health
    listed = await seats[2].ok("lobby:list", {})
    assert [t["table_id"] for t in listed["tables"]] == tables[:1]
    # Admins see every process's tables from any process, and close them from any.
    await _promote(cluster_env, "crash0@example.com")
    admin = {"Authorization": f"Bearer {seats[0].token}"}
    for server in cluster.servers:
        async with httpx.AsyncClient(base_url=server.url, headers=admin) as http:
            live = (await http.get("/admin/tables")).json()
            assert [t["table"]["table_id"] for t in live["items"]] == tables[:1], live
    elsewhere = next(s for s in cluster.servers if s is not cluster.by_pid(owner))
    async with httpx.AsyncClient(base_url=elsewhere.url, headers=admin) as http:
        # A table on its way to the process its players reach answers table_moved (503,
        # retry_after): the admin tries again, as the answer says.
        await _until_async(lambda: http.post(f"/admin/tables/{tables[0]}/close",
                                             json={"reason": "maintenance"}),
                           lambda r: _not_moving(r, closed_answers), "the close answered")
        closed = closed_answers[-1]
        assert closed.status_code == 200 and closed.json()["paid_out"] == 6000, closed.text
    listed = await seats[2].ok("lobby:list", {})
    assert listed["tables"] == []
    for seat in seats:
        await seat.close()
    cluster.kill_all()
    await cluster.check_books(tables[0], hands=False)


async def test_a_rate_limit_holds_across_processes(cluster: Cluster) -> None:
    answers = []
    for attempt in range(LOGINS + 3):
        server = cluster.servers[attempt % len(cluster.servers)]
        async with httpx.AsyncClient(base_url=server.url) as http:
            answer = await http.post("/auth/login", json={
                "email": "nobody@example.com", "password": "not the right password"})
            answers.append(answer.status_code)
    assert answers == [401] * LOGINS + [429] * 3


class Tarpit:
    """A TCP server on loopback that takes connections and never says a word: an SMTP
    client connected to it waits for the greeting until its timeout."""

    def __init__(self) -> None:
        self.connections = 0
        self.closed = 0
        self._server: asyncio.Server | None = None

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._hold, "127.0.0.1", 0)
        return int(self._server.sockets[0].getsockname()[1])

    async def _hold(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while await reader.read(4096):
                pass
        except ConnectionError:
            pass
        finally:
            self.closed += 1
            writer.close()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()


async def test_a_mail_claimed_by_a_process_killed_while_sending_is_sent_once(
    cluster_env: dict[str, str], tmp_path: Path
) -> None:
    # A process whose mail server never answers claims the mail it queued and hangs in
    # the send; it is killed there (SIGKILL). Its claim lapses and exactly one of the
    # live processes (writing .eml files) sends the mail, once.
    claim_seconds = 2.0  # the killed process's claim
    tarpit = Tarpit()
    smtp_port = await tarpit.start()
    doomed = Server({**cluster_env, "SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(smtp_port),
                     "SMTP_SECURITY": "none", "SMTP_TIMEOUT_SECONDS": "120",
                     "MAIL_CLAIM_SECONDS": str(claim_seconds)},
                    free_port(), tmp_path / "doomed.log")
    # The live processes' claims outlast a send even on a loaded machine: only the killed
    # process's claim must lapse here.
    live = [Server({**cluster_env, "MAIL_CLAIM_SECONDS": "10"}, free_port(),
                   tmp_path / f"live{n}.log") for n in range(2)]
    database = Database(cluster_env["DATABASE_URL"])
    outbox = Path(cluster_env["OUTBOX_DIR"])
    orphan = "orphan@example.com"

    async def row(recipient: str) -> OutboxMail | None:
        async with database.sessions() as session:
            return await session.scalar(select(OutboxMail).where(
                OutboxMail.recipient == recipient))

    def files(recipient: str) -> list[Path]:
        return list(outbox.glob(f"*-{recipient}.eml"))

    try:
        # Alone, so no other process can claim the mail first.
        await doomed.start()
        async with httpx.AsyncClient(base_url=doomed.url) as http:
            signed = await http.post("/auth/signup", json={
                "email": orphan, "password": "correct horse battery staple",
                "display_name": "orphan"})
            assert signed.status_code == 202, signed.text
        deadline = asyncio.get_running_loop().time() + WAIT
        while True:
            held = await row(orphan)
            if held is not None and held.claimed_by and tarpit.connections:
                break
            assert asyncio.get_running_loop().time() < deadline, "the mail was never claimed"
            await asyncio.sleep(0.02)
        assert held.status is MailStatus.PENDING and held.attempts == 1
        assert held.claimed_until is not None
        killed_claim, lapses = held.claimed_by, held.claimed_until
        # It hangs in the send: connected to the tarpit, waiting for the greeting.
        await asyncio.sleep(0.2)
        assert tarpit.connections == 1 and tarpit.closed == 0
        assert (await row(orphan)) is not None and not files(orphan)
        doomed.kill()
        await _until(lambda: tarpit.closed == 1, "the killed process's connection closed")
        await asyncio.gather(*(server.start() for server in live))
        async with httpx.AsyncClient(base_url=live[0].url) as http:
            await _player(http, 0)  # a mail queued on a live process, for comparison
        await _until(lambda: files(orphan) and files("crash0@example.com"),
                     "both mails were sent")
        await asyncio.sleep(3)  # the killed claim's lifetime again: nobody sends it again
        assert len(files(orphan)) == 1 and len(files("crash0@example.com")) == 1
        sent = await row(orphan)
        assert sent is not None and sent.status is MailStatus.SENT and sent.attempts == 2
        assert sent.claimed_by not in (None, killed_claim) and sent.claimed_until is None
        assert sent.sent_at is not None and sent.sent_at >= lapses
        # The file is the message the killed process queued (its Message-ID).
        queued = message_from_string(held.message, policy=policy.default)
        written = message_from_bytes(files(orphan)[0].read_bytes(), policy=policy.default)
        assert written["Message-ID"] == queued["Message-ID"]
        senders = [server for server in live if server.log is not None and
                   f"to {orphan} written to" in server.log.read_text(errors="replace")]
        assert len(senders) == 1, "not exactly one live process sent it"
        assert tarpit.connections == 1  # no one else tried the dead process's server
        async with database.sessions() as session:
            rows = (await session.scalars(select(OutboxMail))).all()
        assert sorted(r.recipient for r in rows) == sorted(["crash0@example.com", orphan])
        assert {r.status for r in rows} == {MailStatus.SENT}
        assert len(list(outbox.glob("*.eml"))) == len(rows)
    finally:
        for server in [doomed, *live]:
            if server.process is not None and server.process.poll() is None:
                server.kill()
        await database.dispose()
        await tarpit.close()


async def test_a_forwarded_join_is_acknowledged_after_the_messages_it_replays(
    cluster: Cluster, cluster_env: dict[str, str]
) -> None:
    # The replay travels from the owner on the Socket.IO manager's channel, which carries
    # every process's traffic; the answer to the forwarded join must reach the player's
    # process behind it, however busy that channel is, so the ack comes last.
    table_id, seats = await _table_with_players(cluster)
    await _playing(seats, 4)
    owner, _token = await cluster.lease(table_id)
    assert owner is not None
    away = next(seat for seat in seats if seat.server is not cluster.by_pid(owner))
    assert away.sio is not None
    # Traffic on the manager's channel ahead of the replay: messages for this player's
    # process to deliver (it reads them one by one, as it does everything on that channel).
    traffic = orjson.dumps({"method": "emit", "event": "test:noise", "namespace": "/",
                            "room": away.sio.get_sid(), "data": [{"n": 1}],
                            "binary": False, "skip_sid": None, "callback": None,
                            "host_id": "elsewhere"})
    bus = redis.from_url(cluster_env["REDIS_URL"])
    checked = 0
    while checked < 6:
        since = max(0, away.seq - 100)
        mark = len(away.arrivals)
        acked: asyncio.Future[tuple[dict[str, Any], int]] = (
            asyncio.get_running_loop().create_future())

        def answered(ack: dict[str, Any], done: Any = acked) -> None:
            # Where in the stream of table messages the ack arrived.
            done.set_result((ack, len(away.arrivals)))

        async with bus.pipeline(transaction=False) as pipe:
            for _ in range(1500):
                pipe.publish(cluster_env["REDIS_CHANNEL"], traffic)
            await pipe.execute()
        await away.sio.emit("table:join", {"table_id": table_id, "since_seq": since},
                            callback=answered)
        ack, at = await asyncio.wait_for(acked, WAIT)
        if not ack["ok"] and ack["error"]["code"] == "rate_limited":
            await asyncio.sleep(ack["error"]["retry_after"])
            continue
        checked += 1
        assert ack["ok"] and ack["replayed"], ack
        before_ack = [s for _, s in away.arrivals[mark:at] if since < s <= ack["seq"]]
        assert len(before_ack) >= ack["replayed"], (
            f"{ack['replayed']} messages replayed, {len(before_ack)} arrived before the ack; "
            f"after it: {[s for _, s in away.arrivals[at:]][:10]}")
    await bus.aclose()
    for seat in seats:
        await seat.close()


async def test_a_process_without_redis_refuses_to_start_beside_the_cluster(
    cluster_env: dict[str, str], tmp_path: Path
) -> None:
    group = Cluster(cluster_env)
    member = group.servers[0]
    await member.start()
    try:
        async with httpx.AsyncClient(base_url=member.url) as http:
            creator = Seat(await _player(http, 0))
        await creator.connect(member)
        created = await creator.ok("table:create", {
            "name": "Kept", "seats": 4, "small_blind": 5, "big_blind": 10})
        table_id = created["table"]["table_id"]
        await creator.close()
        lease = await group.lease(table_id)
        alone = Server({**cluster_env, "REDIS_URL": ""}, free_port(), tmp_path / "alone.log")
        with pytest.raises(AssertionError, match="exited while starting"):
            await alone.start()
        assert alone.process is not None and alone.log is not None
        assert alone.process.wait(timeout=WAIT) != 0
        said = alone.log.read_text(encoding="utf-8", errors="replace")
        assert "share this database's tables through Redis" in said, said[-3000:]
        assert "has no REDIS_URL" in said, said[-3000:]
        # The cluster's table stayed where it was.
        assert await group.lease(table_id) == lease
    finally:
        group.kill_all()
        await group.database.dispose()


async def _owners(cluster: Cluster, table_ids: list[str]) -> Counter[str | None]:
    return Counter([(await cluster.lease(t))[0] for t in table_ids])


async def test_the_tables_of_a_killed_process_are_shared_out_by_load(
    cluster: Cluster
) -> None:
    # Six tables, two on each process (each opens on the least-loaded one).
    async with httpx.AsyncClient(base_url=cluster.servers[0].url) as http:
        creators = [Seat(await _player(http, n)) for n in range(2)]
    table_ids: list[str] = []
    for n in range(6):
        creator = creators[n % 2]
        if creator.sio is None:
            await creator.connect(cluster.servers[0])
        created = await creator.ok("table:create", {
            "name": f"Shared {n}", "seats": 6, "small_blind": 5, "big_blind": 10})
        table_ids.append(created["table"]["table_id"])

        async def counted() -> int:  # every process's heartbeat counts the new table
            async with cluster.database.sessions() as session:
                return int(await session.scalar(select(func.sum(ServerProcess.tables))) or 0)

        await _until_async(counted, lambda total: total == len(table_ids),
                           "every process counted its tables")
    before = await _owners(cluster, table_ids)
    assert sorted(before.values()) == [2, 2, 2], before
    owner = next(iter(before))
    assert owner is not None
    victim = cluster.by_pid(owner)
    victim.kill()
    survivors = set(before) - {owner}

    async def placed() -> Counter[str | None]:
        return await _owners(cluster, table_ids)

    await _until_async(placed, lambda owners: set(owners) == survivors,
                       "the killed process's tables taken over")
    # Each survivor took one: the orphans went to the least loaded, not to the first
    # process that noticed them.
    assert sorted((await placed()).values()) == [3, 3], await placed()
    for creator in creators:
        await creator.close()


async def test_a_database_outage_moves_no_table(cluster: Cluster,
                                                cluster_env: dict[str, str]) -> None:
    # One table on each process, then the database goes away for longer than a lease:
    # every heartbeat stops at once, so every lease looks lapsed when it comes back.
    async with httpx.AsyncClient(base_url=cluster.servers[0].url) as http:
        creator = Seat(await _player(http, 0))
    await creator.connect(cluster.servers[0])
    table_ids: list[str] = []
    for n in range(3):
        created = await creator.ok("table:create", {
            "name": f"Steady {n}", "seats": 6, "small_blind": 5, "big_blind": 10})
        table_ids.append(created["table"]["table_id"])

        async def counted() -> int:
            async with cluster.database.sessions() as session:
                return int(await session.scalar(select(func.sum(ServerProcess.tables))) or 0)

        await _until_async(counted, lambda total: total == len(table_ids),
                           "every process counted its tables")
    await creator.close()
    leases = {t: await cluster.lease(t) for t in table_ids}
    assert len({owner for owner, _ in leases.values()}) == 3, leases
    # One process comes back later than the others (as a process whose next heartbeat
    # is due later does): the others must not take its table meanwhile.
    await _outage_one_back_late(cluster, cluster_env, cluster.servers[2], 3 * LEASE_SECONDS)
    assert {t: await cluster.lease(t) for t in table_ids} == leases


async def _outage_one_back_late(
    cluster: Cluster, cluster_env: dict[str, str], late: Server, seconds: float
) -> None:
    """The database goes away for ``seconds``; ``late`` is paused as it comes back and
    resumed only once the two other processes beat again, then every process has settled."""
    assert late.process is not None
    await cluster.database.dispose()
    outage = Outage(cluster_env["DATABASE_URL"])
    await outage.begin()
    try:
        await asyncio.sleep(seconds)
        late.process.send_signal(signal.SIGSTOP)
    finally:
        await outage.end()
    back = utcnow()

    async def beats() -> dict[str, Any]:
        return await _heartbeats(cluster)

    try:
        await _until_async(beats, lambda seen: sum(b >= back for b in seen.values()) == 2,
                           "the other two processes beating again")
    finally:
        late.process.send_signal(signal.SIGCONT)
    await _settled_since(cluster, back)


async def test_a_hand_in_play_through_a_database_outage_stays_with_its_owner_and_goes_on(
    cluster: Cluster, cluster_env: dict[str, str]
) -> None:
    # The database goes away for several leases while a hand waits for a player, and
    # the table's owner comes back after the others: no other process takes the table,
    # and once the database is back the hand goes on where it stood.
    table_id, seats = await _table_with_players(cluster)
    await _playing(seats, 1)
    for seat in seats:
        seat.holding = True
    await _until(lambda: any(seat.held for seat in seats), "a turn waiting in a hand")
    hand_id = next(seat.held["hand_id"] for seat in seats if seat.held)
    lease = await cluster.lease(table_id)
    assert lease[0] is not None
    owner = cluster.by_pid(lease[0])
    assert owner.process is not None
    assert (await cluster.stored(table_id))["current"]["id"] == hand_id
    await _outage_one_back_late(cluster, cluster_env, owner, OUTAGE_SECONDS)
    assert await cluster.lease(table_id) == lease
    for seat in seats:
        seat.release()
    await _until(lambda: all(hand_id in _hands(seat, "hand_ended") for seat in seats),
                 lambda: f"hand {hand_id} played to its end after the outage "
                         f"({[seat.events[-2:] for seat in seats]})")
    await _playing(seats, 1)
    assert all(seat.count("hand_voided") == 0 for seat in seats)
    assert await cluster.lease(table_id) == lease
    for seat in seats:
        await seat.close()
    cluster.kill_all()
    await cluster.check_books(table_id)


async def _heartbeats(cluster: Cluster) -> dict[str, Any]:
    """Each process's last heartbeat, as stored."""
    async with cluster.database.sessions() as session:
        rows = await session.execute(select(ServerProcess.id, ServerProcess.heartbeat_at))
        return {row.id: row.heartbeat_at for row in rows}


async def _settled_since(cluster: Cluster, back: datetime) -> None:
    """Wait until every process has beaten for two leases since ``back`` (the database
    came back): well past any claim it would make."""
    async def beats() -> dict[str, Any]:
        return await _heartbeats(cluster)

    await _until_async(beats, lambda seen: len(seen) == 3 and all(
        b >= back + timedelta(seconds=2 * LEASE_SECONDS) for b in seen.values()),
        "every process beating again")
