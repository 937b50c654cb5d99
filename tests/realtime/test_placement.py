"""A new table opens on the least-loaded live process that is not draining."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any, cast

from sqlalchemy import insert

from app.db.engine import Database
from app.db.models import utcnow
from app.db.process_lock import ProcessLock
from app.db.tables import ServerProcess
from app.realtime.connections import Connections
from app.realtime.hosting import TableHost
from app.realtime.leases import Leases
from app.realtime.lobby import Lobby
from app.table.table import TableServices

LEASE_SECONDS = 3.0


async def _processes(database: Database, **tables: tuple[int, str]) -> None:
    """Rows of other processes: name → (tables, "live" | "dead" | "draining")."""
    now = utcnow()
    async with database.engine.begin() as connection:
        for name, (count, status) in tables.items():
            beat = now - timedelta(seconds=10 * LEASE_SECONDS if status == "dead" else 0)
            await connection.execute(insert(ServerProcess).values(
                id=name, host="test", started_at=now, heartbeat_at=beat,
                draining=status == "draining", tables=count))


def _service(database: Database, running: int) -> Lobby:
    """The lobby of this process ("me") with ``running`` tables, among others through a
    cluster."""
    leases = Leases(database, process_id="me", lease_seconds=LEASE_SECONDS)
    host = TableHost(cast(TableServices, SimpleNamespace()), sio=cast(Any, None),
                     connections=Connections(), lock=ProcessLock(database.engine),
                     leases=leases)
    host.cluster = cast(Any, object())
    host.tables = cast(Any, {f"t{n}": object() for n in range(running)})
    return Lobby(host)


async def test_a_new_table_goes_to_the_least_loaded_live_process(database: Database) -> None:
    # "me" still says 0 in its row (its last heartbeat) but runs 3 tables now.
    await _processes(database, me=(0, "live"), busy=(5, "live"), light=(1, "live"),
                     idle_but_dead=(0, "dead"), empty_but_draining=(0, "draining"))
    assert await _service(database, running=3).placement() == "light"


async def test_a_new_table_stays_here_when_no_live_process_has_fewer(
    database: Database,
) -> None:
    await _processes(database, me=(4, "live"), other=(2, "live"), gone=(0, "dead"))
    assert await _service(database, running=2).placement() is None
    assert await _service(database, running=1).placement() is None


async def test_a_draining_process_sends_every_new_table_elsewhere(database: Database) -> None:
    await _processes(database, me=(0, "draining"), other=(9, "live"))
    service = _service(database, running=0)
    service.host.draining = True
    assert await service.placement() == "other"


async def test_alone_a_process_places_every_table_on_itself(database: Database) -> None:
    service = _service(database, running=7)
    service.host.cluster = None
    assert await service.placement() is None
