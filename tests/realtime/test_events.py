"""Connecting and the ack contract: bad tokens, anonymous clients, invalid payloads, error codes."""

from __future__ import annotations

from typing import Any

import pytest
import socketio

from tests.conftest import Accounts
from tests.realtime.harness import Client, LiveServer, seat_players


async def test_a_bad_token_is_refused_with_a_reason(server: LiveServer) -> None:
    client = Client(server.url)
    errors: list[Any] = []
    client.sio.on("connect_error", errors.append)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await client.connect("not-a-jwt")
    assert errors and errors[0]["data"]["code"] == "not_authenticated", errors


async def test_a_revoked_token_is_refused(
    server: LiveServer, players: Accounts, http: Any
) -> None:
    player = await players.player(verified=False)
    response = await http.post("/auth/logout", headers=player.headers)
    assert response.status_code in (200, 204), response.text
    client = Client(server.url, player)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await client.connect()


async def test_anonymous_clients_may_list_and_watch_but_never_play(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    anonymous: Client = await connect()
    listed = await anonymous.ok("lobby:list")
    assert listed["tables"] == []
    refused = await anonymous.call("table:create", {"name": "x", "small_blind": 1,
                                                    "big_blind": 2})
    assert refused == {"ok": False, "error": {"code": "not_authenticated",
                                              "message": refused["error"]["message"]}}
    unknown = await anonymous.call("table:join", {"table_id": "abc"})
    assert unknown["error"]["code"] == "table_not_found"

    server.decks.stack_seats({0: "AsAh", 1: "KsKh"}, "2c3d4h9s8c")
    table = await seat_players(players, connect, [500, 500])
    turn = await table.turn()
    watching = await anonymous.ok("table:join", {"table_id": table.id})
    snapshot = await anonymous.wait_for("table:snapshot", lambda s: s["table_id"] == table.id)
    assert watching["seq"] == snapshot["seq"]
    # A spectator's view: every seat's cards face down.
    assert snapshot["hand"] is not None
    dealt = {"'As'", "'Ah'", "'Ks'", "'Kh'"}
    assert not {card for card in dealt if card in repr(snapshot)}
    for event, payload in (
        ("table:sit", {"table_id": table.id, "seat": 2, "buy_in": 100}),
        ("table:chat", {"table_id": table.id, "text": "hi"}),
        ("table:action", {"table_id": table.id, "hand_id": turn["hand_id"], "type": "fold"}),
    ):
        answer = await anonymous.call(event, payload)
        assert answer["error"]["code"] == "not_authenticated", (event, answer)
    await anonymous.ok("table:unwatch", {"table_id": table.id})


@pytest.mark.parametrize("payload", [
    "hello",
    42,
    [],
    {},
    {"name": "x", "small_blind": 5, "big_blind": 10, "seats": 11},
    {"name": "x", "small_blind": 10, "big_blind": 5},
    {"name": "x", "small_blind": 5, "big_blind": 10, "surprise": True},
    {"name": "", "small_blind": 5, "big_blind": 10},
    {"name": "x", "small_blind": -5, "big_blind": 10},
    {"name": "x", "small_blind": 5, "big_blind": 10, "min_buy_in": 500, "max_buy_in": 100},
    *({"name": name, "small_blind": 5, "big_blind": 10}
      for name in ("nul\0", "bell\a", "two\nlines", "\u202eevil", "   ", "\u200b")),
])
async def test_malformed_payloads_get_invalid_payload_and_change_nothing(
    server: LiveServer, players: Accounts, connect: Any, payload: Any
) -> None:
    client: Client = await connect(await players.player(verified=False))
    ack = await client.call("table:create", payload)
    assert ack["ok"] is False and ack["error"]["code"] == "invalid_payload", ack
    assert ack["error"]["message"]
    assert (await server.realtime.host.listing.tables()) == []


async def test_unknown_events_and_extra_arguments_are_refused(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    client: Client = await connect(await players.player(verified=False))
    unknown = await client.call("table:teleport", {"table_id": "x"})
    assert unknown["error"]["code"] == "invalid_payload"
    two = await client.sio.call("lobby:list", ({}, {}), timeout=5)
    assert two["error"]["code"] == "invalid_payload"


async def test_actions_out_of_turn_stale_illegal_or_repeated_are_rejected_with_codes(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000])
    turn = await table.turn()
    assert turn["seat"] == 0
    hand = turn["hand_id"]

    async def attempt(seat: int, **fields: Any) -> str:
        ack = await table.seats[seat].call("table:action", {"table_id": table.id, **fields})
        assert ack["ok"] is False, ack
        return str(ack["error"]["code"])

    assert await attempt(1, hand_id=hand, type="check") == "not_your_turn"
    assert await attempt(0, hand_id="0" * 32, type="call") == "stale_action"
    assert await attempt(0, hand_id=hand, type="check") == "cannot_check"
    assert await attempt(0, hand_id=hand, type="raise", amount=11) == "bet_too_small"
    assert await attempt(0, hand_id=hand, type="raise", amount=5000) == "bet_too_large"
    assert await attempt(0, hand_id=hand, type="dance") == "invalid_payload"
    assert await attempt(0, hand_id=hand, type="raise") == "invalid_action"
    await table.seats[0].ok("table:action", {"table_id": table.id, "hand_id": hand,
                                             "type": "call"})
    assert await attempt(0, hand_id=hand, type="call") == "duplicate_action"
    outsider: Client = await connect(await players.player(verified=False))
    ack = await outsider.call("table:action", {"table_id": table.id, "hand_id": hand,
                                               "type": "fold"})
    assert ack["error"]["code"] == "not_seated"
    missing = await outsider.call("table:join", {"table_id": "nope"})
    assert missing["error"]["code"] == "table_not_found"


async def test_seats_and_buy_ins_are_checked(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000])
    newcomer: Client = await connect(await players.player(verified=False))

    async def sit(seat: int, buy_in: int) -> str:
        ack = await newcomer.call("table:sit", {"table_id": table.id, "seat": seat,
                                                "buy_in": buy_in})
        return "ok" if ack["ok"] else str(ack["error"]["code"])

    assert await sit(0, 500) == "seat_taken"
    assert await sit(7, 500) == "no_such_seat"
    assert await sit(1, 50) == "invalid_buy_in"
    assert await sit(1, 5000) == "invalid_buy_in"
    rich = await newcomer.call("table:sit", {"table_id": table.id, "seat": 1, "buy_in": 2000})
    assert rich["ok"], rich
    assert rich["balance"] == 8000


@pytest.mark.parametrize("text", ["nul\0", "bell\a", "two\nlines", "\u202eevil", "   "],
                         ids=["nul", "bel", "newline", "rtl-override", "blank"])
async def test_chat_text_follows_the_text_policy(
    server: LiveServer, players: Accounts, connect: Any, text: str
) -> None:
    client: Client = await connect(await players.player())
    created = await client.ok("table:create", {"name": "Chatty", "small_blind": 5,
                                               "big_blind": 10})
    table_id = created["table"]["table_id"]
    ack = await client.call("table:chat", {"table_id": table_id, "text": text})
    assert ack["ok"] is False and ack["error"]["code"] == "invalid_payload", ack


@pytest.mark.parametrize("name", ["connect", "disconnect", "connect_error", "disconnecting"])
async def test_reserved_event_names_are_refused_and_reach_no_handler(
    server: LiveServer, players: Accounts, connect: Any, name: str
) -> None:
    player = await players.player(verified=False)
    client: Client = await connect(player)
    refused = await client.call(name, {"HTTP_COOKIE": ""})
    assert refused["ok"] is False and refused["error"]["code"] == "invalid_payload", refused
    assert "reserved" in refused["error"]["message"]
    viewer = server.realtime.connections.viewer(client.sio.get_sid())
    assert viewer is not None and viewer.user_id == player.id


async def test_a_ban_still_closes_a_socket_that_emitted_disconnect(
    server: LiveServer, players: Accounts, connect: Any, http: Any
) -> None:
    table = await seat_players(players, connect, [700, 700])
    player, client = table.players[0], table.seats[0]
    sid = client.sio.get_sid()
    refused = await client.call("disconnect", "client disconnect")
    assert refused["error"]["code"] == "invalid_payload"
    admin = await players.admin()
    response = await http.post(f"/admin/users/{player.id}/ban", json={"reason": "cheating"},
                               headers=admin.headers)
    assert response.status_code == 200, response.text
    await client.wait_disconnected()
    assert not server.realtime.sio.manager.is_connected(sid, "/")
    assert server.realtime.connections.viewer(sid) is None
