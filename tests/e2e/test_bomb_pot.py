"""Bomb pots at a live table: every Nth hand everyone antes and the flop comes at once."""

from __future__ import annotations

from typing import Any

from app.db.tables import HandRecord
from app.poker.phh import replay
from tests.conftest import Accounts
from tests.realtime.harness import LiveServer, is_event, seat_players


async def test_every_second_hand_is_a_bomb_pot_with_no_blinds_and_an_immediate_flop(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000, 1000], bomb_pot_every=2)
    first = await table.observer.wait_for("table:event", is_event("hand_started", table.id))
    assert first["event"]["bomb_pot"] == 0
    for _ in range(2):
        await table.act("fold")
    ended = await table.hand_ended()
    second = await table.observer.wait_for(
        "table:event", lambda d: is_event("hand_started", table.id)(d) and d["seq"] > ended["seq"])
    assert second["event"]["bomb_pot"] == 20
    turn = await table.turn()
    events = [e for e in table.observer.events(table.id) if e.get("type") != "chat"]
    hand = events[next(i for i, e in enumerate(events) if e is second["event"]):]
    kinds = [e["type"] for e in hand]
    assert kinds[:4] == ["hand_started"] + ["ante_posted"] * 3 and "blind_posted" not in kinds
    assert kinds[-1] == "board_dealt" and hand[-1]["street"] == "flop"
    assert turn["to_call"] == 0 and {a["action"] for a in turn["legal_actions"]} >= {"check",
                                                                                      "bet"}
    mark = len(table.observer.received)
    await table.seats[turn["seat"]].ok("table:action", {
        "table_id": table.id, "hand_id": turn["hand_id"], "type": "bet", "amount": 20})
    for _ in range(2):
        await table.act("fold")
    bomb_end = await table.hand_ended(after=mark)
    assert sum(bomb_end["event"]["stacks"]) == 3000
    async with server.database.sessions() as session:
        record = await session.get(HandRecord, bomb_end["hand_id"])
    assert record is not None and "antes = [20, 20, 20]" in record.phh
    assert replay(record.phh).match
