"""Tables live and die sensibly: bots never hold one hostage, a player's tables are
bounded, quick seats share a table, idle tables close, the house bankroll is finite,
and private tables stay private."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import httpx
import pytest
import socketio
from sqlalchemy import func, select, update

from app.config import Settings
from app.db import ledger
from app.db.tables import TableRecord, TableStatus
from app.table.commands import Sit
from app.table.store import Movement
from tests.conftest import Accounts, Mailbox
from tests.realtime.harness import (
    Client,
    LiveServer,
    cluster_settings,
    is_event,
    live_server,
    realtime_settings,
)


async def _bot_table(client: Client, **config: Any) -> str:
    created = await client.ok("table:create", {
        "name": "bots", "small_blind": 5, "big_blind": 10, "seats": 3, "bots": True,
        "bot_count": 2, "bot_style": "tight", **config})
    return str(created["table"]["table_id"])


async def test_a_player_who_sits_where_only_bots_play_is_dealt_in(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    first: Client = await connect(await players.player(verified=False))
    table_id = await _bot_table(first, action_seconds=0.2)  # the first player times out
    await first.ok("table:sit", {"table_id": table_id, "seat": 0, "buy_in": 500})
    # Two hands move the button to seat 1; bots alone then put the big blind on seat 2.
    await first.wait_for("table:event", lambda d: is_event("hand_started", table_id)(d)
                         and d["event"]["number"] == 2, timeout=30)
    await first.ok("table:leave", {"table_id": table_id})
    await first.wait_for("table:event", lambda d: is_event("player_left", table_id)(d)
                         and d["event"]["seat"] == 0)
    # Only bots are left: the button stays where it was and no hand is dealt.
    second: Client = await connect(await players.player(verified=False))
    await second.ok("table:sit", {"table_id": table_id, "seat": 0, "buy_in": 500})
    started = await second.wait_for(
        "table:event", lambda d: is_event("hand_started", table_id)(d)
        and 0 in [s["seat"] for s in d["event"]["seats"]])
    assert started["event"]["number"] == 3


async def test_a_player_may_open_only_a_few_tables(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    client: Client = await connect(await players.player(verified=False))
    limit = server.realtime.settings.max_open_tables_per_user
    for number in range(limit):
        await client.ok("table:create", {"name": f"t{number}", "small_blind": 1,
                                         "big_blind": 2})
    refused = await client.call("table:create", {"name": "one more", "small_blind": 1,
                                                 "big_blind": 2})
    assert refused["error"]["code"] == "table_limit"
    assert refused["error"]["limit"] == limit
    assert len(await server.realtime.host.listing.tables()) == limit


async def _open_tables_of(server: LiveServer, user_id: int) -> int:
    async with server.database.sessions() as session:
        return int(await session.scalar(
            select(func.count()).select_from(TableRecord)
            .where(TableRecord.owner_id == user_id,
                   TableRecord.status == TableStatus.OPEN)) or 0)


async def test_table_creations_sent_at_once_open_no_more_tables_than_the_limit(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    person = await players.player(verified=False)
    clients: list[Client] = [await connect(person) for _ in range(3)]
    limit = server.realtime.settings.max_open_tables_per_user
    acks = await asyncio.gather(*(clients[n % 3].call("table:create", {
        "name": f"t{n}", "small_blind": 1, "big_blind": 2}) for n in range(12)))
    assert sum(ack["ok"] for ack in acks) == limit, acks
    assert {ack["error"]["code"] for ack in acks if not ack["ok"]} == {"table_limit"}
    assert await _open_tables_of(server, person.id) == limit
    assert len(await server.realtime.host.listing.tables()) == limit


@pytest.mark.redis
async def test_the_open_table_limit_holds_across_processes(
    settings: Settings, mailbox: Mailbox
) -> None:
    # Two processes of one site: one database, one Redis channel.
    shared = cluster_settings(settings)
    async with live_server(shared) as first, live_server(shared) as second, \
            httpx.AsyncClient(base_url=first.url) as http:
        person = await Accounts(http, mailbox, first.app).player(verified=False)
        clients = [await Client(server.url, person).connect()
                   for server in (first, second) for _ in range(3)]
        try:
            acks = await asyncio.gather(*(clients[n % 6].call("table:create", {
                "name": f"t{n}", "small_blind": 1, "big_blind": 2}) for n in range(12)))
            limit = shared.max_open_tables_per_user
            assert sum(ack["ok"] for ack in acks) == limit, acks
            assert {ack["error"]["code"] for ack in acks if not ack["ok"]} == {"table_limit"}
            assert await _open_tables_of(first, person.id) == limit
        finally:
            for client in clients:
                await client.disconnect()


async def test_players_asking_for_a_quick_seat_at_once_share_one_new_table(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    clients: list[Client] = [await connect(await players.player(verified=False))
                             for _ in range(5)]
    acks = await asyncio.gather(*(c.call("table:quick-seat", {
        "small_blind": 7, "big_blind": 14, "bots": False}) for c in clients))
    assert all(ack["ok"] for ack in acks), acks
    assert len({ack["table_id"] for ack in acks}) == 1
    assert sorted(ack["seat"] for ack in acks) == [0, 1, 2, 3, 4]


async def test_tables_a_player_left_to_the_bots_after_quick_seats_are_not_theirs(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    person = await players.player(verified=False)
    client: Client = await connect(person)
    limit = server.realtime.settings.max_open_tables_per_user
    left = []
    for blinds in range(1, limit + 2):
        seated = await client.ok("table:quick-seat", {"small_blind": blinds,
                                                      "big_blind": 2 * blinds})
        await client.ok("table:leave", {"table_id": seated["table_id"]})
        left.append(seated["table_id"])
    # Still open, the bots playing on; but none of them is this player's.
    assert {t["table_id"] for t in await server.realtime.host.listing.tables()} >= set(left)
    assert await _open_tables_of(server, person.id) == 0
    assert (await client.ok("lobby:mine"))["tables"] == []
    for number in range(limit):
        await client.ok("table:create", {"name": f"mine {number}", "small_blind": 1,
                                         "big_blind": 2})
    refused = await client.call("table:close", {"table_id": left[0]})
    assert refused["error"]["code"] == "not_your_table", refused


async def test_a_quick_seat_that_cannot_seat_the_player_leaves_no_table_behind(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    person = await players.player(verified=False)
    client: Client = await connect(person)
    await client.ok("lobby:list")
    for _ in range(4):
        # A 20,000 buy-in (100 big blinds) from a balance of 10,000.
        refused = await client.call("table:quick-seat", {"small_blind": 100, "big_blind": 200})
        assert refused["error"]["code"] == "insufficient_credits", refused
    assert await server.realtime.host.listing.tables() == []
    assert await _open_tables_of(server, person.id) == 0
    opened = [e for e, d in client.received if e == "lobby:table"]
    removed = [d["table_id"] for e, d in client.received if e == "lobby:table-removed"]
    assert len(removed) == len({d["table_id"] for e, d in client.received
                                if e == "lobby:table"}) >= 1, (opened, removed)
    for number in range(server.realtime.settings.max_open_tables_per_user):
        await client.ok("table:create", {"name": f"t{number}", "small_blind": 1,
                                         "big_blind": 2})


async def test_the_player_who_opened_a_table_closes_it_while_nobody_sits_there(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    opener: Client = await connect(await players.player(verified=False))
    other: Client = await connect(await players.player(verified=False))
    created = await opener.ok("table:create", {"name": "mine", "small_blind": 1,
                                               "big_blind": 2})
    table_id = created["table"]["table_id"]
    await opener.ok("lobby:list")
    refused = await other.call("table:close", {"table_id": table_id})
    assert refused["error"]["code"] == "not_your_table", refused
    await other.ok("table:sit", {"table_id": table_id, "seat": 0, "buy_in": 100})
    busy = await opener.call("table:close", {"table_id": table_id})
    assert busy["error"]["code"] == "table_in_use", busy
    assert (await other.ok("table:leave", {"table_id": table_id}))["cashed_out"] == 100
    assert await opener.ok("table:close", {"table_id": table_id}) == {
        "ok": True, "table_id": table_id, "paid_out": 0}
    await opener.wait_for("lobby:table-removed", lambda d: d["table_id"] == table_id)
    gone = await opener.call("table:close", {"table_id": table_id})
    assert gone["error"]["code"] == "table_not_found"
    # A table only bots play at closes too: their stacks go back to the house.
    bots = await _bot_table(opener)
    await opener.ok("table:join", {"table_id": bots})
    snapshot = await opener.wait_for("table:snapshot", lambda d: d["table_id"] == bots)
    if not snapshot["seats"]:
        await opener.wait_for("table:event", is_event("player_sat", bots))
    await opener.ok("table:close", {"table_id": bots})
    assert await server.realtime.host.listing.tables() == []
    async with server.database.sessions() as session:
        assert await ledger.escrowed_at(session, bots) == 0


async def test_a_sit_that_waited_behind_the_close_of_its_table_is_refused_and_costs_nothing(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    opener: Client = await connect(await players.player(verified=False))
    player = await players.player(verified=False)
    sitter: Client = await connect(player)
    created = await opener.ok("table:create", {"name": "closing", "small_blind": 1,
                                               "big_blind": 2})
    table_id = created["table"]["table_id"]
    before = await server.balance(player.id)
    # The close is held in its commit until the sit has queued behind it.
    store, live = server.realtime.host.services.store, server.realtime.host.live.get(table_id)
    closing, close_goes_on, sit_queued = asyncio.Event(), asyncio.Event(), asyncio.Event()
    commit, ask = store.commit, live.ask

    async def held_close(table: str, movement: Movement, state: dict[str, Any],
                         **fence: Any) -> Any:
        if movement.closing:
            closing.set()
            await close_goes_on.wait()
        return await commit(table, movement, state, **fence)

    async def noted_ask(command: Any) -> Any:
        if isinstance(command, Sit):
            sit_queued.set()  # set before the ask queues it, seen by the test only after
        return await ask(command)

    store.commit = held_close  # type: ignore[method-assign]
    live.ask = noted_ask  # type: ignore[method-assign]
    close = asyncio.create_task(opener.call("table:close", {"table_id": table_id}))
    await closing.wait()
    sit = asyncio.create_task(sitter.call("table:sit", {"table_id": table_id, "seat": 0,
                                                        "buy_in": 100}))
    await sit_queued.wait()
    close_goes_on.set()
    assert (await close)["ok"]
    refused = await sit
    assert refused["ok"] is False and refused["error"]["code"] == "table_closed", refused
    assert await server.balance(player.id) == before
    async with server.database.sessions() as session:
        assert await ledger.escrowed_at(session, table_id) == 0


async def test_a_player_lists_the_tables_they_opened_or_sit_at(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    alice: Client = await connect(await players.player(verified=False))
    bob: Client = await connect(await players.player(verified=False))
    ids = {}
    for client, name in ((alice, "a1"), (alice, "a2"), (bob, "b1")):
        created = await client.ok("table:create", {"name": name, "small_blind": 1,
                                                   "big_blind": 2})
        ids[name] = created["table"]["table_id"]
    await alice.ok("table:sit", {"table_id": ids["b1"], "seat": 3, "buy_in": 100})
    mine = (await alice.ok("lobby:mine"))["tables"]
    assert [(t["table_id"], t["opened"], t["seat"], t["closable"]) for t in mine] == [
        (ids["a1"], True, None, True), (ids["a2"], True, None, True),
        (ids["b1"], False, 3, False)]
    assert mine[2]["seated"] == 1 and mine[2]["tournament"] is None
    theirs = (await bob.ok("lobby:mine"))["tables"]
    assert [(t["table_id"], t["opened"], t["seat"], t["closable"]) for t in theirs] == [
        (ids["b1"], True, None, False)]
    anonymous: Client = await connect()
    assert (await anonymous.call("lobby:mine"))["error"]["code"] == "not_authenticated"


async def _knows(server: LiveServer, other: LiveServer) -> None:
    peer = other.realtime.host.leases.process_id
    deadline = asyncio.get_running_loop().time() + 10
    while peer not in server.realtime.host.ownership.alive:
        assert asyncio.get_running_loop().time() < deadline, "the processes never met"
        await asyncio.sleep(0.05)


@pytest.mark.redis
async def test_a_player_finds_and_closes_their_tables_on_any_process(
    settings: Settings, mailbox: Mailbox
) -> None:
    shared = cluster_settings(settings)
    async with live_server(shared) as first, live_server(shared) as second, \
            httpx.AsyncClient(base_url=first.url) as http:
        person = await Accounts(http, mailbox, first.app).player(verified=False)
        here, there = (await Client(first.url, person).connect(),
                       await Client(second.url, person).connect())
        try:
            # Each process learns of the other at its next heartbeat.
            await _knows(first, second)
            await _knows(second, first)
            near = (await here.ok("table:create", {"name": "near", "small_blind": 1,
                                                   "big_blind": 2}))["table"]["table_id"]
            far = (await there.ok("table:create", {"name": "far", "small_blind": 1,
                                                   "big_blind": 2}))["table"]["table_id"]
            assert set(first.realtime.host.live.tables) == {near}
            assert set(second.realtime.host.live.tables) == {far}
            mine = (await here.ok("lobby:mine"))["tables"]
            assert [(t["table_id"], t["closable"]) for t in mine] == [(far, True),
                                                                       (near, True)]
            await here.ok("table:close", {"table_id": far})
            assert [t["table_id"] for t in (await there.ok("lobby:mine"))["tables"]] == [near]
        finally:
            await here.disconnect()
            await there.disconnect()


async def test_a_player_sits_at_a_bounded_number_of_tables_and_connects_a_bounded_number_of_times(
    settings: Settings, mailbox: Mailbox
) -> None:
    tuned = realtime_settings(settings, max_seated_tables_per_user=1, max_sockets_per_user=2)
    async with live_server(tuned) as server, httpx.AsyncClient(base_url=server.url) as http:
        person = await Accounts(http, mailbox, server.app).player(verified=False)
        clients = [await Client(server.url, person).connect() for _ in range(2)]
        try:
            refused = Client(server.url, person)
            errors: list[Any] = []
            refused.sio.on("connect_error", errors.append)
            with pytest.raises(socketio.exceptions.ConnectionError):
                await refused.connect()
            assert errors[0]["data"]["code"] == "table_limit"
            ids = []
            for name in ("a", "b"):
                created = await clients[0].ok("table:create", {"name": name, "small_blind": 1,
                                                               "big_blind": 2})
                ids.append(created["table"]["table_id"])
            await clients[0].ok("table:sit", {"table_id": ids[0], "seat": 0, "buy_in": 100})
            ack = await clients[1].call("table:sit", {"table_id": ids[1], "seat": 0,
                                                      "buy_in": 100})
            assert ack["error"]["code"] == "table_limit"
        finally:
            for client in clients:
                await client.disconnect()


async def test_a_table_nobody_plays_at_closes_and_leaves_the_lobby(
    settings: Settings, mailbox: Mailbox
) -> None:
    tuned = realtime_settings(settings, table_idle_seconds=0.5)
    async with live_server(tuned) as server, httpx.AsyncClient(base_url=server.url) as http:
        person = await Accounts(http, mailbox, server.app).player(verified=False)
        client = await Client(server.url, person).connect()
        try:
            await client.ok("lobby:list")
            table_id = await _bot_table(client)
            played = await _bot_table(client)
            await client.ok("table:sit", {"table_id": played, "seat": 0, "buy_in": 500})
            removed = await client.wait_for("lobby:table-removed",
                                            lambda d: d["table_id"] == table_id, timeout=20)
            assert removed == {"table_id": table_id}
            listed = await server.realtime.host.listing.tables()
            assert [t["table_id"] for t in listed] == [played]
            async with server.database.sessions() as session:
                # The bots' stacks went back to the house.
                assert await ledger.escrowed_at(session, table_id) == 0
                assert (await ledger.audit(session)).balanced
        finally:
            await client.disconnect()


async def test_bots_sit_only_while_the_house_can_pay_and_an_admin_funds_it(
    settings: Settings, mailbox: Mailbox
) -> None:
    # The whole bankroll may be at one table here: only covering the buy-ins counts.
    tuned = realtime_settings(settings, house_initial_bankroll=1_500, house_table_share=1.0)
    async with live_server(tuned) as server, httpx.AsyncClient(base_url=server.url) as http:
        accounts = Accounts(http, mailbox, server.app)
        admin = await accounts.admin()
        client = await Client(server.url, await accounts.player(verified=False)).connect()
        try:
            table_id = await _bot_table(client, max_buy_in=1000)
            await client.ok("table:join", {"table_id": table_id})
            snapshot = await client.wait_for("table:snapshot")
            assert len(snapshot["seats"]) == 1  # the house had 1,500: one bot of 1,000
            house = (await http.get("/admin/house", headers=admin.headers)).json()
            assert house["balance"] == 500 and house["at_tables"] == 1000
            assert house["funded"] == 1_500 and house["result"] == 0
            funded = await http.post("/admin/house/credits", headers=admin.headers,
                                     json={"amount": 5_000, "reason": "more bots"})
            assert funded.status_code == 200, funded.text
            assert funded.json()["balance"] == 5_500
            log = (await http.get("/admin/audit-log", headers=admin.headers)).json()
            assert log["items"][0]["action"] == "fund_house"
            second = await _bot_table(client, max_buy_in=1000)
            await client.ok("table:join", {"table_id": second})
            snapshot = await client.wait_for("table:snapshot",
                                             lambda s: s["table_id"] == second)
            assert len(snapshot["seats"]) == 2
        finally:
            await client.disconnect()


async def test_an_uninvited_user_can_neither_chat_at_nor_wait_for_a_private_table(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    owner: Client = await connect(await players.player(verified=False))
    created = await owner.ok("table:create", {"name": "private", "small_blind": 1,
                                              "big_blind": 2, "seats": 2, "private": True})
    table_id, code = created["table"]["table_id"], created["invite_code"]
    for seat in range(2):
        guest: Client = await connect(await players.player(verified=False))
        await guest.ok("table:sit", {"table_id": table_id, "seat": seat, "buy_in": 100,
                                     "invite_code": code})
    stranger: Client = await connect(await players.player(verified=False))
    chat = await stranger.call("table:chat", {"table_id": table_id, "text": "hello"})
    assert chat["error"]["code"] == "invite_required"
    wait = await stranger.call("table:wait", {"table_id": table_id})
    assert wait["error"]["code"] == "invite_required"
    assert server.realtime.host.live.get(table_id).state.waiting == []
    await stranger.ok("table:join", {"table_id": table_id, "invite_code": code})
    assert (await stranger.ok("table:wait", {"table_id": table_id}))["position"] == 1


async def test_a_second_process_on_the_same_database_runs_no_tables(
    settings: Settings, mailbox: Mailbox
) -> None:
    tuned = realtime_settings(settings)
    async with live_server(tuned) as first, httpx.AsyncClient(base_url=first.url) as http:
        person = await Accounts(http, mailbox, first.app).player(verified=False)
        async with live_server(tuned) as second:
            assert first.realtime.host.live.running and not second.realtime.host.live.running
            health = (await http.get(f"{second.url}/health")).json()
            assert health["tables"] == "elsewhere"
            client = await Client(second.url, person).connect()
            try:
                ack = await client.call("table:create", {"name": "x", "small_blind": 1,
                                                         "big_blind": 2})
                assert ack["error"]["code"] == "tables_elsewhere"
                assert (await client.ok("lobby:list"))["tables"] == []
            finally:
                await client.disconnect()
        client = await Client(first.url, person).connect()
        try:
            await client.ok("table:create", {"name": "y", "small_blind": 1, "big_blind": 2})
        finally:
            await client.disconnect()


async def _health(url: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url) as http:
        body: dict[str, Any] = (await http.get("/health")).json()
        return body


async def _eventually(probe: Any, what: str) -> None:
    for _ in range(400):
        if await probe():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


async def test_the_second_process_takes_the_tables_when_the_first_stops(
    settings: Settings, mailbox: Mailbox
) -> None:
    tuned = realtime_settings(settings, heartbeat_seconds=0.2)
    async with contextlib.AsyncExitStack() as later:
        async with live_server(tuned) as first:
            async with httpx.AsyncClient(base_url=first.url) as http:
                person = await Accounts(http, mailbox, first.app).player(verified=False)
            client = await Client(first.url, person).connect()
            created = await client.ok("table:create", {"name": "kept", "small_blind": 1,
                                                       "big_blind": 2})
            table_id = created["table"]["table_id"]
            await client.disconnect()
            second = await later.enter_async_context(live_server(tuned))
            assert (await _health(second.url))["tables"] == "elsewhere"
        # The first process stopped and let the table lock go.

        async def took_over() -> bool:
            health = await _health(second.url)
            return bool(health["tables"] == "running" and health["leases"] == 1)

        await _eventually(took_over, "the second process runs the tables")
        client = await Client(second.url, person).connect()
        try:
            joined = await client.ok("table:join", {"table_id": table_id})
            assert joined["table_id"] == table_id
        finally:
            await client.disconnect()


async def test_health_counts_only_the_leases_the_process_still_holds(
    server: LiveServer, players: Accounts, connect: Any, database: Any
) -> None:
    owner: Client = await connect(await players.player(verified=False))
    table_id = (await owner.ok("table:create", {"name": "moved", "small_blind": 1,
                                                "big_blind": 2}))["table"]["table_id"]
    assert (await _health(server.url))["leases"] == 1
    # Another process takes the table (its token moves on): this one holds no lease now.
    async with database.engine.begin() as connection:
        await connection.execute(
            update(TableRecord).where(TableRecord.id == table_id)
            .values(lease_owner="another-process", lease_token=TableRecord.lease_token + 1))
    assert (await _health(server.url))["leases"] == 0
