"""A minimal Socket.IO client for load generation: one asyncio protocol per connection.

The load generator must cost far less than the server it measures, so this is
not python-socketio's client: it is a single :class:`asyncio.Protocol` that
does the WebSocket handshake and framing by hand and speaks the Engine.IO v4 /
Socket.IO v5 text protocol directly, driven by callbacks (no task per
connection):

- Engine.IO: ``0{...}`` open, ``2`` ping answered with ``3``, ``4...`` message;
- Socket.IO on the default namespace: ``40{auth}`` connect, ``40{"sid"}``
  accepted, ``44{...}`` refused, ``42[event, data]`` event, ``42<id>[...]``
  event that wants an ack, ``43<id>[data]`` ack.

Client frames are masked with a zero key (legal, and XOR with zero costs
nothing). With ``deflate=True`` the client offers permessage-deflate as
browsers do, so the server's compression setting takes effect; compressed
server messages are inflated here, client messages go out uncompressed.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import struct
import zlib
from collections.abc import Callable
from typing import Any, cast
from urllib.parse import urlencode

EventHandler = Callable[["SioClient", str, Any], None]
AckHandler = Callable[[Any], None]

_ZERO_MASK = b"\x00\x00\x00\x00"
_DEFLATE_TAIL = b"\x00\x00\xff\xff"


class HandshakeError(Exception):
    """The server refused the WebSocket upgrade or the Socket.IO connect."""


class SioClient(asyncio.Protocol):
    """One Socket.IO connection over a raw WebSocket; events arrive via ``on_event``."""

    def __init__(
        self, host: str, port: int, *, auth: dict[str, Any] | None, on_event: EventHandler,
        path: str = "/socket.io/", deflate: bool = False, query: dict[str, str] | None = None,
    ) -> None:
        self.host, self.port, self.path = host, port, path
        self.query = urlencode(query or {})
        self.auth = auth
        self.on_event = on_event
        self.offer_deflate = deflate
        self.connected: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.sid = ""
        self._buffer = bytearray()
        self._upgraded = False
        self._inflater: Any = None
        self._fragments: list[bytes] = []
        self._fragment_compressed = False
        self._acks: dict[int, AckHandler] = {}
        self._next_ack = 0
        self.errors: list[str] = []
        self.state: Any = None  # the load generator's per-connection data

    # ---- asyncio.Protocol ------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is no subclass
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {self.path}?{self.query + '&' if self.query else ''}EIO=4&transport=websocket"
            " HTTP/1.1",
            f"Host: {self.host}:{self.port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
        ]
        if self.offer_deflate:
            lines.append("Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits")
        self.transport.write(("\r\n".join(lines) + "\r\n\r\n").encode())

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if not self._upgraded and not self._read_upgrade():
            return
        self._read_frames()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.connected.done():
            self.connected.set_exception(HandshakeError(f"connection lost: {exc}"))
        if not self.closed.done():
            self.closed.set_result(None)

    # ---- sending -------------------------------------------------------

    def emit(self, event: str, data: Any, ack: AckHandler | None = None) -> None:
        """Send ``42[event, data]``, with an ack id when ``ack`` is given."""
        body = json.dumps([event, data], separators=(",", ":"))
        if ack is None:
            self._send_text("42" + body)
            return
        self._next_ack += 1
        self._acks[self._next_ack] = ack
        self._send_text(f"42{self._next_ack}{body}")

    def close(self) -> None:
        """Leave the namespace, send a WebSocket close and drop the connection."""
        if self.transport is not None and not self.transport.is_closing():
            self._send_text("41")
            self._send_frame(0x8, struct.pack("!H", 1000))
            self.transport.close()

    def _send_text(self, text: str) -> None:
        self._send_frame(0x1, text.encode())

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        n = len(payload)
        if n < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 65536:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        self.transport.write(header + _ZERO_MASK + payload)

    # ---- receiving -----------------------------------------------------

    def _read_upgrade(self) -> bool:
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0:
            return False
        head = bytes(self._buffer[:end]).decode("latin-1")
        del self._buffer[: end + 4]
        status = head.split("\r\n", 1)[0]
        if " 101 " not in status + " ":
            self._fail(f"upgrade refused: {status}")
            return False
        extensions = [
            line.split(":", 1)[1].strip().lower()
            for line in head.split("\r\n")[1:]
            if line.lower().startswith("sec-websocket-extensions:")
        ]
        if any(e.startswith("permessage-deflate") for e in extensions):
            self._inflater = zlib.decompressobj(wbits=-15)
        self._upgraded = True
        return True

    def _read_frames(self) -> None:
        buf = self._buffer
        while len(buf) >= 2:
            b0, b1 = buf[0], buf[1]
            n, offset = b1 & 0x7F, 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, offset = struct.unpack_from("!H", buf, 2)[0], 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, offset = struct.unpack_from("!Q", buf, 2)[0], 10
            if len(buf) < offset + n:
                return
            payload = bytes(buf[offset : offset + n])
            del buf[: offset + n]
            self._frame(b0 & 0x80, b0 & 0x40, b0 & 0x0F, payload)

    def _frame(self, fin: int, rsv1: int, opcode: int, payload: bytes) -> None:
        if opcode == 0x9:
            self._send_frame(0xA, payload)
            return
        if opcode == 0x8:
            if self.transport is not None:
                self.transport.close()
            return
        if opcode in (0x1, 0x2):
            self._fragments, self._fragment_compressed = [payload], bool(rsv1)
        elif opcode == 0x0:
            self._fragments.append(payload)
        else:
            return
        if not fin:
            return
        message = b"".join(self._fragments)
        if self._fragment_compressed:
            message = self._inflater.decompress(message + _DEFLATE_TAIL)
        self._fragments = []
        self._engineio(message.decode())

    def _engineio(self, packet: str) -> None:
        kind = packet[:1]
        if kind == "4":
            self._socketio(packet[1:])
        elif kind == "2":
            self._send_text("3")
        elif kind == "0":
            self._send_text("40" + (json.dumps(self.auth) if self.auth is not None else ""))
        elif kind == "1":
            self._fail("server closed the Engine.IO session")

    def _socketio(self, packet: str) -> None:
        kind, body = packet[:1], packet[1:]
        if kind == "2" or kind == "3":
            digits = 0
            while digits < len(body) and body[digits].isdigit():
                digits += 1
            ack_id = int(body[:digits]) if digits else None
            data = json.loads(body[digits:])
            if kind == "3":
                handler = self._acks.pop(ack_id, None) if ack_id is not None else None
                if handler is not None:
                    handler(data[0] if len(data) == 1 else data)
            else:
                self.on_event(self, data[0], data[1] if len(data) > 1 else None)
        elif kind == "0":
            self.sid = json.loads(body).get("sid", "") if body else ""
            if not self.connected.done():
                self.connected.set_result(self.sid)
        elif kind == "4":
            self._fail(f"connect refused: {body}")
        elif kind == "1":
            self._fail("disconnected by the server")

    def _fail(self, reason: str) -> None:
        self.errors.append(reason)
        if not self.connected.done():
            self.connected.set_exception(HandshakeError(reason))
        if self.transport is not None:
            self.transport.close()

    @property
    def pending_acks(self) -> int:
        """Events sent with an ack that has not arrived yet."""
        return len(self._acks)


async def connect(
    host: str, port: int, *, auth: dict[str, Any] | None, on_event: EventHandler,
    path: str = "/socket.io/", deflate: bool = False, timeout: float = 10.0,
    query: dict[str, str] | None = None,
) -> SioClient:
    """Open a connection (``query``: added to its URL's query) and wait until the Socket.IO
    namespace accepts it."""
    loop = asyncio.get_running_loop()
    _, client = await asyncio.wait_for(
        loop.create_connection(
            lambda: SioClient(host, port, auth=auth, on_event=on_event, path=path,
                              deflate=deflate, query=query),
            host, port,
        ),
        timeout,
    )
    await asyncio.wait_for(client.connected, timeout)
    return client
