"""The clock, in one process: a time-out checks or folds, a disconnected player's grace,
bots move by themselves, a pre-action is taken when the turn comes, and the run-it-twice
question is answered or times out."""

from __future__ import annotations

import dataclasses
from typing import Any

from app.config import Settings
from app.db.engine import Database
from app.poker.events import ActionKind
from app.poker.preactions import Intent
from app.table.acks import PreActionPublic
from app.table.commands import Disconnected, Preact, RunItTwice
from app.table.state import Viewer
from tests.conftest import assert_ledger_reconciles
from tests.table.live import BUY_IN, LiveTable, config, live_table, sid_of


def _acted(live: LiveTable, seat: int) -> list[str]:
    return [e["action"] for e in live.audience.events("player_acted") if e["seat"] == seat]


async def _heads_up(live: LiveTable) -> tuple[dict[int, Viewer], int, int]:
    """Two people seated and one hand dealt (no other after it): the people by seat, the
    first to act and the other."""
    ann, bob, _ = await live.heads_up(drain=True)
    first = live.actor()
    assert first is not None
    return {0: ann, 1: bob}, first, 1 - first


async def test_a_time_out_facing_a_bet_folds(
    database: Database, database_url: str, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config(action_seconds=0.05)) as live:
        _, first, other = await _heads_up(live)
        await live.audience.wait_for(lambda: live.audience.events("hand_ended"))
        assert live.audience.events("player_timed_out")[0]["seat"] == first
        assert _acted(live, first) == [ActionKind.FOLD.value]
        assert live.table.state.players[other].stack == BUY_IN + 1
    await assert_ledger_reconciles(database_url)


async def test_a_time_out_with_nothing_to_call_checks(
    database: Database, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config(action_seconds=0.05)) as live:
        people, first, other = await _heads_up(live)
        await live.act(people[first], ActionKind.CALL)
        acted = await live.audience.wait_for(lambda: _acted(live, other))
        assert acted[0] == ActionKind.CHECK.value
        assert [e["seat"] for e in live.audience.events("player_timed_out")][:1] == [other]


async def test_a_player_who_disconnects_on_their_turn_times_out_after_the_grace(
    database: Database, table_settings: Settings,
) -> None:
    settings = dataclasses.replace(table_settings, disconnect_grace_seconds=0.05)
    async with live_table(database, settings, config()) as live:
        people, first, _ = await _heads_up(live)
        gone = people[first]
        live.audience.online.discard(gone.user_id)
        live.table.tell(Disconnected(sid_of(gone), gone.user_id))
        await live.audience.wait_for(lambda: live.audience.events("hand_ended"))
        assert live.audience.events("player_connection")[0] == {
            "type": "player_connection", "seat": first, "connected": False}
        graced = [d.data for d in live.audience.sent
                  if d.event == "table:turn" and d.data["seat"] == first and d.data["grace"]]
        assert graced, "the turn was not announced with its grace"
        assert _acted(live, first) == [ActionKind.FOLD.value]


async def test_bots_take_their_seats_and_move_by_themselves(
    database: Database, database_url: str, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config(bots=True, bot_count=1)) as live:
        ann = await live.person("Ann")
        await live.sit(ann, 0)
        await live.hand_started()
        bots = [p.seat for p in live.table.state.players.values() if p.is_bot]
        assert len(bots) == 1
        bot = bots[0]

        def played_out() -> bool:
            return bool(live.audience.events("hand_ended"))

        while not played_out():
            current = live.table.state.current
            if current is not None and current.hand.actor == 0:
                legal = {a.action for a in current.hand.legal_actions()}
                kind = next(k for k in (ActionKind.CHECK, ActionKind.CALL, ActionKind.SHOW,
                                        ActionKind.FOLD) if k in legal)
                await live.act(ann, kind)
            else:
                await live.audience.wait_for(
                    lambda: played_out() or live.actor() == 0)
        assert _acted(live, bot), "the bot never acted"
    await assert_ledger_reconciles(database_url)


async def test_a_pre_action_is_taken_when_the_turn_comes(
    database: Database, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config()) as live:
        people, first, other = await _heads_up(live)
        current = live.table.state.current
        assert current is not None
        chosen = await live.ask(Preact(people[other], current.id, Intent.CHECK))
        assert chosen.preaction == PreActionPublic(intent="check", amount=None)
        await live.act(people[first], ActionKind.CALL)
        acted = await live.audience.wait_for(lambda: _acted(live, other))
        assert acted[0] == ActionKind.CHECK.value
        notices = [d.data for d in live.audience.sent if d.event == "table:preaction"]
        assert [n["reason"] for n in notices][-1] == "applied"
        # Only its owner heard of it.
        owner = people[other]
        assert all(d.sid == sid_of(owner) or d.user == owner.user_id
                   for d in live.audience.sent if d.event == "table:preaction")
        assert live.audience.events("player_timed_out") == []


async def _all_in_and_asked(live: LiveTable) -> tuple[dict[int, Viewer], str]:
    people, first, other = await _heads_up(live)
    await live.act(people[first], ActionKind.ALL_IN)
    await live.act(people[other], ActionKind.CALL)
    asked = await live.audience.wait_for(lambda: live.audience.events("run_it_twice_offered"))
    assert set(asked[0]["seats"]) == {0, 1}
    current = live.table.state.current
    assert current is not None
    return people, current.id


async def test_both_players_agree_to_run_it_twice(
    database: Database, database_url: str, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config(run_it_twice=True)) as live:
        people, hand_id = await _all_in_and_asked(live)
        for person in people.values():
            await live.ask(RunItTwice(person, hand_id, agree=True))
        await live.audience.wait_for(lambda: live.audience.events("hand_ended"))
        chosen = live.audience.events("run_it_twice_chosen")
        assert {(e["seat"], e["agree"]) for e in chosen} == {(0, True), (1, True)}
        runs = {e.get("run") for e in live.audience.events("pot_awarded")}
        assert runs == {0, 1}
        assert sum(p.stack for p in live.table.state.players.values()) == 2 * BUY_IN
    await assert_ledger_reconciles(database_url)


async def test_an_unanswered_run_it_twice_question_runs_the_board_once(
    database: Database, table_settings: Settings,
) -> None:
    settings = dataclasses.replace(table_settings, run_it_twice_seconds=0.05)
    async with live_table(database, settings, config(run_it_twice=True)) as live:
        await _all_in_and_asked(live)
        await live.audience.wait_for(lambda: live.audience.events("hand_ended"))
        chosen: list[dict[str, Any]] = live.audience.events("run_it_twice_chosen")
        assert [e["agree"] for e in chosen] == [False]
        assert {e.get("run") for e in live.audience.events("pot_awarded")} <= {None, 0}
