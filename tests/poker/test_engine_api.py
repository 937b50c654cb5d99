"""Typed errors, event records, views and JSON state of the hand engine."""

import json
from random import Random

import pytest

from app.poker.cards import Deck
from app.poker.engine import Hand
from app.poker.errors import (
    BetTooLarge,
    BetTooSmall,
    CannotCheck,
    HandOver,
    InvalidAction,
    InvalidHandSetup,
    NotInHand,
    NotYourTurn,
    WrongPhase,
)
from app.poker.events import (
    ActionKind,
    HandEnded,
    HandShown,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
    event_from_dict,
)
from app.poker.state import Phase, Stakes
from app.poker.view import view as view_of
from app.poker.view import view_event
from tests.poker.stacked_decks import stacked_deck


def start(stacks=None, button=2, seed=0):
    stacks = stacks or {0: 1000, 1: 1000, 2: 1000}
    return Hand.start(stacks, button=button, stakes=Stakes(50, 100), deck=Deck(rng=Random(seed)))


def test_acting_out_of_turn_is_not_your_turn():
    hand, _ = start()
    with pytest.raises(NotYourTurn) as err:
        hand.call(0)
    assert err.value.code == "not_your_turn"
    assert err.value.to_dict() == {
        "code": "not_your_turn", "message": "expected seat 2 to act, got seat 0",
        "seat": 0, "actor": 2,
    }


def test_bet_too_small_carries_the_minimum_and_too_large_the_maximum():
    hand, _ = start()
    with pytest.raises(BetTooSmall) as small:
        hand.raise_to(2, 150)
    assert small.value.code == "bet_too_small" and small.value.details == {"min": 200}
    with pytest.raises(BetTooLarge) as large:
        hand.raise_to(2, 1001)
    assert large.value.code == "bet_too_large" and large.value.details == {"max": 1000}


def test_checking_a_bet_is_refused():
    hand, _ = start()
    with pytest.raises(CannotCheck) as err:
        hand.check(2)
    assert err.value.code == "cannot_check" and err.value.details == {"to_call": 100}


def test_betting_into_a_bet_and_raising_nothing_are_refused():
    hand, _ = start()
    with pytest.raises(InvalidAction, match="expected a raise"):
        hand.bet(2, 300)
    for seat in (2, 0):
        hand.call(seat)
    hand.check(1)
    with pytest.raises(InvalidAction, match="expected a bet"):
        hand.raise_to(0, 300)


def test_bad_amounts_and_unknown_actions_are_typed_errors():
    hand, _ = start()
    for bad in ("300", 2.5, True, None):
        assert not hand.can_act(2, "raise", bad)
    with pytest.raises(InvalidAction, match="expected one of fold"):
        hand.act(2, "dance")
    with pytest.raises(NotInHand):
        hand.act(7, "fold")


def test_acting_after_the_hand_is_hand_over():
    hand, _ = start()
    hand.fold(2)
    hand.fold(0)
    assert hand.is_complete and hand.legal_actions() == ()
    with pytest.raises(HandOver) as err:
        hand.check(1)
    assert err.value.code == "hand_over"


def test_show_during_betting_is_the_wrong_phase():
    hand, _ = start()
    with pytest.raises(WrongPhase, match="expected the showdown, got the preflop"):
        hand.show(2)


def test_invalid_input_never_changes_state():
    hand, _ = start()
    before = hand.to_json()
    attempts = [
        lambda: hand.call(0), lambda: hand.raise_to(2, 150), lambda: hand.raise_to(2, 10**9),
        lambda: hand.check(2), lambda: hand.bet(2, 300), lambda: hand.act(2, "raise"),
        lambda: hand.muck(2), lambda: hand.act(9, "fold"),
    ]
    for attempt in attempts:
        with pytest.raises((InvalidAction, NotYourTurn, WrongPhase, NotInHand)):
            attempt()
        assert hand.to_json() == before


def test_bad_setups_are_refused():
    deck = Deck(rng=Random(0))
    with pytest.raises(InvalidHandSetup, match="2 to 10 seats"):
        Hand.start({0: 100}, button=0, stakes=Stakes(1, 2), deck=deck)
    with pytest.raises(InvalidHandSetup, match="button"):
        Hand.start({0: 100, 1: 100}, button=5, stakes=Stakes(1, 2), deck=deck)
    with pytest.raises(InvalidHandSetup, match="positive stack"):
        Hand.start({0: 100, 1: 0}, button=0, stakes=Stakes(1, 2), deck=deck)
    with pytest.raises(InvalidHandSetup, match="at least 12 cards"):
        Hand.start({0: 100, 1: 100}, button=0, stakes=Stakes(1, 2), deck=Deck.stacked("AhKd"))
    with pytest.raises(InvalidHandSetup, match="small blind"):
        Stakes(3, 2)
    assert len(deck) == 52


def test_each_transition_returns_the_events_it_produced():
    hand, started = start()
    assert [e.type for e in started] == ["blind_posted"] * 2 + ["hole_cards_dealt"] * 3
    assert hand.raise_to(2, 300) == [PlayerActed(2, ActionKind.RAISE, 300, 300, False)]
    hand.fold(0)
    last = hand.fold(1)
    assert [e.type for e in last] == [
        "player_acted", "uncalled_bet_returned", "pot_awarded", "hand_ended",
    ]
    assert last[-1] == HandEnded((0, 1, 2), (950, 900, 1150))
    assert hand.history[:5] == started
    assert hand.history[5] == PlayerActed(2, ActionKind.RAISE, 300, 300, False)
    assert hand.history[-4:] == last


def test_every_event_round_trips_through_json():
    hand, _ = start()
    while not hand.is_complete:
        hand.act(hand.actor, "all_in" if hand.can_all_in(hand.actor) else "call")
    kinds = {e.type for e in hand.history}
    assert {"hand_shown", "board_dealt", "pot_awarded"} <= kinds
    for event in hand.history:
        assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event


def test_a_player_sees_only_their_own_hole_cards():
    hand, _ = start()
    seen = view_of(hand, 0)
    cards = {s["seat"]: s["cards"] for s in seen["seats"]}
    assert cards[0] == [str(c) for c in hand.seat(0).cards]
    assert cards[1] is None and cards[2] is None
    assert all(s["cards"] is None for s in view_of(hand, None)["seats"])


def test_hole_card_events_are_private_to_their_seat():
    _, started = start()
    dealt = next(e for e in started if isinstance(e, HoleCardsDealt))
    assert view_event(dealt, dealt.seat)["cards"] == [str(c) for c in dealt.cards]
    assert view_event(dealt, None)["cards"] is None
    assert view_event(dealt, dealt.seat + 1)["cards"] is None


def test_everyone_sees_hands_shown_at_the_showdown():
    hand, _ = Hand.start({0: 1000, 1: 1000}, button=1, stakes=Stakes(50, 100),
                         deck=stacked_deck(["AsAd", "KsKd"], "2c7d9hJcQs"))
    hand.all_in(1)
    hand.call(0)
    assert {e.seat for e in hand.history if isinstance(e, HandShown)} == {0, 1}
    assert [s["cards"] for s in view_of(hand, None)["seats"]] == [["As", "Ad"], ["Ks", "Kd"]]


def test_view_never_shows_the_deck_folded_or_mucked_cards():
    hand, _ = Hand.start({0: 1000, 1: 1000, 2: 1000}, button=2, stakes=Stakes(50, 100),
                         deck=stacked_deck(["AsAd", "7c2d", "QhJh"], "2c7d9hJcKs"))
    hand.call(2)
    hand.fold(0)
    hand.check(1)
    while hand.phase is not Phase.SHOWDOWN:
        hand.check(hand.actor)
    hand.muck(hand.actor)
    assert hand.is_complete
    text = json.dumps(view_of(hand, None))
    for hidden in [*hand.deck, *hand.burned, *hand.seat(0).cards, *hand.seat(2).cards]:
        assert f'"{hidden}"' not in text
    assert "deck" not in text and "burned" not in text


def test_legal_actions_are_in_the_actors_view_only():
    hand, _ = start()
    assert view_of(hand, 2)["legal_actions"][1] == {"action": "call", "amount": 100}
    assert view_of(hand, 0)["legal_actions"] is None


def test_state_round_trips_through_json_and_plays_on_identically():
    hand, _ = start(seed=3)
    hand.raise_to(2, 300)
    copy = Hand.from_json(hand.to_json())
    assert copy == hand
    for h in (hand, copy):
        h.call(0)
        h.call(1)
    assert copy == hand and copy.board == hand.board
    assert Hand.from_dict(json.loads(json.dumps(hand.to_dict()))) == hand


def test_final_results_are_in_the_view():
    hand, _ = start()
    hand.fold(2)
    hand.fold(0)
    seats = {s["seat"]: s for s in view_of(hand, 1)["seats"]}
    assert seats[1]["net"] == 50 and seats[0]["net"] == -50 and seats[1]["won"] == 100
    award = next(e for e in hand.history if isinstance(e, PotAwarded))
    assert award == PotAwarded(0, 100, (1,), (100,), None)  # after 50 uncalled came back
