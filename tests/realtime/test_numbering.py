"""One seq, one message: whatever a table sends under a seq is stored before it is sent,
so the process that runs the table next (after a drain, a move, a takeover or a restart)
numbers on from the last seq any client saw and never gives one of them to another
message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.db.models import Role
from app.table.commands import Chat
from app.table.state import Viewer
from tests.conftest import Accounts
from tests.realtime.harness import LiveServer, is_event


async def test_what_a_stopping_table_sends_is_stored_first(
    server: LiveServer, players: Accounts, connect: Callable[..., Any]
) -> None:
    # A table stops here (its process drains, or it moves) with a message still queued:
    # the message runs before the stop ends, and what it sends must be stored, or the
    # next owner, restoring the stored state, would number its own messages the same.
    person = await players.player(verified=False)
    client = await connect(person)
    created = await client.ok("table:create", {"name": "stopping", "small_blind": 5,
                                               "big_blind": 10})
    table_id = created["table"]["table_id"]
    await client.ok("table:join", {"table_id": table_id})
    await client.wait_for("table:snapshot", lambda s: s["table_id"] == table_id)
    table = server.realtime.host.live.get(table_id)
    viewer = Viewer(person.id, person.public_id, person.display_name, Role.PLAYER)

    table.tell(Chat(viewer, "said as the table stops"))
    await table.stop()

    await client.wait_for("table:event", is_event("chat", table_id))
    said = [data for name, data in client.received
            if name == "table:event" and is_event("chat", table_id)(data)]
    record = await server.realtime.host.services.store.table(table_id)
    assert record is not None
    stored_seq = int(record.state["seq"])
    assert [data["seq"] for data in said] == [stored_seq], (said, stored_seq)
    assert record.state["chat"][-1]["text"] == "said as the table stops"
