"""Socket.IO's WebSockets reach the Socket.IO server before the HTTP middlewares; its
long-polling requests and every other request still pass through them."""

from __future__ import annotations

from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.realtime.server import RealtimeApp

SEEN: list[tuple[str, str]] = []


class Recorder:
    """A middleware noting in :data:`SEEN` the requests it sees."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        SEEN.append((scope["type"], scope["path"]))
        await self.app(scope, receive, send)


def scope(kind: str, path: str) -> dict[str, Any]:
    return {"type": kind, "path": path, "raw_path": path.encode(), "root_path": "",
            "query_string": b"", "headers": [], "method": "GET", "scheme": "http",
            "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 1), "http_version": "1.1"}


async def test_only_socketio_websockets_take_the_lane() -> None:
    lane: list[str] = []
    app = RealtimeApp()
    app.add_middleware(Recorder)

    async def websockets(scope: Scope, receive: Receive, send: Send) -> None:
        lane.append(scope["path"])

    app.websockets = websockets
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "websocket.connect"} if not sent else {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    SEEN.clear()
    await app(scope("websocket", "/socket.io/"), receive, send)
    assert lane == ["/socket.io/"] and SEEN == []

    await app(scope("websocket", "/elsewhere"), receive, send)
    await app(scope("http", "/socket.io/"), receive, send)
    assert lane == ["/socket.io/"]
    assert SEEN == [("websocket", "/elsewhere"), ("http", "/socket.io/")]
