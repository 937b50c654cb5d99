"""Receiving client→server events: validation, routing to the owning process, acks.

Every client→server event is acknowledged with ``{"ok": true, ...}`` or
``{"ok": false, "error": {"code", "message", ...}}``. :meth:`Dispatcher.on` is the
one wrapper that does the validation, the authentication check, the routing to the
process that runs the table and the error mapping; the handlers
(:mod:`app.realtime.handlers`, and the features' own) are one line of real work each.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import socketio
from pydantic import BaseModel, ValidationError

from app.accounts.ratelimit import RateLimiter
from app.config import Settings
from app.errors import HoldemError, problems_summary, validation_problems
from app.hosting.errors import moving
from app.hosting.host import TableHost
from app.hosting.moves import TableMoves
from app.realtime import schemas
from app.realtime.cluster import Cluster
from app.realtime.connections import Connections
from app.realtime.errors import LoginRequired
from app.realtime.lobby import Lobby
from app.table.acks import Answer as TableAnswer
from app.table.errors import InternalError, InvalidPayload, TableMoved
from app.table.state import Viewer

log = logging.getLogger(__name__)

Result = dict[str, Any]
# What a handler returns: the ack's body, or a table's answer to turn into it.
Answer = Result | TableAnswer
EventHandler = Callable[[str, Any, Any], Awaitable[Answer]]


# Names Socket.IO gives a meaning of its own: a client emitting them must never
# reach the connection handlers (a fake `disconnect` used to untrack a session).
RESERVED_EVENTS = frozenset({"connect", "connect_error", "disconnect", "disconnecting",
                             "newListener", "removeListener", "message", "*"})


SOCKET_LIMIT = "socket"
ADDRESS_LIMIT = "socket:address"
ACTION = "table:action"
# A request follows a table that keeps moving at most this many times.
MAX_HOPS = 3
# Answers of a forwarded request that say the process asked no longer runs its table.
NOT_THE_OWNER = frozenset({"table_moved", "table_not_found"})


def ack(answer: Answer) -> Result:
    """The ack of an accepted request: ``ok`` and the answer's fields (a table's answer
    record becomes its JSON body here, and only here)."""
    body = answer.model_dump(mode="json") if isinstance(answer, TableAnswer) else answer
    return {"ok": True, **body}


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
    problems = validation_problems(error.errors())
    return InvalidPayload(problems_summary(problems, "The request is invalid."), problems=problems)


class Dispatcher:
    """The client→server events of one :class:`Realtime`, and how each is received."""

    def __init__(self, sio: socketio.AsyncServer, connections: Connections, *,
                 host: TableHost, lobby: Lobby, moves: TableMoves, cluster: Cluster | None,
                 limiter: RateLimiter, settings: Settings) -> None:
        self.sio = sio
        self.connections = connections
        self.host = host
        self.cluster = cluster
        self.lobby = lobby
        self.moves = moves
        self.limiter = limiter
        self.settings = settings
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
                    viewer = self.connections.viewer(sid)
                    if login and viewer is None:
                        raise LoginRequired("log in to do that: connect with a session token")
                    return await self.dispatch(event, sid, viewer, payload, 0)

                if event != ACTION:
                    return await self._answer(event, sid, work)
                started = time.perf_counter()
                answer = await self._answer(event, sid, work)
                metrics = self.host.services.metrics
                metrics.action_seconds.observe(time.perf_counter() - started)
                metrics.actions.labels("ok" if answer["ok"] else answer["error"]["code"]).inc()
                return answer

            self._handlers[event] = (model, handler, "table" if table else
                                     "tournament" if tournament else None)
            self.sio.on(event, receive)
            self.names.append(event)
            return handler

        return register

    async def dispatch(self, event: str, sid: str, viewer: Viewer | None, payload: BaseModel,
                       hops: int) -> Result:
        """Run a validated request here, or on the process that owns its table."""
        _, handler, route = self._handlers[event]
        cluster = self.cluster
        for attempt in range(2):
            target = await self._target(event, payload, hops, route)
            if target is not None and cluster is not None:
                return await self._forward(target, event, sid, viewer, payload, hops, route)
            try:
                return ack(await handler(sid, viewer, payload))
            except TableMoved:
                # The table went to another process while the request waited: follow it.
                if attempt or cluster is None:
                    raise
        raise AssertionError("unreachable")

    async def _forward(self, target: str, event: str, sid: str, viewer: Viewer | None,
                       payload: BaseModel, hops: int, route: str | None) -> Result:
        """Send a request on to the process ``target``; about a table, once it is granted,
        ask for the table to come here if the session connected for it (see
        :mod:`app.hosting.moves`),
        and forget the cached owner when ``target`` turns out not to run it."""
        assert self.cluster is not None
        self.host.services.metrics.forwarded.labels(event).inc()
        table_id = str(payload.table_id) if route == "table" else None  # type: ignore[attr-defined]
        try:
            answer = await self.cluster.request(
                target, event, sid, viewer, payload.model_dump(mode="json"), hops + 1)
        except TableMoved:
            if table_id is not None:
                self.host.owners.drop(table_id)
            raise
        if (table_id is not None and not answer.get("ok")
                and (answer.get("error") or {}).get("code") in NOT_THE_OWNER):
            self.host.owners.drop(table_id)
        if table_id is not None and hops == 0 and answer.get("ok"):
            # Only a granted request may bring its table here (the owner checks the seat).
            await self.moves.follow(sid, viewer, table_id, target)
        return answer

    async def _target(self, event: str, payload: BaseModel, hops: int, route: str | None
                      ) -> str | None:
        if self.cluster is None:
            return None
        if hops >= MAX_HOPS:
            if (route == "table"
                    and str(getattr(payload, "table_id", "")) not in self.host.live.tables):
                # It went from process to process: its table is changing hands.
                raise moving()
            return None
        if hops == 0 and event == "table:create":
            return await self.host.listing.placement()
        if hops == 0 and isinstance(payload, schemas.QuickSeat):
            return await self.lobby.quick_seat_owner(payload)
        if route == "table":
            return await self.host.owners.owner(str(payload.table_id))  # type: ignore[attr-defined]
        if route == "tournament":
            return await self.host.owners.director()
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
        except Exception:
            log.exception("%s from %s failed", event, sid)
            return nack(InternalError("something went wrong on our side"))

    def count(self, sid: str) -> None:
        """Count a request against its connection's and its address's limits."""
        limiter, settings = self.limiter, self.settings
        limiter.hit_local(SOCKET_LIMIT, sid, settings.rate_limit_socket)
        limiter.hit_local(ADDRESS_LIMIT, self.connections.address(sid),
                    settings.rate_limit_socket_ip)

    @staticmethod
    def _refused(event: str, sid: str, error: HoldemError) -> Result:
        log.info("%s from %s -> %s", event, sid, error.code)
        return nack(error)
