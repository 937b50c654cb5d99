"""Pre-actions at a live table: each one taken the moment the turn comes, a raise
cancelling "call X", "call any" surviving it, "fold to any bet" lasting the hand, and
nobody but their owner ever hearing of them."""

from __future__ import annotations

import json
from typing import Any

from app.admin.audit import audit
from tests.conftest import Accounts
from tests.realtime.harness import Client, LiveServer, PlayingTable, is_event, seat_players

INTENTS = ("check_fold", "call_any", "fold_any")


async def preact(client: Client, table: PlayingTable, hand_id: str, intent: str | None,
                 amount: int | None = None) -> dict[str, Any]:
    """Choose a pre-action; the ack."""
    payload: dict[str, Any] = {"table_id": table.id, "hand_id": hand_id, "intent": intent}
    if amount is not None:
        payload["amount"] = amount
    ack: dict[str, Any] = await client.call("table:preact", payload)
    return ack


def acted(client: Client, table: PlayingTable, after: int = 0) -> list[tuple[int, str, int]]:
    """``(seat, action, amount)`` of every ``player_acted`` the client saw (from index
    ``after`` of what it received)."""
    return [(d["event"]["seat"], d["event"]["action"], d["event"]["amount"])
            for name, d in client.received[after:]
            if name == "table:event" and d["table_id"] == table.id
            and d["event"]["type"] == "player_acted"]


def notices(client: Client) -> list[dict[str, Any]]:
    """Every ``table:preaction`` the client received."""
    return [d for name, d in client.received if name == "table:preaction"]


async def wait_acted(client: Client, table: PlayingTable, seat: int, action: str) -> None:
    await client.wait_for("table:event", lambda d: d["table_id"] == table.id
                          and d["event"]["type"] == "player_acted"
                          and d["event"]["seat"] == seat and d["event"]["action"] == action)


async def turn_on_street(table: PlayingTable, boards: int) -> dict[str, Any]:
    """The first turn after the ``boards``-th ``board_dealt`` of the table (1: the flop)."""
    dealt: list[int] = []

    def board(data: Any) -> bool:
        if is_event("board_dealt", table.id)(data) and data["seq"] not in dealt:
            dealt.append(data["seq"])
        return len(dealt) >= boards

    found = await table.observer.wait_for("table:event", board)
    table.last_turn = found["seq"]
    return await table.turn()


def assert_private(owners: dict[int, list[Client]], table: PlayingTable) -> None:
    """Each client heard of its own seat's pre-actions only, and every client saw the
    table's numbered messages without a gap (a pre-action takes no ``seq``)."""
    for seat, clients in owners.items():
        for client in clients:
            assert {n["seat"] for n in notices(client)} <= {seat}
            assert not client.off_schema, client.off_schema
            numbered = [d["seq"] for name, d in client.received
                        if name in ("table:event", "table:turn") and d["table_id"] == table.id]
            assert numbered == list(range(numbered[0], numbered[0] + len(numbered)))
            others = [d for name, d in client.received if name != "table:preaction"
                      and not (name == "table:snapshot" and d.get("you", {}).get("seat") == seat)]
            text = json.dumps(others)
            assert "preaction" not in text.replace('"preaction": null', "")
            assert not any(intent in text for intent in INTENTS)


async def test_each_pre_action_is_taken_the_moment_the_turn_comes(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    server.decks.stack_seats({0: "AsAh", 1: "KsKh"}, "2c3d4h9s8c")
    table = await seat_players(players, connect, [1000, 1000])
    first, second = table.seats[0], table.seats[1]
    turn = await table.turn()
    hand = turn["hand_id"]
    assert turn["seat"] == 0
    ack = await preact(second, table, hand, "check")
    assert ack["ok"] and ack["preaction"] == {"intent": "check", "amount": None}
    await first.ok("table:action", {"table_id": table.id, "hand_id": hand, "type": "call"})
    await wait_acted(first, table, 1, "check")
    applied = await second.wait_for("table:preaction", lambda n: n["reason"] == "applied")
    assert applied["preaction"] is None
    assert applied["applied"] == {"intent": "check", "amount": None}

    # The flop: the big blind acts first; "call any" waits for its bet and calls it.
    flop_turn = await turn_on_street(table, 1)
    assert flop_turn["seat"] == 1
    refused = await preact(first, table, hand, "call", 0)
    assert refused["error"]["code"] == "preaction_stale"
    assert refused["error"]["to_call"] == 0
    assert (await preact(first, table, hand, "call_any"))["ok"]
    await second.ok("table:action", {"table_id": table.id, "hand_id": hand, "type": "bet",
                                     "amount": 20})
    await wait_acted(second, table, 0, "call")

    # The turn: "check/fold" folds to the bet.
    assert (await turn_on_street(table, 2))["seat"] == 1
    assert (await preact(first, table, hand, "check_fold"))["ok"]
    await second.ok("table:action", {"table_id": table.id, "hand_id": hand, "type": "bet",
                                     "amount": 40})
    ended = await table.hand_ended()
    assert acted(second, table) == [(0, "call", 5), (1, "check", 0), (1, "bet", 20),
                                    (0, "call", 20), (1, "bet", 40), (0, "fold", 0)]
    assert dict(zip(ended["event"]["seats"], ended["event"]["stacks"], strict=True)) == {
        0: 970, 1: 1030}
    reasons = [(n["reason"], (n["applied"] or {}).get("intent")) for n in notices(first)]
    assert reasons == [("chosen", None), ("applied", "call_any"), ("chosen", None),
                       ("applied", "check_fold")]
    assert_private({0: [first], 1: [second]}, table)
    assert (await audit(server.database)).balanced


async def test_fold_to_any_bet_checks_street_after_street_then_folds_to_a_bet(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000])
    first, second = table.seats[0], table.seats[1]
    turn = await table.turn()
    hand = turn["hand_id"]
    # Seat 1 is the big blind: nothing to call yet, so "fold to any bet" checks.
    assert (await preact(second, table, hand, "fold_any"))["ok"]
    await first.ok("table:action", {"table_id": table.id, "hand_id": hand, "type": "call"})
    await wait_acted(first, table, 1, "check")
    # On the flop the big blind acts first: it checks again, then folds to the bet.
    await first.wait_for("table:event", is_event("board_dealt", table.id))
    await wait_acted(first, table, 1, "check")
    flop_turn = await table.turn()
    while flop_turn["seat"] != 0:
        flop_turn = await table.turn()
    await first.ok("table:action", {"table_id": table.id, "hand_id": hand, "type": "bet",
                                    "amount": 30})
    await table.hand_ended()
    moves = acted(first, table)
    assert moves == [(0, "call", 5), (1, "check", 0), (1, "check", 0), (0, "bet", 30),
                     (1, "fold", 0)]
    kinds = [(n["reason"], n["preaction"]) for n in notices(second)]
    kept = {"intent": "fold_any", "amount": None}
    assert kinds == [("chosen", kept), ("applied", kept), ("applied", kept),
                     ("applied", None)]
    assert_private({0: [first], 1: [second]}, table)


async def test_a_raise_cancels_call_x_but_not_call_any_and_nobody_else_hears_of_either(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000, 1000])
    button, small, big = table.seats[0], table.seats[1], table.seats[2]
    second_device: Client = await connect(table.players[1])
    await second_device.ok("table:join", {"table_id": table.id})
    turn = await table.turn()
    hand = turn["hand_id"]
    assert turn["seat"] == 0
    stale = await preact(small, table, hand, "call", 10)
    assert stale["error"]["code"] == "preaction_stale" and stale["error"]["to_call"] == 5
    assert (await preact(small, table, hand, "call", 5))["ok"]
    assert (await preact(big, table, hand, "call_any"))["ok"]
    seen = await second_device.wait_for("table:preaction", lambda n: n["reason"] == "chosen")
    assert seen["preaction"] == {"intent": "call", "amount": 5}
    mine = await button.call("table:preact", {"table_id": table.id, "hand_id": hand,
                                              "intent": "check_fold"})
    assert mine["error"]["code"] == "preaction_not_now"

    await button.ok("table:action", {"table_id": table.id, "hand_id": hand, "type": "raise",
                                     "amount": 30})
    cancelled = await small.wait_for("table:preaction", lambda n: n["reason"] == "cancelled")
    assert cancelled["preaction"] is None
    await second_device.wait_for("table:preaction", lambda n: n["reason"] == "cancelled")
    # The small blind's turn waits for them: their "call 5" no longer holds.
    small_turn = await table.turn()
    assert small_turn["seat"] == 1 and small_turn["to_call"] == 25
    assert acted(button, table) == [(0, "raise", 30)]
    await small.ok("table:action", {"table_id": table.id, "hand_id": hand, "type": "call"})
    await wait_acted(button, table, 2, "call")
    assert acted(button, table) == [(0, "raise", 30), (1, "call", 25), (2, "call", 20)]
    assert_private({0: [button], 1: [small, second_device], 2: [big]}, table)


async def test_a_reconnecting_player_sees_the_pre_action_they_hold(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000])
    first, second = table.seats[0], table.seats[1]
    turn = await table.turn()
    hand = turn["hand_id"]
    assert (await preact(second, table, hand, "check"))["ok"]
    last_seen = max(d["seq"] for name, d in second.received
                    if name in ("table:event", "table:turn") and d["table_id"] == table.id)
    await second.disconnect()

    fresh: Client = await connect(table.players[1])
    await fresh.ok("table:join", {"table_id": table.id})
    snapshot = await fresh.wait_for("table:snapshot")
    assert snapshot["you"]["preaction"] == {"intent": "check", "amount": None}
    spectator: Client = await connect()
    await spectator.ok("table:join", {"table_id": table.id})
    seen = await spectator.wait_for("table:snapshot")
    assert seen["you"] is None

    resumed: Client = await connect(table.players[1])
    replay = await resumed.ok("table:join", {"table_id": table.id, "since_seq": last_seen})
    assert replay["replayed"] is not None
    held = await resumed.wait_for("table:preaction")
    assert held["reason"] == "chosen" and held["preaction"]["intent"] == "check"

    cleared = await preact(fresh, table, hand, None)
    assert cleared["ok"] and cleared["preaction"] is None
    await resumed.wait_for("table:preaction", lambda n: n["reason"] == "cleared")
    assert (await preact(resumed, table, hand, "check"))["ok"]
    await first.ok("table:action", {"table_id": table.id, "hand_id": hand, "type": "call"})
    await wait_acted(first, table, 1, "check")
    await fresh.wait_for("table:preaction", lambda n: n["reason"] == "applied")
    assert_private({0: [first], 1: [fresh, resumed]}, table)
    assert not [d for name, d in spectator.received if name == "table:preaction"]
