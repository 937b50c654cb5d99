"""A raked table against a real server: only an admin opens one, and only public; its hands
pay the capped rake to the house in the commit that stores them (the summary, the ledger,
the house's balance and the economy report agree), once even when that commit fails or
its answer is lost, and the audit balances."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from sqlalchemy import func, select

from app.admin.audit import audit
from app.db import ledger
from app.db.models import LedgerEntry, LedgerReason, User
from app.db.tables import HandPlayer, HandRecord
from app.poker.phh import replay
from app.table.store import HOUSE_EMAIL
from tests.conftest import Accounts
from tests.e2e.test_chip_faults import FailingStore, LostAnswer
from tests.realtime.harness import Client, LiveServer, PlayingTable, is_event

RAKE = {"percent": 5, "caps": [{"players": 2, "cap": 8}, {"players": 3, "cap": 15}]}
TABLE = {"name": "raked", "seats": 6, "small_blind": 5, "big_blind": 10, "min_buy_in": 100,
         "max_buy_in": 2000}


async def _config(client: Client, table_id: str) -> dict[str, Any]:
    """The table's settings, as its snapshot gives them to a watcher."""
    await client.ok("table:join", {"table_id": table_id})
    snapshot = await client.wait_for("table:snapshot", lambda s: s["table_id"] == table_id)
    return snapshot["config"]  # type: ignore[no-any-return]


async def _raked_table(players: Accounts, connect: Any) -> PlayingTable:
    admin = await connect(await players.admin())
    created = await admin.ok("table:create", {**TABLE, "rake": RAKE})
    table_id = created["table"]["table_id"]
    assert created["table"]["rake"] == 5.0  # the lobby lists the rake's percentage
    assert (await _config(admin, table_id))["rake"] == {**RAKE, "percent": 5.0,
                                                        "no_flop_no_drop": True}
    people = [await players.player(verified=False) for _ in range(2)]
    clients = [await connect(person) for person in people]
    for seat, client in enumerate(clients):
        await client.ok("table:sit", {"table_id": table_id, "seat": seat, "buy_in": 1000})
    return PlayingTable(table_id, dict(enumerate(clients)), dict(enumerate(people)))


async def _to_the_end(table: PlayingTable) -> dict[str, Any]:
    """Check the hand down (mucking a beaten hand at the showdown); its ``hand_ended``."""
    ended = asyncio.create_task(table.hand_ended())
    while True:
        turn = asyncio.create_task(table.turn())
        await asyncio.wait({ended, turn}, return_when=asyncio.FIRST_COMPLETED)
        if ended.done():
            turn.cancel()
            return ended.result()  # type: ignore[no-any-return]
        choice = turn.result()
        legal = {a["action"] for a in choice["legal_actions"]}
        kind = "check" if "check" in legal else "muck" if "muck" in legal else "call"
        await table.seats[choice["seat"]].ok("table:action", {
            "table_id": table.id, "hand_id": choice["hand_id"], "type": kind})


async def test_a_raked_hand_pays_the_capped_rake_to_the_house_and_the_audit_balances(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    table = await _raked_table(players, connect)
    await table.act("call")
    await table.act("check")
    await table.act("bet", 100)  # on the flop
    await table.act("call")
    ended = await _to_the_end(table)
    # 5 % of the 220 called is 11, capped at 8 for two players dealt in.
    assert ended["event"]["rake"] == 8
    assert sum(ended["event"]["stacks"]) == 2000 - 8
    async with server.database.sessions() as session:
        record = await session.get(HandRecord, ended["hand_id"])
        assert record is not None and record.rake == 8
        assert record.summary["rake"] == 8 and record.summary["pot"] == 220
        assert sum(p["net"] for p in record.summary["players"]) == -8
        assert sum(p["rake"] for p in record.summary["pots"]) == 8
        nets = (await session.scalars(select(HandPlayer.net).where(
            HandPlayer.hand_id == record.id))).all()
        assert sorted(nets) == [-110, 102]  # the winner's result is after the rake
        house = await session.scalar(select(User).where(User.email == HOUSE_EMAIL))
        assert house is not None
        entries = (await session.scalars(select(LedgerEntry).where(
            LedgerEntry.reason == LedgerReason.RAKE))).all()
        assert [(e.user_id, e.amount, e.reference) for e in entries] == [
            (house.id, 8, table.id)]
        funded = await session.scalar(select(func.sum(LedgerEntry.amount)).where(
            LedgerEntry.user_id == house.id,
            LedgerEntry.reason == LedgerReason.HOUSE_FUNDING))
        assert house.balance == (funded or 0) + 8  # no bot sat here: only the rake came
    assert "_rake = 8" in record.phh and replay(record.phh).match
    report = await audit(server.database)
    assert report.balanced, report.describe()

    admin = await players.admin()
    economy = await http.get("/admin/economy?days=1", headers=admin.headers)
    assert economy.status_code == 200, economy.text
    (today,) = economy.json()["days"]
    assert (today["rake"], today["raked_hands"], today["bots_result"]) == (8, 1, 0)
    assert economy.json()["totals"]["rake"] == 8


async def test_a_hand_that_ends_before_the_flop_pays_no_rake(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await _raked_table(players, connect)
    await table.act("fold")
    ended = await table.hand_ended()
    assert ended["event"]["rake"] == 0 and sum(ended["event"]["stacks"]) == 2000
    async with server.database.sessions() as session:
        record = await session.get(HandRecord, ended["hand_id"])
        assert record is not None and record.rake == 0 and record.summary["rake"] == 0
        assert not (await session.scalars(select(LedgerEntry).where(
            LedgerEntry.reason == LedgerReason.RAKE))).all()


async def test_only_an_admin_rakes_and_only_a_public_table(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    player = await connect(await players.player(verified=False))
    refused = await player.call("table:create", {**TABLE, "rake": RAKE})
    assert refused["error"]["code"] == "rake_not_allowed", refused
    # A rake of 0 % is no rake: anyone may send it.
    plain = await player.ok("table:create", {**TABLE, "rake": {"percent": 0}})
    assert plain["table"]["rake"] == 0
    assert (await _config(player, plain["table"]["table_id"]))["rake"] is None
    admin = await connect(await players.admin())
    private = await admin.call("table:create", {**TABLE, "private": True, "rake": RAKE})
    assert private["error"]["code"] == "rake_not_allowed", private
    for bad in ({"percent": 10.5}, {"percent": 2.555}, {"percent": "5"},
                {"percent": 5, "caps": [{"players": 1, "cap": 3}]},
                {"percent": 5, "caps": [{"players": 2, "cap": 3}, {"players": 2, "cap": 4}]},
                {"percent": 5, "caps": [{"players": 2, "cap": -1}]},
                {"percent": 5, "extra": True}):
        answer = await admin.call("table:create", {**TABLE, "rake": bad})
        assert answer["error"]["code"] == "invalid_payload", (bad, answer)


async def _to_the_fold(table: PlayingTable) -> dict[str, Any]:
    """Raise to 100 and call before the flop, bet on the flop: the next turn (to fold) of
    a hand whose pot of 200 pays 8 (capped) when it ends."""
    await table.act("raise", 100)
    await table.act("call")
    await table.act("bet", 50)
    return await table.turn()


async def _rake_entries(server: LiveServer, table_id: str) -> list[int]:
    async with server.database.sessions() as session:
        return list((await session.scalars(select(LedgerEntry.amount).where(
            LedgerEntry.reason == LedgerReason.RAKE,
            LedgerEntry.reference == table_id))).all())


async def test_a_raked_hand_end_that_cannot_be_stored_pays_the_rake_once_when_it_is(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await _raked_table(players, connect)
    turn = await _to_the_fold(table)
    faults = FailingStore(server.realtime.host.services.store)
    faults.failing = lambda movement: movement.hand is not None
    actor = table.seats[turn["seat"]]
    fold = {"table_id": table.id, "hand_id": turn["hand_id"], "type": "fold"}
    ack = await actor.call("table:action", fold)
    assert ack["error"]["code"] == "service_unavailable"
    assert await _rake_entries(server, table.id) == []
    faults.failing = lambda _movement: False
    again = await actor.wait_for("table:turn", lambda t: t["seq"] > turn["seq"]
                                 and t["legal_actions"] is not None, timeout=20)
    assert again["hand_id"] == turn["hand_id"]
    await actor.ok("table:action", {**fold, "hand_id": again["hand_id"]})
    ended = await table.hand_ended()
    assert ended["event"]["rake"] == 8 and sum(ended["event"]["stacks"]) == 2000 - 8
    assert await _rake_entries(server, table.id) == [8]
    report = await audit(server.database)
    assert report.balanced, report.describe()


async def test_a_raked_hand_end_stored_though_its_commit_seemed_to_fail_pays_it_once(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await _raked_table(players, connect)
    turn = await _to_the_fold(table)
    fault = LostAnswer(server.realtime.host.services.store,
                       lambda movement: movement.hand is not None)
    seen = len(table.observer.received)
    ack = await table.seats[turn["seat"]].call("table:action", {
        "table_id": table.id, "hand_id": turn["hand_id"], "type": "fold"})
    assert ack["error"]["code"] == "service_unavailable", ack
    fault.down = False
    snapshot = await table.observer.wait_for(
        "table:snapshot", lambda s: s["table_id"] == table.id, after=seen, timeout=30)
    assert snapshot["hand_id"] is None
    assert sorted(s["stack"] for s in snapshot["seats"]) == [900, 1092]
    await table.observer.wait_for("table:event", lambda e: is_event("hand_started", table.id)(e)
                                  and e["hand_id"] != turn["hand_id"])
    live = server.realtime.host.live.get(table.id)
    async with server.database.sessions() as session:
        assert await ledger.escrowed_at(session, table.id) == live.state.escrowed() == 1992
        assert await session.scalar(select(func.count()).select_from(HandRecord).where(
            HandRecord.table_id == table.id)) == 1
    assert await _rake_entries(server, table.id) == [8]
    report = await audit(server.database)
    assert report.balanced, report.describe()
