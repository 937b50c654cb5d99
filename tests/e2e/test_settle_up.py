"""A table's settle-up over REST: each player's buy-ins, top-ups, cash-outs, chips at the
table and net, and the fewest payments that settle the night, built from the ledger."""

from __future__ import annotations

import asyncio
import csv
import io
from typing import Any

import httpx

from tests.conftest import Accounts
from tests.realtime.harness import Client, LiveServer, is_event, seat_players


async def test_the_host_and_the_players_read_who_pays_whom_and_nobody_else_does(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    server.decks.stack_seats({0: "AsAh", 1: "KsKh", 2: "QsQh"}, "2c3d4h9s8c")
    table = await seat_players(players, connect, [500, 500, 300])
    host, ann, bob = table.players[0], table.players[1], table.players[2]
    await table.act("all_in")
    await table.act("call")
    await table.act("call")
    await table.hand_ended()
    # Aces take every chip; Ann buys back in for 400 and the host goes home with 1,300.
    await table.seats[1].ok("table:sit", {"table_id": table.id, "seat": 1, "buy_in": 400})
    left = await table.seats[0].ok("table:leave", {"table_id": table.id})
    assert left["cashed_out"] == 1300

    ledger = await http.get(f"/tables/{table.id}/ledger", headers=host.headers)
    assert ledger.status_code == 200, ledger.text
    body = ledger.json()
    assert (body["table_id"], body["open"]) == (table.id, True)
    lines = {line["name"]: line for line in body["lines"]}
    assert lines[host.display_name] == {
        "name": host.display_name, "public_id": host.public_id, "house": False, "buy_ins": 1,
        "bought_in": 500, "cashed_out": 1300, "at_table": 0, "net": 800}
    assert (lines[ann.display_name]["buy_ins"], lines[ann.display_name]["bought_in"],
            lines[ann.display_name]["at_table"], lines[ann.display_name]["net"]) == (
        2, 900, 400, -500)
    assert lines[bob.display_name]["net"] == -300
    assert sum(line["net"] for line in body["lines"]) == 0
    assert sorted((t["payer"], t["payee"], t["amount"]) for t in body["transfers"]) == sorted([
        (ann.display_name, host.display_name, 500), (bob.display_name, host.display_name, 300)])

    as_csv = await http.get(f"/tables/{table.id}/ledger.csv", headers=bob.headers)
    assert as_csv.status_code == 200 and as_csv.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(as_csv.text)))
    assert rows[0] == ["player", "buy_ins", "bought_in", "cashed_out", "at_table", "net"]
    assert [host.display_name, "1", "500", "1300", "0", "800"] in rows
    assert [ann.display_name, host.display_name, "500"] in rows

    stranger = await players.player(verified=False)
    for path in (f"/tables/{table.id}/ledger", f"/tables/{table.id}/ledger.csv",
                 "/tables/000000000000/ledger"):
        refused = await http.get(path, headers=stranger.headers)
        assert refused.status_code == 404, refused.text
        assert refused.json()["error"]["code"] == "table_not_found"
    assert (await http.get(f"/tables/{table.id}/ledger")).status_code == 401
    admin = await players.admin()
    assert (await http.get(f"/tables/{table.id}/ledger", headers=admin.headers)).json() == body


async def fold_until_a_hand_ends(client: Client, table_id: str) -> None:
    """Fold at each turn of this client's until a hand has ended."""
    ended = is_event("hand_ended", table_id)
    folded: set[int] = set()
    for _ in range(600):
        if any(name == "table:event" and ended(data) for name, data in client.received):
            return
        for name, data in list(client.received):
            if name == "table:turn" and data.get("legal_actions") and data["seq"] not in folded:
                folded.add(data["seq"])
                await client.ok("table:action", {"table_id": table_id,
                                                 "hand_id": data["hand_id"], "type": "fold"})
        await asyncio.sleep(0.05)
    raise AssertionError("no hand ended")


async def test_the_bots_results_are_the_houses_line_and_settle_with_the_people(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    host = await players.player(verified=False)
    client = await connect(host)
    created = await client.ok("table:create", {
        "name": "with bots", "small_blind": 5, "big_blind": 10, "bots": True, "bot_count": 2})
    table_id = created["table"]["table_id"]
    await client.ok("table:sit", {"table_id": table_id, "seat": 0, "buy_in": 1000})
    await fold_until_a_hand_ends(client, table_id)
    await client.ok("table:leave", {"table_id": table_id})
    body = (await http.get(f"/tables/{table_id}/ledger", headers=host.headers)).json()
    (house,) = [line for line in body["lines"] if line["house"]]
    (mine,) = [line for line in body["lines"] if not line["house"]]
    assert house["name"] == "The house (bots)" and house["public_id"] is None
    assert house["buy_ins"] == 2 and mine["buy_ins"] == 1
    assert house["net"] + mine["net"] == 0
    expected = [] if mine["net"] == 0 else [abs(mine["net"])]
    assert [t["amount"] for t in body["transfers"]] == expected
