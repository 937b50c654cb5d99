"""The reconciling audit on a real run: people play bots, and the house mirrors their results."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from app.admin.audit import audit
from app.db.models import LedgerEntry, User
from app.realtime.store import HOUSE_EMAIL
from tests.conftest import Accounts
from tests.e2e.test_bots import _play_hands
from tests.realtime.harness import Client, LiveServer, PlayingTable


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
