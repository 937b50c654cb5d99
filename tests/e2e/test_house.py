"""The house, the bots' bankroll, is finite: it is granted its initial bankroll once, as an
audited ledger entry, only an admin adds to it, it never risks more than its share of the
bankroll at one table, and admins see what bots have won or lost. Against a real server."""

from __future__ import annotations

from typing import Any

import httpx

from app.config import Settings
from tests.conftest import Accounts, Mailbox, Player
from tests.realtime.harness import Client, is_event, live_server, realtime_settings

BANKROLL = 100_000


async def _house(http: httpx.AsyncClient, admin: Player) -> dict[str, Any]:
    response = await http.get("/admin/house", headers=admin.headers)
    assert response.status_code == 200, response.text
    house: dict[str, Any] = response.json()
    return house


async def _bots_seated(client: Client, **config: Any) -> int:
    created = await client.ok("table:create", {"name": "stakes", "seats": 3, "bots": True,
                                               "bot_count": 2, **config})
    table_id = created["table"]["table_id"]
    await client.ok("table:join", {"table_id": table_id})
    snapshot = await client.wait_for("table:snapshot", lambda s: s["table_id"] == table_id)
    return sum(1 for seat in snapshot["seats"] if seat["player"]["bot"])


async def test_a_new_house_is_granted_its_initial_bankroll_once_and_only_admins_fund_it(
    settings: Settings, mailbox: Mailbox
) -> None:
    tuned = realtime_settings(settings, house_initial_bankroll=BANKROLL)
    for _ in range(2):  # a restart grants nothing again
        async with live_server(tuned) as server, \
                httpx.AsyncClient(base_url=server.url) as http:
            accounts = Accounts(http, mailbox, server.app)
            house = await _house(http, await accounts.admin())
            assert house["balance"] == BANKROLL and house["funded"] == BANKROLL
            assert house["result"] == 0 and house["table_share"] == tuned.house_table_share
            grants = [(g["amount"], g["reason"], g["reference"]) for g in house["grants"]]
            assert grants == [(BANKROLL, "house_funding", "initial bankroll")]
            player = await accounts.player(verified=False)
            refused = await http.post("/admin/house/credits", headers=player.headers,
                                      json={"amount": 1_000, "reason": "free money"})
            assert refused.status_code == 403, refused.text


async def test_bots_sit_only_where_the_houses_worst_case_is_within_its_share(
    settings: Settings, mailbox: Mailbox
) -> None:
    tuned = realtime_settings(settings, house_initial_bankroll=BANKROLL, house_table_share=0.1)
    async with live_server(tuned) as server, httpx.AsyncClient(base_url=server.url) as http:
        accounts = Accounts(http, mailbox, server.app)
        admin = await accounts.admin()
        client = await Client(server.url, await accounts.player(verified=False)).connect()
        try:
            # Two bots of 5,000: the worst case, 10,000, is a tenth of the bankroll.
            assert await _bots_seated(client, small_blind=25, big_blind=50,
                                      max_buy_in=5_000) == 2
            # Two of 20,000 would risk 40,000, one 20,000: more than 9,000 of 90,000 left.
            assert await _bots_seated(client, small_blind=100, big_blind=200,
                                      max_buy_in=20_000) == 0
            house = await _house(http, admin)
            assert house["balance"] == BANKROLL - 10_000 and house["at_tables"] == 10_000
            funded = await http.post("/admin/house/credits", headers=admin.headers,
                                     json={"amount": 310_000, "reason": "higher stakes"})
            assert funded.status_code == 200, funded.text
            # 400,000 now: one bot of 20,000 fits in 40,000, two would risk exactly that.
            assert await _bots_seated(client, small_blind=100, big_blind=200,
                                      max_buy_in=20_000) == 2
            house = await _house(http, admin)
            assert house["funded"] == BANKROLL + 310_000 and house["result"] == 0
            assert [g["reference"] for g in house["grants"]] == ["higher stakes",
                                                                  "initial bankroll"]
        finally:
            await client.disconnect()


async def test_admins_see_what_the_bots_won_from_people(
    settings: Settings, mailbox: Mailbox
) -> None:
    tuned = realtime_settings(settings, house_initial_bankroll=BANKROLL)
    async with live_server(tuned) as server, httpx.AsyncClient(base_url=server.url) as http:
        accounts = Accounts(http, mailbox, server.app)
        admin = await accounts.admin()
        person = await accounts.player(verified=False)
        before = (await http.get("/users/me", headers=person.headers)).json()["balance"]
        client = await Client(server.url, person).connect()
        try:
            created = await client.ok("table:create", {
                "name": "heads-up", "small_blind": 5, "big_blind": 10, "seats": 2,
                "bots": True, "bot_count": 1, "bot_style": "loose", "action_seconds": 0.3})
            table_id = created["table"]["table_id"]
            await client.ok("table:sit", {"table_id": table_id, "seat": 0, "buy_in": 500})
            # The person never acts: each hand they are dealt, they lose what they put in.
            await client.wait_for("table:event", is_event("hand_ended", table_id), timeout=30)
            await client.ok("table:leave", {"table_id": table_id})
            await client.wait_for("user:notice", lambda n: n["kind"] == "cashed_out")
        finally:
            await client.disconnect()
        after = (await http.get("/users/me", headers=person.headers)).json()["balance"]
        house = await _house(http, admin)
        assert after < before
        assert house["result"] == before - after
        assert house["balance"] + house["at_tables"] == BANKROLL + house["result"]
