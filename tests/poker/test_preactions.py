"""Pre-actions as rules: what each one does facing a bet, what cancels it, and that one
still standing when the turn comes is always a legal action (any hand, any moment)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.poker.engine import Hand
from app.poker.events import ActionKind, Event
from app.poker.preactions import Intent, PreAction, PreActionError
from app.poker.state import BETTING_PHASES, Phase, SeatStatus
from tests.poker.random_hands import Setup, play, setups

FLOP, TURN = Phase.FLOP, Phase.TURN


@pytest.mark.parametrize(("intent", "to_call", "action"), [
    (Intent.CHECK_FOLD, 0, ActionKind.CHECK), (Intent.CHECK_FOLD, 40, ActionKind.FOLD),
    (Intent.CHECK, 0, ActionKind.CHECK), (Intent.CALL, 20, ActionKind.CALL),
    (Intent.CALL_ANY, 0, ActionKind.CHECK), (Intent.CALL_ANY, 80, ActionKind.CALL),
    (Intent.FOLD_ANY, 0, ActionKind.CHECK), (Intent.FOLD_ANY, 10, ActionKind.FOLD),
])
def test_each_pre_action_takes_its_action_facing_the_bet(
    intent: Intent, to_call: int, action: ActionKind
) -> None:
    assert PreAction(intent, to_call, FLOP).action(to_call) is action


def test_a_raise_cancels_call_x_and_check_but_not_call_any_or_check_fold() -> None:
    assert not PreAction(Intent.CALL, 20, FLOP).holds(60, FLOP)
    assert PreAction(Intent.CALL, 20, FLOP).holds(20, FLOP)
    assert not PreAction(Intent.CHECK, 0, FLOP).holds(20, FLOP)
    assert PreAction(Intent.CALL_ANY, 20, FLOP).holds(60, FLOP)
    assert PreAction(Intent.CHECK_FOLD, 0, FLOP).holds(60, FLOP)


def test_new_cards_end_every_pre_action_but_fold_to_any_bet() -> None:
    for intent in (Intent.CHECK_FOLD, Intent.CHECK, Intent.CALL_ANY):
        assert not PreAction(intent, 0, FLOP).holds(0, TURN)
    assert not PreAction(Intent.CALL, 20, FLOP).holds(20, TURN)
    assert PreAction(Intent.FOLD_ANY, 0, FLOP).holds(50, Phase.RIVER)


def test_fold_to_any_bet_stays_after_checking_and_nothing_else_does() -> None:
    assert PreAction(Intent.FOLD_ANY, 0, FLOP).stays(0)
    assert not PreAction(Intent.FOLD_ANY, 0, FLOP).stays(10)
    assert not any(PreAction(i, 0, FLOP).stays(0) for i in Intent if i is not Intent.FOLD_ANY)


def test_check_facing_a_bet_and_a_call_of_another_amount_are_refused_with_the_bet() -> None:
    with pytest.raises(PreActionError) as check:
        PreAction.choose(Intent.CHECK, None, 30, FLOP)
    assert check.value.to_call == 30
    with pytest.raises(PreActionError):
        PreAction.choose(Intent.CALL, 20, 30, FLOP)
    with pytest.raises(PreActionError):
        PreAction.choose(Intent.CALL, 0, 0, FLOP)
    assert PreAction.choose(Intent.CALL, 30, 30, FLOP) == PreAction(Intent.CALL, 30, FLOP)


def test_a_pre_action_survives_a_json_round_trip() -> None:
    chosen = PreAction(Intent.CALL, 25, Phase.TURN)
    assert PreAction.from_dict(chosen.to_dict()) == chosen
    assert chosen.public() == {"intent": "call", "amount": 25}


def _chosen_whenever_it_fits(chosen: dict[int, PreAction]):  # type: ignore[no-untyped-def]
    """After every step: the seat to act takes its pre-action if it still holds (it must
    be legal), and every other seat still betting without one chooses one that fits now,
    kept through whatever happens until its turn."""
    def step(hand: Hand, _events: list[Event]) -> None:
        if hand.phase not in BETTING_PHASES or hand.actor is None:
            return
        actor = hand.actor
        held = chosen.pop(actor, None)
        to_call = hand.to_call(actor)
        if held is not None and held.holds(to_call, hand.phase):
            assert hand.can_act(actor, held.action(to_call)), (held, to_call)
        for seat in hand.seats:
            if (seat.number == actor or seat.status is not SeatStatus.ACTIVE
                    or seat.number in chosen):
                continue
            fits = [i for i in Intent if i is not Intent.CHECK or not hand.to_call(seat.number)]
            intent = fits[(seat.number + len(hand.history)) % len(fits)]
            if intent is Intent.CALL and not hand.to_call(seat.number):
                intent = Intent.CALL_ANY
            owed = hand.to_call(seat.number)
            chosen[seat.number] = PreAction.choose(
                intent, owed if intent is Intent.CALL else None, owed, hand.phase)
    return step


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), setups())
def test_a_pre_action_that_still_holds_at_the_turn_is_always_legal(
    data: st.DataObject, setup: Setup
) -> None:
    play(data, setup, _chosen_whenever_it_fits({}))
