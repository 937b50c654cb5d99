"""Watching a table and holding a seat at it: join, unwatch, sit, leave, sit out and
in, the waiting list, top-ups, chat and reports about players."""

from __future__ import annotations

from collections.abc import Callable

from app.realtime import schemas
from app.realtime.dispatch import Answer, Result
from app.realtime.server import Realtime
from app.table.acks import Joined, Preferred, Said, Sat, SeatAsked, ToppedUp, Unwatched
from app.table.commands import (
    Chat,
    Command,
    Join,
    Leave,
    Preferences,
    Report,
    SitIn,
    SitOut,
    TopUp,
    Unwait,
    Unwatch,
    Wait,
)
from app.table.state import Viewer


def register(realtime: Realtime) -> None:
    """Handle the ``table:*`` events about watching and seats."""
    on, tables = realtime.dispatcher.on, realtime.host.live
    keeper = realtime.chat

    @on("table:join", schemas.TableJoin, login=False, table=True)
    async def join(sid: str, viewer: Viewer, data: schemas.TableJoin) -> Joined:
        table = tables.get(data.table_id)
        if viewer is not None:  # whom they ignore, before the snapshot's chat is chosen
            await keeper.ready(viewer.user_id)
        result: Joined = await table.ask(Join(sid, viewer, data.invite_code, data.since_seq))
        await realtime.watchers.watching(sid, table.id)
        return result

    @on("table:unwatch", schemas.TableRef, login=False, table=True)
    async def unwatch(sid: str, viewer: Viewer, data: schemas.TableRef) -> Unwatched:
        table = tables.get(data.table_id)
        await realtime.watchers.unwatching(sid, table.id)
        result: Unwatched = await table.ask(Unwatch(sid))
        return result

    @on("table:sit", schemas.TableSit, table=True)
    async def sit(sid: str, viewer: Viewer, data: schemas.TableSit) -> Sat | SeatAsked:
        table = tables.get(data.table_id)
        return await realtime.seating.sit(sid, viewer, table, data.seat, data.buy_in,
                                          data.invite_code)

    def simple(event: str, request: Callable[[Viewer], Command]) -> None:
        async def handle(sid: str, viewer: Viewer, data: schemas.TableRef) -> Answer:
            table = tables.get(data.table_id)
            result: Answer = await table.ask(request(viewer))
            return result

        on(event, schemas.TableRef, table=True)(handle)

    simple("table:leave", Leave)
    simple("table:sit-out", SitOut)
    simple("table:sit-in", SitIn)
    simple("table:wait", Wait)
    simple("table:unwait", Unwait)

    @on("table:top-up", schemas.TableTopUp, table=True)
    async def top_up(sid: str, viewer: Viewer, data: schemas.TableTopUp) -> ToppedUp:
        table = tables.get(data.table_id)
        result: ToppedUp = await table.ask(TopUp(viewer, data.amount))
        return result

    @on("table:preferences", schemas.TablePreferences, table=True)
    async def preferences(sid: str, viewer: Viewer, data: schemas.TablePreferences
                          ) -> Preferred:
        table = tables.get(data.table_id)
        result: Preferred = await table.ask(Preferences(viewer, data.changes()))
        return result

    @on("table:chat", schemas.TableChat, table=True)
    async def chat(sid: str, viewer: Viewer, data: schemas.TableChat) -> Said:
        table = tables.get(data.table_id)
        await keeper.ready(viewer.user_id)  # a mute read once, not per line
        result: Said = await table.ask(Chat(viewer, data.text))
        return result

    @on("table:report", schemas.TableReport, table=True)
    async def report(sid: str, viewer: Viewer, data: schemas.TableReport) -> Result:
        table = tables.get(data.table_id)
        evidence: Result = await table.ask(Report(viewer, data.public_id))
        await realtime.limiter.hit("report", str(viewer.user_id),
                                   realtime.settings.rate_limit_reports)
        report_id = await keeper.report(viewer.user_id, data.public_id, data.reason, evidence)
        return {"table_id": table.id, "report_id": report_id}
