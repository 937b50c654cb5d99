"""A bound on what waits to be sent to each client: one that does not read is dropped.

python-engineio keeps every outgoing packet of a connection in an unbounded
``asyncio.Queue`` (``socket.queue``) that a writer task empties as fast as the
client reads. A client that answers pings but never reads would make that queue,
and the server with it, grow without end. So:

* :class:`OutgoingQueue` counts what waits in a connection's queue (engineio
  builds each socket's queue with :meth:`BoundedEngine.create_queue`);
* :class:`BoundedEngine` queues nothing more for a connection holding over
  ``max_buffered_bytes``: it throws away what waits and disconnects it;
* :class:`WebSocketGuard` stands between uvicorn and each WebSocket, so the
  engine can also end the WebSocket itself: the writer stuck on a client that
  does not read, and the reader, are released and the connection's task ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

import engineio
import socketio
from engineio.async_drivers import asgi as engineio_asgi
from starlette.types import Message, Receive, Send

log = logging.getLogger(__name__)

# What a queued packet costs beyond its payload (the packet object and its string).
PACKET_OVERHEAD = 256
DEFAULT_MAX_BUFFERED_BYTES = 1_048_576
CLOSED: Message = {"type": "websocket.disconnect", "code": 1008}


def packet_cost(packet: Any) -> int:
    """The bytes one queued Engine.IO packet holds (``None`` wakes the writer: free)."""
    if packet is None:
        return 0
    data = getattr(packet, "data", None)
    return PACKET_OVERHEAD + (len(data) if isinstance(data, str | bytes) else 0)


class OutgoingQueue(asyncio.Queue[Any]):
    """A connection's packets waiting to be written, with their total size in bytes."""

    def __init__(self) -> None:
        super().__init__()
        self.bytes = 0

    def _put(self, item: Any) -> None:
        super()._put(item)
        self.bytes += packet_cost(item)

    def _get(self) -> Any:
        item = super()._get()
        self.bytes -= packet_cost(item)
        return item

    def discard(self) -> int:
        """Throw away every waiting packet; how many there were."""
        count = 0
        while not self.empty():
            self.get_nowait()
            self.task_done()
            count += 1
        return count


class WebSocketGuard:
    """One WebSocket's ASGI ``receive`` and ``send``, which :meth:`abort` cuts short."""

    def __init__(self, scope: dict[str, Any], receive: Receive, send: Send, *,
                 on_sid: Callable[[WebSocketGuard], None] | None = None) -> None:
        self._receive = receive
        self._send = send
        self.aborted = False
        self._receiving: asyncio.Task[Any] | None = None
        self._sending: asyncio.Task[Any] | None = None
        # An upgrade from long-polling names its session; a new WebSocket learns it
        # from the Engine.IO OPEN packet, the first message sent.
        query = parse_qs(bytes(scope.get("query_string", b"")).decode("latin-1"))
        self.sid: str | None = query.get("sid", [None])[0]
        # Told when a new WebSocket learns its session.
        self.on_sid = on_sid

    async def receive(self) -> Message:
        """The next client message, or a close once aborted."""
        if self.aborted:
            return CLOSED
        self._receiving = asyncio.current_task()
        try:
            message = await self._receive()
        except asyncio.CancelledError:
            if not self.aborted:
                raise
            self._uncancel()
            return CLOSED
        finally:
            self._receiving = None
        return CLOSED if self.aborted else message

    async def send(self, message: Message) -> None:
        """Send to the client; refused (``OSError``) once aborted."""
        if self.aborted:
            if message["type"] == "websocket.close":
                return
            raise OSError("connection dropped")
        if self.sid is None and message["type"] == "websocket.send":
            self._learn_sid(message.get("text"))
        self._sending = asyncio.current_task()
        try:
            await self._send(message)
        except asyncio.CancelledError:
            if not self.aborted:
                raise
            self._uncancel()
            raise OSError("connection dropped") from None
        finally:
            self._sending = None

    def abort(self) -> None:
        """Release whoever waits on this WebSocket; from now on it reads as closed."""
        self.aborted = True
        for task in (self._receiving, self._sending):
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    def _learn_sid(self, text: str | None) -> None:
        if text and text.startswith("0{"):
            try:
                self.sid = str(json.loads(text[1:])["sid"])
            except (ValueError, KeyError, TypeError):
                return
            if self.on_sid is not None:
                self.on_sid(self)

    @staticmethod
    def _uncancel() -> None:
        task = asyncio.current_task()
        if task is not None:
            task.uncancel()


def _lean_request(translate: Callable[..., Any]) -> Callable[..., Any]:
    """engineio's request translation, minus what a WebSocket never reads.

    engineio's ASGI driver builds a class for every request, for the ``wsgi.input`` that
    reads a long-poll's body. A WebSocket has no body to read, and the class is a
    reference cycle (2.4 KiB) that only a full collection frees (see app.collector):
    so a WebSocket's environ is built here, as the driver builds it but without that.
    """

    async def lean(scope: dict[str, Any], receive: Receive, send: Send) -> dict[str, Any]:
        if scope.get("type") != "websocket":
            environ: dict[str, Any] = await translate(scope, receive, send)
            return environ
        if (await receive())["type"] != "websocket.connect":
            return {}
        return websocket_environ(scope, receive, send)

    return lean


def websocket_environ(scope: dict[str, Any], receive: Receive, send: Send) -> dict[str, Any]:
    """The WSGI-style environ engineio's ASGI driver makes of a WebSocket's scope (its
    ``translate_request``, ``wsgi.input`` aside)."""
    path = scope["path"]
    query = ""
    if scope.get("query_string"):
        with contextlib.suppress(UnicodeDecodeError):
            query = scope["query_string"].decode("utf-8")
    environ: dict[str, Any] = {
        "wsgi.errors": sys.stderr, "wsgi.version": (1, 0), "wsgi.async": True,
        "wsgi.multithread": False, "wsgi.multiprocess": False, "wsgi.run_once": False,
        "SERVER_SOFTWARE": "asgi", "REQUEST_METHOD": scope.get("method", "GET"),
        "PATH_INFO": path, "QUERY_STRING": query, "RAW_URI": f"{path}?{query}" if query else path,
        "SCRIPT_NAME": "", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1",
        "REMOTE_PORT": "0", "SERVER_NAME": "asgi", "SERVER_PORT": "0",
        "asgi.receive": receive, "asgi.send": send, "asgi.scope": scope,
    }
    for raw_name, raw_value in scope["headers"]:
        try:
            name, value = raw_name.upper().decode("utf-8"), raw_value.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if name in ("CONTENT-TYPE", "CONTENT-LENGTH"):
            environ[name.replace("-", "_")] = value
            continue
        key = "HTTP_" + name.replace("-", "_")
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    environ["wsgi.url_scheme"] = environ.get("HTTP_X_FORWARDED_PROTO", "http")
    return environ


class EndingWebSocket(engineio_asgi.WebSocket):  # type: ignore[misc]
    """engineio's ASGI WebSocket, whose wait ends with ``None`` when the connection closes
    (engineio's handler reads that as "closed by the client") instead of raising
    ``OSError``.

    Raised there, the error's traceback holds the frame of engineio's handler, whose
    locals hold the task that raised it, which holds the error: a cycle of some ninety
    objects per closed WebSocket (the protocol, its parser and frames, the tasks) that
    only a full collection frees (see app.collector).
    """

    async def wait(self) -> bytes | str | None:
        """The next message's data, or ``None`` once the connection is closed."""
        event = await self.asgi_receive()
        if event["type"] != "websocket.receive":
            return None
        data: bytes | str | None = event.get("bytes")
        return data if data is not None else event.get("text")


class BoundedEngine(engineio.AsyncServer):  # type: ignore[misc]
    """Engine.IO that disconnects a client with more than ``max_buffered_bytes`` unread."""

    def __init__(self, *args: Any, max_buffered_bytes: int = DEFAULT_MAX_BUFFERED_BYTES,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_buffered_bytes = max_buffered_bytes
        self.guards: dict[str, WebSocketGuard] = {}
        self.dropped = 0
        drivers: dict[str, Any] = self._async  # type: ignore[has-type]
        self._async = {**drivers, "websocket": EndingWebSocket,
                       "translate_request": _lean_request(drivers["translate_request"])}

    def create_queue(self, *args: Any, **kwargs: Any) -> OutgoingQueue:
        """Each socket's outgoing queue, counted in bytes."""
        return OutgoingQueue()

    async def send_packet(self, sid: str, pkt: Any) -> None:
        """Queue a packet for ``sid``, unless it already holds too much: then drop it."""
        socket = self.sockets.get(sid)
        if socket is not None and socket.queue.bytes > self.max_buffered_bytes:
            await self.drop(sid)
            return
        await super().send_packet(sid, pkt)

    async def drop(self, sid: str) -> None:
        """Disconnect a client that does not read, throwing away what waits for it."""
        socket = self.sockets.get(sid)
        if socket is None or socket.closing or socket.closed:
            return
        log.warning("dropping connection %s: %d bytes unread", sid, socket.queue.bytes)
        self.dropped += 1
        socket.queue.discard()
        guard = self.guards.pop(sid, None)
        if guard is not None:
            guard.abort()
        await socket.close(wait=False, abort=True, reason=self.reason.SERVER_DISCONNECT)
        socket.queue.put_nowait(None)  # a long-poll waiting for packets returns now
        self.sockets.pop(sid, None)

    async def written(self, deadline: float) -> None:
        """Wait until no session has a packet waiting to be written, or until the loop
        time ``deadline``: a draining process's last messages go out before the sockets
        close (once it returns, closing drops what still waits)."""
        loop = asyncio.get_running_loop()
        while loop.time() < deadline and any(not socket.queue.empty()
                                             for socket in list(self.sockets.values())):
            await asyncio.sleep(0.01)
        # The writer that took the last packet sends it at its next turn.
        await asyncio.sleep(0)

    async def handle_request(self, scope: dict[str, Any], receive: Receive, send: Send) -> Any:
        """Serve one ASGI request; a WebSocket goes through a :class:`WebSocketGuard`."""
        if scope.get("type") != "websocket":
            return await super().handle_request(scope, receive, send)
        guard = WebSocketGuard(scope, receive, send, on_sid=self._watch)
        if guard.sid is not None:
            self._watch(guard)
        try:
            return await super().handle_request(scope, guard.receive, guard.send)
        finally:
            if guard.sid is not None and self.guards.get(guard.sid) is guard:
                del self.guards[guard.sid]

    def _watch(self, guard: WebSocketGuard) -> None:
        # The first WebSocket of a session keeps its place: a second request naming the
        # same session (refused by engineio) must not take it.
        assert guard.sid is not None
        self.guards.setdefault(guard.sid, guard)


class SocketServer(socketio.AsyncServer):  # type: ignore[misc]
    """python-socketio's ASGI server on a :class:`BoundedEngine`."""

    def _engineio_server_class(self) -> type[BoundedEngine]:
        return BoundedEngine
