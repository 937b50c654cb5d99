"""The house, the bots' bankroll, is finite: it is granted its initial bankroll once, as an
audited ledger entry, only an admin adds to it, it never risks more than its share of the
bankroll at one table, and admins see what bots have won or lost. Against a real server."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
from sqlalchemy import func, select

from app.config import Settings
from app.db.tables import HandPlayer
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


@contextlib.asynccontextmanager
async def _playing(client: Client, table_id: str, *choices: str) -> AsyncIterator[None]:
    """While the block runs, answer each of the person's turns at the table with the first
    of ``choices`` that is legal."""
    async def answer() -> None:
        seen = 0
        while True:
            turn = await client.wait_for("table:turn", lambda t, last=seen: (
                t["table_id"] == table_id and t["legal_actions"] is not None
                and t["seq"] > last), timeout=3_600)
            seen = turn["seq"]
            kinds = [a["action"] for a in turn["legal_actions"]]
            await client.call("table:action", {
                "table_id": table_id, "hand_id": turn["hand_id"],
                "type": next(k for k in choices if k in kinds)})

    task = asyncio.create_task(answer())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def _hands_ended(client: Client, table_id: str, count: int) -> list[dict[str, Any]]:
    """The table's ``hand_started`` events once ``count`` hands have ended."""
    def ended() -> list[dict[str, Any]]:
        return [e for e in client.events(table_id) if e["type"] == "hand_ended"]

    await client.wait_for("table:event", lambda d: is_event("hand_ended", table_id)(d)
                          and len(ended()) >= count, timeout=30)
    return [e for e in client.events(table_id) if e["type"] == "hand_started"]


async def test_a_player_who_won_the_daily_cap_from_the_house_plays_no_more_against_bots(
    settings: Settings, mailbox: Mailbox
) -> None:
    cap = 5  # the bot's big blind is more: the first hand the person wins reaches it
    tuned = realtime_settings(settings, house_daily_win_cap=cap)
    async with live_server(tuned) as server, httpx.AsyncClient(base_url=server.url) as http:
        accounts = Accounts(http, mailbox, server.app)
        person, other = (await accounts.player(verified=False),
                         await accounts.player(verified=False))
        client, second = (await Client(server.url, person).connect(),
                          await Client(server.url, other).connect())
        try:
            created = await client.ok("table:create", {
                "name": "three-handed", "small_blind": 5, "big_blind": 10, "seats": 3,
                "bots": True, "bot_count": 1, "bot_style": "tight"})
            table_id = created["table"]["table_id"]
            await client.ok("table:join", {"table_id": table_id})
            snapshot = await client.wait_for("table:snapshot",
                                             lambda d: d["table_id"] == table_id)
            if not snapshot["seats"]:
                await client.wait_for("table:event", is_event("player_sat", table_id))
            # The person (seat 0, the button) holds aces and the board gives them quads; the
            # other person folds, the bot (seat 2, the big blind) loses at least its blind.
            server.decks.stack_seats({0: "AsAh", 1: "7c2d", 2: "8h3c"}, "AdAcKh4s9d",
                                     button=0)
            async with _playing(client, table_id, "all_in", "call", "check"), \
                    _playing(second, table_id, "fold", "check"):
                await client.ok("table:sit", {"table_id": table_id, "seat": 0,
                                              "buy_in": 500})
                await second.ok("table:sit", {"table_id": table_id, "seat": 1,
                                              "buy_in": 500})
                # The bot stands up with its stack (back to the house); the person is told.
                left = await client.wait_for("table:event", lambda d: is_event(
                    "player_left", table_id)(d) and d["event"]["player"]["bot"] is not None)
                assert left["event"]["seat"] == 2
                notice = await client.wait_for("user:notice",
                                               lambda n: n["kind"] == "house_cap_reached")
                assert notice["table_id"] == table_id and notice["cap"] == cap
                won = notice["won"]
                assert won >= cap
                # The two people play on without a bot while the person sits there.
                started = await _hands_ended(client, table_id, 2)
                assert [s["seat"] for s in started[1]["seats"]] == [0, 1]
                bots_sat = [e for e in client.events(table_id)
                            if e["type"] == "player_sat" and e["player"]["bot"] is not None]
                assert bots_sat == []  # the only bot sat before the person watched
                await second.ok("table:leave", {"table_id": table_id})
                gone = len(client.received)
                await client.ok("table:leave", {"table_id": table_id})
                cashed = await client.wait_for("user:notice",
                                               lambda n: n["kind"] == "cashed_out")
            # Once they have left, a bot sits there again.
            await client.wait_for("table:event", lambda d: is_event("player_sat", table_id)(d)
                                  and d["event"]["player"]["bot"] is not None, after=gone)
            # Another table with bots is closed to them today; one without bots is not.
            bots = (await second.ok("table:create", {
                "name": "more bots", "small_blind": 5, "big_blind": 10, "seats": 3,
                "bots": True, "bot_count": 1}))["table"]["table_id"]
            refused = await client.call("table:sit", {"table_id": bots, "seat": 0,
                                                      "buy_in": 500})
            assert refused["error"]["code"] == "house_cap_reached", refused
            assert (refused["error"]["cap"], refused["error"]["won"]) == (cap, won)
            assert refused["error"]["resets_at"] == notice["resets_at"]
            assert refused["error"]["resets_at"] % 86_400 == 0
            quick = await client.call("table:quick-seat", {"small_blind": 50, "big_blind": 100})
            assert quick["error"]["code"] == "house_cap_reached", quick
            await second.ok("table:sit", {"table_id": bots, "seat": 0, "buy_in": 500})
            plain = (await second.ok("table:create", {
                "name": "people only", "small_blind": 5, "big_blind": 10}))["table"]["table_id"]
            await client.ok("table:sit", {"table_id": plain, "seat": 0, "buy_in": 500})
            # The refused quick seat left no table behind.
            assert {t["name"] for t in await server.realtime.host.listing.tables()} == {
                "three-handed", "more bots", "people only"}
        finally:
            await client.disconnect()
            await second.disconnect()
        async with server.database.sessions() as session:
            results = (await session.execute(
                select(func.sum(HandPlayer.net), func.sum(HandPlayer.house_net))
                .where(HandPlayer.user_id == person.id))).one()
        # Nothing was taken back: the person left with every chip they won.
        assert cashed["amount"] == 500 + results[0]
        assert results[1] == won
