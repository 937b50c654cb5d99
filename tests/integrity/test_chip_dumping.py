"""Chip dumping end to end: two accounts from one device play at a real table, one feeds
the other its chips; the scan flags the pair, the admin claws the credits back through
the ledger, and the audit balances."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import select

from app.admin.audit import audit
from app.db.models import LedgerEntry, LedgerReason, User
from tests.conftest import Accounts
from tests.integrity.helpers import dump_hand, same_device
from tests.realtime.harness import LiveServer, PlayingTable


async def test_two_accounts_of_one_device_dumping_chips_are_flagged_and_clawed_back(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    admin = await players.admin()
    dumper, receiver = await players.player(), await players.player()
    await same_device(players, dumper, receiver)
    clients = [await connect(dumper), await connect(receiver)]
    created = await clients[0].ok("table:create", {
        "name": "dump", "small_blind": 5, "big_blind": 10, "min_buy_in": 100,
        "max_buy_in": 2000})
    table_id = created["table"]["table_id"]
    for seat, client in enumerate(clients):
        await client.ok("table:sit", {"table_id": table_id, "seat": seat, "buy_in": 1000})
    table = PlayingTable(table_id, dict(enumerate(clients)), {0: dumper, 1: receiver})
    ended = [await dump_hand(table, dumper=0) for _ in range(2)]
    hand_ids = {e["hand_id"] for e in ended}

    linked = (await http.get(f"/admin/users/{receiver.id}/linked",
                             headers=admin.headers)).json()
    assert [(i["user"]["id"], i["by"]) for i in linked["items"]] == [(dumper.id, "device")]

    flow = (await http.get("/admin/integrity/chip-flow", params={"user_id": dumper.id},
                           headers=admin.headers)).json()
    pair = flow["items"][0]
    assert (pair["from_user"]["id"], pair["to_user"]["id"]) == (dumper.id, receiver.id)
    assert pair["one_way"] == 1.0 and pair["linked"] and pair["hands"] == 2
    assert {link["id"] for link in pair["hand_links"]} == hand_ids
    assert pair["net"] >= 600

    scanned = (await http.post("/admin/integrity/scan", headers=admin.headers)).json()
    flag = next(f for f in scanned["items"] if f["kind"] == "chip_dumping")
    assert (flag["user"]["id"], flag["other_user"]["id"]) == (receiver.id, dumper.id)
    assert flag["evidence"]["linked_by"] == ["device"]
    assert flag["evidence"]["net"] == pair["net"]
    again = (await http.post("/admin/integrity/scan", headers=admin.headers)).json()
    assert all(f["kind"] != "chip_dumping" for f in again["items"])  # raised once

    await clients[1].ok("table:leave", {"table_id": table_id})  # the winnings to a balance
    async with server.database.sessions() as session:
        before = {u.id: u.balance for u in await session.scalars(
            select(User).where(User.id.in_([dumper.id, receiver.id])))}
    acted = await http.post(f"/admin/integrity/flags/{flag['id']}/action",
                            json={"claw_back": True, "ban": True,
                                  "ban_reason": "chip dumping"}, headers=admin.headers)
    assert acted.status_code == 200, acted.text
    result = acted.json()
    assert result["banned"] and result["flag"]["status"] == "actioned"
    moved = result["claw_back"]
    assert moved == {"from_user": receiver.id, "to_user": dumper.id, "amount": pair["net"],
                     "reference": f"flag:{flag['id']}"}
    async with server.database.sessions() as session:
        after = {u.id: u.balance for u in await session.scalars(
            select(User).where(User.id.in_([dumper.id, receiver.id])))}
        entries = list(await session.scalars(select(LedgerEntry).where(
            LedgerEntry.reason == LedgerReason.CLAWBACK)))
        report = await audit(server.database)
    assert after[receiver.id] == before[receiver.id] - pair["net"]
    assert after[dumper.id] == before[dumper.id] + pair["net"]
    assert sorted(e.amount for e in entries) == [-pair["net"], pair["net"]]
    assert report.balanced, report.describe()
    log = (await http.get("/admin/audit-log", headers=admin.headers)).json()["items"]
    assert log[0]["action"] == "integrity_action" and log[0]["details"]["clawed_back"] == \
        pair["net"]
    twice = await http.post(f"/admin/integrity/flags/{flag['id']}/dismiss",
                            headers=admin.headers)
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "flag_handled"
