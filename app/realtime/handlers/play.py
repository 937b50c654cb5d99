"""Playing a hand: actions, running it twice, and the player's shuffle seed."""

from __future__ import annotations

from app.poker.preactions import Intent
from app.realtime import schemas
from app.realtime.server import Realtime
from app.table.acks import Acted, Preacted, Seeded
from app.table.commands import Act, Preact, RunItTwice, Seed
from app.table.state import Viewer


def register(realtime: Realtime) -> None:
    """Handle ``table:action``, ``table:preact``, ``table:run-it-twice`` and ``table:seed``."""
    on, tables = realtime.dispatcher.on, realtime.host.live

    @on("table:action", schemas.TableAction, table=True)
    async def action(sid: str, viewer: Viewer, data: schemas.TableAction) -> Acted:
        table = tables.get(data.table_id)
        result: Acted = await table.ask(Act(viewer, data.hand_id, data.type, data.amount))
        return result

    @on("table:preact", schemas.TablePreact, table=True)
    async def preact(sid: str, viewer: Viewer, data: schemas.TablePreact) -> Preacted:
        table = tables.get(data.table_id)
        intent = Intent(data.intent) if data.intent is not None else None
        result: Preacted = await table.ask(Preact(viewer, data.hand_id, intent, data.amount))
        return result

    @on("table:run-it-twice", schemas.TableRunItTwice, table=True)
    async def run_it_twice(sid: str, viewer: Viewer, data: schemas.TableRunItTwice) -> Acted:
        table = tables.get(data.table_id)
        result: Acted = await table.ask(RunItTwice(viewer, data.hand_id, data.agree))
        return result

    @on("table:seed", schemas.TableSeed, table=True)
    async def seed(sid: str, viewer: Viewer, data: schemas.TableSeed) -> Seeded:
        table = tables.get(data.table_id)
        result: Seeded = await table.ask(Seed(viewer, data.seed))
        return result
