"""The reconciling audit on a real run: people play bots, and the house mirrors their results."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, update

from app.admin.audit import audit
from app.db.models import LedgerEntry, LedgerReason, User
from app.db.tables import HandPlayer
from app.table.store import HOUSE_EMAIL
from tests.conftest import Accounts
from tests.e2e.test_bots import _play_hands
from tests.realtime.harness import Client, LiveServer, PlayingTable, seat_players


async def test_the_house_balance_mirrors_what_people_won_and_lost_against_bots(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    person = await players.player(verified=False)
    client: Client = await connect(person)
    created = await client.ok("table:create", {
        "name": "bots", "small_blind": 5, "big_blind": 10, "bots": True, "bot_count": 2,
        "bot_style": "loose"})
    table_id = created["table"]["table_id"]
    await client.ok("table:sit", {"table_id": table_id, "seat": 0, "buy_in": 1000})
    await _play_hands(PlayingTable(table_id, {0: client}, {0: person}), client, 3)

    report = await audit(server.database)
    assert report.balanced, report.describe()
    async with server.database.sessions() as session:
        house = await session.scalar(select(User).where(User.email == HOUSE_EMAIL))
        assert house is not None
        settlements = await session.scalar(
            select(func.count()).select_from(LedgerEntry).where(LedgerEntry.user_id == house.id))
    # The person posted blinds and checked or folded: the house settled those hands, and
    # the audit found its balance equal to its grants minus the people's results.
    assert settlements and settlements >= 1
    assert report.accounts == () and report.tables == ()


async def test_a_hand_result_forged_everywhere_but_in_the_hand_itself_is_named(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [500, 500])
    await table.act("fold")
    await table.hand_ended()
    winner, loser = (person.id for person in table.players.values())
    async with server.database.sessions() as session:
        rows = (await session.execute(
            select(HandPlayer.hand_id, HandPlayer.user_id, HandPlayer.net))).all()
    (hand_id,) = {row.hand_id for row in rows}
    nets = {row.user_id: row.net for row in rows}
    if nets[winner] < 0:
        winner, loser = loser, winner
    await forge(server, {winner: 100, loser: -100})
    try:
        report = await audit(server.database)
    finally:
        await forge(server, {winner: -100, loser: 100})
    # Balances, ledger entries and hand_players agree with each other...
    assert report.totals_balanced and report.accounts == () and report.tables == ()
    # ...but not with the hand the table stored.
    (found,) = report.hands
    assert found.hand_id == hand_id and "hand_players says" in found.problem
    assert (await audit(server.database)).balanced


async def forge(server: LiveServer, changes: dict[int, int]) -> None:
    """Change each person's balance, table buy-in entry and hand result by the same amount."""
    async with server.database.sessions() as session:
        for user_id, change in changes.items():
            await session.execute(update(User).where(User.id == user_id)
                                  .values(balance=User.balance + change))
            await session.execute(update(LedgerEntry).where(
                LedgerEntry.user_id == user_id, LedgerEntry.reason == LedgerReason.TABLE_BUY_IN)
                .values(amount=LedgerEntry.amount + change))
            await session.execute(update(HandPlayer).where(HandPlayer.user_id == user_id)
                                  .values(net=HandPlayer.net + change))
        await session.commit()
