"""Tournaments on a real server, played by people over Socket.IO: a table that broke is
never opened again, a failing tournament stops no other, a moved player sits down at once,
a place is told only once it can no longer change, and an ICM deal is made between hands
by people only, voiding nothing."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
from sqlalchemy import select, update

from app.config import Settings
from app.db.tables import TableRecord, TableStatus
from app.poker.state import Stakes
from app.table.state import TableConfig, TableState
from app.tournaments.rules import Rules, TournamentKind
from app.tournaments.service import TournamentService
from app.tournaments.structure import Level, Structure
from app.tournaments.tables import TournamentTables, table_id
from tests.conftest import Accounts, Mailbox, Player
from tests.realtime.harness import Client, LiveServer, is_event, live_server, realtime_settings

SHOVE = ("all_in", "call", "check", "muck")
FOLD = ("check", "fold", "muck")
LONG = Structure(1000, (Level(50, 100, 30), Level(100, 200, 30)), late_levels=1)


class Entrant:
    """One person in a tournament: joins every table the tournament seats them at (in
    order, ``tables``) and, while ``acting`` is set, takes the first of ``style``'s
    actions that is legal on each of their turns."""

    def __init__(self, client: Client, person: Player, style: tuple[str, ...]) -> None:
        self.client, self.person, self.style = client, person, style
        self.acting = asyncio.Event()
        self.acting.set()
        self.tables: list[str] = []
        self._handled: set[tuple[str, int]] = set()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        # The flag too: asyncio.wait_for may swallow a cancellation that meets its result.
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def notices(self, kind: str) -> list[dict[str, Any]]:
        return [d for n, d in self.client.received if n == "user:notice" and d["kind"] == kind]

    async def _run(self) -> None:
        while not self._stopping:
            await self._catch_up()
            self.client._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.client._arrived.wait(), 0.5)

    async def _catch_up(self) -> None:
        for name, data in list(self.client.received):
            if (name == "user:notice" and data["kind"] == "tournament_seat"
                    and data["table_id"] not in self.tables):
                self.tables.append(data["table_id"])
                await self.client.ok("table:join", {"table_id": data["table_id"]})
            turn = data.get("turn") if name == "table:snapshot" else (
                data if name == "table:turn" else None)
            if not (turn and turn["legal_actions"] and self.acting.is_set()):
                continue
            key = (turn["table_id"], turn["seq"])
            if key in self._handled:
                continue
            self._handled.add(key)
            kinds = {a["action"] for a in turn["legal_actions"]}
            ack = await self.client.call("table:action", {
                "table_id": turn["table_id"], "hand_id": turn["hand_id"],
                "type": next(k for k in self.style if k in kinds)})
            assert ack["ok"] or ack["error"]["code"] in (
                "stale_action", "not_your_turn", "hand_over"), ack


@contextlib.asynccontextmanager
async def entrants(
    tournaments: TournamentTables, tid: str, people: list[Player],
    connect: Callable[..., Any], style: tuple[str, ...] = SHOVE, *, acting: bool = True,
) -> AsyncIterator[list[Entrant]]:
    """``people`` registered over Socket.IO (the ticker held meanwhile, so a tournament
    due now starts with all of them; hold it from before creating one that is due at
    once), each playing as an :class:`Entrant`."""
    await tournaments.stop()
    made = []
    for person in people:
        client = await connect(person)
        await client.ok("tournament:register", {"tournament_id": tid})
        made.append(Entrant(client, person, style))
    for entrant in made:
        if not acting:
            entrant.acting.clear()
        entrant.start()
    tournaments.start()
    try:
        yield made
    finally:
        for entrant in made:
            await entrant.stop()


async def _until(check: Callable[[], bool], what: str, seconds: float = 60) -> None:
    for _ in range(int(seconds / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


async def _seated(crowd: list[Entrant]) -> dict[str, list[Entrant]]:
    """Each table id with the entrants first seated there."""
    await _until(lambda: all(e.tables for e in crowd), "everyone seated")
    tables: dict[str, list[Entrant]] = {}
    for entrant in crowd:
        tables.setdefault(entrant.tables[0], []).append(entrant)
    return tables


@contextlib.asynccontextmanager
async def two_tables_one_breaks(
    server: LiveServer, players: Accounts, connect: Callable[..., Any],
) -> AsyncIterator[tuple[TournamentService, str, list[Entrant], Entrant, list[Entrant]]]:
    """Four people at two tables of three seats: at table 1 nobody acts (its first hand
    stays in play; the first of them watches table 2 too); at table 2 they push all-in
    until one is out, and table 2 breaks. Yields the two at table 1, the survivor of
    table 2, and all four."""
    tournaments: TournamentTables = server.app.state.tournaments
    service = tournaments.service
    people = [await players.player(verified=False) for _ in range(4)]
    await tournaments.stop()  # until everyone is registered
    tid = await service.create("Breaking", Rules(TournamentKind.MULTI_TABLE, LONG,
                                                 table_size=3, buy_in=20,
                                                 starts_at=time.time()), created_by=None)
    async with entrants(tournaments, tid, people, connect, acting=False) as crowd:
        tables = await _seated(crowd)
        staying, breaking = tables[table_id(tid, 1)], tables[table_id(tid, 2)]
        assert len(staying) == len(breaking) == 2
        await staying[0].client.ok("table:join", {"table_id": table_id(tid, 2)})
        for entrant in breaking:
            entrant.acting.set()
        await _until(lambda: set(service.get(tid).tables) == {1}, "table 2 broke")
        alive = {e.player for e in service.get(tid).entries.values() if not e.busted}
        (survivor,) = [e for e in breaking if f"user:{e.person.id}" in alive]
        yield service, tid, staying, survivor, crowd


async def test_late_entries_open_a_new_table_never_the_one_that_broke(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    async with two_tables_one_breaks(server, players, connect) as (
            service, tid, staying, _, crowd):
        watcher = staying[0].client
        await service.register_bot(tid, "Late 1")
        await service.register_bot(tid, "Late 2")  # table 1 is full: a table is needed

        t = service.get(tid)
        (number,) = set(t.tables) - {1}
        assert number == 3 and len(t.tables[number].seats) == 2
        host = server.realtime.host
        await _until(lambda: table_id(tid, number) in host.live.tables, "the new table opened")
        await watcher.ok("table:join", {"table_id": table_id(tid, number)})
        await watcher.wait_for("table:event", is_event("hand_started", table_id(tid, number)),
                               timeout=30)
        async with server.database.sessions() as session:
            rows = {row.id: row.status for row in await session.execute(
                select(TableRecord.id, TableRecord.status)
                .where(TableRecord.tournament_id == tid))}
        assert rows == {table_id(tid, 1): TableStatus.OPEN, table_id(tid, 2): TableStatus.CLOSED,
                        table_id(tid, 3): TableStatus.OPEN}

        # Played to the end: every place told at a bust is the final one, or none.
        for entrant in crowd:
            entrant.style = SHOVE
            entrant.acting.set()
        await _until(lambda: all(e.notices("tournament_finished") for e in crowd), "the end",
                     180)
    standings = (await http.get(f"/tournaments/{tid}")).json()["players"]
    places = sorted(p["place"] for p in standings)
    # Equal stacks busting in one hand share a place (app.tournaments.standings): each
    # place is one more than the number of entries placed above it (1, 2, 2, 4, ...).
    assert len(places) == 6 and all(p == 1 + sum(q < p for q in places) for p in places)
    final = {p["public_id"]: p["place"] for p in standings}
    for entrant in crowd:
        place = final[entrant.person.public_id]
        assert entrant.notices("tournament_finished")[0]["place"] == place
        for told in entrant.notices("tournament_busted"):
            assert told["place"] in (None, place)


async def test_a_player_moved_by_balancing_sits_down_before_the_hand_there_ends(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    async with two_tables_one_breaks(server, players, connect) as (_, tid, staying, moved, _):
        watcher = staying[0].client
        # The survivor of table 2 moves to table 1, where a hand is in play.
        to = table_id(tid, 1)
        left = await watcher.wait_for("table:event", lambda d: d["table_id"] == table_id(tid, 2)
                                      and is_event("player_left")(d) and d["event"]["player"][
                                          "public_id"] == moved.person.public_id)
        mark = watcher.received.index(("table:event", left))
        for entrant in staying:  # now table 1 plays its hand out
            entrant.style = FOLD
            entrant.acting.set()
        ended = await watcher.wait_for("table:event", is_event("hand_ended", to), after=mark)
        started = await watcher.wait_for("table:event", is_event("hand_started", to),
                                         after=watcher.received.index(("table:event", ended)))

        sat = next(d for n, d in watcher.received[mark:] if n == "table:event"
                   and is_event("player_sat", to)(d)
                   and d["event"]["player"]["public_id"] == moved.person.public_id)
        assert sat["seq"] < ended["seq"], "the moved player waited for the hand there to end"
        assert sat["event"]["seat"] in [s["seat"] for s in started["event"]["seats"]]
        assert moved.tables == [table_id(tid, 2), to]


async def test_one_tournament_whose_table_cannot_open_stops_no_other(
    server: LiveServer, http: httpx.AsyncClient
) -> None:
    service: TournamentService = server.app.state.tournaments.service
    quick = Structure(100, (Level(25, 50, 10),))
    stuck = await service.create("Stuck", Rules(TournamentKind.SIT_AND_GO, quick, table_size=3,
                                                buy_in=10), created_by=None)
    # The id its first table needs is taken by a table closed earlier (as an admin's
    # close of a tournament table used to leave it).
    config = TableConfig(name="closed", seats=3, stakes=Stakes(25, 50), min_buy_in=1,
                         max_buy_in=1, action_seconds=30, tournament=stuck)
    store = server.realtime.host.services.store
    await store.create(table_id(stuck, 1), None, config.to_dict(), TableState(config).to_dict())
    async with server.database.sessions() as session:
        await session.execute(update(TableRecord).where(TableRecord.id == table_id(stuck, 1))
                              .values(status=TableStatus.CLOSED))
        await session.commit()
    for n in range(3):
        await service.register_bot(stuck, f"Stuck {n}")
    other = await service.create("Other", Rules(TournamentKind.SIT_AND_GO, quick, table_size=2,
                                                buy_in=10), created_by=None)
    for n in range(2):
        await service.register_bot(other, f"Other {n}")

    async def status(tid: str) -> str:
        return str((await http.get(f"/tournaments/{tid}")).json()["status"])

    for _ in range(1200):
        if await status(other) == "finished":
            break
        await asyncio.sleep(0.05)
    assert await status(other) == "finished"
    assert await status(stuck) == "running"
    assert sum(p["prize"] for p in (await http.get(f"/tournaments/{other}")).json()[
        "players"]) == 20
    # The lobby's results: the finished one with its winner, never the running one.
    finished = (await http.get("/tournaments/finished")).json()
    assert [t["id"] for t in finished["data"]] == [other] and finished["count"] == 1
    assert finished["data"][0]["winners"][0]["place"] == 1
    assert finished["data"][0]["winners"][0]["prize"] == 20
    assert (await http.get("/tournaments/finished?limit=0")).status_code == 422


async def test_a_bust_is_told_its_place_only_once_no_late_entry_can_change_it(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    tournaments: TournamentTables = server.app.state.tournaments
    service = tournaments.service
    people = [await players.player(verified=False) for _ in range(4)]
    await tournaments.stop()  # until everyone is registered
    tid = await service.create("Late", Rules(TournamentKind.MULTI_TABLE, LONG, table_size=4,
                                             buy_in=20, starts_at=time.time()),
                               created_by=None)
    async with entrants(tournaments, tid, people[:3], connect) as crowd:
        crowd[2].style = FOLD  # two of three push all-in until one of them is out
        await _until(lambda: any(e.notices("tournament_busted") for e in crowd), "a bust")
        (first,) = [e for e in crowd if e.notices("tournament_busted")]
        assert service.get(tid).late_registration_open
        async with entrants(tournaments, tid, people[3:], connect) as (late,):
            crowd[2].style = SHOVE
            everyone = [*crowd, late]
            await _until(lambda: all(e.notices("tournament_finished") for e in everyone),
                         "the end", 120)

    finished = {e.person.public_id: e.notices("tournament_finished")[0]["place"]
                for e in everyone}
    assert first.notices("tournament_busted")[0]["place"] is None  # a late entry came after
    assert finished[first.person.public_id] == 4
    for entrant in everyone:
        for told in entrant.notices("tournament_busted"):
            assert told["place"] in (None, finished[entrant.person.public_id])


async def test_no_deal_while_a_bot_is_in_and_no_hand_is_ever_voided_by_one(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    tournaments: TournamentTables = server.app.state.tournaments
    service = tournaments.service
    tid = await service.create("Heads-up", Rules(TournamentKind.SIT_AND_GO, LONG, table_size=2,
                                                 buy_in=1000), created_by=None)
    person = await players.player(verified=False)
    async with entrants(tournaments, tid, [person], connect) as (me,):
        await service.register_bot(tid, "Ada")
        await _until(lambda: bool(me.tables), "seated")
        mine = me.notices("tournament_seat")[0]["seat"]
        shoved = await me.client.wait_for("table:event", lambda d: is_event("player_acted")(d)
                                          and d["event"]["seat"] == mine
                                          and d["event"]["all_in"], timeout=30)
        refused = await me.client.call("tournament:deal", {"tournament_id": tid})
        # A bot that calls the shove can end the sit & go in that hand: then there is no
        # tournament left to deal in, and no deal either way.
        code = refused.get("error", {}).get("code")
        assert code == "deal_unavailable" or (
            code == "tournament_not_found"), refused
        ended = await me.client.wait_for("table:event", lambda d: is_event("hand_ended")(d)
                                         and d["hand_id"] == shoved["hand_id"])

    assert ended["event"]["type"] == "hand_ended"
    assert not [e for e in me.client.events() if e["type"] == "hand_voided"]
    over = tid not in service.tournaments  # the bot's call may have ended the sit & go
    assert over or service.get(tid).deal is None


@pytest.fixture
async def slow_starts(settings: Settings, mailbox: Mailbox) -> AsyncIterator[
        tuple[LiveServer, Accounts]]:
    """A server that waits a few seconds between hands (time to agree to a deal)."""
    changed = realtime_settings(settings, hand_start_delay_seconds=5)
    async with live_server(changed) as running, httpx.AsyncClient(base_url=running.url) as http:
        yield running, Accounts(http, mailbox, running.app)


async def test_a_deal_is_agreed_between_hands_by_every_player_and_voids_nothing(
    slow_starts: tuple[LiveServer, Accounts],
) -> None:
    server, accounts = slow_starts
    tournaments: TournamentTables = server.app.state.tournaments
    tid = await tournaments.service.create(
        "Final three", Rules(TournamentKind.SIT_AND_GO, LONG, table_size=3, buy_in=100),
        created_by=None)
    people = [await accounts.player(verified=False) for _ in range(3)]
    clients: list[Client] = []

    async def connect(person: Player) -> Client:
        clients.append(Client(server.url, person))
        return await clients[-1].connect()

    try:
        async with entrants(tournaments, tid, people, connect, FOLD, acting=False) as crowd:
            first = crowd[0].client
            await _until(lambda: all(e.tables for e in crowd), "seated")
            await first.wait_for("table:event", is_event("hand_started"), timeout=30)
            during = await first.call("tournament:deal", {"tournament_id": tid})
            assert during.get("error", {}).get("code") == "deal_not_now", during
            for entrant in crowd:  # everyone folds to the big blind
                entrant.acting.set()
            await first.wait_for("table:event", is_event("hand_ended"))
            for entrant in crowd:
                entrant.acting.clear()
            opened = await first.ok("tournament:deal", {"tournament_id": tid})
            mark = len(first.received)
            asked = [await e.client.wait_for("user:notice", lambda n: n["kind"] ==
                                             "tournament_deal") for e in crowd[1:]]
            second = await crowd[1].client.ok("tournament:deal", {"tournament_id": tid})
            last = await crowd[2].client.ok("tournament:deal", {"tournament_id": tid})
            paid = [await e.client.wait_for("user:notice", lambda n: n["kind"] ==
                                            "tournament_finished") for e in crowd]
    finally:
        for client in clients:
            await client.disconnect()

    assert (opened["agreed"], opened["needed"], opened["done"]) == (1, 3, False)
    assert all(n["offer"] == opened["offer"] and n["agreed"] == 1 for n in asked)
    assert (second["agreed"], second["done"], last["done"]) == (2, False, True)
    offer = opened["offer"]
    assert {p.display_name: n["prize"] for p, n in zip(people, paid, strict=True)} == offer
    assert sum(offer.values()) == 300
    events = first.events()
    assert not [e for e in events if e["type"] == "hand_voided"]
    assert not [d for n, d in first.received[mark:] if n == "table:event"
                and is_event("hand_started")(d)], "a hand started while the deal was put"
    for client in clients:
        assert not client.off_schema, client.off_schema


async def test_each_hand_names_the_blinds_of_the_level_it_is_dealt_at(
    server: LiveServer, players: Accounts, connect: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournaments: TournamentTables = server.app.state.tournaments
    service = tournaments.service
    people = [await players.player(verified=False) for _ in range(2)]
    await tournaments.stop()  # until everyone is registered
    tid = await service.create("Levels", Rules(TournamentKind.MULTI_TABLE, LONG, table_size=3,
                                               buy_in=20, starts_at=time.time()),
                               created_by=None)
    async with entrants(tournaments, tid, people, connect, FOLD) as crowd:
        first = crowd[0].client
        opened = await first.wait_for("table:event", is_event("hand_started"), timeout=30)
        await first.wait_for("table:event", is_event("hand_ended"))
        real_now = service.now
        monkeypatch.setattr(service, "now", lambda: real_now() + 31 * 60)  # past level 1
        await _until(lambda: service.get(tid).clock().index == 1, "level 2")
        later = await first.wait_for(
            "table:event", lambda d: is_event("hand_started")(d)
            and d["event"]["stakes"]["big_blind"] == 200, timeout=30)
        mark = len(first.received)
        await first.ok("table:join", {"table_id": later["table_id"]})
        snapshot = await first.wait_for("table:snapshot", after=mark)

    assert opened["event"]["stakes"] | {"ante": 0} == Stakes(50, 100).to_dict()
    assert later["event"]["stakes"] == Stakes(100, 200).to_dict()
    # The table was opened at the first level and its config keeps those blinds: what a
    # hand is dealt at is the hand's own.
    assert snapshot["config"]["big_blind"] == 100
