"""A seat's preferences on a real server: auto-muck, auto top-up to the max buy-in and
sitting out before the next big blind; chips stay on the ledger throughout."""

from __future__ import annotations

from typing import Any

from app.db import ledger
from tests.conftest import Accounts
from tests.realtime.harness import Client, LiveServer, is_event, seat_players


async def balanced(server: LiveServer) -> bool:
    async with server.database.sessions() as session:
        return (await ledger.audit(session)).balanced


async def test_auto_muck_mucks_a_beaten_hand_at_the_showdown_without_asking(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    server.decks.stack_seats({0: "7c2d", 1: "AsAh"}, "2c3d4h9s8c")
    table = await seat_players(players, connect, [500, 500])
    beaten = table.seats[0]
    told = await beaten.ok("table:preferences", {"table_id": table.id, "auto_muck": True})
    assert (told["auto_muck"], told["auto_top_up"], told["sit_out_next_big_blind"]) == (
        True, False, False)
    await table.act("call", seat=0)
    for seat in (1, 1, 0, 1, 0, 1, 0):
        await table.act("check", seat=seat)
    ended = await table.hand_ended()
    events = [e["type"] for e in beaten.events(table.id)]
    assert "hand_mucked" in events and events.index("hand_mucked") < events.index("hand_ended")
    final = dict(zip(ended["event"]["seats"], ended["event"]["stacks"], strict=True))
    assert final == {0: 490, 1: 510}


async def test_without_auto_muck_a_beaten_hand_is_asked_to_show_or_muck(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    server.decks.stack_seats({0: "7c2d", 1: "AsAh"}, "2c3d4h9s8c")
    table = await seat_players(players, connect, [500, 500])
    await table.act("call", seat=0)
    for seat in (1, 1, 0, 1, 0, 1, 0):
        await table.act("check", seat=seat)
    asked = await table.turn()
    assert asked["seat"] == 0
    assert {a["action"] for a in asked["legal_actions"]} == {"show", "muck"}


async def test_auto_top_up_fills_the_stack_before_each_hand_and_stops_when_credits_cannot(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [400], max_buy_in=1000)
    topper: Client = table.seats[0]
    person = table.players[0]
    told = await topper.ok("table:preferences", {"table_id": table.id, "auto_top_up": True})
    assert told["auto_top_up"] is True
    # Turned on between hands: topped up at once, as a buy-in of the difference.
    changed = await topper.wait_for("table:event", is_event("stack_changed", table.id))
    assert (changed["event"]["stack"], changed["event"]["added"]) == (1000, 600)
    assert await server.balance(person.id) == 10_000 - 1000
    mark = len(topper.received)
    await topper.ok("table:join", {"table_id": table.id})
    mine = (await topper.wait_for("table:snapshot", after=mark))["you"]
    assert mine["bought_in"] == 1000 and mine["preferences"]["auto_top_up"] is True

    # A second player: the first loses the blinds of a hand and is topped up again.
    other = await connect(await players.player(verified=False))
    await other.ok("table:sit", {"table_id": table.id, "seat": 1, "buy_in": 1000})
    turn = await topper.wait_for("table:turn", lambda t: t["table_id"] == table.id)
    actor = topper if turn["seat"] == 0 else other
    await actor.ok("table:action", {"table_id": table.id, "hand_id": turn["hand_id"],
                                    "type": "fold"})
    await topper.wait_for("table:event", is_event("hand_ended", table.id))
    refill = await topper.wait_for(
        "table:event", lambda b: is_event("stack_changed", table.id)(b)
        and b["event"]["seat"] == (0 if actor is topper else 1) and b["event"]["stack"] == 1000,
        after=mark)
    assert refill["event"]["added"] in (5, 10)
    assert await balanced(server)


async def test_auto_top_up_that_credits_cannot_pay_is_turned_off_and_told(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [10_000], max_buy_in=20_000)
    topper: Client = table.seats[0]
    told = await topper.ok("table:preferences", {"table_id": table.id, "auto_top_up": True})
    assert told["auto_top_up"] is True  # as asked; the top-up then finds no credits
    notice = await topper.wait_for("user:notice", lambda n: n["kind"] == "auto_top_up_stopped")
    assert (notice["table_id"], notice["amount"]) == (table.id, 10_000)
    mark = len(topper.received)
    await topper.ok("table:join", {"table_id": table.id})
    mine = (await topper.wait_for("table:snapshot", after=mark))["you"]
    assert mine["preferences"]["auto_top_up"] is False and mine["bought_in"] == 10_000
    assert await server.balance(table.players[0].id) == 0
    assert await balanced(server)


async def test_a_player_who_asked_sits_out_instead_of_posting_the_next_big_blind(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [500, 500, 500])
    first = await table.observer.wait_for("table:event", is_event("hand_started", table.id))
    big_blind = first["event"]["big_blind_seat"]
    # The player after the big blind is the next one due to post it.
    due = (big_blind + 1) % 3
    await table.seats[due].ok("table:preferences", {"table_id": table.id,
                                                    "sit_out_next_big_blind": True})
    while True:  # everyone folds to the big blind
        turn = await table.turn()
        if turn["hand_id"] != first["hand_id"]:
            break
        await table.seats[turn["seat"]].ok("table:action", {
            "table_id": table.id, "hand_id": turn["hand_id"], "type": "fold"})
    second = await table.observer.wait_for(
        "table:event", lambda b: is_event("hand_started", table.id)(b)
        and b["hand_id"] != first["hand_id"])
    dealt = {s["seat"] for s in second["event"]["seats"]}
    assert due not in dealt and second["event"]["big_blind_seat"] != due
    events = table.observer.events(table.id)
    sat_out = [e for e in events if e["type"] == "player_sat_out"]
    assert [e["seat"] for e in sat_out] == [due]
    mark = len(table.seats[due].received)
    await table.seats[due].ok("table:join", {"table_id": table.id})
    mine = (await table.seats[due].wait_for("table:snapshot", after=mark))["you"]
    assert mine["preferences"]["sit_out_next_big_blind"] is False


async def test_preferences_are_checked_and_need_a_seat(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [500])
    seated = table.seats[0]
    for wrong in ({"auto_muck": "yes"}, {"auto_muck": None}, {"auto_muck": 1},
                  {"colour": True}):
        ack = await seated.call("table:preferences", {"table_id": table.id, **wrong})
        assert ack["error"]["code"] == "invalid_payload", (wrong, ack)
    watcher = await connect(await players.player(verified=False))
    await watcher.ok("table:join", {"table_id": table.id})
    ack = await watcher.call("table:preferences", {"table_id": table.id, "auto_muck": True})
    assert ack["error"]["code"] == "not_seated"
