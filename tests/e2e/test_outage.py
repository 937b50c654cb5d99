"""The database goes away under a real server (PostgreSQL refuses connections to its
database and ends its sessions), then comes back: nothing is lost, clients are told
clearly meanwhile, and every table plays on by itself, whatever it was doing when the
database went: waiting for a player, between two hands, or ending a hand on a time-out."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import socketio
from sqlalchemy.engine import make_url

from app.admin.audit import audit
from app.config import Settings
from app.db import ledger
from tests.conftest import Accounts, Mailbox, _postgres_admin, fresh_postgres_database
from tests.realtime.harness import (
    Client,
    LiveServer,
    PlayingTable,
    is_event,
    live_server,
    realtime_settings,
    seat_players,
)

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


@pytest.fixture
def own_postgres(postgres_template: str) -> Iterator[str]:
    """A PostgreSQL database of this test's own, migrated (so an outage hurts nobody else)."""
    with fresh_postgres_database("holdem_outage", template=postgres_template) as url:
        yield url


@pytest.fixture
def database_url(own_postgres: str) -> str:
    """The test settings' database is the test's own: these tests run on PostgreSQL only
    (not once per backend, which would be the same run twice)."""
    return own_postgres


class Outage:
    """Takes one PostgreSQL database away from its clients and gives it back."""

    def __init__(self, url: str) -> None:
        self.server = os.environ["TEST_DATABASE_URL"]
        self.name = make_url(url).database

    async def begin(self) -> None:
        await _postgres_admin(
            self.server, f'ALTER DATABASE "{self.name}" ALLOW_CONNECTIONS false',
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE datname = '{self.name}' AND pid <> pg_backend_pid()")

    async def end(self) -> None:
        await _postgres_admin(self.server,
                              f'ALTER DATABASE "{self.name}" ALLOW_CONNECTIONS true')


async def _reconciles(server: LiveServer) -> None:
    report = await audit(server.database)
    assert report.balanced, report.describe()


def _hands(table: PlayingTable, kinds: tuple[str, ...]) -> list[str]:
    """The hand ids of the table's events of these kinds, as its first seat saw them."""
    return [data["hand_id"] for name, data in table.observer.received
            if name == "table:event" and data["table_id"] == table.id
            and data["event"]["type"] in kinds]


async def _deals_again(table: PlayingTable, before: set[str], seconds: float = 30) -> str:
    """The id of the table's next new hand; meanwhile every player to act folds."""
    acted: set[int] = set()
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        if fresh := [h for h in _hands(table, ("hand_started",)) if h not in before]:
            return fresh[0]
        for client in table.seats.values():
            for name, data in list(client.received):
                if (name == "table:turn" and data["table_id"] == table.id
                        and data["legal_actions"] is not None and data["seq"] not in acted):
                    acted.add(data["seq"])
                    await client.call("table:action", {"table_id": table.id,
                                                       "hand_id": data["hand_id"],
                                                       "type": "fold"})
        await asyncio.sleep(0.1)
    raise AssertionError(f"table {table.id} dealt no new hand within {seconds}s "
                         f"(events: {[e['type'] for e in table.observer.events(table.id)][-15:]})")


async def test_a_database_outage_loses_nothing_and_tables_resume_by_themselves(
    settings: Settings, mailbox: Mailbox, own_postgres: str
) -> None:
    tuned = realtime_settings(settings, database_url=own_postgres)
    outage = Outage(own_postgres)
    clients: list[Client] = []
    async with live_server(tuned) as server, httpx.AsyncClient(base_url=server.url) as http:

        async def connect(player: Any) -> Client:
            client = await Client(server.url, player).connect()
            clients.append(client)
            return client

        accounts = Accounts(http, mailbox, server.app)
        try:
            table = await seat_players(accounts, connect, [1000, 1000, 1000])
            turn = await table.turn()
            actor = table.seats[turn["seat"]]
            leaver_seat = (turn["seat"] + 1) % 3
            await outage.begin()
            try:
                ack = await actor.call("table:action", {
                    "table_id": table.id, "hand_id": turn["hand_id"], "type": "call"})
                assert ack["error"]["code"] == "service_unavailable", ack
                left = await table.seats[leaver_seat].call("table:leave",
                                                           {"table_id": table.id})
                assert left["error"]["code"] == "service_unavailable", left
                me = await http.get("/users/me", headers=table.players[0].headers)
                assert me.status_code == 503 and me.headers["Retry-After"]
                assert me.json()["error"]["code"] == "service_unavailable"
                health = await http.get("/health")
                assert health.status_code == 503 and health.json()["database"] == "down"
                late = Client(server.url, table.players[0])
                refusals: list[Any] = []
                late.sio.on("connect_error", refusals.append)
                with pytest.raises(socketio.exceptions.ConnectionError):
                    await late.connect()
                assert refusals[0]["data"]["code"] == "service_unavailable"
                await asyncio.sleep(1.0)  # clocks are stopped: nobody times out meanwhile
            finally:
                await outage.end()
            again = await actor.wait_for("table:turn", lambda t: t["seq"] > turn["seq"]
                                         and t["legal_actions"] is not None, timeout=30)
            assert (again["hand_id"], again["seat"]) == (turn["hand_id"], turn["seat"])
            assert (await http.get("/health")).status_code == 200
            seen = [e for c in clients for e in c.events(table.id)]
            assert not [e for e in seen if e["type"] in ("player_timed_out", "hand_voided")]
            await actor.ok("table:action", {"table_id": table.id,
                                            "hand_id": again["hand_id"], "type": "fold"})
            table.last_turn = again["seq"]
            await table.act("fold")  # one of the other two folds too: the hand ends
            await table.hand_ended()
            leaver = table.seats[leaver_seat]
            left = await leaver.call("table:leave", {"table_id": table.id})
            assert left["ok"], left
            live = server.realtime.host.live.get(table.id)
            stacks = {p.seat: p.stack for p in live.state.players.values()}
            assert sum(stacks.values()) + (left["cashed_out"] or 0) == 3000
            await _reconciles(server)
            async with server.database.sessions() as session:
                assert await ledger.escrowed_at(session, table.id) == live.state.escrowed()
        finally:
            for client in clients:
                if client.sio.connected:
                    await client.disconnect()


async def test_every_table_deals_its_next_hand_after_an_outage_whatever_it_was_doing(
    settings: Settings, mailbox: Mailbox, own_postgres: str
) -> None:
    tuned = realtime_settings(settings, database_url=own_postgres, hand_start_delay_seconds=1.5)
    outage = Outage(own_postgres)
    clients: list[Client] = []
    async with live_server(tuned) as server, httpx.AsyncClient(base_url=server.url) as http:

        async def connect(player: Any) -> Client:
            client = await Client(server.url, player).connect()
            clients.append(client)
            return client

        accounts = Accounts(http, mailbox, server.app)
        try:
            waiting = await seat_players(accounts, connect, [1000, 1000])
            between = await seat_players(accounts, connect, [1000, 1000])
            # Its clock runs out during the outage: the time-out would end the hand.
            timing_out = await seat_players(accounts, connect, [1000, 1000], action_seconds=3)
            tables = (waiting, between, timing_out)
            turns = [await table.turn() for table in tables]
            await between.seats[turns[1]["seat"]].ok("table:action", {
                "table_id": between.id, "hand_id": turns[1]["hand_id"], "type": "fold"})
            await between.hand_ended()
            await outage.begin()  # the next hand of `between` is due in 1.5 s
            before = [set(_hands(table, ("hand_started",))) for table in tables]
            try:
                ack = await waiting.seats[turns[0]["seat"]].call("table:action", {
                    "table_id": waiting.id, "hand_id": turns[0]["hand_id"], "type": "call"})
                assert ack["error"]["code"] == "service_unavailable", ack
                await asyncio.sleep(4.0)  # past the next deal and the time-out
                # Each table met the outage its own way: a refused action, a deal that
                # could not be stored, a time-out that could not be stored.
                live = [server.realtime.host.live.get(table.id) for table in tables]
                assert [one.unavailable for one in live] == [True, True, True]
            finally:
                await outage.end()
            dealt = await asyncio.gather(*(_deals_again(table, hands)
                                           for table, hands in zip(tables, before, strict=True)))
            assert len(set(dealt)) == 3
            for table, new in zip(tables, dealt, strict=True):
                # Every earlier hand was played to its end or voided, and said so.
                closed = set(_hands(table, ("hand_ended", "hand_voided")))
                assert set(_hands(table, ("hand_started",))) - closed <= {new}, table.id
            assert (await http.get("/health")).status_code == 200
            await _reconciles(server)
        finally:
            for client in clients:
                if client.sio.connected:
                    await client.disconnect()


async def test_a_request_whose_read_meets_the_outage_is_refused_as_unavailable(
    settings: Settings, mailbox: Mailbox, own_postgres: str
) -> None:
    # Sitting at a table with bots reads what the person won from the house today (its
    # daily cap) on the table's task, before any chip moves: that read, not only a
    # write, is refused with service_unavailable while the database is away.
    tuned = realtime_settings(settings, database_url=own_postgres, house_daily_win_cap=1_000,
                              house_initial_bankroll=100_000)
    outage = Outage(own_postgres)
    async with live_server(tuned) as server, httpx.AsyncClient(base_url=server.url) as http:
        accounts = Accounts(http, mailbox, server.app)
        client = await Client(server.url, await accounts.player(verified=False)).connect()
        try:
            created = await client.ok("table:create", {
                "name": "with bots", "small_blind": 5, "big_blind": 10, "seats": 3,
                "bots": True, "bot_count": 1})
            table_id = created["table"]["table_id"]
            await client.ok("table:join", {"table_id": table_id})
            snapshot = await client.wait_for("table:snapshot",
                                             lambda s: s["table_id"] == table_id)
            if not snapshot["seats"]:
                await client.wait_for("table:event", is_event("player_sat", table_id))
            # The bot is seated: the table has nothing to store when the database goes.
            await server.realtime.host.live.get(table_id).caught_up()
            sit = {"table_id": table_id, "seat": 0, "buy_in": 500}
            await outage.begin()
            try:
                ack = await client.call("table:sit", sit)
                assert not ack["ok"] and ack["error"]["code"] == "service_unavailable", ack
                assert ack["error"]["retry_after"] > 0
                assert not server.realtime.host.live.get(table_id).state.players.get(0)
            finally:
                await outage.end()
            for _ in range(50):  # the pool's connections come back one by one
                ack = await client.call("table:sit", sit)
                if ack["ok"] or ack["error"]["code"] != "service_unavailable":
                    break
                await asyncio.sleep(0.2)
            assert ack["ok"], ack
            await _reconciles(server)
        finally:
            await client.disconnect()
