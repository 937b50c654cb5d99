"""A server under saturated play is killed (SIGKILL) at random moments: every action a
client saw acknowledged was durable, no hand is recorded or paid twice, and the ledger
balances to the chip after every restart.

CI runs 10 kills; a soak sets ``CRASH_KILLS`` (e.g. ``CRASH_KILLS=200 .venv/bin/python -m
pytest tests/e2e/test_crash.py``).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import socketio
from sqlalchemy import select

from app.admin.audit import audit
from app.db import ledger
from app.db.engine import Database
from app.db.tables import HandRecord, TableRecord
from tests.conftest import free_port, random_secret

ROOT = Path(__file__).resolve().parents[2]
KILLS = int(os.environ.get("CRASH_KILLS", "10"))
START_SECONDS = 60
PLAYERS = 6
PHH_ACTION = re.compile(r'"p\d+ (f|cc|cbr \d+|sm[^"]*)"')
ACTED = {"player_acted", "hand_shown", "hand_mucked"}


class Server:
    """``holdem serve`` as its own process, so it can be killed for real."""

    def __init__(self, env: dict[str, str], port: int, log: Path | None = None) -> None:
        self.env, self.port, self.log = env, port, log
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        """Start the process and wait until it answers ``/health``; a process that does
        not is killed, so a failed start leaves nothing running."""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1",
             "--port", str(self.port)], cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL,
            stderr=self.log.open("ab") if self.log else subprocess.DEVNULL)
        try:
            await self._healthy(self.process)
        except BaseException:
            self.kill()
            raise

    async def _healthy(self, process: subprocess.Popen[bytes]) -> None:
        # Generous: on a machine busy with other tests a start takes many times its usual
        # couple of seconds.
        deadline = asyncio.get_running_loop().time() + START_SECONDS
        async with httpx.AsyncClient(base_url=self.url) as http:
            while asyncio.get_running_loop().time() < deadline:
                try:
                    if (await http.get("/health")).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                assert process.poll() is None, "the server exited while starting"
                await asyncio.sleep(0.05)
        raise AssertionError(f"the server did not start within {START_SECONDS} s")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        """Stop the process (SIGTERM, then SIGKILL if it outlasts the wait)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def crash_env(database_url: str, tmp_path: Path) -> Iterator[dict[str, str]]:
    env = {**os.environ, "ENV": "development", "DATABASE_URL": database_url,
           "SECRET_KEY": random_secret(), "RATE_LIMITS_ENABLED": "0",
           "OUTBOX_DIR": str(tmp_path / "outbox"), "ARGON2_TIME_COST": "1",
           "ARGON2_MEMORY_KIB": "64", "ARGON2_PARALLELISM": "1", "HAND_START_DELAY_SECONDS": "0.05",
           "SHOWDOWN_SECONDS": "60", "ACTION_SECONDS": "60", "REDIS_URL": "", "SMTP_HOST": "",
           "DRAIN_SECONDS": "0", "SEPARATE_LINKED_ACCOUNTS": "false"}
    yield env


async def _player(http: httpx.AsyncClient, number: int) -> str:
    email = f"crash{number}@example.com"
    body = {"email": email, "password": "correct horse battery staple",
            "display_name": f"crash_{number}"}
    await http.post("/auth/signup", json=body)
    login = await http.post("/auth/login", json={"email": email, "password": body["password"]})
    assert login.status_code == 200, login.text
    return str(login.json()["access_token"])


class Player:
    """A client that acts whenever it is its turn and records every acknowledged action."""

    def __init__(self, url: str, token: str, acked: list[tuple[str, str]]) -> None:
        self.url, self.token, self.acked = url, token, acked
        self.sio = socketio.AsyncClient(reconnection=False)
        self.sio.on("table:turn", self._turn)
        self.sio.on("table:snapshot", self._snapshot)
        self.sio.on("table:batch", self._batch)

    async def _batch(self, batch: dict[str, Any]) -> None:
        for message in batch["messages"]:
            if message["event"] == "table:turn":
                await self._turn(message["data"])
            elif message["event"] == "table:snapshot":
                await self._snapshot(message["data"])

    async def _snapshot(self, snapshot: dict[str, Any]) -> None:
        # After a restart the first turn may come before this client rejoined: the
        # snapshot it gets on joining carries it, as it does for any client.
        if snapshot.get("turn"):
            await self._turn(snapshot["turn"])

    async def _turn(self, turn: dict[str, Any]) -> None:
        if not turn.get("legal_actions"):
            return
        kinds = [a["action"] for a in turn["legal_actions"]]
        kind = next(k for k in ("check", "call", "show", "muck", "fold") if k in kinds)
        payload = {"table_id": turn["table_id"], "hand_id": turn["hand_id"], "type": kind}
        try:
            ack = await self.sio.call("table:action", payload, timeout=5)
        except Exception:
            return  # the server died before answering: nothing was promised
        if ack.get("ok"):
            self.acked.append((turn["table_id"], turn["hand_id"]))

    async def connect(self) -> None:
        await self.sio.connect(self.url, auth={"token": self.token}, transports=["websocket"])

    async def close(self) -> None:
        if self.sio.connected:
            await self.sio.disconnect()


async def _recorded_actions(database: Database) -> tuple[Counter[tuple[str, str]], list[Any]]:
    """Actions the database holds per (table, hand): finished hands' PHH and hands in play."""
    counts: Counter[tuple[str, str]] = Counter()
    async with database.sessions() as session:
        hands = list(await session.execute(select(HandRecord.table_id, HandRecord.id,
                                                  HandRecord.number, HandRecord.phh)))
        for table_id, hand_id, _, phh in hands:
            counts[(table_id, hand_id)] += len(PHH_ACTION.findall(phh))
        for table_id, state in await session.execute(select(TableRecord.id,
                                                            TableRecord.state)):
            current = state.get("current")
            if current:
                acted = [e for e in current["hand"]["history"] if e["type"] in ACTED]
                counts[(table_id, current["id"])] += len(acted)
    return counts, hands


async def _reconciles(database: Database, when: str) -> None:
    """The reconciling audit: every account, table and the house, to the chip."""
    report = await audit(database)
    assert report.balanced, f"{when}: the chips do not add up:\n{report.describe()}"


async def _until_played(acked: list[tuple[str, str]], actions: int) -> bool:
    """Waits until ``actions`` more actions were acknowledged (False after 60 s), so every
    kill interrupts real play however slow the machine is."""
    target = len(acked) + actions
    for _ in range(1200):
        if len(acked) >= target:
            return True
        await asyncio.sleep(0.05)
    return False


@pytest.mark.slow
async def test_kill_9_under_load_loses_no_acknowledged_action_and_pays_no_hand_twice(
    crash_env: dict[str, str], database_url: str
) -> None:
    rng = random.Random(9)
    server = Server(crash_env, free_port())
    database = Database(database_url)
    acked: list[tuple[str, str]] = []
    await server.start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as http:
            tokens = [await _player(http, n) for n in range(PLAYERS * 2)]
        tables: list[str] = []
        for kill in range(KILLS):
            players = [Player(server.url, token, acked) for token in tokens]
            for player in players:
                await player.connect()
            if not tables:
                for index in range(2):
                    created = await players[index * PLAYERS].sio.call("table:create", {
                        "name": f"crash {index}", "small_blind": 5, "big_blind": 10,
                        "seats": PLAYERS, "max_buy_in": 1000, "action_seconds": 60})
                    tables.append(created["table"]["table_id"])
                for n, player in enumerate(players):
                    await player.sio.call("table:sit", {
                        "table_id": tables[n // PLAYERS], "seat": n % PLAYERS, "buy_in": 500})
            else:
                for n, player in enumerate(players):
                    await player.sio.call("table:join", {"table_id": tables[n // PLAYERS]})
            wanted = rng.randint(10, 40)
            assert await _until_played(acked, wanted), (
                f"kill {kill + 1}: {len(acked)} of {wanted} actions acknowledged since the "
                "last restart: play did not resume")
            await asyncio.sleep(rng.uniform(0, 0.3))  # the kill lands at a random moment
            server.kill()
            for player in players:
                await player.close()
            # What the restarted server restores from: every acknowledged action is there.
            counts, _ = await _recorded_actions(database)
            promised = Counter(acked)
            lost = {hand: n - counts[hand] for hand, n in promised.items() if n > counts[hand]}
            assert not lost, f"kill {kill + 1}: acknowledged actions missing: {lost}"
            acked.clear()  # counted per restart (the hands in play go on after it)
            await _reconciles(database, f"kill {kill + 1}, before the restart")
            await server.start()
            await _reconciles(database, f"kill {kill + 1}, after the restart")
    finally:
        server.stop()
    _, hands = await _recorded_actions(database)
    numbers = Counter((table_id, number) for table_id, _, number, _ in hands)
    assert not [k for k, n in numbers.items() if n > 1], "a hand was recorded twice"
    await _reconciles(database, "after the last stop")
    async with database.sessions() as session:
        for table_id in tables:
            state = (await session.get(TableRecord, table_id))
            assert state is not None
            held = await ledger.escrowed_at(session, table_id)
            seats = sum(p["stack"] - p["paid_out"] for p in state.state["players"])
            assert held == seats, (table_id, held, seats)
    await database.dispose()
