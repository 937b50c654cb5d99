"""Omaha hands: exactly two hole cards and three board cards, on the hold'em scale."""

from itertools import combinations
from random import Random

import numpy as np
import pytest
from pokerkit import OmahaHoldemHand

from app.poker.cards import FULL_DECK, parse_cards
from app.poker.evaluator import InvalidHand, rank
from app.poker.omaha import (
    evaluate_omaha,
    hand_rank,
    rank_omaha,
    rank_omaha_batch,
    rank_omaha_on_boards,
)


def deal(rng, hole, board=5):
    cards = rng.sample(FULL_DECK, hole + board)
    return cards[:hole], cards[hole:]


def brute_force(hole, board):
    return max(rank([*pair, *triple]) for pair in combinations(hole, 2)
               for triple in combinations(board, 3))


def test_an_omaha_hand_uses_exactly_two_hole_cards():
    board = parse_cards("Ah Kh Qh Jh 2c")
    # One heart in the hand: no flush (hold'em would call this a royal flush).
    assert evaluate_omaha(parse_cards("Th 9s 4d 5c"), board).name == "straight"
    # Four of a kind in the hand plays only two of them.
    quads = evaluate_omaha(parse_cards("9s 9d 9c 9h"), parse_cards("2d 5c 8s Kd Qc"))
    assert quads.name == "one pair"
    # Three of the board, never four: a board flush needs two of the suit in the hand.
    assert evaluate_omaha(parse_cards("Ts 3s 4d 5c"), board).name == "high card"


def test_an_omaha_hand_uses_exactly_three_board_cards():
    board = parse_cards("7c 7d 7h 7s 2c")
    value = evaluate_omaha(parse_cards("Ah Ad Kc Qd"), board)
    assert value.name == "full house"
    assert sum(c in board for c in value.best) == 3


@pytest.mark.parametrize("holes", [4, 5])
def test_an_omaha_rank_is_the_best_of_its_two_and_three_hands(holes):
    rng = Random(holes)
    for _ in range(3000):
        hole, board = deal(rng, holes)
        assert rank_omaha(hole, board) == brute_force(hole, board)


@pytest.mark.parametrize("board_size", [3, 4])
def test_an_omaha_rank_on_a_flop_or_a_turn_uses_three_of_the_board(board_size):
    rng = Random(board_size)
    for _ in range(500):
        hole, board = deal(rng, 4, board_size)
        assert rank_omaha(hole, board) == brute_force(hole, board)


@pytest.mark.parametrize("holes", [4, 5])
def test_omaha_hands_order_as_pokerkit_orders_them(holes):
    rng = Random(100 + holes)
    for _ in range(300):
        cards = rng.sample(FULL_DECK, 2 * holes + 5)
        a, b, board = cards[:holes], cards[holes:2 * holes], cards[2 * holes:]
        ours = rank_omaha(a, board), rank_omaha(b, board)
        kit = [OmahaHoldemHand.from_game("".join(map(str, h)), "".join(map(str, board)))
               for h in (a, b)]
        assert (ours[0] > ours[1], ours[0] == ours[1]) == (kit[0] > kit[1], kit[0] == kit[1])


@pytest.mark.parametrize("holes", [4, 5])
def test_the_batch_path_agrees_with_the_scalar_path(holes):
    rng = Random(7)
    hands = [deal(rng, holes) for _ in range(2000)]
    batch = rank_omaha_batch([[int(c) for c in h] for h, _ in hands],
                             [[int(c) for c in b] for _, b in hands])
    assert batch.tolist() == [rank_omaha(h, b) for h, b in hands]


def test_ranks_on_boards_rank_every_hand_on_every_board():
    rng = Random(3)
    cards = rng.sample(FULL_DECK, 13)
    holes = [cards[0:4], cards[4:8]]
    boards = [rng.sample([c for c in FULL_DECK if c not in cards[:8]], 5) for _ in range(50)]
    out = rank_omaha_on_boards(np.array(boards, dtype=np.int64), np.array(holes, dtype=np.int64))
    assert out.tolist() == [[rank_omaha(h, b) for h in holes] for b in boards]


def test_hold_em_and_omaha_ranks_share_one_scale():
    hole, board = parse_cards("As Ks 2c 2d"), parse_cards("Qs Js Ts 3h 4h")
    assert hand_rank(hole, board, omaha=True) == rank(parse_cards("As Ks Qs Js Ts"))
    assert hand_rank(hole[:2], board, omaha=False) == rank([*hole[:2], *board])


def test_bad_omaha_hands_are_refused():
    with pytest.raises(InvalidHand, match="expected 2 to 6 hole cards and 3 to 5 board"):
        rank_omaha(parse_cards("As"), parse_cards("Qs Js Ts"))
    with pytest.raises(InvalidHand, match="distinct"):
        evaluate_omaha(parse_cards("As Ks 2c 2d"), parse_cards("As Js Ts"))
