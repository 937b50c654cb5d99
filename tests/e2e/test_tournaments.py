"""Tournaments on a real server: players register over Socket.IO, are seated by the
tournament, play through the same dealer, and are paid from the prize pool."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.config import Settings
from app.db import ledger
from app.db.models import User
from app.tournaments.rules import Rules, TournamentKind
from app.tournaments.structure import Level, Structure
from app.tournaments.tables import table_id
from tests.conftest import Accounts, Mailbox
from tests.realtime.harness import Client, LiveServer, is_event, live_server, realtime_settings

FAST = Structure(300, (Level(10, 20, 60), Level(25, 50, 60, ante=50, big_blind_ante=True)))


async def _play_until_finished(client: Client, user_id: int) -> dict[str, Any]:
    """Join each table the tournament seats us at and push all-in (else call, check or
    muck) on every turn, until our ``tournament_finished`` notice arrives."""
    handled: set[int] = set()
    joined: set[str] = set()
    while True:
        for name, data in list(client.received):
            if name == "user:notice" and data["kind"] == "tournament_finished":
                return dict(data)
            if (name == "user:notice" and data["kind"] == "tournament_seat"
                    and data["table_id"] not in joined):
                joined.add(data["table_id"])
                await client.ok("table:join", {"table_id": data["table_id"]})
            turn = data.get("turn") if name == "table:snapshot" else (
                data if name == "table:turn" else None)
            if turn and turn["legal_actions"] and turn["seq"] not in handled:
                handled.add(turn["seq"])
                kinds = {a["action"] for a in turn["legal_actions"]}
                choice = next(k for k in ("all_in", "call", "check", "muck") if k in kinds)
                ack = await client.call("table:action", {
                    "table_id": turn["table_id"], "hand_id": turn["hand_id"], "type": choice})
                assert ack["ok"] or ack["error"]["code"] in (
                    "stale_action", "not_your_turn", "hand_over"), ack
        client._arrived.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(client._arrived.wait(), 1.0)


@pytest.mark.slow
async def test_a_sit_and_go_is_registered_played_and_paid_over_socket_io(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    service = server.app.state.tournaments.service
    tid = await service.create("Sit & go 3", Rules(TournamentKind.SIT_AND_GO, FAST,
                                                   table_size=3, buy_in=100, fee=10),
                               created_by=None)
    people = [await players.player(verified=False) for _ in range(2)]
    clients: list[Client] = [await connect(p) for p in people]
    listed = await clients[0].ok("tournament:list", {})
    assert [t["id"] for t in listed["tournaments"]] == [tid]
    before = [await _balance(server, p.id) for p in people]

    for client in clients:
        ack = await client.ok("tournament:register", {"tournament_id": tid})
        assert ack["tournament_id"] == tid
    again = await clients[0].call("tournament:register", {"tournament_id": tid})
    assert again["error"]["code"] == "already_registered"
    update = await clients[0].wait_for("lobby:tournament", lambda s: s["entrants"] == 2)
    assert update["prize_pool"] == 200
    assert [await _balance(server, p.id) for p in people] == [b - 110 for b in before]
    listing = (await http.get("/tournaments")).json()
    assert listing["count"] == 1 and listing["data"][0]["entrants"] == 2
    await service.register_bot(tid, "Ada")

    results = await asyncio.wait_for(asyncio.gather(
        *(_play_until_finished(c, p.id) for c, p in zip(clients, people, strict=True))), 120)

    # The two people may bust in one hand that both began with equal stacks: then they
    # tie for second (app/tournaments/standings.py).
    assert sorted(r["place"] for r in results) in ([1, 2], [1, 3], [2, 3], [2, 2])
    for client, result in zip(clients, results, strict=True):
        busted = [d for n, d in client.received
                  if n == "user:notice" and d["kind"] == "tournament_busted"]
        assert [d["place"] for d in busted] == ([] if result["place"] == 1
                                               else [result["place"]])
        assert not any(n == "user:notice" and d["kind"] == "cashed_out"
                       for n, d in client.received)
    assert sum(r["prize"] for r in results) in (0, 300)
    after = [await _balance(server, p.id) for p in people]
    assert [a - b + 110 for a, b in zip(after, before, strict=True)] == [
        r["prize"] for r in results]
    assert tid not in service.tournaments
    stats = (await http.get("/users/me/stats", headers=people[0].headers)).json()
    assert (stats["hands_played"], stats["net"]) == (0, 0)  # chips are not credits
    over = (await http.get(f"/tournaments/{tid}")).json()  # still readable, from storage
    assert (over["status"], over["players_left"], over["tables"]) == ("finished", 1, [])
    told = {p.public_id: (r["place"], r["prize"]) for p, r in zip(people, results, strict=True)}
    assert {p["public_id"]: (p["place"], p["prize"]) for p in over["players"]
            if p["public_id"] in told} == told
    assert sorted(p["place"] for p in over["players"]) in ([1, 2, 3], [1, 2, 2])
    assert sum(p["prize"] for p in over["players"]) == over["prize_pool"] == 300
    missing = await http.get("/tournaments/0123456789abcdef")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "tournament_not_found"
    async with server.database.sessions() as session:
        audit = await ledger.audit(session)
        assert audit.balanced, audit
    for client in clients:
        assert not client.off_schema


async def _balance(server: LiveServer, user_id: int) -> int:
    async with server.database.sessions() as session:
        return int(await session.scalar(select(User.balance).where(User.id == user_id)) or 0)


async def test_a_late_registration_seats_the_player_at_a_running_multi_table_tournament(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    service = server.app.state.tournaments.service
    late = Structure(1000, (Level(10, 20, 10), Level(20, 40, 10)), late_levels=1)
    rules = Rules(TournamentKind.MULTI_TABLE, late, table_size=4, buy_in=20, fee=2,
                  starts_at=time.time())
    tid = await service.create("Late", rules, created_by=None)
    for n in range(7):
        await service.register_bot(tid, f"Bot {n}")
    for _ in range(100):
        if service.get(tid).status.value == "running":
            break
        await asyncio.sleep(0.1)
    assert len(service.get(tid).tables) == 2
    person = await players.player(verified=False)
    client: Client = await connect(person)

    ack = await client.ok("tournament:register", {"tournament_id": tid})
    seat = await client.wait_for("user:notice", lambda n: n["kind"] == "tournament_seat")
    await client.ok("table:join", {"table_id": seat["table_id"]})
    snapshot = await client.wait_for("table:snapshot")

    assert ack["entrants"] == 8
    mine = next(s for s in snapshot["seats"] if s["player"]["public_id"] == person.public_id)
    # Dealt in at once: a hand may already have moved the starting 1,000 chips.
    assert mine["seat"] == seat["seat"] and mine["stack"] > 0
    assert sum(e.chips for e in service.get(tid).entries.values()) == 8 * 1000
    assert snapshot["config"]["tournament"] == tid
    refused = await client.call("tournament:unregister", {"tournament_id": tid})
    assert refused["error"]["code"] == "registration_closed"
    sit = await client.call("table:sit", {"table_id": seat["table_id"], "seat": 0,
                                          "buy_in": 100})
    assert sit["error"]["code"] == "tournament_seat"
    async with server.database.sessions() as session:
        assert (await ledger.audit(session)).balanced


async def test_admins_create_and_cancel_tournaments_over_rest_and_entries_are_refunded(
    server: LiveServer, players: Accounts, http: httpx.AsyncClient
) -> None:
    admin, player = await players.admin(), await players.player(verified=False)
    body = {"name": "Sit & go 4", "kind": "sit_and_go", "table_size": 4, "buy_in": 100,
            "fee": 10, "bots": 2}

    refused = await http.post("/admin/tournaments", json=body, headers=player.headers)
    invalid = await http.post("/admin/tournaments", headers=admin.headers,
                              json={**body, "kind": "multi_table"})
    created = await http.post("/admin/tournaments", json=body, headers=admin.headers)

    assert refused.status_code == 403 and invalid.status_code == 422
    assert created.status_code == 201, created.text
    tournament = created.json()
    assert (tournament["entrants"], tournament["prize_pool"], tournament["payouts"]) == (
        2, 200, [200])
    assert tournament["structure"]["name"] == "turbo"
    tid = tournament["id"]
    house = await server.realtime.host.services.store.house()
    async with server.database.sessions() as session:
        before = await session.scalar(select(User.balance).where(User.id == house))
    cancelled = await http.post(f"/admin/tournaments/{tid}/cancel", headers=admin.headers)
    again = await http.post(f"/admin/tournaments/{tid}/cancel", headers=admin.headers)

    assert cancelled.json()["status"] == "cancelled"
    assert again.status_code == 409 and again.json()["error"]["code"] == "wrong_tournament_state"
    assert (await http.get("/tournaments")).json() == {"data": [], "count": 0}
    async with server.database.sessions() as session:
        after = await session.scalar(select(User.balance).where(User.id == house))
        assert after == (before or 0) + 2 * 110
        assert (await ledger.audit(session)).balanced


async def test_an_absent_player_is_dealt_in_and_blinded_away_until_they_come_back(
    settings: Settings, mailbox: Mailbox
) -> None:
    quick = realtime_settings(settings, action_seconds=0.3)
    async with live_server(quick) as server, httpx.AsyncClient(base_url=server.url) as http:
        service = server.app.state.tournaments.service
        slow = Structure(10_000, (Level(50, 100, 60),))
        tid = await service.create("Away", Rules(TournamentKind.SIT_AND_GO, slow, table_size=2,
                                                 buy_in=10), created_by=None)
        person = await Accounts(http, mailbox, server.app).player(verified=False)
        client = Client(server.url, person)
        await client.connect()
        try:
            await client.ok("tournament:register", {"tournament_id": tid})
            await service.register_bot(tid, "Ada")
            seat = await client.wait_for("user:notice",
                                         lambda n: n["kind"] == "tournament_seat")
            table_id, mine = seat["table_id"], seat["seat"]
            await client.ok("table:join", {"table_id": table_id})
            await client.wait_for("table:event", lambda d: is_event("player_sat_out")(d)
                                  and d["event"]["seat"] == mine)
            out_at = len(client.received)
            for _ in range(2):  # still dealt in, and folded or checked for at once
                started = await client.wait_for(
                    "table:event", is_event("hand_started", table_id), after=out_at)
                assert mine in [s["seat"] for s in started["event"]["seats"]]
                out_at = client.received.index(("table:event", started)) + 1
            table = server.realtime.host.live.get(table_id)
            assert table.state.players[mine].stack > 0 and not table.closed
            entry = next(e for e in service.get(tid).entries.values()
                         if e.player == f"user:{person.id}")
            assert entry.absent

            back = await client.ok("table:sit-in", {"table_id": table_id})
            assert back["status"] == "waiting_for_big_blind"
            # Back: given a clock again (an absent player is acted for without one).
            await client.wait_for("table:event", lambda d: is_event("player_timed_out")(d)
                                  and d["event"]["seat"] == mine, after=out_at)
        finally:
            await client.disconnect()


async def test_a_tournament_name_follows_the_text_policy(
    server: LiveServer, players: Accounts, http: httpx.AsyncClient
) -> None:
    admin = await players.admin()
    body = {"kind": "sit_and_go", "table_size": 4, "buy_in": 100}
    for name in ("nul\0", "\u202eevil", "   ", "two\nlines"):
        refused = await http.post("/admin/tournaments", headers=admin.headers,
                                  json={**body, "name": name})
        assert refused.status_code == 422, (name, refused.text)
    created = await http.post("/admin/tournaments", headers=admin.headers,
                              json={**body, "name": "  Ｆｒｉｄａｙ  "})
    assert created.status_code == 201, created.text
    assert created.json()["name"] == "Friday"
    assert (await http.get("/tournaments")).json()["count"] == 1


OUT_OF_RANGE = [
    {"starts_at": 1e300, "kind": "multi_table"},
    {"starts_at": -1e300, "kind": "multi_table"},
    {"starts_at": 2**70, "kind": "multi_table"},
    {"structure": {"starting_stack": 2**64, "periods": [
        {"kind": "level", "small_blind": 1, "big_blind": 2, "minutes": 10}]}},
    {"structure": {"starting_stack": 1000, "periods": [
        {"kind": "level", "small_blind": 2**63, "big_blind": 2**64, "minutes": 10}]}},
    {"structure": {"starting_stack": 1000, "periods": [
        {"kind": "level", "small_blind": 1, "big_blind": 2, "ante": 10**30, "minutes": 10}]}},
    {"structure": {"starting_stack": 1000, "periods": [
        {"kind": "level", "small_blind": 1, "big_blind": 2, "minutes": 2**64}]}},
    {"structure": {"starting_stack": 1000, "late_levels": 2**64, "periods": [
        {"kind": "level", "small_blind": 1, "big_blind": 2, "minutes": 10}]}},
    {"structure": {"starting_stack": 1000, "periods": [
        {"kind": "level", "small_blind": 1, "big_blind": 2, "minutes": 10},
        {"kind": "break", "minutes": 10**20}]}},
    {"structure": {"starting_stack": 1000, "periods": [
        {"kind": "level", "small_blind": 1, "big_blind": 2, "minutes": 10}] * 1_000}},
]


async def test_numbers_too_large_for_the_database_are_refused_before_anything_is_created(
    server: LiveServer, players: Accounts, http: httpx.AsyncClient
) -> None:
    admin = await players.admin()
    body = {"name": "Huge", "kind": "sit_and_go", "table_size": 4, "buy_in": 100}
    for changes in OUT_OF_RANGE:
        refused = await http.post("/admin/tournaments", headers=admin.headers,
                                  json={**body, **changes})
        assert refused.status_code == 422, (changes, refused.text)
        assert refused.json()["error"]["code"] == "invalid_payload"
    assert (await http.get("/tournaments")).json()["count"] == 0
    custom = {"starting_stack": 1500, "late_levels": 1, "periods": [
        {"kind": "level", "small_blind": 10, "big_blind": 20, "minutes": 10},
        {"kind": "break", "minutes": 5},
        {"kind": "level", "small_blind": 20, "big_blind": 40, "ante": 5, "minutes": 10}]}
    created = await http.post("/admin/tournaments", headers=admin.headers, json={
        **body, "kind": "multi_table", "structure": custom, "starts_at": time.time() + 3600})
    assert created.status_code == 201, created.text
    assert created.json()["structure"]["starting_stack"] == 1500


async def test_an_admin_cannot_close_a_tournament_table_and_the_tournament_plays_on(
    server: LiveServer, players: Accounts, http: httpx.AsyncClient
) -> None:
    admin = await players.admin()
    service = server.app.state.tournaments.service
    quick = Structure(100, (Level(25, 50, 10),))
    tid = await service.create("Closed?", Rules(TournamentKind.SIT_AND_GO, quick, table_size=2,
                                                buy_in=10), created_by=None)
    for name in ("Ada", "Alan"):
        await service.register_bot(tid, name)
    host, table = server.realtime.host, table_id(tid, 1)
    for _ in range(200):
        if table in host.live.tables:
            break
        await asyncio.sleep(0.05)

    refused = await http.post(f"/admin/tables/{table}/close", headers=admin.headers,
                              json={"reason": "tidying up"})

    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["code"] == "tournament_table"
    for _ in range(1200):
        over = (await http.get(f"/tournaments/{tid}")).json()
        if over["status"] == "finished":
            break
        await asyncio.sleep(0.05)
    assert over["status"] == "finished" and sum(p["prize"] for p in over["players"]) == 20
