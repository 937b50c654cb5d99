"""The action clock, sitting out after time-outs, reconnecting into a hand, two tabs."""

from __future__ import annotations

from typing import Any

from tests.conftest import Accounts
from tests.realtime.harness import Client, LiveServer, is_event, seat_players


async def test_time_outs_fold_and_two_in_a_row_sit_the_player_out(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000], action_seconds=0.2)
    watcher = table.observer
    sat_out = await watcher.wait_for("table:event", is_event("player_sat_out", table.id),
                                     timeout=20)
    assert sat_out["event"]["seat"] == 0
    await watcher.wait_for("table:event", lambda d: is_event("hand_ended", table.id)(d)
                           and d["seq"] > sat_out["seq"])
    events = watcher.events(table.id)
    timed_out = [e["seat"] for e in events if e["type"] == "player_timed_out"]
    assert timed_out == [0, 1, 0]
    acted = [(e["seat"], e["action"]) for e in events if e["type"] == "player_acted"]
    assert acted == [(0, "fold"), (1, "fold"), (0, "fold")]
    ended = [e for e in events if e["type"] == "hand_ended"]
    assert len(ended) == 3
    snapshot_client: Client = table.seats[0]
    ack = await snapshot_client.ok("table:join", {"table_id": table.id})
    snapshot = await snapshot_client.wait_for("table:snapshot", lambda s: s["seq"] == ack["seq"])
    statuses = {s["seat"]: s["status"] for s in snapshot["seats"]}
    assert statuses == {0: "sitting_out", 1: "playing"}
    assert snapshot["hand"] is None


async def test_a_player_who_reconnects_mid_hand_gets_what_they_missed_and_plays_on(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    server.decks.stack_seats({0: "AsAh", 1: "KsKh"}, "2c3d4h9s8c")
    table = await seat_players(players, connect, [1000, 1000])
    await table.act("call", seat=0)
    old = table.seats[0]
    last_seen = max(d["seq"] for name, d in old.received if name.startswith("table:")
                    and "seq" in d and d["table_id"] == table.id)
    await old.disconnect()
    del table.seats[0]
    gone = await table.seats[1].wait_for("table:event", is_event("player_connection", table.id))
    assert gone["event"] == {"type": "player_connection", "seat": 0, "connected": False}
    await table.act("check", seat=1)
    await table.act("check", seat=1)

    again: Client = await connect(table.players[0])
    ack = await again.ok("table:join", {"table_id": table.id, "since_seq": last_seen})
    assert ack["replayed"] >= 3
    seqs = [d["seq"] for name, d in again.received if name in ("table:event", "table:turn")]
    assert seqs == list(range(last_seen + 1, last_seen + 1 + len(seqs)))
    kinds = [d["event"]["type"] for name, d in again.received if name == "table:event"]
    assert "board_dealt" in kinds
    turn = [d for name, d in again.received if name == "table:turn"][-1]
    assert turn["seat"] == 0 and turn["legal_actions"] is not None
    table.seats[0] = again
    await again.ok("table:action", {"table_id": table.id, "hand_id": turn["hand_id"],
                                    "type": "check"})
    table.last_turn = turn["seq"]
    for seat in (1, 0, 1, 0):
        await table.act("check", seat=seat)
    ended = await table.hand_ended(again)
    assert dict(zip(ended["event"]["seats"], ended["event"]["stacks"], strict=True)) == {
        0: 1010, 1: 990}


async def test_a_fresh_connection_gets_a_snapshot_with_its_own_cards_only(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    server.decks.stack_seats({0: "AsAh", 1: "KsKh"}, "2c3d4h9s8c")
    table = await seat_players(players, connect, [1000, 1000])
    first = await table.turn()
    await table.seats[0].disconnect()
    again: Client = await connect(table.players[0])
    ack = await again.ok("table:join", {"table_id": table.id})
    assert ack["replayed"] is None
    snapshot = await again.wait_for("table:snapshot")
    assert snapshot["hand_id"] == first["hand_id"]
    cards = {s["seat"]: s["cards"] for s in snapshot["hand"]["seats"]}
    assert cards == {0: ["As", "Ah"], 1: None}
    assert snapshot["turn"]["seat"] == 0 and snapshot["turn"]["legal_actions"]
    assert snapshot["you"]["seat"] == 0


async def test_one_player_in_two_tabs_is_one_player(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    server.decks.stack_seats({0: "AsAh", 1: "KsKh"}, "2c3d4h9s8c")
    table = await seat_players(players, connect, [1000, 1000])
    second_tab: Client = await connect(table.players[0])
    await second_tab.ok("table:join", {"table_id": table.id})
    turn = await table.turn()
    mine = await second_tab.wait_for("table:turn", lambda t: t["seq"] == turn["seq"])
    assert mine["legal_actions"] == turn["legal_actions"]
    await second_tab.ok("table:action", {"table_id": table.id, "hand_id": turn["hand_id"],
                                         "type": "call"})
    repeat = await table.seats[0].call("table:action", {
        "table_id": table.id, "hand_id": turn["hand_id"], "type": "call"})
    assert repeat["error"]["code"] == "duplicate_action"
    sit_again = await second_tab.call("table:sit", {"table_id": table.id, "seat": 3,
                                                    "buy_in": 500})
    assert sit_again["error"]["code"] == "already_seated"
