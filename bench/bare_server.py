"""The baseline for bench/load.py: python-socketio that only acks and broadcasts.

    .venv/bin/python bench/bare_server.py [--port 8765] [--gc-threshold 50000,20,100]
                                          [--no-deflate]

One uvicorn worker, the same stack as holdem-server (uvicorn, python-socketio
ASGI) and the same event names, with no game in it: ``table:sit`` puts the
connection in the room of six for its table, and once six are seated the room
gets its first ``table:turn``; every ``table:action`` is acked
``{"ok": true, "seq": n}`` and the room is sent the next ``table:turn`` (the
next seat round the table, with a payload shaped like the real one). Whatever
holdem-server spends beyond this is game logic, validation and persistence.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import socketio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.serving import serve, server_args

SEATS = 6
ACTION_SECONDS = 20


@dataclass
class Room:
    """A table of the baseline: who is seated, whose turn, the event counter."""

    seated: int = 0
    actor: int = 0
    seq: int = 0


def create_app() -> socketio.ASGIApp:
    """The bare Socket.IO ASGI app."""
    sio = socketio.AsyncServer(async_mode="asgi", cors_allowed_origins="*")
    rooms: dict[str, Room] = {}

    async def turn(table_id: str, room: Room) -> None:
        room.seq += 1
        await sio.emit("table:turn", {
            "table_id": table_id, "seq": room.seq, "hand_id": room.seq // 20,
            "seat": room.actor, "deadline": ACTION_SECONDS,
            "legal_actions": [{"action": "fold"}, {"action": "call", "amount": 10},
                              {"action": "raise", "min": 20, "max": 1000}],
        }, room=f"table:{table_id}")

    @sio.event
    async def connect(sid: str, environ: dict[str, Any], auth: Any) -> bool:
        return True

    @sio.on("table:sit")
    async def sit(sid: str, data: dict[str, Any]) -> dict[str, Any]:
        table_id = str(data["table_id"])
        await sio.enter_room(sid, f"table:{table_id}")
        room = rooms.setdefault(table_id, Room())
        room.seated += 1
        if room.seated == SEATS:
            await turn(table_id, room)
        return {"ok": True, "seat": data.get("seat")}

    @sio.on("table:action")
    async def action(sid: str, data: dict[str, Any]) -> dict[str, Any]:
        table_id = str(data["table_id"])
        room = rooms[table_id]
        room.actor = (room.actor + 1) % SEATS
        await turn(table_id, room)
        return {"ok": True, "seq": room.seq}

    return socketio.ASGIApp(sio)


def main() -> None:
    args = server_args(__doc__.splitlines()[0], gc_default="")
    serve(create_app(), args)

if __name__ == "__main__":
    main()
