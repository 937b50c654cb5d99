"""Settlement, in one process: closing a table mid-hand voids the hand and pays everyone,
a player taken away at once is paid their chips behind before the hand ends, and a
table restored with a hand in play goes on with it."""

from __future__ import annotations

import pytest

from app.config import Settings
from app.db.engine import Database
from app.poker.events import ActionKind
from app.table.acks import Closed
from app.table.commands import Close, Join, RemoveUser
from app.table.errors import TableClosed
from app.table.state import TableState
from app.table.table import Table
from tests.conftest import assert_ledger_reconciles
from tests.table.live import BUY_IN, CREDITS, config, live_table, sid_of


async def test_closing_mid_hand_voids_it_and_pays_everyone_their_starting_stack(
    database: Database, database_url: str, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config()) as live:
        ann, bob, _ = await live.heads_up()
        actor = live.actor()
        assert actor is not None
        await live.act({0: ann, 1: bob}[actor], ActionKind.RAISE, 10)
        closed = await live.ask(Close("closing for the night"))
        assert closed == Closed(table_id=live.id, paid_out=2 * BUY_IN)
        assert [e["reason"] for e in live.audience.events("hand_voided")] == [
            "the table closed"]
        assert live.audience.events("table_closed")[0]["reason"] == "closing for the night"
        assert await live.balance(ann) == await live.balance(bob) == CREDITS
        assert await live.escrowed() == 0 and live.table.closed
        assert await live.hands_stored() == 0
        with pytest.raises(TableClosed):
            await live.ask(Close("again"))
    await assert_ledger_reconciles(database_url)


async def test_a_player_taken_away_at_once_is_paid_their_chips_behind_and_folds(
    database: Database, database_url: str, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config()) as live:
        ann, _, _ = await live.heads_up()
        blinds = {p.seat: BUY_IN - s.stack for p in live.table.state.players.values()
                  for s in [live.table.state.current.hand.seat(p.seat)]}  # type: ignore[union-attr]
        await live.ask(RemoveUser(ann.user_id, at_once=True))
        # Paid before the hand ends: what they had behind, not what they put in.
        assert await live.balance(ann) == CREDITS - blinds[0]
        await live.audience.wait_for(lambda: live.cashed_out(ann))
        assert 0 not in live.table.state.players
        assert live.table.state.players[1].stack == BUY_IN + blinds[0]
        assert await live.escrowed() == BUY_IN + blinds[0]
    await assert_ledger_reconciles(database_url)


async def test_a_table_restored_with_a_hand_in_play_goes_on_with_it(
    database: Database, database_url: str, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config()) as live:
        ann, _, hand_id = await live.heads_up()
        actor = live.actor()
        await live.table.stop()
        stored = await live.stored_state()
        services, lease = live.table.core.services, live.table.lease
        assert lease is not None
        restored = await Table.restore(live.id, TableState.from_dict(stored), services,
                                       lease=lease, draining=False)
        # Told before it starts, the session watches before the table resumes.
        restored.tell(Join(sid_of(ann), ann))
        await restored.start()
        try:
            turns = await live.audience.wait_for(lambda: [
                d.data for d in live.audience.sent
                if d.event == "table:turn" and d.data["seq"] > stored["seq"]])
            assert turns[0]["hand_id"] == hand_id and turns[0]["seat"] == actor
            assert restored.state.current is not None
            assert restored.state.current.id == hand_id
            assert live.audience.events("hand_voided") == []
        finally:
            await restored.stop()
    await assert_ledger_reconciles(database_url)
