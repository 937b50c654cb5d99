"""Around the hands: the lobby, private tables, the waiting list, chat, top-ups, sitting out."""

from __future__ import annotations

from typing import Any

import httpx

from app.config import Settings
from tests.conftest import Accounts, Mailbox
from tests.realtime.harness import (
    Client,
    LiveServer,
    is_event,
    live_server,
    realtime_settings,
    seat_players,
)


async def test_the_lobby_lists_tables_and_sends_updates(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    watcher: Client = await connect()
    assert (await watcher.ok("lobby:list"))["tables"] == []
    table = await seat_players(players, connect, [500], name="Friday night")
    listed = await watcher.wait_for("lobby:table", lambda t: t["seated"] == 1)
    assert listed["table_id"] == table.id and listed["name"] == "Friday night"
    assert (listed["small_blind"], listed["big_blind"], listed["seats"]) == (5, 10, 6)
    assert listed["private"] is False and listed["waiting"] == 0
    assert [t["table_id"] for t in (await watcher.ok("lobby:list"))["tables"]] == [table.id]


async def test_private_tables_need_the_invite_code(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    owner: Client = await connect(await players.player(verified=False))
    created = await owner.ok("table:create", {"name": "home game", "small_blind": 1,
                                              "big_blind": 2, "private": True})
    code, table_id = created["invite_code"], created["table"]["table_id"]
    assert code and created["table"]["private"] is True
    guest: Client = await connect(await players.player(verified=False))
    refused = await guest.call("table:join", {"table_id": table_id})
    assert refused["error"]["code"] == "invite_required"
    wrong = await guest.call("table:sit", {"table_id": table_id, "seat": 0, "buy_in": 100,
                                           "invite_code": "guess"})
    assert wrong["error"]["code"] == "invite_required"
    await guest.ok("table:sit", {"table_id": table_id, "seat": 0, "buy_in": 100,
                                 "invite_code": code})


async def test_the_first_waiting_player_is_offered_the_next_free_seat(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [500, 500], seats=2)
    waiter: Client = await connect(await players.player(verified=False))
    full = await waiter.call("table:sit", {"table_id": table.id, "seat": 0, "buy_in": 500})
    assert full["error"]["code"] == "seat_taken"
    assert (await waiter.ok("table:wait", {"table_id": table.id}))["position"] == 1
    await table.seats[0].ok("table:leave", {"table_id": table.id})
    offer = await waiter.wait_for("user:notice", lambda n: n["kind"] == "seat_offer")
    assert offer["table_id"] == table.id and offer["seat"] == 0
    sat = await waiter.ok("table:sit", {"table_id": table.id, "seat": offer["seat"],
                                        "buy_in": 400})
    assert sat["seat"] == 0
    listed = {t["table_id"]: t for t in (await server.realtime.host.listing.tables())}
    assert listed[table.id]["waiting"] == 0


async def test_chat_is_broadcast_kept_and_rate_limited(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [500])
    talker = table.seats[0]
    listener: Client = await connect(await players.player(verified=False))
    await listener.ok("table:join", {"table_id": table.id})
    bell = await talker.call("table:chat", {"table_id": table.id, "text": "good luck\x07 all"})
    assert bell["error"]["code"] == "invalid_payload"  # control characters are refused
    await talker.ok("table:chat", {"table_id": table.id, "text": "  ｇood luck all "})
    line = await listener.wait_for("table:event", is_event("chat", table.id))
    assert line["event"]["text"] == "good luck all"
    assert line["event"]["player"]["name"] == table.players[0].display_name
    too_long = await talker.call("table:chat", {"table_id": table.id, "text": "x" * 201})
    assert too_long["error"]["code"] == "invalid_payload"
    codes = []
    for n in range(6):
        ack = await talker.call("table:chat", {"table_id": table.id, "text": f"line {n}"})
        codes.append("ok" if ack["ok"] else ack["error"]["code"])
    assert codes[:4] == ["ok"] * 4 and codes[-1] == "rate_limited"
    late: Client = await connect(await players.player(verified=False))
    await late.ok("table:join", {"table_id": table.id})
    snapshot = await late.wait_for("table:snapshot")
    assert [c["text"] for c in snapshot["chat"]][:2] == ["good luck all", "line 0"]


async def test_top_up_between_hands_up_to_the_max_buy_in(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [500], max_buy_in=1000)
    player = table.seats[0]
    topped = await player.ok("table:top-up", {"table_id": table.id, "amount": 300})
    assert topped["stack"] == 800 and topped["balance"] == 10_000 - 800
    over = await player.call("table:top-up", {"table_id": table.id, "amount": 300})
    assert over["error"]["code"] == "invalid_buy_in" and over["error"]["max"] == 200
    other: Client = await connect(await players.player(verified=False))
    await other.ok("table:sit", {"table_id": table.id, "seat": 1, "buy_in": 500})
    await player.wait_for("table:turn")
    during = await player.call("table:top-up", {"table_id": table.id, "amount": 100})
    assert during["error"]["code"] == "hand_in_progress"
    # What the sitting bought in (the buy-in and the top-up), for its won-or-lost figure;
    # a refused top-up adds nothing. Nobody else's is told.
    mark = len(player.received)
    await player.ok("table:join", {"table_id": table.id})
    mine = await player.wait_for("table:snapshot", after=mark)
    assert mine["you"]["bought_in"] == 800
    mark = len(other.received)
    await other.ok("table:join", {"table_id": table.id})
    assert (await other.wait_for("table:snapshot", after=mark))["you"]["bought_in"] == 500


async def test_sitting_out_stops_the_deal_and_sitting_in_resumes_it(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [500])
    first = table.seats[0]
    assert (await first.ok("table:sit-out", {"table_id": table.id}))["status"] == "sitting_out"
    second: Client = await connect(await players.player(verified=False))
    await second.ok("table:sit", {"table_id": table.id, "seat": 1, "buy_in": 500})
    back = await first.ok("table:sit-in", {"table_id": table.id})
    assert back["status"] == "waiting_for_big_blind"
    started = await second.wait_for("table:event", is_event("hand_started", table.id))
    assert started["event"]["seats"] and len(started["event"]["seats"]) == 2
    kinds = [e["type"] for e in second.events(table.id)]
    assert kinds.index("player_sat_in") < kinds.index("hand_started")


async def test_players_sat_out_too_long_are_cashed_out_and_stood_up(
    settings: Settings, mailbox: Mailbox
) -> None:
    quick = realtime_settings(settings, sit_out_limit_seconds=0.2)
    async with live_server(quick) as server, httpx.AsyncClient(base_url=server.url) as http:
        player = await Accounts(http, mailbox, server.app).player(verified=False)
        client = await Client(server.url, player).connect()
        try:
            created = await client.ok("table:create", {"name": "t", "small_blind": 5,
                                                       "big_blind": 10})
            table_id = created["table"]["table_id"]
            await client.ok("table:sit", {"table_id": table_id, "seat": 2, "buy_in": 300})
            await client.ok("table:sit-out", {"table_id": table_id})
            notice = await client.wait_for("user:notice", lambda n: n["kind"] == "cashed_out")
            assert notice["amount"] == 300
            left = await client.wait_for("table:event", is_event("player_left", table_id))
            assert left["event"]["seat"] == 2
        finally:
            await client.disconnect()


async def test_quick_seat_opens_a_table_with_bots_then_fills_it(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    first: Client = await connect(await players.player(verified=False))
    seated = await first.ok("table:quick-seat", {"small_blind": 1, "big_blind": 2,
                                                 "buy_in": 150})
    table_id = seated["table_id"]
    assert seated["balance"] == 10_000 - 150
    second: Client = await connect(await players.player(verified=False))
    joined = await second.ok("table:quick-seat", {"small_blind": 1, "big_blind": 2})
    assert joined["table_id"] == table_id and joined["buy_in"] == 200
    assert joined["seat"] != seated["seat"]
    other = await second.ok("table:quick-seat", {"small_blind": 5, "big_blind": 10,
                                                 "bots": False})
    assert other["table_id"] != table_id
    (listed,) = [t for t in (await server.realtime.host.listing.tables())
                 if t["table_id"] == table_id]
    assert listed["bots"] == 2 and listed["seated"] == 4


async def test_an_unanswered_seat_offer_passes_to_the_next_waiting_player(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [300, 300], seats=2)
    slow_player = await players.player(verified=False)
    slow: Client = await connect(slow_player)
    keen: Client = await connect(await players.player(verified=False))
    for client in (slow, keen):
        await client.ok("table:wait", {"table_id": table.id})
    # Whether or not a hand has started, nobody is left to act in it: it ends at once.
    await table.seats[0].ok("table:sit-out", {"table_id": table.id})
    await table.seats[1].ok("table:leave", {"table_id": table.id})
    await slow.wait_for("user:notice", lambda n: n["kind"] == "seat_offer")
    live = server.realtime.host.live.get(table.id)
    live.core.mailbox.tell(live.waiting.offer_expired, slow_player.id)  # its timer ran out
    await slow.wait_for("user:notice", lambda n: n["kind"] == "seat_offer_expired")
    offer = await keen.wait_for("user:notice", lambda n: n["kind"] == "seat_offer")
    late = await slow.call("table:sit", {"table_id": table.id, "seat": offer["seat"],
                                         "buy_in": 300})
    assert late["error"]["code"] == "seat_taken"
    await keen.ok("table:sit", {"table_id": table.id, "seat": offer["seat"], "buy_in": 300})
