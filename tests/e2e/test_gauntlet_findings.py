"""Cases the hostile-client gauntlet exercises, each on its own against a real server:
reserved event names are refused, a refused ``table:sit`` at a bot's seat sends the table's
watchers nothing and gives no seq number twice, and two tables reaching the house account at
once find the same one.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import func, select

from app.db import ledger
from app.db.engine import Database
from app.db.models import LedgerReason, User
from app.table.store import HOUSE_EMAIL, TableStore
from tests.conftest import Accounts
from tests.realtime.harness import Client, LiveServer

TABLE = {"name": "findings", "small_blind": 5, "big_blind": 10, "min_buy_in": 100,
         "max_buy_in": 2_000}


@pytest.mark.parametrize("name", ["disconnect", "connect"])
async def test_reserved_event_names_are_refused_and_change_nothing(
    server: LiveServer, players: Accounts, connect: Any, name: str
) -> None:
    client: Client = await connect(await players.player(verified=False))
    ack = await client.call(name, {"table_id": "x"})
    after = await client.call("table:create", TABLE)
    assert after["ok"], f"{name} -> {ack}, then table:create -> {after}"
    assert isinstance(ack, dict) and ack["error"]["code"] == "invalid_payload", ack


async def _broke(server: LiveServer, user_id: int) -> None:
    async with server.database.sessions() as session:
        user = await session.get(User, user_id)
        assert user is not None
        await ledger.debit(session, user_id, user.balance, reason=LedgerReason.ADMIN_ADJUSTMENT,
                           reference="no credits left")
        await session.commit()


async def test_a_refused_sit_at_a_bots_seat_sends_nothing_and_reuses_no_seq(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    watcher: Client = await connect(await players.player(verified=False))
    created = await watcher.ok("table:create", {**TABLE, "seats": 3, "bots": True,
                                                "bot_count": 1})
    table_id = created["table"]["table_id"]
    await watcher.ok("table:join", {"table_id": table_id})
    snapshot = await watcher.wait_for("table:snapshot")
    assert [s["seat"] for s in snapshot["seats"] if s["player"]["bot"]] == [2]
    broke = await players.player(verified=False)
    await _broke(server, broke.id)
    sitter: Client = await connect(broke)
    refused = await sitter.call("table:sit", {"table_id": table_id, "seat": 2, "buy_in": 500})
    assert refused["error"]["code"] == "insufficient_credits"
    chat = await watcher.ok("table:chat", {"table_id": table_id, "text": "still here?"})
    await watcher.wait_for("table:event", lambda e: e["seq"] == chat["seq"]
                           and e["event"]["type"] == "chat")
    kinds = [(d["seq"], d["event"]["type"]) for n, d in watcher.received if n == "table:event"]
    seqs = [seq for seq, _ in kinds]
    assert "player_left" not in [kind for _, kind in kinds], kinds
    assert seqs == sorted(set(seqs)), kinds


async def test_two_tables_settling_with_the_house_at_once_find_one_house(
    database: Database,
) -> None:
    # Two stores stand for two tables (or two processes) reaching the house at once.
    first, second = TableStore(database), TableStore(database)
    found = await asyncio.gather(first.house(), second.house())
    async with database.sessions() as session:
        houses = await session.scalar(
            select(func.count()).select_from(User).where(User.email == HOUSE_EMAIL))
    assert found[0] == found[1] and houses == 1, found


