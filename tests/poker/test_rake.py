"""Rake: the percentage and its caps, no flop no drop, side pots, run it twice, uncalled
bets, and chips conserved to the house in every hand."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.poker.cards import Deck
from app.poker.engine import Hand
from app.poker.errors import InvalidHandSetup
from app.poker.events import HandEnded, PotAwarded, UncalledBetReturned
from app.poker.rake import RakeRule, split_rake
from app.poker.state import Stakes
from tests.poker.random_hands import MAX_STEPS, Setup, _choose, setups
from tests.poker.stacked_decks import stacked_deck
from tests.poker.test_engine_run_it_twice import twice_deck

STAKES = Stakes(5, 10)
FIVE = RakeRule(500, caps=((2, 3), (3, 6), (5, 10)))


def _ended(hand: Hand) -> HandEnded:
    ended = hand.history[-1]
    assert isinstance(ended, HandEnded)
    return ended


def _muck_the_rest(hand: Hand) -> None:
    while not hand.is_complete:
        actor = hand.actor
        assert actor is not None
        hand.muck(actor)


def _conserved(hand: Hand) -> None:
    """Every chip is in a final stack or the rake."""
    ended = _ended(hand)
    assert sum(ended.stacks) + ended.rake == sum(s.starting_stack for s in hand.seats)
    awarded = [e for e in hand.history if isinstance(e, PotAwarded)]
    assert sum(e.rake for e in awarded) == ended.rake


def test_the_rake_is_the_percentage_rounded_down() -> None:
    rule = RakeRule(250)
    assert rule.amount(119, players=6, flop=True) == 2
    assert rule.amount(120, players=6, flop=True) == 3
    assert rule.amount(39, players=6, flop=True) == 0


def test_the_cap_follows_the_players_dealt_in() -> None:
    assert [FIVE.amount(1000, players=n, flop=True) for n in range(2, 11)] == [
        3, 6, 6, 10, 10, 10, 10, 10, 10]
    assert FIVE.cap_for(2) == 3 and FIVE.cap_for(4) == 6 and FIVE.cap_for(9) == 10
    # No entry for three or fewer players: uncapped there.
    assert RakeRule(500, caps=((4, 2),)).amount(1000, players=3, flop=True) == 50


def test_no_flop_no_drop_unless_the_table_turns_it_off() -> None:
    assert FIVE.amount(100, players=3, flop=False) == 0
    always = RakeRule(500, caps=((2, 3),), no_flop_no_drop=False)
    assert always.amount(100, players=3, flop=False) == 3


@pytest.mark.parametrize(("percent", "caps"), [
    (1001, ()), (-1, ()), (500, ((1, 3),)), (500, ((11, 3),)), (500, ((3, 1), (2, 1))),
    (500, ((2, 1), (2, 2))), (500, ((2, -1),)),
])
def test_a_rule_out_of_bounds_is_refused(percent: int, caps: tuple[tuple[int, int], ...]) -> None:
    with pytest.raises(InvalidHandSetup):
        RakeRule(percent, caps=caps)


def test_a_rule_reads_back_from_its_data() -> None:
    rule = RakeRule(275, caps=((2, 5), (5, 15)), no_flop_no_drop=False)
    assert RakeRule.from_dict(rule.to_dict()) == rule
    assert rule.to_dict()["percent"] == 2.75


def test_side_pots_pay_in_proportion_with_odd_chips_to_the_largest_remainders() -> None:
    assert split_rake(10, [300, 200]) == [6, 4]
    assert split_rake(7, [300, 200, 100]) == [4, 2, 1]
    assert split_rake(1, [50, 50]) == [1, 0]
    assert sum(split_rake(9, [17, 33, 50])) == 9
    with pytest.raises(ValueError, match="at most the pot"):
        split_rake(11, [5, 5])


def test_a_hand_folded_before_the_flop_pays_no_rake() -> None:
    hand, _ = Hand.start({0: 1000, 1: 1000, 2: 1000}, button=0, stakes=STAKES,
                         deck=stacked_deck(["AhAd", "KsKc", "7c2d"]), rake=FIVE)
    hand.raise_to(0, 30)  # the button acts first, three-handed
    hand.fold(1)
    hand.fold(2)
    assert _ended(hand).rake == 0
    assert hand.seat(0).stack == 1015


def test_an_uncalled_bet_goes_back_unraked() -> None:
    # Seats in order from the button's left: 1 (small blind), 2 (big blind), 0 (button).
    hand, _ = Hand.start({0: 1000, 1: 1000, 2: 1000}, button=0, stakes=STAKES,
                         deck=stacked_deck(["AhAd", "KsKc", "7c2d"]), rake=RakeRule(1000))
    hand.call(0)
    hand.call(1)
    hand.check(2)
    hand.bet(1, 400)  # on the flop: nobody calls
    hand.fold(2)
    hand.fold(0)
    returned = [e for e in hand.history if isinstance(e, UncalledBetReturned)]
    assert returned == [UncalledBetReturned(1, 400)]
    # The pot raked is the 30 called before the flop: 10 % of it, not of 430.
    assert _ended(hand).rake == 3
    assert hand.seat(1).stack == 1000 - 10 + 27
    _conserved(hand)


def test_a_raked_showdown_awards_the_pot_less_the_capped_rake() -> None:
    hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=STAKES,
                         deck=stacked_deck(["AhAd", "KsKc"], "2c 7d 9h 3s 4c"), rake=FIVE)
    hand.call(0)
    hand.check(1)
    for _ in range(3):
        hand.bet(1, 50)
        hand.call(0)
    _muck_the_rest(hand)
    assert _ended(hand).rake == 3  # 5 % of 320 is 16; two players dealt in: capped at 3
    awarded = [e for e in hand.history if isinstance(e, PotAwarded)]
    assert [(e.amount, e.rake) for e in awarded] == [(317, 3)]
    assert hand.seat(1).stack == 1000 - 160 + 317
    _conserved(hand)


def test_side_pots_are_raked_in_proportion() -> None:
    # Seat 1 (AA) all-in for 100, seats 2 (KK) and 0 (QQ) play on to a side pot.
    hand, _ = Hand.start({0: 1000, 1: 100, 2: 1000}, button=0, stakes=STAKES,
                         deck=stacked_deck(["AhAd", "KsKc", "QsQc"], "2c 7d 9h 3s 4c"),
                         rake=RakeRule(500))
    hand.raise_to(0, 300)
    hand.all_in(1)
    hand.call(2)
    for _ in range(3):
        hand.check(2)
        hand.check(0)
    _muck_the_rest(hand)
    awarded = {e.pot: e for e in hand.history if isinstance(e, PotAwarded)}
    # Main pot 300, side pot 400: rake 5 % of 700 = 35, split 15 and 20.
    assert (awarded[0].rake, awarded[1].rake) == (15, 20)
    assert (awarded[0].amount, awarded[0].seats) == (285, (1,))
    assert (awarded[1].amount, awarded[1].seats) == (380, (2,))
    _conserved(hand)


def test_a_hand_run_twice_is_raked_once_before_the_halves() -> None:
    deck = twice_deck(["AhAd", "KsKc"], "2c 7d 9h 3s 4c", "Kh 8s 5d Jc Qc")
    hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=STAKES, deck=deck,
                         run_it_twice=True, rake=RakeRule(100))
    hand.all_in(0)
    hand.all_in(1)
    hand.run_twice(1)
    hand.run_twice(0)
    awarded = [e for e in hand.history if isinstance(e, PotAwarded)]
    assert [(e.run, e.amount, e.rake) for e in awarded] == [(0, 990, 20), (1, 990, 0)]
    assert _ended(hand).rake == 20
    _conserved(hand)


def test_a_rule_of_zero_percent_is_no_rake_and_the_rule_survives_json() -> None:
    hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=STAKES,
                         deck=stacked_deck(["AhAd", "KsKc"]), rake=RakeRule(0))
    assert hand.rake is None
    raked, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=STAKES,
                          deck=stacked_deck(["AhAd", "KsKc"]), rake=FIVE)
    assert Hand.from_json(raked.to_json()).rake == FIVE


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), data=st.data(), percent=st.integers(1, 1000),
       cap=st.integers(0, 50))
def test_every_chip_ends_in_a_stack_or_the_rake(setup: Setup, data: st.DataObject,
                                                percent: int, cap: int) -> None:
    rule = RakeRule(percent, caps=((2, cap), (5, 2 * cap)))
    hand, _ = Hand.start(setup.stacks, button=setup.button, stakes=setup.stakes,
                         deck=Deck(rng=Random(setup.seed)), rake=rule)
    for _ in range(MAX_STEPS):
        if hand.is_complete:
            break
        actor = hand.actor
        assert actor is not None
        kind, amount = _choose(data, {a.action: a for a in hand.legal_actions()})
        hand.act(actor, kind, amount)
    assert hand.is_complete
    _conserved(hand)
    cap_here = rule.cap_for(len(hand.seats))
    assert cap_here is None or _ended(hand).rake <= cap_here
    if len(hand.board) < 3:
        assert _ended(hand).rake == 0
