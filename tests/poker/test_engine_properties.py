"""Invariants that hold at every step of every random hand."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.poker.engine import Hand
from app.poker.view import view, view_event
from tests.poker.random_hands import SLOW_EXAMPLES, play, reference_stacks, setups

_QUIET = [HealthCheck.too_slow]
FAST = settings(max_examples=120, deadline=None, suppress_health_check=_QUIET)
SLOW = settings(max_examples=SLOW_EXAMPLES, deadline=None, suppress_health_check=_QUIET)


def check_invariants(total):
    def on_step(hand, events):
        assert Hand.from_json(hand.to_json()) == hand
        assert all(s.stack >= 0 and s.bet >= 0 for s in hand.seats)
        in_play = sum(s.contributed + s.dead - s.won for s in hand.seats)
        assert sum(s.stack for s in hand.seats) + in_play == total
        if not hand.is_complete:
            assert hand.actor is not None and hand.legal_actions()
        for viewer in [None, *(s.number for s in hand.seats)]:
            assert_no_leak(hand, events, viewer)

    return on_step


def assert_no_leak(hand, events, viewer):
    hidden = [*hand.deck, *hand.burned]
    for s in hand.seats:
        if not s.shown and s.number != viewer:
            hidden += s.cards
    text = json.dumps([view(hand, viewer), *(view_event(e, viewer) for e in events)])
    leaked = [str(c) for c in hidden if f'"{c}"' in text]
    assert not leaked, f"seat {viewer} sees {leaked}"


def run(data, setup):
    total = sum(setup.stacks.values())
    hand = play(data, setup, check_invariants(total))
    assert sum(hand.stacks().values()) == total
    assert [s.stack for s in hand.seats] == reference_stacks(hand)


@FAST
@given(st.data(), setups(small_blind_below_big=False))
def test_random_hands_keep_every_invariant(data, setup):
    run(data, setup)


@pytest.mark.slow
@SLOW
@given(st.data(), setups(small_blind_below_big=False))
def test_many_random_hands_keep_every_invariant(data, setup):
    run(data, setup)
