"""Chat lines reach the table with listed words masked, for every watcher and in the history."""

from __future__ import annotations

from typing import Any

from tests.conftest import Accounts
from tests.realtime.harness import Client, LiveServer, is_event


async def test_a_listed_word_is_masked_before_the_line_reaches_anyone(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    speaker: Client = await connect(await players.player())
    watcher: Client = await connect(await players.player())
    created = await speaker.ok("table:create", {"name": "Polite", "small_blind": 5,
                                                "big_blind": 10})
    table_id = created["table"]["table_id"]
    await watcher.ok("table:join", {"table_id": table_id})
    await speaker.ok("table:chat", {"table_id": table_id, "text": "nice hand, SH1IIT"})
    line = await watcher.wait_for("table:event", is_event("chat", table_id))
    assert line["event"]["text"] == "nice hand, ******"
    assert not [text for text in map(repr, watcher.payloads()) if "SH1IIT" in text]
    kept = server.realtime.host.live.get(table_id).state
    assert [entry["text"] for entry in kept.chat] == ["nice hand, ******"]
