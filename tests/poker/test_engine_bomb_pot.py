"""Bomb pots: everyone antes, nobody bets before the flop, the flop comes at once."""

from __future__ import annotations

import warnings
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pokerkit import HandHistory

from app.poker.cards import Deck
from app.poker.engine import Hand
from app.poker.errors import InvalidHandSetup
from app.poker.events import AntePosted, BlindPosted, BoardDealt
from app.poker.phh import replay, to_phh
from app.poker.state import Stakes
from tests.poker.random_hands import SLOW_EXAMPLES, play, setups


def bomb(stacks: dict[int, int], ante: int = 20) -> Hand:
    hand, _ = Hand.start(stacks, button=0, stakes=Stakes(5, 10), deck=Deck(rng=Random(2)),
                         bomb_pot=ante)
    return hand


def test_everyone_antes_no_blinds_and_the_flop_comes_at_once() -> None:
    hand = bomb({0: 1000, 1: 1000, 2: 1000})
    assert [e.amount for e in hand.history if isinstance(e, AntePosted)] == [20, 20, 20]
    assert not [e for e in hand.history if isinstance(e, BlindPosted)]
    assert [e.street.value for e in hand.history if isinstance(e, BoardDealt)] == ["flop"]
    assert hand.phase.value == "flop" and hand.actor == 1 and hand.level == 0
    assert hand.pots()[0].amount == 60
    assert next(a for a in hand.legal_actions() if a.action.value == "bet").min == 10


def test_a_seat_that_cannot_cover_the_ante_is_all_in_for_what_it_has() -> None:
    hand = bomb({0: 1000, 1: 15, 2: 1000})
    assert hand.seat(1).status.value == "all_in" and hand.seat(1).stack == 0
    assert [p.amount for p in hand.pots()] == [45, 10]


def test_when_the_antes_leave_one_seat_with_chips_the_board_runs_out() -> None:
    hand = bomb({0: 1000, 1: 20, 2: 20})
    assert hand.is_complete and len(hand.board) == 5
    assert sum(s.stack for s in hand.seats) == 1040


def test_a_negative_bomb_pot_is_refused() -> None:
    with pytest.raises(InvalidHandSetup):
        bomb({0: 100, 1: 100}, ante=-1)


def test_a_bomb_pot_exports_to_phh_and_replays_like_pokerkit() -> None:
    hand = bomb({0: 1000, 1: 500, 2: 1000})
    hand.bet(1, 40)
    hand.call(2)
    hand.raise_to(0, 200)
    hand.call(1)
    hand.fold(2)
    while not hand.is_complete:
        actor = hand.actor
        assert actor is not None
        hand.act(actor, "check" if hand.can_check(actor) else "show")
    text = to_phh(hand)
    assert "antes = [20, 20, 20]" in text and "blinds_or_straddles = [0, 0, 0]" in text
    replayed = replay(text)
    assert replayed.hand.bomb_pot == 20 and replayed.match
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, last = HandHistory.loads(text)
    assert list(last.stacks) == replayed.finishing_stacks


def test_a_bomb_pot_survives_the_json_round_trip() -> None:
    hand = bomb({0: 1000, 1: 1000})
    assert Hand.from_json(hand.to_json()).bomb_pot == 20


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(setup=setups(), data=st.data(), ante=st.integers(1, 200))
def test_bomb_pots_conserve_chips_and_replay_from_their_phh(setup, data, ante) -> None:  # type: ignore[no-untyped-def]
    class Bomb(type(setup)):  # type: ignore[misc]
        def start(self):  # type: ignore[no-untyped-def]
            return Hand.start(self.stacks, button=self.button, stakes=self.stakes,
                              deck=Deck(rng=Random(self.seed)), bomb_pot=ante)

    hand = play(data, Bomb(setup.stacks, setup.button, setup.stakes, setup.seed),
                lambda _hand, _events: None)
    assert sum(s.stack for s in hand.seats) == sum(setup.stacks.values())
    assert replay(to_phh(hand)).finishing_stacks == [s.stack for s in hand.seats]
