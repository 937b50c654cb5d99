"""Seats, in one process: sitting down, leaving between hands and during one, sitting out
and in, and standing up a player who sat out too long."""

from __future__ import annotations

import dataclasses

import pytest

from app.config import Settings
from app.db.engine import Database
from app.poker.blinds import PlayerStatus
from app.table.acks import Left, Sat, Standing
from app.table.commands import Leave, Sit, SitIn, SitOut
from app.table.errors import AlreadySeated, InvalidBuyIn, SeatTaken
from tests.conftest import assert_ledger_reconciles
from tests.table.live import BUY_IN, CREDITS, config, live_table, sid_of


async def test_sitting_buys_in_from_the_balance_and_a_refused_sit_changes_nothing(
    database: Database, database_url: str, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config()) as live:
        ann, bob = await live.person("Ann"), await live.person("Bob")
        sat = await live.sit(ann, 2, 150)
        assert isinstance(sat, Sat) and sat.balance == CREDITS - 150 == await live.balance(ann)
        assert live.table.state.players[2].stack == 150
        assert [e["seat"] for e in live.audience.events("player_sat")] == [2]
        seq = live.table.state.seq
        for refused, error in ((Sit(sid_of(bob), bob, 2, 100), SeatTaken),
                               (Sit(sid_of(bob), bob, 3, BUY_IN + 1), InvalidBuyIn),
                               (Sit(sid_of(ann), ann, 4, 100), AlreadySeated)):
            with pytest.raises(error):
                await live.ask(refused)
        assert live.table.state.seq == seq
        assert await live.balance(bob) == CREDITS
        assert sid_of(bob) not in live.table.watchers  # watching starts only once seated
        assert await live.escrowed() == 150
    await assert_ledger_reconciles(database_url)


async def test_leaving_between_hands_cashes_out_at_once(
    database: Database, database_url: str, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config()) as live:
        ann = await live.person("Ann")
        await live.sit(ann, 0, 120)
        left = await live.ask(Leave(ann))
        assert left == Left(table_id=live.id, cashed_out=120, at_hand_end=False)
        assert live.table.state.players == {}
        assert await live.balance(ann) == CREDITS and await live.escrowed() == 0
    await assert_ledger_reconciles(database_url)


async def test_leaving_during_a_hand_folds_and_cashes_out_when_it_ends(
    database: Database, database_url: str, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config()) as live:
        ann, bob, _ = await live.heads_up()
        actor = live.actor()
        people = {0: ann, 1: bob}
        assert actor is not None
        leaver = people[actor]
        left = await live.ask(Leave(leaver))
        assert left == Left(table_id=live.id, cashed_out=None, at_hand_end=True)
        # They are acted for at once (a fold): the hand ends and their seat is freed, in
        # the commit that cashes them out (they are told once it is stored).
        notice = await live.audience.wait_for(lambda: live.cashed_out(leaver))
        assert live.table.state.current is None and actor not in live.table.state.players
        assert live.audience.events("player_leaving")[0]["seat"] == actor
        assert notice["amount"] == BUY_IN - 1  # the small blind, folded
        cashed = await live.balance(leaver)
        stayer = people[1 - actor]
        assert cashed + await live.balance(stayer) + live.table.state.players[
            1 - actor].stack == 2 * CREDITS
    await assert_ledger_reconciles(database_url)


async def test_a_player_sits_out_and_in_and_is_dealt_in_again(
    database: Database, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config()) as live:
        ann, bob = await live.person("Ann"), await live.person("Bob")
        await live.sit(ann, 0)
        out = await live.ask(SitOut(ann))
        assert out == Standing(table_id=live.id, status=PlayerStatus.SITTING_OUT.value)
        await live.sit(bob, 1)
        assert live.table.state.current is None  # one player ready: no hand
        back = await live.ask(SitIn(ann))
        assert back == Standing(table_id=live.id, status=PlayerStatus.WAITING.value)
        await live.hand_started()
        kinds = [e["type"] for e in live.audience.events()]
        assert kinds.index("player_sat_out") < kinds.index("player_sat_in") < kinds.index(
            "hand_started")


async def test_a_player_who_sits_out_too_long_is_stood_up_and_cashed_out(
    database: Database, database_url: str, table_settings: Settings,
) -> None:
    settings = dataclasses.replace(table_settings, sit_out_limit_seconds=0.05)
    async with live_table(database, settings, config()) as live:
        ann = await live.person("Ann")
        await live.sit(ann, 0, 100)
        await live.ask(SitOut(ann))
        await live.audience.wait_for(lambda: live.cashed_out(ann))
        assert live.table.state.players == {}
        assert await live.balance(ann) == CREDITS
    await assert_ledger_reconciles(database_url)


async def test_two_time_outs_in_a_row_sit_a_player_out(
    database: Database, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config(action_seconds=0.05)) as live:
        await live.heads_up()
        await live.audience.wait_for(lambda: live.audience.events("player_sat_out"))
        seat = live.audience.events("player_sat_out")[0]["seat"]
        timed_out = [e["seat"] for e in live.audience.events("player_timed_out")]
        assert timed_out.count(seat) >= 2
        assert live.table.state.players[seat].status is PlayerStatus.SITTING_OUT
