"""The host's controls of a table: ``table:host`` (see :mod:`app.table.host`)."""

from __future__ import annotations

from app.realtime import schemas as s
from app.realtime.server import Realtime
from app.table.acks import HostApplied
from app.table.commands import HostControl
from app.table.state import Viewer


def register(realtime: Realtime) -> None:
    """Handle ``table:host``."""
    on, tables = realtime.dispatcher.on, realtime.host.live

    @on("table:host", s.TableHost, table=True)
    async def control(sid: str, viewer: Viewer, data: s.TableHost) -> HostApplied:
        table = tables.get(data.table_id)
        args = data.control.model_dump(exclude={"action"})
        result: HostApplied = await table.ask(HostControl(viewer, data.control.action,
                                                          data.reason, args))
        return result
