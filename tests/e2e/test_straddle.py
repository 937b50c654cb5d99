"""A table with straddles: the seat after the big blind straddles and acts last preflop."""

from __future__ import annotations

from typing import Any

from app.db.tables import HandRecord
from app.poker.phh import replay
from tests.conftest import Accounts
from tests.realtime.harness import LiveServer, seat_players


async def test_a_straddle_table_deals_straddled_hands_and_stores_them(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000, 1000, 1000], straddle=True)
    await table.observer.wait_for("table:event", lambda d: d["event"]["type"] == "hand_started")
    first = await table.turn()
    blinds = [(e["seat"], e["blind"], e["amount"]) for e in table.observer.events(table.id)
              if e["type"] == "blind_posted"]
    straddler = blinds[2][0]
    assert [kind for _, kind, _ in blinds] == ["small", "big", "straddle"]
    assert blinds[2][2] == 20 and first["to_call"] == 20
    assert first["seat"] == (straddler + 1) % 4
    payload = {"table_id": table.id, "hand_id": first["hand_id"]}
    await table.seats[first["seat"]].ok("table:action", {**payload, "type": "call"})
    for _ in range(2):
        await table.act("call")
    last = await table.act("raise", 60)
    assert last["seat"] == straddler
    for _ in range(3):
        await table.act("fold")
    ended = await table.hand_ended()
    async with server.database.sessions() as session:
        record = await session.get(HandRecord, ended["hand_id"])
        assert record is not None
    assert "blinds_or_straddles = [5, 10, 20, 0]" in record.phh
    assert replay(record.phh).match
