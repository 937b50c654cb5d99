"""Socket.IO event handlers: validate the payload, call one service function, ack.

Every client→server event is acknowledged with ``{"ok": true, ...}`` or
``{"ok": false, "error": {"code", "message", ...}}``. :func:`on` is the one
wrapper that does the validation, the authentication check and the error
mapping; the handlers below are one line of real work each.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel, ValidationError

from app.db.engine import is_unavailable
from app.errors import HoldemError, ServiceUnavailable
from app.realtime import projection, schemas
from app.realtime.actor import Handler
from app.realtime.cluster import viewer_to_dict
from app.realtime.connections import LOBBY_ROOM, Viewer, user_room
from app.realtime.errors import InternalError, InvalidPayload, LoginRequired, TableMoved
from app.realtime.server import Realtime, refusal
from app.realtime.table import Table

log = logging.getLogger(__name__)

Result = dict[str, Any]
EventHandler = Callable[[str, Any, Any], Awaitable[Result]]


# Names Socket.IO gives a meaning of its own: a client emitting them must never
# reach the connection handlers (a fake `disconnect` used to untrack a session).
RESERVED_EVENTS = frozenset({"connect", "connect_error", "disconnect", "disconnecting",
                             "newListener", "removeListener", "message", "*"})


SOCKET_LIMIT = "socket"
ADDRESS_LIMIT = "socket:address"
ACTION = "table:action"
# A request follows a table that keeps moving at most this many times.
MAX_HOPS = 3


def nack(error: HoldemError) -> Result:
    """The ack of a refused request."""
    return {"ok": False, "error": error.to_dict()}


def client_address(environ: dict[str, Any]) -> str:
    """The client's address from a Socket.IO environ (its ASGI scope; proxies already applied
    by uvicorn for ``FORWARDED_ALLOW_IPS``)."""
    scope = environ.get("asgi.scope") or {}
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def reserved(event: str) -> Result:
    """The ack of a client that emitted a reserved event name."""
    log.info("reserved event %r refused", event)
    return nack(InvalidPayload(f"{event!r} is reserved by Socket.IO and cannot be sent",
                               problems=[{"location": ["event"], "message": "reserved name"}]))


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
        self._handlers: dict[str, tuple[type[BaseModel], EventHandler, str | None]] = {}
        # Requests only processes send each other (``internal:*``), by name.
        self.internal: dict[str, Callable[[dict[str, Any]], Awaitable[Result]]] = {}

    def on(
        self, event: str, model: type[BaseModel], *, login: bool = True, table: bool = False,
        tournament: bool = False,
    ) -> Callable[[EventHandler], EventHandler]:
        """Handle ``event``: its payload must validate as ``model``; ``login``: users only;
        ``table``: about the table ``payload.table_id``, run by the process that owns it;
        ``tournament``: run by the process that runs the tournaments."""

        def register(handler: EventHandler) -> EventHandler:
            async def receive(sid: str, *args: Any) -> Result:
                async def work() -> Result:
                    self.count(sid)
                    if len(args) > 1:
                        raise InvalidPayload("send one payload object", problems=[])
                    payload = model.model_validate(args[0] if args else {})
                    viewer = self.realtime.connections.viewer(sid)
                    if login and viewer is None:
                        raise LoginRequired("log in to do that: connect with a session token")
                    return await self.dispatch(event, sid, viewer, payload, 0)

                if event != ACTION:
                    return await self._answer(event, sid, work)
                started = time.perf_counter()
                answer = await self._answer(event, sid, work)
                metrics = self.realtime.tables.services.metrics
                metrics.action_seconds.observe(time.perf_counter() - started)
                metrics.actions.labels("ok" if answer["ok"] else answer["error"]["code"]).inc()
                return answer

            self._handlers[event] = (model, handler, "table" if table else
                                     "tournament" if tournament else None)
            self.realtime.sio.on(event, receive)
            self.names.append(event)
            return handler

        return register

    async def dispatch(self, event: str, sid: str, viewer: Viewer | None, payload: BaseModel,
                       hops: int) -> Result:
        """Run a validated request here, or on the process that owns its table."""
        _, handler, route = self._handlers[event]
        realtime = self.realtime
        for attempt in range(2):
            target = await self._target(event, payload, hops, route)
            if target is not None and realtime.cluster is not None:
                return await realtime.cluster.request(
                    target, event, sid, viewer, payload.model_dump(mode="json"), hops + 1)
            try:
                return {"ok": True, **await handler(sid, viewer, payload)}
            except TableMoved:
                # The table went to another process while the request waited: follow it.
                if attempt or realtime.cluster is None:
                    raise
        raise AssertionError("unreachable")

    async def _target(self, event: str, payload: BaseModel, hops: int, route: str | None
                      ) -> str | None:
        tables = self.realtime.tables
        if self.realtime.cluster is None or hops >= MAX_HOPS:
            return None
        if hops == 0 and event == "table:create":
            return await tables.placement()
        if hops == 0 and isinstance(payload, schemas.QuickSeat):
            return await tables.quick_seat_owner(payload)
        if route == "table":
            return await tables.owner(str(payload.table_id))  # type: ignore[attr-defined]
        if route == "tournament":
            return await tables.director_process()
        return None

    async def forwarded(self, event: str, sid: str, viewer: Viewer | None,
                        payload: dict[str, Any], hops: int) -> Result:
        """A request another process received for a table this one runs (validated and
        counted there; validated again here)."""
        internal = self.internal.get(event)
        if internal is not None:
            return await self._answer(event, sid, lambda: internal(payload))
        if event not in self._handlers:
            return nack(InvalidPayload(f"unknown event {event!r}", problems=[]))
        model = self._handlers[event][0]

        async def work() -> Result:
            return await self.dispatch(event, sid, viewer, model.model_validate(payload), hops)

        return await self._answer(event, sid, work)

    async def _answer(self, event: str, sid: str, work: Callable[[], Awaitable[Result]]
                      ) -> Result:
        """The ack of a request: its result, or its error as a stable code."""
        try:
            return await work()
        except ValidationError as error:
            return self._refused(event, sid, invalid_payload(error))
        except HoldemError as error:
            return self._refused(event, sid, error)
        except Exception as error:
            if is_unavailable(error):
                return self._refused(event, sid, ServiceUnavailable(
                    "the server cannot reach its database: try again in a few "
                    "seconds", retry_after=5))
            log.exception("%s from %s failed", event, sid)
            return nack(InternalError("something went wrong on our side"))

    def count(self, sid: str) -> None:
        """Count a request against its connection's and its address's limits."""
        realtime = self.realtime
        limiter, settings = realtime.limiter, realtime.settings
        limiter.hit_local(SOCKET_LIMIT, sid, settings.rate_limit_socket)
        limiter.hit_local(ADDRESS_LIMIT, realtime.connections.address(sid),
                    settings.rate_limit_socket_ip)

    @staticmethod
    def _refused(event: str, sid: str, error: HoldemError) -> Result:
        log.info("%s from %s -> %s", event, sid, error.code)
        return nack(error)


def register(realtime: Realtime) -> Events:
    """Register connection handling and every client→server event."""
    sio, connections, tables = realtime.sio, realtime.connections, realtime.tables
    events = Events(realtime)

    def sent_by_client(sid: str) -> bool:
        # python-socketio calls these handlers while the session is still connecting
        # or already disconnecting; a fully connected session means a client emitted
        # the reserved name itself.
        return bool(sio.manager.is_connected(sid, "/"))

    async def connect(sid: str, *args: Any) -> Result | None:
        if sent_by_client(sid):
            return reserved("connect")
        environ: dict[str, Any] = args[0] if args and isinstance(args[0], dict) else {}
        auth = args[1] if len(args) > 1 else None
        try:
            viewer = await realtime.viewer_for(auth, environ.get("HTTP_COOKIE"))
        except HoldemError as error:
            log.info("connection refused: %s", error.code)
            raise refusal(error) from None
        connections.add(sid, viewer, client_address(environ))
        if viewer is not None:
            await sio.enter_room(sid, user_room(viewer.user_id))
        return None

    async def disconnect(sid: str, *_reason: Any) -> Result | None:
        if sent_by_client(sid):
            return reserved("disconnect")
        realtime.limiter.forget(SOCKET_LIMIT, sid, realtime.settings.rate_limit_socket)
        viewer = connections.remove(sid)
        await tables.disconnected(sid, viewer)
        if realtime.cluster is not None:
            await realtime.cluster.news({"kind": "disconnected", "sid": sid,
                                         "viewer": viewer_to_dict(viewer)})
        return None

    async def unknown(event: str, sid: str, *_args: Any) -> Result:
        try:
            events.count(sid)
        except HoldemError as error:
            return nack(error)
        if event in RESERVED_EVENTS:
            return reserved(event)
        return nack(InvalidPayload(f"unknown event {event!r}", problems=[]))

    sio.on("connect", connect)
    sio.on("disconnect", disconnect)
    sio.on("*", unknown)

    @events.on("lobby:list", schemas.LobbyListRequest, login=False)
    async def lobby_list(sid: str, viewer: Viewer | None, data: schemas.LobbyListRequest
                         ) -> Result:
        await sio.enter_room(sid, LOBBY_ROOM)
        listing = await tables.listing()
        start = (data.page - 1) * data.per_page
        return {"tables": listing[start:start + data.per_page], "count": len(listing),
                "page": data.page, "per_page": data.per_page}

    @events.on("table:create", schemas.TableCreate)
    async def table_create(sid: str, viewer: Viewer, data: schemas.TableCreate) -> Result:
        table = await tables.create(viewer, data)
        return {"table": projection.summary(table.core),
                "invite_code": table.state.config.invite_code}

    @events.on("table:quick-seat", schemas.QuickSeat)
    async def quick_seat(sid: str, viewer: Viewer, data: schemas.QuickSeat) -> Result:
        return await tables.quick_seat(sid, viewer, data)

    @events.on("table:join", schemas.TableJoin, table=True)
    async def join(sid: str, viewer: Viewer, data: schemas.TableJoin) -> Result:
        table = tables.get(data.table_id)
        result: Result = await table.ask(table.join, sid, viewer, data.invite_code,
                                         data.since_seq)
        tables.watching(sid, table.id)
        return result

    @events.on("table:unwatch", schemas.TableRef, table=True)
    async def unwatch(sid: str, viewer: Viewer, data: schemas.TableRef) -> Result:
        table = tables.get(data.table_id)
        tables.unwatching(sid, table.id)
        result: Result = await table.ask(table.unwatch, sid)
        return result

    @events.on("table:sit", schemas.TableSit, table=True)
    async def sit(sid: str, viewer: Viewer, data: schemas.TableSit) -> Result:
        table = tables.get(data.table_id)
        return await tables.sit(sid, viewer, table, data.seat, data.buy_in, data.invite_code)

    def simple(event: str, request: Callable[[Table], Handler]) -> None:
        async def handle(sid: str, viewer: Viewer, data: schemas.TableRef) -> Result:
            table = tables.get(data.table_id)
            result: Result = await table.ask(request(table), viewer)
            return result

        events.on(event, schemas.TableRef, table=True)(handle)

    simple("table:leave", lambda table: table.leave)
    simple("table:sit-out", lambda table: table.sit_out)
    simple("table:sit-in", lambda table: table.sit_in)
    simple("table:wait", lambda table: table.wait)
    simple("table:unwait", lambda table: table.waiting.unwait)

    @events.on("table:top-up", schemas.TableTopUp, table=True)
    async def top_up(sid: str, viewer: Viewer, data: schemas.TableTopUp) -> Result:
        table = tables.get(data.table_id)
        result: Result = await table.ask(table.top_up, viewer, data.amount)
        return result

    @events.on("table:chat", schemas.TableChat, table=True)
    async def chat(sid: str, viewer: Viewer, data: schemas.TableChat) -> Result:
        table = tables.get(data.table_id)
        result: Result = await table.ask(table.chat, viewer, data.text)
        return result

    @events.on("table:seed", schemas.TableSeed, table=True)
    async def seed(sid: str, viewer: Viewer, data: schemas.TableSeed) -> Result:
        table = tables.get(data.table_id)
        result: Result = await table.ask(table.set_client_seed, viewer, data.seed)
        return result

    @events.on("table:run-it-twice", schemas.TableRunItTwice, table=True)
    async def run_it_twice(sid: str, viewer: Viewer, data: schemas.TableRunItTwice) -> Result:
        table = tables.get(data.table_id)
        result: Result = await table.ask(table.dealer.run_it_twice, viewer, data.hand_id,
                                         data.agree)
        return result

    @events.on("table:action", schemas.TableAction, table=True)
    async def action(sid: str, viewer: Viewer, data: schemas.TableAction) -> Result:
        table = tables.get(data.table_id)
        result: Result = await table.ask(table.dealer.act, viewer, data.hand_id, data.type,
                                         data.amount)
        return result

    return events
