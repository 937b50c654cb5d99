"""The reconciling audit names every account and table whose credits do not add up.

Each test arranges a world through the real ledger and table store (people
granted credits, seated, a hand won and lost against people and bots, a bot's
seat claimed, a table closed), then breaks one thing directly in the database.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select, update

from app.admin import hand_audit
from app.admin.audit import AuditReport, Check, audit
from app.admin.hand_audit import HandOff
from app.db import ledger
from app.db.engine import Database
from app.db.models import LedgerEntry, LedgerReason, TableEscrow, User
from app.db.tables import HandPlayer, HandRecord, TableRecord
from app.poker.bots import BotStyle
from app.poker.state import Stakes
from app.table.state import Person, Player, Successor, TableConfig, TableState
from app.table.store import FinishedHand, Movement, TableStore, Transfer
from tests.conftest import Accounts, hand_summary

ROOT = Path(__file__).resolve().parents[2]
GRANT = 10_000
BANKROLL = 10_000
_hands = itertools.count(1)


def config(name: str) -> TableConfig:
    return TableConfig(name=name, seats=6, stakes=Stakes(5, 10), min_buy_in=100,
                       max_buy_in=2_000, action_seconds=30.0, bots=True, bot_count=1)


def person(user_id: int) -> Person:
    return Person(user_id, f"public-{user_id}", f"player {user_id}")


def bot(seat: int) -> Player:
    return Player(seat, Person(None, f"bot-{seat}", "Ada (bot)"), 1_000, bot=BotStyle.TIGHT)


def hand(*results: tuple[int, int, int]) -> FinishedHand:
    number = next(_hands)
    return FinishedHand(id=f"hand-{number}", number=number, pot=0, phh="",
                        summary=hand_summary(*results), started_at=0.0, results=results)


@dataclass
class World:
    """Six people, two open tables and a closed one, all reconciled."""

    database: Database
    store: TableStore
    people: dict[str, int]

    async def grant(self, name: str) -> int:
        async with self.database.sessions() as session:
            user = User(email=f"{name}@example.com", display_name=name,
                        display_name_key=name, balance=0)
            session.add(user)
            await session.flush()
            await ledger.credit(session, user.id, GRANT, reason=LedgerReason.SIGNUP_GRANT)
            await session.commit()
        self.people[name] = user.id
        return user.id

    async def state(self, table_id: str) -> TableState:
        async with self.database.sessions() as session:
            record = await session.get(TableRecord, table_id)
            assert record is not None
            return TableState.from_dict(record.state)

    async def write_state(self, table_id: str, state: TableState) -> None:
        await self.execute(update(TableRecord).where(TableRecord.id == table_id)
                           .values(state=state.to_dict()))

    async def execute(self, statement: Any) -> None:
        async with self.database.sessions() as session:
            await session.execute(statement)
            await session.commit()

    async def seat(self, table_id: str, state: TableState, seat: int, name: str,
                   buy_in: int) -> None:
        state.players[seat] = Player(seat, person(self.people[name]), buy_in)
        await self.commit(table_id, state, buy_ins=(Transfer(self.people[name], buy_in),))

    async def seat_bot(self, table_id: str, state: TableState, seat: int) -> None:
        state.players[seat] = bot(seat)
        await self.commit(table_id, state, buy_ins=(Transfer(None, 1_000),))

    async def commit(self, table_id: str, state: TableState, **movement: Any) -> None:
        await self.store.commit(table_id, Movement(**movement), state.to_dict())


async def arrange(database: Database) -> World:
    """alice beats bob by 200; carol wins 100 from a bot and dave claims that bot's seat;
    erin loses 150 to a bot and the table closes; frank never plays."""
    world = World(database, TableStore(database, house_bankroll=BANKROLL), {})
    for name in ("alice", "bob", "carol", "dave", "erin", "frank"):
        await world.grant(name)
    people = world.people

    duel = TableState(config("duel"))
    await world.store.create("duel", people["alice"], duel.config.to_dict(), duel.to_dict())
    await world.seat("duel", duel, 0, "alice", 1_000)
    await world.seat("duel", duel, 1, "bob", 1_000)
    duel.players[0].stack, duel.players[1].stack = 1_200, 800
    await world.commit("duel", duel, hand=hand((people["alice"], 0, 200),
                                               (people["bob"], 1, -200)))

    bots = TableState(config("bots"))
    await world.store.create("bots", people["carol"], bots.config.to_dict(), bots.to_dict())
    await world.seat_bot("bots", bots, 1)
    await world.seat("bots", bots, 0, "carol", 500)
    bots.players[0].stack, bots.players[1].stack = 600, 900
    await world.commit("bots", bots, hand=hand((people["carol"], 0, 100)))
    bots.players[1].successor = Successor(person(people["dave"]), 300)
    await world.commit("bots", bots, buy_ins=(Transfer(people["dave"], 300),))

    gone = TableState(config("gone"))
    await world.store.create("gone", people["erin"], gone.config.to_dict(), gone.to_dict())
    await world.seat_bot("gone", gone, 1)
    await world.seat("gone", gone, 0, "erin", 400)
    gone.players[0].stack, gone.players[1].stack = 250, 1_150
    await world.commit("gone", gone, hand=hand((people["erin"], 0, -150)))
    await world.commit("gone", TableState(config("gone")), closing=True,
                       payouts=(Transfer(people["erin"], 250), Transfer(None, 1_150)))
    return world


def off(report: AuditReport) -> set[tuple[Any, ...]]:
    """Every finding as (user id or table id, check or status, expected, actual)."""
    return ({(a.user_id, a.check, a.expected, a.actual) for a in report.accounts}
            | {(t.table_id, t.status, t.expected, t.actual) for t in report.tables})


async def test_a_world_where_every_chip_is_accounted_for_is_balanced(
    database: Database,
) -> None:
    world = await arrange(database)
    report = await audit(database)
    assert report.balanced, report.describe()
    assert (report.people, report.open_tables) == (6, 2)
    house = await world.store.house()
    async with database.sessions() as session:
        account = await session.get(User, house)
    # Two bots bought in for 1,000 each; the one that won erin's 150 went home with 1,150,
    # the one that lost 100 to carol still sits with 900.
    assert account is not None and account.balance == BANKROLL - 2_000 + 1_150
    assert report.totals.escrowed == 1_200 + 800 + 600 + 900 + 300


async def test_three_people_each_1000_off_balance_the_totals_but_not_the_reconciliation(
    database: Database,
) -> None:
    world = await arrange(database)
    table = TableState(config("three"))
    await world.store.create("three", None, table.config.to_dict(), table.to_dict())
    for seat, name in enumerate(("gina", "hank", "ivan")):
        await world.grant(name)
        await world.seat("three", table, seat, name, 1_000)
    # Three cash-outs that failed after their seats were gone: the ledger keeps the chips.
    await world.write_state("three", TableState(config("three")))

    async with database.sessions() as session:
        assert (await ledger.audit(session)).balanced
    report = await audit(database)
    assert not report.balanced
    assert report.totals_balanced
    people = world.people
    assert off(report) == {
        (people["gina"], Check.HOLDINGS, GRANT, GRANT - 1_000),
        (people["hank"], Check.HOLDINGS, GRANT, GRANT - 1_000),
        (people["ivan"], Check.HOLDINGS, GRANT, GRANT - 1_000),
        ("three", "open", 0, 3_000),
    }


async def test_a_seat_removed_from_the_state_while_its_escrow_is_kept_is_named(
    database: Database,
) -> None:
    world = await arrange(database)
    duel = await world.state("duel")
    del duel.players[1]
    await world.write_state("duel", duel)
    report = await audit(database)
    bob = world.people["bob"]
    assert off(report) == {(bob, Check.HOLDINGS, GRANT - 200, GRANT - 1_000),
                           ("duel", "open", 1_200, 2_000)}
    assert "table duel (open): escrow off by +800" in report.describe()


async def test_a_balance_changed_without_a_ledger_entry_is_named(database: Database) -> None:
    world = await arrange(database)
    frank = world.people["frank"]
    await world.execute(update(User).where(User.id == frank).values(balance=GRANT + 1_000))
    report = await audit(database)
    assert not report.totals_balanced
    assert off(report) == {(frank, Check.ENTRIES, GRANT, GRANT + 1_000),
                           (frank, Check.HOLDINGS, GRANT, GRANT + 1_000)}
    assert f"user {frank} frank@example.com: holdings off by +1000" in report.describe()


async def test_a_table_escrow_changed_is_named(database: Database) -> None:
    world = await arrange(database)
    await world.execute(update(TableEscrow).where(TableEscrow.table_id == "bots")
                        .values(amount=TableEscrow.amount - 70))
    report = await audit(database)
    assert off(report) == {("bots", "open", 1_800, 1_730)}
    assert not report.totals_balanced


async def test_a_closed_table_still_holding_chips_is_named(database: Database) -> None:
    world = await arrange(database)
    await world.execute(update(TableEscrow).where(TableEscrow.table_id == "gone")
                        .values(amount=25))
    assert off(await audit(database)) == {("gone", "closed", 0, 25)}


async def test_a_claimed_bot_seat_counts_for_its_claimant(database: Database) -> None:
    world = await arrange(database)
    bots = await world.state("bots")
    bots.players[1] = replace(bots.players[1], successor=None)
    await world.write_state("bots", bots)
    dave = world.people["dave"]
    assert off(await audit(database)) == {(dave, Check.HOLDINGS, GRANT, GRANT - 300),
                                          ("bots", "open", 1_500, 1_800)}


async def test_the_house_must_mirror_the_peoples_results_against_bots(
    database: Database,
) -> None:
    world = await arrange(database)
    house = await world.store.house()
    async with database.sessions() as session:
        # A transfer with no table behind it: credits the people never lost.
        await ledger.credit(session, house, 40, reason=LedgerReason.TABLE_CASH_OUT)
        await session.commit()
    report = await audit(database)
    # The house holds its balance plus the bot's 900 at the bots table.
    expected = BANKROLL + 150 - 100
    assert off(report) == {(house, Check.HOUSE, expected, expected + 40)}


async def test_admins_read_the_audit_over_http(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin = await accounts.admin()
    player = await accounts.player()
    response = await client.get("/admin/audit", headers=admin.headers)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["balanced"] is True and body["people"] == 2
    assert body["accounts"] == [] and body["tables"] == []

    async with accounts.database.sessions() as session:
        start = await session.get(User, player.id)
        assert start is not None
        balance = start.balance
    await accounts.set(player.id, balance=balance + 5)
    try:
        body = (await client.get("/admin/audit", headers=admin.headers)).json()
    finally:
        await accounts.set(player.id, balance=balance)
    assert body["balanced"] is False and body["totals"]["balanced"] is False
    assert {(a["user_id"], a["check"], a["expected"], a["actual"]) for a in body["accounts"]} == {
        (player.id, "entries", balance, balance + 5),
        (player.id, "holdings", balance, balance + 5)}
    refused = await client.get("/admin/audit", headers=player.headers)
    assert refused.status_code == 403


async def forge_hand_result(world: World, winner: str, loser: str, amount: int) -> str:
    """Move ``amount`` more of the duel's result from ``loser`` to ``winner`` in every place
    the credits are counted: balances, their buy-in entries and ``hand_players``; the
    hand's stored summary is left as it was. The id of the forged hand."""
    people = world.people
    async with world.database.sessions() as session:
        hand_id = (await session.execute(
            select(HandPlayer.hand_id).where(HandPlayer.user_id == people[winner]))).scalar_one()
        for name, change in ((winner, amount), (loser, -amount)):
            user_id = people[name]
            await session.execute(update(User).where(User.id == user_id)
                                  .values(balance=User.balance + change))
            await session.execute(update(LedgerEntry).where(
                LedgerEntry.user_id == user_id, LedgerEntry.reason == LedgerReason.TABLE_BUY_IN)
                .values(amount=LedgerEntry.amount + change))
            await session.execute(update(HandPlayer).where(HandPlayer.user_id == user_id)
                                  .values(net=HandPlayer.net + change))
        await session.commit()
    return str(hand_id)


async def test_a_consistent_forgery_of_a_hand_result_is_caught_by_the_hands_summary(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hand_audit, "BATCH", 2)  # the three hands come in two pages
    world = await arrange(database)
    hand_id = await forge_hand_result(world, "alice", "bob", 100)
    report = await audit(database)
    # Every credit check agrees with the forgery: only the hand's own record does not.
    assert report.totals_balanced and off(report) == set()
    assert not report.balanced
    assert report.hands == (HandOff(hand_id, "duel", "seat 0: hand_players says 300, the "
                                                    "hand's summary 200"),)
    assert f"hand {hand_id} (table duel): seat 0" in report.describe()


async def test_a_summary_that_does_not_add_up_is_named(database: Database) -> None:
    world = await arrange(database)
    async with database.sessions() as session:
        record = (await session.execute(select(HandRecord).where(
            HandRecord.table_id == "duel"))).scalar_one()
        rows = [dict(row) for row in record.summary["players"]]
        rows[0]["net"], rows[0]["final_stack"] = 300, 1_300
        record.summary = {**record.summary, "players": rows}
        await session.execute(update(HandPlayer).where(
            HandPlayer.user_id == world.people["alice"]).values(net=300))
        await session.commit()
    (found,) = (await audit(database)).hands
    assert found.problem == "the seats' nets sum to +100, not 0"


def holdem_audit(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``holdem audit`` in a real process against ``database_url``."""
    env = {**os.environ, "DATABASE_URL": database_url}
    return subprocess.run([sys.executable, "-m", "app.cli", "audit", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


async def test_holdem_audit_exits_0_when_balanced_and_1_naming_what_is_off(
    database: Database, database_url: str
) -> None:
    world = await arrange(database)
    done = holdem_audit(database_url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ledger audit: balanced")

    await world.execute(update(TableEscrow).where(TableEscrow.table_id == "duel")
                        .values(amount=TableEscrow.amount + 5))
    done = holdem_audit(database_url)
    assert done.returncode == 1
    assert "ledger audit: NOT balanced" in done.stdout
    assert "table duel (open): escrow off by +5" in done.stdout
    report = json.loads(holdem_audit(database_url, "--json").stdout)
    assert report["balanced"] is False
    assert report["tables"] == [{"table_id": "duel", "status": "open", "expected": 2_000,
                                 "actual": 2_005}]
    assert report["hands"] == []


async def test_holdem_audit_names_a_hand_whose_results_were_forged_consistently(
    database: Database, database_url: str
) -> None:
    world = await arrange(database)
    hand_id = await forge_hand_result(world, "alice", "bob", 100)
    done = holdem_audit(database_url)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"hand {hand_id} (table duel): seat 0: hand_players says 300" in done.stdout
    report = json.loads(holdem_audit(database_url, "--json").stdout)
    assert report["hands"] == [{"hand_id": hand_id, "table_id": "duel", "problem":
                                "seat 0: hand_players says 300, the hand's summary 200"}]
