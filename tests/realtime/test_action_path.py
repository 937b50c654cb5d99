"""How far one ``table:action`` travels through the server, measured on a real one.

Every function of ``app/`` that runs on the server's event loop from the moment the
action is sent until the next player's turn arrives is recorded by file: past the
transport, it crosses four files of the socket edge and at most ten of one table.
The rules of poker (``app/poker``) and the database engine under the store are not
counted.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType
from typing import Any

from tests.realtime.harness import seat_players

APP = Path(__file__).resolve().parents[2] / "app"
# The Socket.IO transport as this server configures it (codec, bounded buffers, rooms,
# the ASGI mounting): every message crosses it, whatever it is.
TRANSPORT = {"realtime/buffers.py", "realtime/codec.py", "realtime/rooms.py",
             "realtime/server.py"}
# The socket edge of an action: receiving it, its handler, finding the table, and whom
# to send the outcome to.
EDGE_PATH = {"realtime/dispatch.py", "realtime/handlers/play.py", "hosting/live.py",
             "realtime/connections.py"}
# One table: the request, its mailbox, the dealing and the clock (the next turn), the
# state (the host's desk is part of it), the pre-actions the dealing reviews after every
# action, its storage and its messages. Neither the lobby's listing nor the projection is
# rebuilt for an action in the middle of a hand.
TABLE_PATH = {"table/table.py", "table/actor.py", "table/core.py", "table/dealing.py",
              "table/clock.py", "table/state.py", "table/host_desk.py", "table/store.py",
              "table/broadcast.py", "table/preactions.py"}


def _runtime(path: str) -> str | None:
    file = Path(path)
    if not file.is_relative_to(APP):
        return None
    return file.relative_to(APP).as_posix()


async def test_an_action_stays_within_the_table_and_the_socket_edges_path(
    players: Any, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000])
    turn = await table.turn()
    actor = table.seats[turn["seat"]]
    crossed: set[str] = set()

    def record(frame: FrameType, event: str, _arg: object) -> None:
        if event == "call" and (name := _runtime(frame.f_code.co_filename)) is not None:
            crossed.add(name)

    sys.setprofile(record)
    try:
        await actor.ok("table:action", {"table_id": table.id, "hand_id": turn["hand_id"],
                                        "type": "call"})
        await table.turn()
    finally:
        sys.setprofile(None)
    table_files = {name for name in crossed if name.startswith("table/")}
    edge_files = {name for name in crossed
                  if name.startswith(("realtime/", "hosting/"))} - TRANSPORT
    assert table_files <= TABLE_PATH, table_files - TABLE_PATH
    assert edge_files == EDGE_PATH, edge_files ^ EDGE_PATH
