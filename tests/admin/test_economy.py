"""The economy report over HTTP: per UTC day, the rake and tournament fees (the sinks), the
credits granted (sign-up, daily, admins', the house's funding), admins' removals and the
bots' results, from the real ledger and stored hands; the audit balances with them."""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest
from sqlalchemy import func, select, update

from app.admin.audit import audit
from app.db import ledger
from app.db.models import LedgerEntry, LedgerReason, utcnow
from app.db.tables import HandRecord
from app.poker.bots import BotStyle
from app.poker.state import Stakes
from app.table.state import Person, Player, TableConfig, TableState
from app.table.store import FinishedHand, Movement, TableStore, Transfer
from tests.conftest import Accounts

SIGNUP = 10_000


def _raked_hand(user_id: int) -> FinishedHand:
    """The person at seat 0 won 100 from the bot at seat 1, and the pot paid 6 rake."""
    rows = [
        {"seat": 0, "player": {"public_id": "p", "name": "Ann", "bot": None},
         "starting_stack": 1_000, "final_stack": 1_094, "net": 94},
        {"seat": 1, "player": {"public_id": "b", "name": "Ada (bot)", "bot": "tight"},
         "starting_stack": 1_000, "final_stack": 900, "net": -100},
    ]
    return FinishedHand(id="raked-1", number=1, pot=200, phh="", started_at=0.0,
                        summary={"game": "nlhe", "players": rows, "rake": 6},
                        results=((user_id, 0, 94),), from_house=((user_id, 94),), rake=6)


async def _play_a_raked_hand(accounts: Accounts, user_id: int) -> None:
    store = TableStore(accounts.database)
    state = TableState(TableConfig(name="raked", seats=6, stakes=Stakes(5, 10), min_buy_in=100,
                                   max_buy_in=2_000, action_seconds=30.0, bots=True,
                                   bot_count=1))
    await store.create("raked", None, state.config.to_dict(), state.to_dict())
    state.players[0] = Player(0, Person(user_id, "p", "Ann"), 1_000)
    state.players[1] = Player(1, Person(None, "b", "Ada (bot)"), 1_000, bot=BotStyle.TIGHT)
    await store.commit("raked", Movement(buy_ins=(Transfer(user_id, 1_000),
                                                  Transfer(None, 1_000))), state.to_dict())
    state.players[0].stack, state.players[1].stack = 1_094, 900
    await store.commit("raked", Movement(hand=_raked_hand(user_id)), state.to_dict())


async def test_admins_read_each_days_rake_fees_grants_and_the_bots_result(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin = await accounts.admin()
    player = await accounts.player()
    claimed = await client.post("/users/me/daily-credits", headers=player.headers)
    assert claimed.status_code == 200, claimed.text
    for amount in (500, -200):
        adjusted = await client.post(f"/admin/users/{player.id}/credits", headers=admin.headers,
                                     json={"amount": amount, "reason": "testing"})
        assert adjusted.status_code == 200, adjusted.text
    async with accounts.database.sessions() as session:
        await ledger.debit(session, player.id, 10, reason=LedgerReason.TOURNAMENT_FEE,
                           reference="t-1")
        await session.commit()
    funded = await client.post("/admin/house/credits", headers=admin.headers,
                               json={"amount": 5_000, "reason": "the bots' bankroll"})
    assert funded.status_code == 200, funded.text
    await _play_a_raked_hand(accounts, player.id)

    response = await client.get("/admin/economy?days=1", headers=admin.headers)
    assert response.status_code == 200, response.text
    (today,) = response.json()["days"]
    assert today["day"] == utcnow().date().isoformat()
    async with accounts.database.sessions() as session:
        # The house's initial bankroll, granted as it was first used, and the admin's 5,000.
        bankroll = await session.scalar(select(func.sum(LedgerEntry.amount)).where(
            LedgerEntry.reason == LedgerReason.HOUSE_FUNDING))
    assert today == {
        "day": today["day"], "rake": 6, "house_funding": bankroll, "raked_hands": 1,
        "tournament_fees": 10,
        "daily_credits": 1_000, "signup_grants": 2 * SIGNUP, "admin_grants": 500,
        "admin_removals": 200, "accounts_closed": 0, "bots_result": -100}
    report = await audit(accounts.database)
    assert report.balanced, report.describe()


async def test_the_report_counts_each_entry_on_its_own_utc_day(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin = await accounts.admin()
    player = await accounts.player()
    assert (await client.post("/users/me/daily-credits", headers=player.headers)).is_success
    async with accounts.database.sessions() as session:
        await session.execute(update(LedgerEntry).where(
            LedgerEntry.reason == LedgerReason.DAILY_CREDITS)
            .values(created_at=utcnow() - timedelta(days=2)))
        await session.commit()
    week = (await client.get("/admin/economy", headers=admin.headers)).json()
    assert len(week["days"]) == 7
    days = [d["day"] for d in week["days"]]
    assert days == sorted(days, reverse=True) and days[0] == utcnow().date().isoformat()
    assert [d["daily_credits"] for d in week["days"]] == [0, 0, 1_000, 0, 0, 0, 0]
    assert week["totals"]["daily_credits"] == 1_000 and week["totals"]["day"] == days[-1]
    today = (await client.get("/admin/economy?days=1", headers=admin.headers)).json()
    assert today["totals"]["daily_credits"] == 0


@pytest.mark.parametrize("days", ["0", "91", "seven"])
async def test_days_out_of_range_are_refused(
    client: httpx.AsyncClient, accounts: Accounts, days: str
) -> None:
    admin = await accounts.admin()
    response = await client.get(f"/admin/economy?days={days}", headers=admin.headers)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_payload"


async def test_players_may_not_read_the_economy(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    refused = await client.get("/admin/economy", headers=player.headers)
    assert refused.status_code == 403
    assert (await client.get("/admin/economy")).status_code == 401


async def test_the_audit_names_a_table_whose_hands_and_ledger_disagree_on_the_rake(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin = await accounts.admin()
    player = await accounts.player()
    assert (await client.post("/admin/house/credits", headers=admin.headers,
                              json={"amount": 5_000, "reason": "bankroll"})).is_success
    await _play_a_raked_hand(accounts, player.id)
    assert (await audit(accounts.database)).balanced
    async with accounts.database.sessions() as session:
        await session.execute(update(HandRecord).where(HandRecord.id == "raked-1")
                              .values(rake=9))
        await session.commit()
    report = await audit(accounts.database)
    assert [(r.table_id, r.hands, r.ledger) for r in report.rake] == [("raked", 9, 6)]
    assert "table raked: its hands record a rake of 9, the ledger paid the house 6" in (
        report.describe())
    body = (await client.get("/admin/audit", headers=admin.headers)).json()
    assert body["balanced"] is False
    assert body["rake"] == [{"table_id": "raked", "hands": 9, "ledger": 6}]
    async with accounts.database.sessions() as session:
        await session.execute(update(HandRecord).where(HandRecord.id == "raked-1")
                              .values(rake=6))
        await session.commit()
