"""Straddles: a third blind by the seat after the big blind, who then acts last preflop."""

from __future__ import annotations

import dataclasses
import warnings
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pokerkit import HandHistory

from app.poker.cards import Deck
from app.poker.engine import Hand
from app.poker.errors import BetTooSmall, InvalidHandSetup
from app.poker.events import BlindKind, BlindPosted
from app.poker.phh import replay, to_phh
from app.poker.state import Stakes
from tests.poker.random_hands import SLOW_EXAMPLES, play, setups

STRADDLED = Stakes(5, 10, straddle=20)


def start(stacks: dict[int, int], *, button: int = 0, stakes: Stakes = STRADDLED) -> Hand:
    hand, _ = Hand.start(stacks, button=button, stakes=stakes, deck=Deck(rng=Random(1)))
    return hand


def blinds(hand: Hand) -> list[tuple[int, BlindKind, int]]:
    return [(e.seat, e.blind, e.amount) for e in hand.history if isinstance(e, BlindPosted)]


def test_the_seat_after_the_big_blind_straddles_and_the_next_seat_acts_first() -> None:
    hand = start({0: 1000, 1: 1000, 2: 1000, 3: 1000})
    assert blinds(hand) == [(1, BlindKind.SMALL, 5), (2, BlindKind.BIG, 10),
                            (3, BlindKind.STRADDLE, 20)]
    assert hand.actor == 0 and hand.to_call(0) == 20
    raise_to = next(a for a in hand.legal_actions() if a.action.value == "raise")
    assert raise_to.min == 40


def test_the_straddler_acts_last_before_the_flop_with_the_option_to_raise() -> None:
    hand = start({0: 1000, 1: 1000, 2: 1000, 3: 1000})
    for seat in (0, 1, 2):
        hand.call(seat)
    assert hand.actor == 3 and hand.can_check(3) and hand.can_raise(3, 40)
    with pytest.raises(BetTooSmall):
        hand.raise_to(3, 30)
    hand.raise_to(3, 60)
    assert [hand.actor, hand.to_call(0)] == [0, 40]


def test_after_the_flop_the_first_seat_left_of_the_button_acts_first_again() -> None:
    hand = start({0: 1000, 1: 1000, 2: 1000, 3: 1000})
    for seat in (0, 1, 2):
        hand.call(seat)
    hand.check(3)
    assert hand.phase.value == "flop" and hand.actor == 1 and hand.level == 0


def test_heads_up_nobody_straddles() -> None:
    hand = start({0: 1000, 1: 1000})
    assert [kind for _, kind, _ in blinds(hand)] == [BlindKind.SMALL, BlindKind.BIG]
    assert hand.level == 10


def test_a_seat_that_cannot_cover_the_straddle_with_chips_behind_does_not_straddle() -> None:
    hand = start({0: 1000, 1: 1000, 2: 1000, 3: 20})
    assert [kind for _, kind, _ in blinds(hand)] == [BlindKind.SMALL, BlindKind.BIG]
    assert hand.actor == 3 and hand.to_call(3) == 10


def test_a_straddle_is_at_least_twice_the_big_blind() -> None:
    with pytest.raises(InvalidHandSetup):
        Stakes(5, 10, straddle=15)
    assert Stakes.from_dict({"small_blind": 5, "big_blind": 10, "ante": 0,
                             "big_blind_ante": False}).straddle == 0


def test_a_straddled_hand_exports_to_phh_and_replays_like_pokerkit() -> None:
    hand = start({0: 1000, 1: 700, 2: 1000, 3: 400})
    hand.raise_to(0, 100)
    hand.call(1)
    hand.fold(2)
    hand.all_in(3)
    hand.call(0)
    hand.call(1)
    while not hand.is_complete:
        actor = hand.actor
        assert actor is not None
        hand.act(actor, "check" if hand.can_check(actor) else "show")
    text = to_phh(hand)
    assert "blinds_or_straddles = [5, 10, 20, 0]" in text
    replayed = replay(text)
    assert replayed.finishing_stacks == [s.stack for s in hand.seats] and replayed.match
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, last = HandHistory.loads(text)
    assert list(last.stacks) == replayed.finishing_stacks


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(setup=setups(), data=st.data())
def test_straddled_hands_conserve_chips_and_replay_from_their_phh(setup, data) -> None:  # type: ignore[no-untyped-def]
    stakes = dataclasses.replace(setup.stakes, straddle=2 * setup.stakes.big_blind)
    hand = play(data, dataclasses.replace(setup, stakes=stakes), lambda _hand, _events: None)
    assert sum(s.stack for s in hand.seats) == sum(setup.stacks.values())
    replayed = replay(to_phh(hand))
    assert replayed.finishing_stacks == [s.stack for s in hand.seats]
