"""Rule tests for Pot-Limit and Fixed-Limit betting (app.poker.limits), one test per rule."""

from random import Random

import pytest

from app.poker.cards import Deck
from app.poker.engine import Hand
from app.poker.errors import BetTooLarge, BetTooSmall, CannotRaise, InvalidHandSetup
from app.poker.events import ActionKind
from app.poker.state import Game, Phase, Stakes


def start(stacks, button, game, *, sb=1, bb=2, ante=0, bb_ante=False, bomb_pot=0, seed=0):
    return Hand.start(stacks, button=button, stakes=Stakes(sb, bb, ante, bb_ante),
                      deck=Deck(rng=Random(seed)), game=game, bomb_pot=bomb_pot)[0]


def wager(hand):
    return next(a for a in hand.legal_actions() if a.action in (ActionKind.BET, ActionKind.RAISE))


def actions(hand):
    return {a.action for a in hand.legal_actions()}


# ---- pot limit ------------------------------------------------------------------


@pytest.mark.parametrize("game", [Game.PLHE, Game.PLO, Game.PLO5])
def test_a_pot_limit_raise_may_be_the_pot_after_the_call(game):
    hand = start({0: 500, 1: 500, 2: 500}, button=2, game=game)
    # Blinds 1 and 2: the button calls 2, the pot is then 5, so it may raise 5 more.
    assert (wager(hand).min, wager(hand).max) == (4, 7)
    hand.raise_to(2, 7)
    # The small blind calls 6 (the pot is then 16) and raises 16: to 7 + 6 + 16... = 23.
    assert wager(hand).max == 7 + 16
    with pytest.raises(BetTooLarge, match="expected at most 23 \\(the pot\\), got 24"):
        hand.raise_to(0, 24)
    hand.raise_to(0, 23)


def test_a_pot_limit_bet_after_the_flop_may_be_the_pot():
    hand = start({0: 500, 1: 500, 2: 500}, button=2, game=Game.PLO)
    hand.call(2), hand.call(0), hand.check(1)
    assert hand.phase is Phase.FLOP
    assert (wager(hand).min, wager(hand).max) == (2, 6)
    hand.bet(0, 6)
    # Facing 6 into 6: call 6, the pot is 18, so a raise to 6 + 18 = 24.
    assert wager(hand).max == 24


def test_antes_and_a_big_blind_ante_count_in_the_pot_limit():
    hand = start({0: 500, 1: 500, 2: 500}, button=2, game=Game.PLHE, ante=1)
    # Antes 3 + blinds 3 + the call of 2: 8 in the pot after the call, raise to 2 + 8.
    assert wager(hand).max == 10
    dead = start({0: 500, 1: 500, 2: 500}, button=2, game=Game.PLHE, ante=2, bb_ante=True)
    # The big blind's ante of 2 is dead money and still counts: 2 + (2 + 3 + 2).
    assert wager(dead).max == 9


def test_a_straddle_counts_in_the_pot_limit():
    hand, _ = Hand.start({0: 500, 1: 500, 2: 500, 3: 500}, button=3,
                         stakes=Stakes(1, 2, straddle=4), deck=Deck(rng=Random(0)),
                         game=Game.PLO)
    # The button calls the straddle of 4: 1 + 2 + 4 + 4 in the pot, so a raise to 4 + 11.
    assert hand.actor == 3
    assert (wager(hand).min, wager(hand).max) == (8, 15)


def test_a_short_big_blind_is_called_in_full_and_the_pot_limit_counts_that_call():
    hand = start({0: 500, 1: 1, 2: 500}, button=2, game=Game.PLHE)
    # The big blind posted 1 of 2; the button still calls 2: 1 + 1 + 2 = 4, raise to 2 + 4.
    assert hand.to_call(2) == 2
    assert wager(hand).max == 6


def test_a_bomb_pot_counts_every_ante_in_the_pot_limit():
    hand = start({0: 500, 1: 500, 2: 500}, button=2, game=Game.PLO, bomb_pot=10)
    assert hand.phase is Phase.FLOP
    assert (wager(hand).min, wager(hand).max) == (2, 30)


def test_a_stack_bigger_than_the_pot_cannot_be_pushed_all_in_in_pot_limit():
    hand = start({0: 500, 1: 500, 2: 500}, button=2, game=Game.PLO)
    assert ActionKind.ALL_IN not in actions(hand)
    with pytest.raises(BetTooLarge, match="expected at most 7 \\(the pot\\), got an all-in of 500"):
        hand.all_in(2)


def test_a_stack_within_the_pot_may_go_all_in_in_pot_limit():
    hand = start({0: 500, 1: 500, 2: 6}, button=2, game=Game.PLO)
    assert ActionKind.ALL_IN in actions(hand)
    assert hand.all_in(2)[0].total == 6


def test_an_all_in_for_less_than_a_full_raise_does_not_reopen_pot_limit_betting():
    hand = start({0: 500, 1: 9, 2: 500}, button=2, game=Game.PLO)
    hand.raise_to(2, 6)  # a raise of 4
    hand.call(0)
    hand.all_in(1)       # 9 total: a raise of 3, less than 4
    assert actions(hand) == {ActionKind.FOLD, ActionKind.CALL}
    with pytest.raises(CannotRaise, match="did not reopen the betting"):
        hand.raise_to(2, 13)


# ---- fixed limit ----------------------------------------------------------------


def test_fixed_limit_bets_are_the_small_bet_then_the_big_bet():
    hand = start({0: 500, 1: 500, 2: 500}, button=2, game=Game.FLHE, sb=5, bb=10)
    assert (wager(hand).min, wager(hand).max) == (20, 20)
    hand.call(2), hand.call(0), hand.check(1)
    assert (wager(hand).min, wager(hand).max) == (10, 10)
    hand.check(0), hand.check(1), hand.check(2)
    assert hand.phase is Phase.TURN
    assert (wager(hand).min, wager(hand).max) == (20, 20)
    hand.bet(0, 20)
    assert (wager(hand).min, wager(hand).max) == (40, 40)
    with pytest.raises(BetTooSmall, match="expected at least 40, got 30"):
        hand.raise_to(1, 30)
    with pytest.raises(BetTooLarge, match="expected at most 40 \\(the fixed bet\\), got 60"):
        hand.raise_to(1, 60)


def test_the_fifth_bet_is_refused_in_a_limit_game_with_three_players():
    hand = start({0: 500, 1: 500, 2: 500}, button=2, game=Game.FLHE, sb=5, bb=10)
    hand.call(2), hand.call(0), hand.check(1)
    hand.bet(0, 10), hand.raise_to(1, 20), hand.raise_to(2, 30)
    hand.raise_to(0, 40)  # one bet and three raises: capped
    assert actions(hand) == {ActionKind.FOLD, ActionKind.CALL}
    with pytest.raises(CannotRaise, match="capped at one bet and three raises"):
        hand.raise_to(1, 50)


def test_before_the_flop_the_big_blind_is_the_first_bet_of_the_cap():
    hand = start({0: 500, 1: 500, 2: 500}, button=2, game=Game.FLHE, sb=5, bb=10)
    hand.raise_to(2, 20), hand.raise_to(0, 30), hand.raise_to(1, 40)
    assert not hand.can_raise(2, 50)
    hand.call(2)
    assert hand.phase is Phase.PREFLOP and hand.actor == 0


def test_heads_up_limit_raising_is_not_capped():
    hand = start({0: 500, 1: 500}, button=1, game=Game.FLHE, sb=5, bb=10)
    for seat, to in [(1, 20), (0, 30), (1, 40), (0, 50), (1, 60), (0, 70)]:
        hand.raise_to(seat, to)
    assert wager(hand).min == 80


def test_a_limit_street_capped_three_ways_stays_capped_when_a_fold_leaves_two():
    hand = start({0: 500, 1: 500, 2: 500}, button=2, game=Game.FLHE, sb=5, bb=10)
    hand.raise_to(2, 20), hand.raise_to(0, 30), hand.raise_to(1, 40)
    hand.fold(2)
    assert not hand.can_raise(0, 50)


def test_a_limit_all_in_of_half_a_bet_reopens_the_betting():
    hand = start({0: 500, 1: 500, 2: 500, 3: 26}, button=3, game=Game.FLHE, sb=5, bb=10)
    hand.call(2), hand.call(3), hand.fold(0), hand.check(1)
    hand.bet(1, 10), hand.call(2)
    hand.all_in(3)  # 16 total: a raise of 6, at least half a bet of 10
    assert hand.level == 16
    assert (wager(hand).min, wager(hand).max) == (26, 26)  # one bet above the all-in
    hand.raise_to(1, 26)
    assert hand.can_raise(2, 36)


def test_a_limit_all_in_of_less_than_half_a_bet_does_not_reopen_the_betting():
    hand = start({0: 500, 1: 500, 2: 500, 3: 24}, button=3, game=Game.FLHE, sb=5, bb=10)
    hand.call(2), hand.call(3), hand.fold(0), hand.check(1)
    hand.bet(1, 10), hand.call(2)
    hand.all_in(3)  # 10 + 4 = 14 total: a raise of 4, less than half a bet
    assert hand.level == 14
    assert actions(hand) == {ActionKind.FOLD, ActionKind.CALL}
    hand.call(1)
    assert actions(hand) == {ActionKind.FOLD, ActionKind.CALL}


def test_a_limit_all_in_for_less_than_the_bet_is_a_call_or_a_short_bet():
    hand = start({0: 500, 1: 500, 2: 7}, button=2, game=Game.FLHE, sb=5, bb=10)
    assert {a.action: a.amount for a in hand.legal_actions()}.get(ActionKind.ALL_IN) == 7
    hand.all_in(2)  # a call for less
    hand.call(0), hand.check(1)
    assert hand.phase is Phase.FLOP


def test_a_stack_bigger_than_the_fixed_bet_cannot_go_all_in():
    hand = start({0: 500, 1: 500, 2: 500}, button=2, game=Game.FLHE, sb=5, bb=10)
    assert ActionKind.ALL_IN not in actions(hand)
    with pytest.raises(BetTooLarge, match="the fixed bet"):
        hand.all_in(2)


def test_a_fixed_limit_game_has_no_straddle():
    with pytest.raises(InvalidHandSetup, match="expected no straddle in a fixed-limit game"):
        Hand.start({0: 500, 1: 500, 2: 500}, button=2, stakes=Stakes(5, 10, straddle=20),
                   deck=Deck(rng=Random(0)), game=Game.FLHE)


def test_no_limit_is_unchanged_by_the_other_games():
    hand = start({0: 500, 1: 500, 2: 500}, button=2, game=Game.NLHE)
    assert (wager(hand).min, wager(hand).max) == (4, 500)
    assert ActionKind.ALL_IN in actions(hand)
