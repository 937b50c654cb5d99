"""When storing fails, no chip is lost: the table goes back to what it last stored, the
request is refused, and play resumes once storing works again."""

from __future__ import annotations

from typing import Any

from sqlalchemy.exc import OperationalError

from app.db import ledger
from app.table.store import Movement, TableStore
from tests.conftest import Accounts
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
            raise OperationalError("COMMIT", {}, ConnectionRefusedError("database is down"))
        return await self._commit(table_id, movement, state, **fence)


async def _balance(server: LiveServer, user_id: int) -> int:
    async with server.database.sessions() as session:
        from app.db.models import User

        user = await session.get(User, user_id)
        assert user is not None
        return user.balance


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
    live = server.realtime.host.get(table.id)
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
    assert await _balance(server, table.players[1].id) == 10_000 - 1000 + stack
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
