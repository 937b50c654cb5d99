"""When storing fails, no chip is lost: the table goes back to what it last stored, the
request is refused, and play resumes once storing works again; when the database stored
it after all (its answer was lost), the table goes on from what the database holds, and
at a tournament's table the tournament takes the hand's result too."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError

from app.admin.audit import audit
from app.db import ledger
from app.db.engine import StorageUnavailable
from app.db.tables import HandRecord
from app.table.store import Movement, TableStore
from app.tournaments.rules import Rules, TournamentKind
from app.tournaments.tables import TournamentTables
from app.tournaments.tournament import Tournament
from tests.conftest import Accounts
from tests.e2e.test_tournament_play import FOLD, LONG, Entrant, _until, entrants
from tests.realtime.harness import LiveServer, is_event, seat_players


class FailingStore:
    """Makes the table store's commits (and saves) fail while ``failing`` says so."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self.failing: Any = lambda _movement: False
        self._commit, self._save = store.commit, store.save
        store.commit = self.commit  # type: ignore[method-assign]

    async def commit(self, table_id: str, movement: Movement, state: dict[str, Any],
                     **fence: Any) -> Any:
        if self.failing(movement):
            raise StorageUnavailable() from OperationalError(
                "COMMIT", {}, ConnectionRefusedError("database is down"))
        return await self._commit(table_id, movement, state, **fence)


class LostAnswer:
    """Makes one chip commit (the first that ``lost`` picks) really commit, then fail as a
    connection dropped before the database's answer came back; the database then seems
    unreachable until ``down`` is set False."""

    def __init__(self, store: TableStore, lost: Any) -> None:
        self.lost = lost
        self.down = False
        self._commit, self._reachable = store.commit, store.reachable
        store.commit = self.commit  # type: ignore[method-assign]
        store.reachable = self.reachable  # type: ignore[method-assign]

    async def commit(self, table_id: str, movement: Movement, state: dict[str, Any],
                     **fence: Any) -> Any:
        balances = await self._commit(table_id, movement, state, **fence)
        if self.lost(movement):
            self.lost, self.down = (lambda _movement: False), True
            raise StorageUnavailable() from OperationalError(
                "COMMIT", {}, ConnectionResetError("connection reset"))
        return balances

    async def reachable(self) -> bool:
        return not self.down and await self._reachable()


async def test_a_cash_out_that_cannot_be_stored_keeps_the_seat_and_its_chips(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000], min_buy_in=100)
    leaver = table.seats[1]
    await table.seats[0].wait_for("table:event", is_event("hand_started", table.id))
    await table.act("fold")
    await table.hand_ended()
    await leaver.ok("table:sit-out", {"table_id": table.id})
    faults = FailingStore(server.realtime.host.services.store)
    faults.failing = lambda movement: bool(movement.payouts)
    ack = await leaver.call("table:leave", {"table_id": table.id})
    assert ack["error"]["code"] == "service_unavailable"
    live = server.realtime.host.live.get(table.id)
    player = live.state.player_of(table.players[1].id)
    assert player is not None
    stack = player.stack
    faults.failing = lambda _movement: False
    # The table probes the database, finds it back, and takes requests again.
    for _ in range(100):
        ack = await leaver.call("table:leave", {"table_id": table.id})
        if ack["ok"]:
            break
        assert ack["error"]["code"] == "service_unavailable"
        await table.seats[0].sio.sleep(0.1)
    assert ack["ok"] and ack["cashed_out"] == stack
    assert await server.balance(table.players[1].id) == 10_000 - 1000 + stack
    async with server.database.sessions() as session:
        assert (await ledger.audit(session)).balanced


async def test_a_hand_whose_end_cannot_be_stored_is_played_again_from_its_last_decision(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000])
    faults = FailingStore(server.realtime.host.services.store)
    faults.failing = lambda movement: movement.hand is not None
    turn = await table.turn()
    actor = table.seats[turn["seat"]]
    ack = await actor.call("table:action", {"table_id": table.id, "hand_id": turn["hand_id"],
                                            "type": "fold"})
    assert ack["error"]["code"] == "service_unavailable"
    # Nobody was told of a fold that was never stored.
    assert not [e for c in table.seats.values() for e in c.events(table.id)
                if e["type"] in ("player_acted", "hand_ended", "hand_voided")]
    faults.failing = lambda _movement: False
    again = await actor.wait_for("table:turn", lambda t: t["seq"] > turn["seq"]
                                 and t["legal_actions"] is not None, timeout=20)
    assert again["hand_id"] == turn["hand_id"] and again["seat"] == turn["seat"]
    await actor.ok("table:action", {"table_id": table.id, "hand_id": again["hand_id"],
                                    "type": "fold"})
    await table.hand_ended()
    seqs = [d["seq"] for n, d in table.observer.received if n in ("table:event", "table:turn")]
    assert seqs == sorted(set(seqs))
    async with server.database.sessions() as session:
        assert (await ledger.audit(session)).balanced


async def test_a_buy_in_stored_though_its_commit_seemed_to_fail_seats_the_player(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000])
    turn = await table.turn()
    person = await players.player(verified=False)
    late = await connect(person)
    await late.ok("table:join", {"table_id": table.id})
    before = await server.balance(person.id)
    fault = LostAnswer(server.realtime.host.services.store,
                       lambda movement: any(t.user_id == person.id for t in movement.buy_ins))
    ack = await late.call("table:sit", {"table_id": table.id, "seat": 2, "buy_in": 500})
    assert ack["error"]["code"] == "service_unavailable", ack
    # The database took the buy-in; the table, not knowing, went back to no seat.
    assert await server.balance(person.id) == before - 500
    live = server.realtime.host.live.get(table.id)
    assert live.unavailable and not live.state.has_seat(person.id)
    fault.down = False

    def seated(snapshot: dict[str, Any]) -> bool:
        return snapshot["table_id"] == table.id and any(
            s["seat"] == 2 for s in snapshot["seats"])

    mine = await late.wait_for("table:snapshot", seated, timeout=30)
    theirs = await table.observer.wait_for("table:snapshot", seated)
    for snapshot in (mine, theirs):
        seat = next(s for s in snapshot["seats"] if s["seat"] == 2)
        assert (seat["player"]["public_id"], seat["stack"]) == (person.public_id, 500), seat
    assert mine["you"]["seat"] == 2 and mine["hand_id"] == turn["hand_id"]
    retried = await late.call("table:sit", {"table_id": table.id, "seat": 2, "buy_in": 500})
    assert retried["error"]["code"] == "already_seated", retried
    # The hand in play goes on, then the next one is dealt.
    actor = table.seats[turn["seat"]]
    again = await actor.wait_for("table:turn", lambda t: t["seq"] > turn["seq"]
                                 and t["legal_actions"] is not None)
    assert again["hand_id"] == turn["hand_id"]
    await actor.ok("table:action", {"table_id": table.id, "hand_id": again["hand_id"],
                                    "type": "fold"})
    ended = await table.hand_ended()
    assert ended["hand_id"] == turn["hand_id"]
    await late.wait_for("table:event", lambda e: is_event("hand_started", table.id)(e)
                        and e["hand_id"] != turn["hand_id"])
    async with server.database.sessions() as session:
        assert await ledger.escrowed_at(session, table.id) == live.state.escrowed()
    report = await audit(server.database)
    assert report.balanced, report.describe()
    # Closing the table pays the player back in full (the hand in play is void).
    await server.realtime.host.close(table.id, "the test is over")
    assert await server.balance(person.id) == before


async def test_a_hand_end_stored_though_its_commit_seemed_to_fail_is_not_played_again(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000])
    fault = LostAnswer(server.realtime.host.services.store,
                       lambda movement: movement.hand is not None)
    turn = await table.turn()
    seen = len(table.observer.received)
    ack = await table.seats[turn["seat"]].call("table:action", {
        "table_id": table.id, "hand_id": turn["hand_id"], "type": "fold"})
    assert ack["error"]["code"] == "service_unavailable", ack
    # The database answers again: the table finds the hand's end stored.
    fault.down = False
    snapshot = await table.observer.wait_for(
        "table:snapshot", lambda s: s["table_id"] == table.id, after=seen, timeout=30)
    assert snapshot["hand_id"] is None
    stacks = sorted(s["stack"] for s in snapshot["seats"])
    assert stacks == [995, 1005], snapshot["seats"]
    await table.observer.wait_for("table:event", lambda e: is_event("hand_started", table.id)(e)
                                  and e["hand_id"] != turn["hand_id"])
    live = server.realtime.host.live.get(table.id)
    async with server.database.sessions() as session:
        assert await ledger.escrowed_at(session, table.id) == live.state.escrowed() == 2000
        assert await session.scalar(select(func.count()).select_from(HandRecord).where(
            HandRecord.table_id == table.id)) == 1
    report = await audit(server.database)
    assert report.balanced, report.describe()


async def _fold_the_first_turn(crowd: list[Entrant], table_id: str) -> dict[str, Any]:
    """The first player asked to act at ``table_id`` folds; the ack."""
    for _ in range(600):
        for entrant in crowd:
            turns = [d for n, d in entrant.client.received if n == "table:turn"
                     and d["table_id"] == table_id and d["legal_actions"]]
            if turns:
                return dict(await entrant.client.call("table:action", {
                    "table_id": table_id, "hand_id": turns[0]["hand_id"], "type": "fold"}))
        await asyncio.sleep(0.05)
    raise AssertionError("nobody was asked to act")


async def test_a_tournament_hand_stored_though_its_commit_seemed_to_fail_counts_once(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    tournaments: TournamentTables = server.app.state.tournaments
    service = tournaments.service
    tid = await service.create("Lost answer", Rules(
        TournamentKind.SIT_AND_GO, LONG, table_size=2, buy_in=20), created_by=None)
    people = [await players.player(verified=False) for _ in range(2)]
    async with entrants(tournaments, tid, people, connect, FOLD, acting=False) as crowd:
        await _until(lambda: all(e.tables for e in crowd), "both seated")
        (table_id,) = set(crowd[0].tables)
        watcher = crowd[0].client
        first = await watcher.wait_for("table:event", is_event("hand_started", table_id),
                                       timeout=30)
        fault = LostAnswer(server.realtime.host.services.store,
                           lambda movement: movement.hand is not None)
        ack = await _fold_the_first_turn(crowd, table_id)
        assert ack["error"]["code"] == "service_unavailable", ack
        fault.down = False

        # The table and the tournament both go on from the stored hand: the next hand
        # is dealt with the stacks it left, the small blind's lost to the big blind.
        second = await watcher.wait_for("table:event", lambda e: is_event(
            "hand_started", table_id)(e) and e["hand_id"] != first["hand_id"], timeout=30)
        assert not service.unconfirmed(tid)
        stacks = sorted(service.get(tid).stacks(1).values())
        assert stacks == [950, 1050], stacks
        stored = await service.store.stored(tid)
        assert stored is not None
        assert sorted(Tournament.from_dict(stored.state).stacks(1).values()) == stacks
        table = server.realtime.host.live.get(table_id)
        assert sorted(p.stack for p in table.state.players.values()) == stacks
        assert second["hand_id"] == table.state.current.id
    async with server.database.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(HandRecord).where(
            HandRecord.table_id == table_id)) == 1
