"""Outs: the classic draws, counted over the right unseen cards, and the odds players quote."""

from __future__ import annotations

from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.poker.cards import FULL_DECK, DuplicateCard
from app.poker.cards import parse_cards as cards
from app.poker.equity import InvalidBoard, InvalidHoleCards
from app.poker.evaluator import rank
from app.poker.outs import odds_against, outs


def test_an_open_ended_straight_draw_has_8_outs_against_aces():
    found = outs("9h8d", "7c 6s 2d", opponents=["AsAc"])
    assert found.cards == cards("5c 5d 5h 5s Tc Td Th Ts")
    assert found.count == 8 and found.unseen == 45  # 52 - 2 - 3 - the two known aces
    assert found.next_card == 8 / 45
    assert found.by_river == 1 - comb(37, 2) / comb(45, 2)
    assert found.odds == "4.6 : 1"
    assert found.odds_by_river == "2.1 : 1"


def test_a_flush_draw_has_9_outs_against_a_pair():
    found = outs("6h5h", "Kh 7h 2c", opponents=["QcQd"])
    assert found.count == 9
    assert all(card.suit == 2 for card in found.cards)  # every heart, nothing else
    assert found.odds == "4.0 : 1"
    assert f"{found.by_river:.1%}" == "36.4%"


def test_a_flush_card_that_pairs_the_board_is_not_an_out_against_a_set():
    found = outs("AhTh", "Kh 7h 2c", opponents=["KsKd"])
    assert found.count == 8  # the 2h gives kings full
    assert cards("2h")[0] not in found.cards


def test_dead_cards_reduce_the_outs_and_the_unseen_cards():
    found = outs("9h8d", "7c 6s 2d", opponents=["AsAc"], dead="Tc Td 5s")
    assert found.cards == cards("5c 5d 5h Th Ts")
    assert found.unseen == 42 and found.next_card == 5 / 42


def test_without_opponents_outs_are_cards_that_improve_the_category():
    set_to_boat = outs("9s9h", "9d 5c 2h")
    assert set_to_boat.category == "three of a kind"
    assert set_to_boat.cards == cards("2c 2d 2s 5d 5h 5s 9c")
    assert set_to_boat.unseen == 47


def test_pairing_the_board_is_not_an_out():
    found = outs("AhKd", "7c 7d 2s")
    assert found.cards == cards("Kc Kh Ks Ac Ad As")  # never a deuce: 7-7-2-2 is the board's


def test_on_the_turn_there_is_no_by_the_river_chance():
    found = outs("9h8d", "7c 6s 2d Kc", opponents=["AsAc"])
    assert found.count == 8 and found.unseen == 44
    assert found.by_river is None and found.odds_by_river is None


def test_a_hand_drawing_dead_has_no_odds():
    found = outs("7c2d", "Ah Ad Kc", opponents=["AsAc"])
    assert found.count == 0 and found.next_card == 0.0
    assert found.odds is None and found.by_river == 0.0


def test_cards_that_only_tie_are_splits_not_outs():
    found = outs("AhKd", "Qs Jh 3d", opponents=["AcKc"])
    assert found.count == 0 and len(found.splits) == found.unseen == 45


@pytest.mark.parametrize(("chance", "odds"), [(0.2, "4.0 : 1"), (0.5, "1.0 : 1"),
                                              (8 / 47, "4.9 : 1"), (1.0, "0.0 : 1"), (0.0, None)])
def test_odds_read_x_to_1_against(chance, odds):
    assert odds_against(chance) == odds


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(3, 4), st.integers(1, 3))
def test_outs_are_exactly_the_cards_after_which_the_hand_wins(rng, board_size, rivals):
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    hero, board = deck[:2], deck[2 : 2 + board_size]
    opponents = [deck[5 + board_size + 2 * i : 7 + board_size + 2 * i] for i in range(rivals)]
    found = outs(hero, board, opponents=opponents)
    seen = {*hero, *board, *(c for o in opponents for c in o)}
    expected = [c for c in FULL_DECK if c not in seen
                and rank([*hero, *board, c]) > max(rank([*o, *board, c]) for o in opponents)]
    assert list(found.cards) == expected
    assert found.unseen == 52 - len(seen)


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"hand": "9h8d", "board": "7c 6s 2d 4h 3h"}, InvalidBoard),
    ({"hand": "9h8d", "board": ""}, InvalidBoard),
    ({"hand": "9h8d", "board": "7c 6s 2d", "opponents": ["??"]}, InvalidHoleCards),
    ({"hand": "9h", "board": "7c 6s 2d"}, InvalidHoleCards),
    ({"hand": "9h8d", "board": "7c 6s 9h"}, DuplicateCard),
    ({"hand": "9h8d", "board": "7c 6s 2d", "dead": "7c"}, DuplicateCard),
])
def test_bad_questions_raise_typed_errors(kwargs, error):
    with pytest.raises(error):
        outs(**kwargs)
