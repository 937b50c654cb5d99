"""Socket.IO event handlers: validate the payload, call one service function, ack.

Every client→server event is acknowledged with ``{"ok": true, ...}`` or
``{"ok": false, "error": {"code", "message", ...}}``. :func:`on` is the one
wrapper that does the validation, the authentication check and the error
mapping; the handlers below are one line of real work each.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel, ValidationError

from app.errors import HoldemError
from app.realtime import projection, schemas
from app.realtime.actor import Handler
from app.realtime.connections import LOBBY_ROOM, Viewer, user_room
from app.realtime.errors import InternalError, InvalidPayload, LoginRequired
from app.realtime.server import Realtime, refusal
from app.realtime.table import Table

log = logging.getLogger(__name__)

Result = dict[str, Any]
EventHandler = Callable[[str, Any, Any], Awaitable[Result]]


def nack(error: HoldemError) -> Result:
    """The ack of a refused request."""
    return {"ok": False, "error": error.to_dict()}


def invalid_payload(error: ValidationError) -> InvalidPayload:
    """A pydantic error as the ``invalid_payload`` error clients get."""
    problems = [
        {"location": [str(part) for part in e.get("loc", ())],
         "message": str(e.get("msg", "")).removeprefix("Value error, ")}
        for e in error.errors()
    ]
    summary = "; ".join(f"{'.'.join(p['location']) or 'payload'}: {p['message']}"
                        for p in problems)
    return InvalidPayload(summary or "invalid payload", problems=problems)


class Events:
    """Registers handlers on the server of one :class:`Realtime`."""

    def __init__(self, realtime: Realtime) -> None:
        self.realtime = realtime
        self.names: list[str] = []

    def on(
        self, event: str, model: type[BaseModel], *, login: bool = True
    ) -> Callable[[EventHandler], EventHandler]:
        """Handle ``event``: its payload must validate as ``model``; ``login``: users only."""

        def register(handler: EventHandler) -> EventHandler:
            async def receive(sid: str, *args: Any) -> Result:
                try:
                    if len(args) > 1:
                        raise InvalidPayload("send one payload object", problems=[])
                    payload = model.model_validate(args[0] if args else {})
                    viewer = self.realtime.connections.viewer(sid)
                    if login and viewer is None:
                        raise LoginRequired("log in to do that: connect with a session token")
                    result = await handler(sid, viewer, payload)
                except ValidationError as error:
                    return self._refused(event, sid, invalid_payload(error))
                except HoldemError as error:
                    return self._refused(event, sid, error)
                except Exception:
                    log.exception("%s from %s failed", event, sid)
                    return nack(InternalError("something went wrong on our side"))
                return {"ok": True, **result}

            self.realtime.sio.on(event, receive)
            self.names.append(event)
            return handler

        return register

    @staticmethod
    def _refused(event: str, sid: str, error: HoldemError) -> Result:
        log.info("%s from %s -> %s", event, sid, error.code)
        return nack(error)


def register(realtime: Realtime) -> Events:
    """Register connection handling and every client→server event."""
    sio, connections, tables = realtime.sio, realtime.connections, realtime.tables
    events = Events(realtime)

    async def connect(sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        try:
            viewer = await realtime.viewer_for(auth, environ.get("HTTP_COOKIE"))
        except HoldemError as error:
            log.info("connection refused: %s", error.code)
            raise refusal(error) from None
        connections.add(sid, viewer)
        if viewer is not None:
            await sio.enter_room(sid, user_room(viewer.user_id))

    async def disconnect(sid: str, *_reason: Any) -> None:
        await tables.disconnected(sid, connections.remove(sid))

    async def unknown(event: str, sid: str, *_args: Any) -> Result:
        return nack(InvalidPayload(f"unknown event {event!r}", problems=[]))

    sio.on("connect", connect)
    sio.on("disconnect", disconnect)
    sio.on("*", unknown)

    @events.on("lobby:list", schemas.LobbyListRequest, login=False)
    async def lobby_list(sid: str, viewer: Viewer | None, _: Any) -> Result:
        await sio.enter_room(sid, LOBBY_ROOM)
        return {"tables": tables.listing()}

    @events.on("table:create", schemas.TableCreate)
    async def table_create(sid: str, viewer: Viewer, data: schemas.TableCreate) -> Result:
        table = await tables.create(viewer, data)
        return {"table": projection.summary(table), "invite_code": table.state.config.invite_code}

    @events.on("table:quick-seat", schemas.QuickSeat)
    async def quick_seat(sid: str, viewer: Viewer, data: schemas.QuickSeat) -> Result:
        return await tables.quick_seat(sid, viewer, data)

    @events.on("table:join", schemas.TableJoin)
    async def join(sid: str, viewer: Viewer, data: schemas.TableJoin) -> Result:
        table = tables.get(data.table_id)
        result: Result = await table.ask(table.join, sid, viewer, data.invite_code,
                                         data.since_seq)
        tables.watching(sid, table.id)
        return result

    @events.on("table:unwatch", schemas.TableRef)
    async def unwatch(sid: str, viewer: Viewer, data: schemas.TableRef) -> Result:
        table = tables.get(data.table_id)
        tables.unwatching(sid, table.id)
        result: Result = await table.ask(table.unwatch, sid)
        return result

    @events.on("table:sit", schemas.TableSit)
    async def sit(sid: str, viewer: Viewer, data: schemas.TableSit) -> Result:
        table = tables.get(data.table_id)
        result: Result = await table.ask(table.sit, sid, viewer, data.seat, data.buy_in,
                                         data.invite_code)
        tables.watching(sid, table.id)
        return result

    def simple(event: str, request: Callable[[Table], Handler]) -> None:
        async def handle(sid: str, viewer: Viewer, data: schemas.TableRef) -> Result:
            table = tables.get(data.table_id)
            result: Result = await table.ask(request(table), viewer)
            return result

        events.on(event, schemas.TableRef)(handle)

    simple("table:leave", lambda table: table.leave)
    simple("table:sit-out", lambda table: table.sit_out)
    simple("table:sit-in", lambda table: table.sit_in)
    simple("table:wait", lambda table: table.waiting.wait)
    simple("table:unwait", lambda table: table.waiting.unwait)

    @events.on("table:top-up", schemas.TableTopUp)
    async def top_up(sid: str, viewer: Viewer, data: schemas.TableTopUp) -> Result:
        table = tables.get(data.table_id)
        result: Result = await table.ask(table.top_up, viewer, data.amount)
        return result

    @events.on("table:chat", schemas.TableChat)
    async def chat(sid: str, viewer: Viewer, data: schemas.TableChat) -> Result:
        table = tables.get(data.table_id)
        result: Result = await table.ask(table.chat, viewer, data.text)
        return result

    @events.on("table:action", schemas.TableAction)
    async def action(sid: str, viewer: Viewer, data: schemas.TableAction) -> Result:
        table = tables.get(data.table_id)
        result: Result = await table.ask(table.dealer.act, viewer, data.hand_id, data.type,
                                         data.amount)
        return result

    return events
