"""docs/PROTOCOL.md is generated from the schemas and covers every event the server handles."""

from __future__ import annotations

from app import protocol
from app.table.broadcast import REPLAY_KEPT
from tests.realtime.harness import LiveServer


def test_the_protocol_page_is_up_to_date() -> None:
    assert protocol.DOC_PATH.read_text(encoding="utf-8") == protocol.render(), (
        "docs/PROTOCOL.md is stale: run `holdem protocol --write`")


async def test_every_handled_event_is_documented(server: LiveServer) -> None:
    handled = set(server.realtime.sio.handlers["/"]) - {"connect", "disconnect", "*"}
    documented = {request.name for request in protocol.REQUESTS}
    assert handled == documented


def test_the_replay_window_the_page_states_is_the_one_the_tables_keep() -> None:
    assert f"(the last {REPLAY_KEPT} per table)" in protocol.render()
