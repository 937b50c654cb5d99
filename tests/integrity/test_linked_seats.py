"""Linked accounts kept apart: with SEPARATE_LINKED_ACCOUNTS a public cash table refuses a
seat to an account linked to one seated there (without saying which) and raises a
``linked_at_table`` flag; a private table allows it, and so does a table with no linked
account seated."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.config import Settings
from tests.conftest import Accounts
from tests.integrity.helpers import same_device
from tests.realtime.harness import LiveServer, live_server, realtime_settings

TABLE = {"name": "apart", "small_blind": 5, "big_blind": 10, "min_buy_in": 100,
         "max_buy_in": 2000}


@pytest.fixture
async def server(settings: Settings) -> AsyncIterator[LiveServer]:
    """The live server keeping linked accounts apart."""
    async with live_server(realtime_settings(settings, separate_linked_accounts=True)) as live:
        yield live


async def test_a_linked_account_is_refused_a_public_cash_seat_and_allowed_a_private_one(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    admin = await players.admin()
    first, second, stranger = (await players.player(), await players.player(),
                               await players.player())
    await same_device(players, first, second)
    one, two, other = (await connect(first), await connect(second), await connect(stranger))
    public = (await one.ok("table:create", TABLE))["table"]["table_id"]
    await one.ok("table:sit", {"table_id": public, "seat": 0, "buy_in": 500})

    refused = await two.call("table:sit", {"table_id": public, "seat": 1, "buy_in": 500})
    assert not refused["ok"]
    error = refused["error"]
    assert error["code"] == "linked_account_seated"
    assert first.display_name not in error["message"] and str(first.id) not in str(error)
    balance = (await http.get("/users/me", headers=second.headers)).json()["balance"]
    assert balance == 10_000  # nothing bought in
    await other.ok("table:sit", {"table_id": public, "seat": 1, "buy_in": 500})

    flags = (await http.get("/admin/integrity/flags", params={"kind": "linked_at_table"},
                            headers=admin.headers)).json()
    assert [(f["user"]["id"], f["other_user"]["id"], f["evidence"]["table_id"])
            for f in flags["items"]] == [(second.id, first.id, public)]

    created = await one.ok("table:create", {**TABLE, "private": True})
    private, code = created["table"]["table_id"], created["invite_code"]
    await one.ok("table:sit", {"table_id": private, "seat": 0, "buy_in": 500,
                               "invite_code": code})
    seated = await two.ok("table:sit", {"table_id": private, "seat": 1, "buy_in": 500,
                                        "invite_code": code})
    assert seated["balance"] == 9_500
