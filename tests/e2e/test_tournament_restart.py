"""A server killed (SIGKILL) in the middle of a tournament resumes it with its standings."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import httpx
import pytest

from app.admin.audit import audit
from app.db.engine import Database
from app.db.migrations import ROOT, upgrade
from app.db.tournaments import EntryStatus
from app.realtime.store import house_account
from app.tournaments.rules import Rules, TournamentKind
from app.tournaments.service import TournamentService
from app.tournaments.store import TournamentStore
from app.tournaments.structure import Level, Structure
from tests.conftest import free_port, fresh_postgres_database

BOTS = 14
STRUCTURE = Structure(100, (Level(10, 20, 1), Level(20, 40, 1), Level(50, 100, 1),
                            Level(100, 200, 1)))


async def _create(url: str) -> str:
    database = Database(url)

    async def house() -> int:
        async with database.sessions() as session:
            house_id = await house_account(session, bankroll=100_000)
            await session.commit()
            return house_id

    try:
        service = TournamentService(TournamentStore(database), house=house, now=_now,
                                    rng=Random(5))
        rules = Rules(TournamentKind.MULTI_TABLE, STRUCTURE, table_size=5, buy_in=50, fee=5,
                      starts_at=_now())
        tid = await service.create("Killed", rules, created_by=None)
        for n in range(BOTS):
            await service.register_bot(tid, f"Bot {n}")
        return tid
    finally:
        await database.dispose()


async def _reconciles(url: str, when: str) -> None:
    """The reconciling audit: every account (the house's pays the bots), table and pool."""
    database = Database(url)
    try:
        report = await audit(database)
    finally:
        await database.dispose()
    assert report.balanced, f"{when}: the chips do not add up:\n{report.describe()}"


def _places_cover_the_field(places: list[int]) -> bool:
    """Places 1..BOTS, where k players tied at place p take p and leave p+1..p+k-1 out."""
    expected = 1
    for place, tied in sorted(Counter(places).items()):
        if place != expected:
            return False
        expected += tied
    return expected == BOTS + 1


def _now() -> float:
    return time.time()


async def _serve(url: str, port: int) -> asyncio.subprocess.Process:
    env = {**os.environ, "DATABASE_URL": url, "BOT_DELAY_SECONDS": "0",
           "HAND_START_DELAY_SECONDS": "0.05", "RATE_LIMITS_ENABLED": "false", "DRAIN_SECONDS": "0",
           "PYTHONPATH": str(ROOT)}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "app.cli", "serve", "--port", str(port), env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    return process


async def _poll(http: httpx.AsyncClient, path: str, until: Any, seconds: float = 60) -> Any:
    deadline = asyncio.get_running_loop().time() + seconds
    while asyncio.get_running_loop().time() < deadline:
        try:
            response = await http.get(path)
            if until(response):
                return response
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.1)
    raise AssertionError(f"{path} never got there")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of its own for the server processes, migrated to head."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'holdem.sqlite3'}"
        upgrade(url)
        yield url
        return
    with fresh_postgres_database("holdem_killed") as url:
        upgrade(url)
        yield url


async def test_a_killed_server_resumes_the_tournament_with_its_standings(
    database_url: str,
) -> None:
    url = database_url
    tid = await _create(url)
    port = free_port()
    first = await _serve(url, port)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            busy = await _poll(http, f"/tournaments/{tid}", lambda r: r.status_code == 200
                               and r.json()["players_left"] <= BOTS - 3)
    finally:
        first.send_signal(signal.SIGKILL)
        await first.wait()
    await _reconciles(url, "after the kill")
    killed = busy.json()
    busted = {p["entry"]: p["place"] for p in killed["players"] if p["place"] is not None}

    second = await _serve(url, port)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            resumed = (await _poll(http, f"/tournaments/{tid}",
                                   lambda r: r.status_code == 200)).json()
            assert resumed["status"] == "running" and resumed["entrants"] == BOTS
            places = {p["entry"]: p["place"] for p in resumed["players"]}
            assert all(places[entry] == place for entry, place in busted.items())
            assert sum(p["chips"] for p in resumed["players"]) == 100 * BOTS
            await _poll(http, f"/tournaments/{tid}", lambda r: r.status_code == 404, 120)
    finally:
        second.send_signal(signal.SIGTERM)
        await second.wait()

    database = Database(url)
    try:
        store = TournamentStore(database)
        rows = await store.entries(tid)
        assert {r.status for r in rows} == {EntryStatus.FINISHED}
        assert _places_cover_the_field([r.place or 0 for r in rows])
        assert sum(r.prize for r in rows) == 50 * BOTS
        assert await store.pool_held(tid) == 0
    finally:
        await database.dispose()
    await _reconciles(url, "after the tournament")
