"""Hand histories and stats over REST, admin table control, and account events at tables."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import socketio

from app.db import ledger
from app.db.models import AuditLogEntry, User
from tests.conftest import Accounts
from tests.realtime.harness import Client, LiveServer, PlayingTable, seat_players


async def _fold_one_hand(server: LiveServer, players: Accounts, connect: Any) -> PlayingTable:
    """Seat 0 (AsAh) raises, seat 1 (KsKh) folds; both stay seated."""
    server.decks.stack_seats({0: "AsAh", 1: "KsKh"}, "2c3d4h9s8c")
    table = await seat_players(players, connect, [500, 500])
    await table.act("raise", 30, seat=0)
    await table.act("fold", seat=1)
    await table.hand_ended()
    return table


async def test_your_hands_name_their_table_and_can_be_read_one_table_at_a_time(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    table = await _fold_one_hand(server, players, connect)
    winner = table.players[0]
    listed = (await http.get("/hands", params={"table_id": table.id},
                             headers=winner.headers)).json()
    assert listed["count"] == 1 and listed["items"][0]["table_name"] == "test table"
    other = (await http.get("/hands", params={"table_id": "elsewhere"},
                            headers=winner.headers)).json()
    assert (other["count"], other["items"]) == (0, [])
    too_long = await http.get("/hands", params={"table_id": "x" * 65}, headers=winner.headers)
    assert too_long.status_code == 422 and too_long.json()["error"]["code"] == "invalid_payload"


async def test_players_dealt_in_read_their_hands_and_stats_and_others_cannot(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    table = await _fold_one_hand(server, players, connect)
    winner, loser = table.players[0], table.players[1]
    listed = (await http.get("/hands", params={"mine": "true"}, headers=winner.headers)).json()
    assert listed["count"] == 1 and listed["page"] == 1
    (hand,) = listed["items"]
    assert (hand["table_id"], hand["net"], hand["seat"], hand["pot"]) == (table.id, 10, 0, 20)

    detail = (await http.get(f"/hands/{hand['id']}", headers=loser.headers)).json()
    assert detail["net"] == -10
    names = {p["seat"]: p["player"]["name"] for p in detail["summary"]["players"]}
    assert names == {0: winner.display_name, 1: loser.display_name}
    assert all(p["cards"] is None for p in detail["summary"]["players"])

    mine = (await http.get(f"/hands/{hand['id']}.phh", headers=winner.headers)).text
    theirs = (await http.get(f"/hands/{hand['id']}.phh", headers=loser.headers)).text
    assert '"d dh p2 AsAh"' in mine and '"d dh p1 ????"' in mine
    assert '"d dh p1 KsKh"' in theirs and '"d dh p2 ????"' in theirs

    stranger = await players.player(verified=False)
    for path in (f"/hands/{hand['id']}", f"/hands/{hand['id']}.phh"):
        response = await http.get(path, headers=stranger.headers)
        assert response.status_code == 404 and response.json()["error"]["code"] == (
            "hand_not_found")
    assert (await http.get("/hands", headers=stranger.headers)).json()["count"] == 0
    everyone = await http.get("/hands", params={"mine": "false"}, headers=stranger.headers)
    assert everyone.status_code == 403

    stats = (await http.get("/users/me/stats", headers=winner.headers)).json()
    assert stats == {"hands_played": 1, "hands_won": 1, "net": 10}
    stats = (await http.get("/users/me/stats", headers=loser.headers)).json()
    assert stats == {"hands_played": 1, "hands_won": 0, "net": -10}
    assert (await http.get("/users/me/stats")).status_code == 401


async def test_admins_list_and_close_tables_and_read_full_histories(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    table = await _fold_one_hand(server, players, connect)
    admin = await players.admin()
    tables = (await http.get("/admin/tables", headers=admin.headers)).json()
    (listed,) = tables["items"]
    assert listed["table"]["table_id"] == table.id and listed["escrowed"] == 1000
    assert {p["user_id"] for p in listed["players"]} == {p.id for p in table.players.values()}
    hands = (await http.get("/admin/hands", params={"table_id": table.id},
                            headers=admin.headers)).json()
    (hand,) = hands["items"]
    full = (await http.get(f"/admin/hands/{hand['id']}.phh", headers=admin.headers)).text
    assert '"d dh p1 KsKh"' in full and '"d dh p2 AsAh"' in full

    player = table.players[0]
    forbidden = await http.get("/admin/tables", headers=player.headers)
    assert forbidden.status_code == 403

    closed = await http.post(f"/admin/tables/{table.id}/close", json={"reason": "maintenance"},
                             headers=admin.headers)
    assert closed.status_code == 200, closed.text
    assert closed.json()["paid_out"] == 1000
    notice = await table.seats[1].wait_for("table:event",
                                           lambda d: d["event"]["type"] == "table_closed")
    assert notice["event"]["reason"] == "maintenance"
    assert (await http.get("/admin/tables", headers=admin.headers)).json()["count"] == 0
    gone = await table.seats[0].call("table:join", {"table_id": table.id})
    assert gone["error"]["code"] == "table_not_found"
    async with server.database.sessions() as session:
        assert await ledger.escrowed_at(session, table.id) == 0
        assert (await ledger.audit(session)).balanced
        balances = [(await session.get(User, p.id)).balance  # type: ignore[union-attr]
                    for p in table.players.values()]
        actions = [e.action for e in (await session.execute(
            AuditLogEntry.__table__.select())).all()]
    assert sorted(balances) == [9990, 10010]
    assert "close_table" in actions and "read_hand_history" in actions


async def test_deleting_an_account_cashes_it_out_of_its_tables_first(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    table = await seat_players(players, connect, [700])
    player = table.players[0]
    response = await http.request("DELETE", "/users/me", headers=player.headers,
                                  json={"password": player.password})
    assert response.status_code == 204, response.text
    assert server.realtime.host.live.get(table.id).state.players == {}
    async with server.database.sessions() as session:
        assert await ledger.escrowed_at(session, table.id) == 0
        assert (await ledger.audit(session)).balanced


async def test_a_banned_player_is_disconnected_and_leaves_the_table(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    table = await seat_players(players, connect, [700])
    player, client = table.players[0], table.seats[0]
    admin = await players.admin()
    response = await http.post(f"/admin/users/{player.id}/ban", json={"reason": "collusion"},
                               headers=admin.headers)
    assert response.status_code == 200, response.text
    await client.wait_for("user:notice", lambda n: n["kind"] == "session_ended")
    assert server.realtime.host.live.get(table.id).state.players == {}
    again = Client(server.url, player)
    errors: list[Any] = []
    again.sio.on("connect_error", errors.append)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await again.connect()
    assert errors[0]["data"]["code"] in ("not_authenticated", "account_banned")
