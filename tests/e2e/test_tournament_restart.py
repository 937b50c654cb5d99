"""A server killed (SIGKILL) in the middle of a tournament resumes it with its standings,
and what it stored of the hands and of the standings always agrees: every player's chips
in the standings are their starting stack plus their net in every hand stored."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
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
from sqlalchemy import select, text

from app.admin.audit import audit
from app.db.engine import Database
from app.db.migrations import ROOT, upgrade
from app.db.tables import HandRecord
from app.db.tournaments import EntryStatus, TournamentRecord
from app.table.store import house_account
from app.tournaments.rules import Rules, TournamentKind
from app.tournaments.service import TournamentService
from app.tournaments.store import TournamentStore
from app.tournaments.structure import Level, Structure
from tests.conftest import free_port, fresh_postgres_database

# Slow on a busy machine; the waits below fail a tournament that stands still instead.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]
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


async def _serve(url: str, port: int, log: Path | None = None) -> asyncio.subprocess.Process:
    env = {**os.environ, "DATABASE_URL": url, "BOT_DELAY_SECONDS": "0", "ENV": "development",
           "HAND_START_DELAY_SECONDS": "0.05", "RATE_LIMITS_ENABLED": "false", "DRAIN_SECONDS": "0",
           "SEPARATE_LINKED_ACCOUNTS": "false", "PYTHONPATH": str(ROOT)}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "app.cli", "serve", "--port", str(port), env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=log.open("ab") if log else asyncio.subprocess.DEVNULL)
    return process


# How long the resumed tournament may go without a hand's result before it counts as
# stuck: on a machine busy with other tests play is slow, and slow is not stuck.
STALL_SECONDS = 60


async def _finished(http: httpx.AsyncClient, tid: str, log: Path) -> Any:
    """The tournament once the restarted server (logging to ``log``) has finished it; the
    log's end if its standings stop changing first."""
    loop = asyncio.get_running_loop()
    seen: Any = None
    changed = loop.time()
    while loop.time() - changed < STALL_SECONDS:
        with contextlib.suppress(httpx.TransportError):
            response = await http.get(f"/tournaments/{tid}")
            if response.status_code == 200:
                body = response.json()
                if body["status"] == "finished":
                    return body
                standings = [(p["entry"], p["chips"]) for p in body["players"]]
                if standings != seen:
                    seen, changed = standings, loop.time()
        await asyncio.sleep(0.1)
    raise AssertionError(f"the tournament {tid} stood still for {STALL_SECONDS} s at "
                         f"{seen}; the restarted server logged:\n{log.read_text()[-6000:]}")


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
    template = request.getfixturevalue("postgres_template")
    with fresh_postgres_database("holdem_killed", template=template) as url:
        yield url


async def test_a_killed_server_resumes_the_tournament_with_its_standings(
    database_url: str, tmp_path: Path
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

    second_log = tmp_path / "second.log"
    second = await _serve(url, port, second_log)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            resumed = (await _poll(http, f"/tournaments/{tid}",
                                   lambda r: r.status_code == 200)).json()
            assert resumed["status"] == "running" and resumed["entrants"] == BOTS
            places = {p["entry"]: p["place"] for p in resumed["players"]}
            assert all(places[entry] == place for entry, place in busted.items())
            assert sum(p["chips"] for p in resumed["players"]) == 100 * BOTS
            over = await _finished(http, tid, second_log)
    finally:
        second.send_signal(signal.SIGTERM)
        await second.wait()

    database = Database(url)
    try:
        store = TournamentStore(database)
        rows = await store.entries(tid)
        assert {r.status for r in rows} == {EntryStatus.FINISHED}
        assert {r.entry: (r.place, r.prize) for r in rows} == {
            p["entry"]: (p["place"], p["prize"]) for p in over["players"]}
        assert _places_cover_the_field([r.place or 0 for r in rows])
        assert sum(r.prize for r in rows) == 50 * BOTS
        assert await store.pool_held(tid) == 0
    finally:
        await database.dispose()
    await _reconciles(url, "after the tournament")


# A fault at the database: the tournament's row cannot be written. Today a hand's end is
# one transaction with the standings, so the hand cannot be stored without them either.
FAULT = "injected fault: the standings cannot be written"
FAULT_ON = {
    "sqlite": [f"CREATE TRIGGER standings_fault BEFORE UPDATE ON tournaments "
               f"BEGIN SELECT RAISE(ABORT, '{FAULT}'); END"],
    "postgresql": [
        "CREATE FUNCTION standings_fault() RETURNS trigger AS $$ BEGIN "
        f"RAISE EXCEPTION '{FAULT}'; END $$ LANGUAGE plpgsql",
        "CREATE TRIGGER standings_fault BEFORE UPDATE ON tournaments "
        "FOR EACH ROW EXECUTE FUNCTION standings_fault()"],
}
FAULT_OFF = {
    "sqlite": ["DROP TRIGGER standings_fault"],
    "postgresql": ["DROP TRIGGER standings_fault ON tournaments",
                   "DROP FUNCTION standings_fault()"],
}


async def _execute(url: str, statements: list[str]) -> None:
    database = Database(url)
    try:
        async with database.engine.begin() as connection:
            for statement in statements:
                await connection.execute(text(statement))
    finally:
        await database.dispose()


async def _disagreements(url: str, tid: str) -> dict[str, tuple[int, int]]:
    """Each player whose chips in the stored standings are not their starting stack plus
    their net in the hands stored at the tournament's tables: (standings, hands)."""
    database = Database(url)
    try:
        async with database.sessions() as session:
            state = (await session.get(TournamentRecord, tid)).state  # type: ignore[union-attr]
            hands = await session.scalars(select(HandRecord.summary)
                                          .where(HandRecord.table_id.like(f"{tid}t%")))
            by_hands: Counter[str] = Counter()
            for summary in hands:
                for row in summary["players"]:
                    by_hands[row["player"]["public_id"]] += row["net"]
    finally:
        await database.dispose()
    start = state["rules"]["structure"]["starting_stack"]
    out = {}
    for entry in state["entries"]:
        public_id = f"bot-{tid}-{entry['player'].removeprefix('bot:')}"
        from_hands = start + by_hands[public_id]
        if entry["chips"] != from_hands:
            out[entry["id"]] = (entry["chips"], from_hands)
    return out


async def _logged(log: Path, pattern: re.Pattern[str], process: asyncio.subprocess.Process
                  ) -> None:
    """Wait until the server's log shows ``pattern`` (it must not exit meanwhile)."""
    for _ in range(1200):
        if log.exists() and pattern.search(log.read_text(errors="replace")):
            return
        assert process.returncode is None, "the server exited"
        await asyncio.sleep(0.05)
    raise AssertionError(f"the server never logged {pattern.pattern!r}")


async def test_a_server_killed_when_the_standings_cannot_be_written_stores_no_hand_without_them(
    database_url: str, tmp_path: Path,
) -> None:
    url = database_url
    kind = "postgresql" if url.startswith("postgresql") else "sqlite"
    tid = await _create(url)
    port, log = free_port(), tmp_path / "server.log"
    first = await _serve(url, port, log)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            await _poll(http, f"/tournaments/{tid}", lambda r: r.status_code == 200
                        and r.json()["status"] == "running")
        assert await _disagreements(url, tid) == {}
        await _execute(url, FAULT_ON[kind])
        # The end of a hand at one of its tables failed on the fault: kill the server
        # there, between what used to be two commits.
        await _logged(log, re.compile(rf"table {tid}t\d+: "), first)
    finally:
        first.send_signal(signal.SIGKILL)
        await first.wait()
    await _execute(url, FAULT_OFF[kind])

    assert await _disagreements(url, tid) == {}, "a hand was stored without its standings"
    await _reconciles(url, "after the kill")
    second_log = tmp_path / "second.log"
    second = await _serve(url, port, second_log)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            over = await _finished(http, tid, second_log)
    finally:
        second.send_signal(signal.SIGTERM)
        await second.wait()
    assert await _disagreements(url, tid) == {}
    assert _places_cover_the_field([p["place"] for p in over["players"]])
    await _reconciles(url, "after the tournament")
