"""A new table opens on the least-loaded live process that is not draining."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

from sqlalchemy import insert

from app.db.engine import Database
from app.db.models import utcnow
from app.db.tables import ServerProcess
from app.hosting.leases import Leases
from app.hosting.listing import Listing
from app.hosting.live import LiveTables

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


def _listing(database: Database, running: int, *, alone: bool = False) -> Listing:
    """The listing of this process ("me") with ``running`` tables, among others through a
    cluster (``alone``: none)."""
    live = LiveTables()
    live.tables.update(cast(Any, {f"t{n}": object() for n in range(running)}))

    async def nobody(_event: str, _body: dict[str, Any]) -> None:
        return None

    return Listing(live, leases=Leases(database, process_id="me", lease_seconds=LEASE_SECONDS),
                   peers=None if alone else cast(Any, object()), notice=nobody)


async def test_a_new_table_goes_to_the_least_loaded_live_process(database: Database) -> None:
    # "me" still says 0 in its row (its last heartbeat) but runs 3 tables now.
    await _processes(database, me=(0, "live"), busy=(5, "live"), light=(1, "live"),
                     idle_but_dead=(0, "dead"), empty_but_draining=(0, "draining"))
    assert await _listing(database, running=3).placement() == "light"


async def test_a_new_table_stays_here_when_no_live_process_has_fewer(
    database: Database,
) -> None:
    await _processes(database, me=(4, "live"), other=(2, "live"), gone=(0, "dead"))
    assert await _listing(database, running=2).placement() is None
    assert await _listing(database, running=1).placement() is None


async def test_a_draining_process_sends_every_new_table_elsewhere(database: Database) -> None:
    await _processes(database, me=(0, "draining"), other=(9, "live"))
    listing = _listing(database, running=0)
    listing.live.begin_drain()
    assert await listing.placement() == "other"


async def test_alone_a_process_places_every_table_on_itself(database: Database) -> None:
    assert await _listing(database, running=7, alone=True).placement() is None
