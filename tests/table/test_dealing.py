"""Dealing, in one process: a hand dealt from a stacked deck, played to its end through
command records, settled and stored; and what each viewer is sent of it."""

from __future__ import annotations

import pytest

from app.config import Settings
from app.db.engine import Database
from app.errors import HoldemError
from app.poker.events import ActionKind
from app.table.commands import Act
from app.table.errors import DuplicateAction, StaleAction
from app.table.state import TableState
from tests.conftest import assert_ledger_reconciles
from tests.table.live import BUY_IN, CREDITS, config, holds_cards, live_table, sid_of


async def test_a_hand_played_to_the_showdown_pays_the_best_hand_and_is_stored(
    database: Database, database_url: str, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config()) as live:
        ann, bob = await live.person("Ann"), await live.person("Bob")
        await live.sit(ann, 0)
        # The button (seat 0 the first hand: the lowest seat after no button) is dealt
        # last heads-up: Bob's cards first.
        live.decks.stack(["KsKc", "AhAd"], "2c 7d 9h 3s 4c")
        await live.sit(bob, 1)
        await live.only_hand()
        await live.check_or_call_down({0: ann, 1: bob})

        state = live.table.state
        assert state.current is None
        stacks = {p.seat: p.stack for p in state.players.values()}
        assert sum(stacks.values()) == 2 * BUY_IN  # no rake: chips conserved
        winner = max(stacks, key=lambda seat: stacks[seat])
        assert state.players[winner].user_id == ann.user_id
        assert stacks[winner] == BUY_IN + 2
        assert await live.hands_stored() == 1
        stored = await live.stored_state()
        assert TableState.from_dict(stored).to_dict() == state.to_dict()
        assert await live.escrowed() == 2 * BUY_IN
        ended = live.audience.events("hand_ended")
        assert len(ended) == 1
    await assert_ledger_reconciles(database_url)


async def test_an_action_out_of_turn_stale_or_repeated_is_refused_and_changes_nothing(
    database: Database, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config()) as live:
        ann, bob, hand_id = await live.heads_up()
        people = {0: ann, 1: bob}
        actor = live.actor()
        assert actor is not None
        waiting = people[1 - actor]
        seq = live.table.state.seq
        with pytest.raises(HoldemError) as out_of_turn:
            await live.act(waiting, ActionKind.CHECK)
        assert out_of_turn.value.code == "not_your_turn"
        with pytest.raises(StaleAction):
            await live.ask(Act(people[actor], "an-old-hand", ActionKind.CALL))
        assert live.table.state.seq == seq and live.actor() == actor
        await live.act(people[actor], ActionKind.CALL)
        with pytest.raises(DuplicateAction):
            await live.ask(Act(people[actor], hand_id, ActionKind.CALL))

async def test_no_message_to_one_viewer_holds_another_players_hole_cards(
    database: Database, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config()) as live:
        ann, bob, cat = (await live.person("Ann"), await live.person("Bob"),
                         await live.person("Cat"))
        await live.watch(cat, sid_of(cat))
        await live.watch(None, "anonymous")
        await live.sit(ann, 0)
        live.decks.stack(["KsKc", "AhAd"], "2c 7d 9h 3s 4c")
        await live.sit(bob, 1)
        await live.only_hand()
        # Nobody is shown down: the button (first to act heads-up) folds at once.
        actor = live.actor()
        people = {0: ann, 1: bob}
        assert actor is not None
        await live.act(people[actor], ActionKind.FOLD)
        assert live.table.state.current is None

        cards = {ann.user_id: ["Ah", "Ad"], bob.user_id: ["Ks", "Kc"]}
        received = {
            "Ann": (live.audience.to(sid_of(ann), ann.user_id), cards[bob.user_id]),
            "Bob": (live.audience.to(sid_of(bob), bob.user_id), cards[ann.user_id]),
            "Cat": (live.audience.to(sid_of(cat), cat.user_id), cards[ann.user_id]
                    + cards[bob.user_id]),
            "anonymous": (live.audience.to("anonymous", None),
                          cards[ann.user_id] + cards[bob.user_id]),
        }
        for name, (deliveries, hidden) in received.items():
            assert deliveries, f"{name} was sent nothing"
            leaks = [d for d in deliveries if holds_cards(d, hidden)]
            assert leaks == [], f"{name} was sent another player's cards"
        # Each player did get their own.
        assert any(holds_cards(d, cards[ann.user_id]) for d in received["Ann"][0])
        assert any(holds_cards(d, cards[bob.user_id]) for d in received["Bob"][0])


async def test_the_next_hand_is_dealt_after_one_ends(
    database: Database, database_url: str, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config()) as live:
        ann, bob, _ = await live.heads_up()
        await live.check_or_call_down({0: ann, 1: bob})
        await live.hand_started(2)
        assert live.table.state.button != live.audience.events("hand_started")[0]["button"]
        assert await live.balance(ann) == CREDITS - BUY_IN
    await assert_ledger_reconciles(database_url)
