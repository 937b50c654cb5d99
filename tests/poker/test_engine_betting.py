"""Rule tests for positions, forced bets and betting rounds (one named test per rule)."""

from random import Random

import pytest

from app.poker.cards import Deck
from app.poker.engine import Hand
from app.poker.errors import BetTooSmall, CannotRaise
from app.poker.events import (
    ActionKind,
    AntePosted,
    BlindKind,
    BlindPosted,
    BoardDealt,
    HandShown,
    PlayerActed,
)
from app.poker.state import Phase, SeatStatus, Stakes


def start(stacks, button, *, sb=50, bb=100, ante=0, bb_ante=False, seed=0):
    return Hand.start(
        stacks, button=button, stakes=Stakes(sb, bb, ante, bb_ante), deck=Deck(rng=Random(seed))
    )


def kinds(hand):
    return {a.action: a for a in hand.legal_actions()}


def test_blinds_are_posted_by_the_seats_clockwise_after_the_button():
    hand, events = start({2: 1000, 5: 1000, 8: 1000}, button=5)
    assert events[:2] == [
        BlindPosted(8, BlindKind.SMALL, 50, False),
        BlindPosted(2, BlindKind.BIG, 100, False),
    ]
    assert [s.number for s in hand.seats] == [8, 2, 5]
    assert hand.actor == 5


def test_heads_up_button_posts_the_small_blind_and_acts_first_preflop():
    hand, events = start({3: 1000, 7: 1000}, button=7)
    assert events[:2] == [
        BlindPosted(7, BlindKind.SMALL, 50, False),
        BlindPosted(3, BlindKind.BIG, 100, False),
    ]
    assert hand.actor == 7


def test_heads_up_button_acts_last_after_the_flop():
    hand, _ = start({3: 1000, 7: 1000}, button=7)
    hand.call(7)
    hand.check(3)
    assert hand.phase is Phase.FLOP
    assert hand.actor == 3
    hand.check(3)
    assert hand.actor == 7


def test_every_seat_posts_the_ante():
    hand, events = start({0: 1000, 1: 1000, 2: 5}, button=2, ante=10)
    antes = [e for e in events if isinstance(e, AntePosted)]
    assert antes == [AntePosted(0, 10, False), AntePosted(1, 10, False), AntePosted(2, 5, True)]
    assert hand.seat(2).status is SeatStatus.ALL_IN


def test_big_blind_ante_is_dead_money_for_the_main_pot():
    hand, events = start({0: 1000, 1: 1000, 2: 1000}, button=2, ante=100, bb_ante=True)
    assert AntePosted(1, 100, False, dead=True) in events
    hand.fold(2)
    hand.fold(0)
    # The big blind's 50 above the small blind is returned; the ante is not "uncalled".
    assert hand.stacks() == {0: 950, 1: 1050, 2: 1000}


def test_short_big_blind_covers_the_blind_before_the_big_blind_ante():
    _, events = start({0: 1000, 1: 150, 2: 1000}, button=2, ante=100, bb_ante=True)
    assert BlindPosted(1, BlindKind.BIG, 100, False) in events
    assert AntePosted(1, 50, True, dead=True) in events


def test_short_small_blind_posts_all_in_for_less():
    hand, events = start({0: 30, 1: 1000, 2: 1000}, button=2)
    assert events[0] == BlindPosted(0, BlindKind.SMALL, 30, True)
    assert hand.seat(0).status is SeatStatus.ALL_IN


def test_short_big_blind_others_still_call_the_full_big_blind():
    hand, events = start({0: 1000, 1: 60, 2: 1000, 3: 1000}, button=3)
    assert events[1] == BlindPosted(1, BlindKind.BIG, 60, True)
    assert hand.to_call(2) == 100
    assert kinds(hand)[ActionKind.RAISE].min == 200
    hand.call(2)
    hand.fold(3)
    hand.call(0)
    assert hand.phase is Phase.FLOP
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(180, (0, 1, 2)), (80, (0, 2))]


def test_big_blind_gets_the_option_when_everyone_limps():
    hand, _ = start({0: 1000, 1: 1000, 2: 1000, 3: 1000}, button=3)
    hand.call(2)
    hand.call(3)
    hand.call(0)
    assert hand.actor == 1
    legal = kinds(hand)
    assert ActionKind.CHECK in legal and legal[ActionKind.RAISE].min == 200


def test_legal_actions_give_call_amount_and_raise_to_totals():
    hand, _ = start({0: 1000, 1: 1000, 2: 1000}, button=2)
    assert [a.to_dict() for a in hand.legal_actions()] == [
        {"action": "fold"},
        {"action": "call", "amount": 100},
        {"action": "raise", "min": 200, "max": 1000},
        {"action": "all_in", "amount": 1000},
    ]


def test_min_raise_is_the_size_of_the_last_full_raise():
    hand, _ = start({0: 5000, 1: 5000, 2: 5000, 3: 5000}, button=3)
    hand.raise_to(2, 300)
    assert kinds(hand)[ActionKind.RAISE].min == 500
    hand.raise_to(3, 800)
    assert kinds(hand)[ActionKind.RAISE].min == 1300


def test_min_bet_is_the_big_blind():
    hand, _ = start({0: 1000, 1: 1000}, button=1)
    hand.call(1)
    hand.check(0)
    bet = kinds(hand)[ActionKind.BET]
    assert (bet.min, bet.max) == (100, 900)
    with pytest.raises(BetTooSmall) as err:
        hand.bet(0, 99)
    assert err.value.details == {"min": 100}


def test_all_in_for_less_than_a_min_raise_is_allowed():
    hand, _ = start({0: 1000, 1: 1000, 2: 1000, 3: 400}, button=3)
    hand.raise_to(2, 300)
    raise_ = kinds(hand)[ActionKind.RAISE]
    assert (raise_.min, raise_.max) == (400, 400)
    with pytest.raises(BetTooSmall):
        hand.raise_to(3, 350)
    assert hand.raise_to(3, 400)[0] == PlayerActed(3, ActionKind.RAISE, 400, 400, True)


def test_incomplete_all_in_raise_does_not_reopen_betting():
    hand, _ = start({0: 2000, 1: 2000, 2: 2000, 3: 250}, button=3)
    hand.raise_to(2, 200)
    hand.all_in(3)  # to 250: 50 more, less than a full raise of 100
    hand.fold(0)
    hand.call(1)
    assert hand.actor == 2
    assert set(kinds(hand)) == {ActionKind.FOLD, ActionKind.CALL}
    assert not hand.can_raise(2, 450)
    with pytest.raises(CannotRaise):
        hand.raise_to(2, 450)


def test_incomplete_all_in_raise_lets_seats_that_have_not_acted_raise():
    hand, _ = start({0: 2000, 1: 2000, 2: 2000, 3: 250}, button=3)
    hand.raise_to(2, 200)
    hand.all_in(3)
    hand.fold(0)
    assert hand.actor == 1
    assert kinds(hand)[ActionKind.RAISE].min == 350


def test_short_all_ins_adding_up_to_a_full_raise_reopen_betting():
    hand, _ = start({0: 2000, 1: 2000, 2: 2000, 3: 250, 4: 320}, button=4)
    hand.raise_to(2, 200)
    hand.all_in(3)  # 250
    hand.all_in(4)  # 320: seat 2 now faces 120 more, a full raise
    hand.fold(0)
    hand.call(1)
    assert hand.actor == 2
    assert kinds(hand)[ActionKind.RAISE].min == 420


def test_short_all_in_opening_bet_reopens_betting_and_keeps_the_big_blind_min_raise():
    hand, _ = start({0: 1000, 1: 150, 2: 1000}, button=2)
    hand.call(2)
    hand.call(0)
    hand.check(1)
    hand.check(0)
    assert kinds(hand)[ActionKind.BET].max == 50
    hand.all_in(1)  # bets 50, less than the minimum bet
    hand.call(2)
    assert hand.actor == 0
    assert kinds(hand)[ActionKind.RAISE].min == 150


def test_nobody_may_raise_when_everyone_else_is_all_in():
    hand, _ = start({0: 1000, 1: 300}, button=1)
    hand.all_in(1)
    assert [a.to_dict() for a in hand.legal_actions()] == [
        {"action": "fold"},
        {"action": "call", "amount": 200},
    ]


def test_board_is_run_out_when_at_most_one_seat_can_still_bet():
    hand, _ = start({0: 1000, 1: 300}, button=1)
    hand.all_in(1)
    events = hand.call(0)
    shown = [e.seat for e in events if isinstance(e, HandShown)]
    streets = [e.street for e in events if isinstance(e, BoardDealt)]
    assert shown == [1, 0]  # the all-in raiser first
    assert streets == [Phase.FLOP, Phase.TURN, Phase.RIVER]
    assert events.index(next(e for e in events if isinstance(e, HandShown))) < events.index(
        next(e for e in events if isinstance(e, BoardDealt))
    )
    assert hand.is_complete and sum(hand.stacks().values()) == 1300


def test_a_seat_may_fold_when_it_could_check():
    hand, _ = start({0: 1000, 1: 1000}, button=1)
    hand.call(1)
    assert hand.can_fold(0) and hand.can_check(0)
    hand.fold(0)
    assert hand.is_complete and hand.stacks() == {0: 900, 1: 1100}
