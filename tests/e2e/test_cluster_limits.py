"""Per-account limits hold across processes: two server processes on one PostgreSQL
database and one Redis, and one account spreading its seats and sockets over both
(as a client can, by naming a table of each process's in its query)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from app.db import ledger
from tests.e2e.test_cluster import (  # noqa: F401 (fixtures)
    Cluster,
    Seat,
    _running,
    cluster_env,
)
from tests.e2e.test_crash import _player

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

SEATED = 2
SOCKETS = 3


@pytest.fixture
async def two_processes(cluster_env: dict[str, str]) -> AsyncIterator[Cluster]:  # noqa: F811
    env = {**cluster_env, "MAX_SEATED_TABLES_PER_USER": str(SEATED),
           "MAX_SOCKETS_PER_USER": str(SOCKETS)}
    async with _running(env, count=2) as group:
        yield group


async def _tables_on_both(cluster: Cluster, creators: list[Seat]) -> list[str]:
    """Tables opened (on the least-loaded process each time) until each process runs at
    least ``SEATED``; their ids, alternating between the processes."""
    by_process: dict[str, list[str]] = {}
    for n in range(2 * SEATED + 2):
        creator = creators[n % len(creators)]
        created = await creator.ok("table:create", {
            "name": f"Limit {n}", "seats": 4, "small_blind": 5, "big_blind": 10})
        table_id = created["table"]["table_id"]
        owner, _ = await cluster.lease(table_id)
        by_process.setdefault(str(owner), []).append(table_id)
    assert len(by_process) == 2 and all(len(t) >= SEATED for t in by_process.values()), (
        by_process)
    first, second = by_process.values()
    return [t for pair in zip(first, second, strict=False) for t in pair]


async def test_one_account_sits_at_no_more_tables_than_the_limit_over_two_processes(
    two_processes: Cluster
) -> None:
    cluster = two_processes
    async with httpx.AsyncClient(base_url=cluster.servers[0].url) as http:
        tokens = [await _player(http, n) for n in range(3)]
    player, *creators = [Seat(token) for token in tokens]
    for n, creator in enumerate(creators):
        await creator.connect(cluster.servers[n])
    tables = await _tables_on_both(cluster, creators)
    await player.connect(cluster.servers[0])
    answers = [await player.call("table:sit", {"table_id": t, "seat": 0, "buy_in": 1000})
               for t in tables[:SEATED + 2]]
    assert [a.get("ok", False) for a in answers] == [True] * SEATED + [False] * 2, answers
    assert {a["error"]["code"] for a in answers[SEATED:]} == {"table_limit"}, answers
    assert answers[SEATED]["error"]["limit"] == SEATED
    # Standing up at one gives its place back.
    assert (await player.call("table:leave", {"table_id": tables[0]}))["ok"]
    assert (await player.call("table:sit", {"table_id": tables[SEATED], "seat": 0,
                                            "buy_in": 1000}))["ok"]
    for seat in (player, *creators):
        await seat.close()
    cluster.kill_all()
    async with cluster.database.sessions() as session:
        report = await ledger.audit(session)
    assert report.balanced, report


async def test_one_account_holds_no_more_sockets_than_the_limit_over_two_processes(
    two_processes: Cluster
) -> None:
    cluster = two_processes
    async with httpx.AsyncClient(base_url=cluster.servers[0].url) as http:
        token = await _player(http, 0)
    sockets = [Seat(token) for _ in range(2 * SOCKETS)]
    connected = 0
    refusals: list[str] = []
    for n, seat in enumerate(sockets):
        try:
            await seat.connect(cluster.servers[n % 2])
            connected += 1
        except Exception as error:
            refusals.append(str(error))
    assert connected == SOCKETS, (connected, refusals)
    # A socket that closes gives its place back, on the other process too.
    await next(s for s in sockets if s.sio is not None and s.sio.connected
               and s.server is cluster.servers[0]).close()
    again = Seat(token)
    await again.connect(cluster.servers[1])
    for seat in (*sockets, again):
        await seat.close()
