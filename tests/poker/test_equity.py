"""Equity: exact enumeration against brute force and a peer library, seeded Monte Carlo."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phevaluator import evaluate_cards

from app.poker.cards import FULL_DECK, JOKER, Card, DeckExhausted, DuplicateCard, InvalidCard
from app.poker.cards import parse_cards as cards
from app.poker.equity import (
    EquityResult,
    InvalidBoard,
    InvalidHoleCards,
    InvalidPlayerCount,
    InvalidSampling,
    deal_count,
    equity,
)
from app.poker.evaluator import rank, winners

Hole = tuple[Card, ...]


def brute_force(hands: Sequence[Hole | None], board: Hole = (), dead: Hole = ()
                ) -> list[tuple[Fraction, Fraction, Fraction]]:
    """(win, tie, equity) per hand by looping over every deal with the scalar evaluator."""
    used = {c for h in hands if h is not None for c in h} | set(board) | set(dead)
    unseen = [c for c in FULL_DECK if c not in used]
    unknown = [i for i, h in enumerate(hands) if h is None]
    tallies = [[Fraction(0)] * 3 for _ in hands]
    deals = 0
    for holes in _hole_deals(unseen, len(unknown)):
        rest = [c for c in unseen if c not in {c for h in holes for c in h}]
        dealt = dict(zip(unknown, holes, strict=True))
        full = [dealt.get(i, h) for i, h in enumerate(hands)]
        for extra in itertools.combinations(rest, 5 - len(board)):
            ranks = [rank([*h, *board, *extra]) for h in full]
            top = [i for i, r in enumerate(ranks) if r == max(ranks)]
            for i in top:
                tallies[i][0 if len(top) == 1 else 1] += 1
                tallies[i][2] += Fraction(1, len(top))
            deals += 1
    return [(w / deals, t / deals, e / deals) for w, t, e in tallies]


def _hole_deals(unseen: list[Card], count: int) -> list[tuple[Hole, ...]]:
    if count == 0:
        return [()]
    return [(pair, *more) for pair in itertools.combinations(unseen, 2)
            for more in _hole_deals([c for c in unseen if c not in pair], count - 1)]


def assert_matches(result: EquityResult, expected: list[tuple[Fraction, Fraction, Fraction]]
                   ) -> None:
    for got, (win, tie, share) in zip(result.hands, expected, strict=True):
        assert got.win == pytest.approx(float(win), abs=1e-12)
        assert got.tie == pytest.approx(float(tie), abs=1e-12)
        assert got.equity == pytest.approx(float(share), abs=1e-12)


@pytest.mark.slow
def test_heads_up_preflop_is_exact_over_all_1712304_boards():
    result = equity(["AhKh", "QsQd"])
    assert result.exact and result.boards == 1_712_304
    ak, qq = result.hands
    # Counted by a plain loop over phevaluator: 787,966 wins, 917,606 losses, 6,732 ties.
    assert (ak.win, qq.win) == (787_966 / 1_712_304, 917_606 / 1_712_304)
    assert ak.tie == qq.tie == 6_732 / 1_712_304
    assert (round(ak.equity * 100, 2), round(qq.equity * 100, 2)) == (46.21, 53.79)
    assert ak.stderr == qq.stderr == 0.0


@pytest.mark.parametrize(("hands", "board", "dead"), [
    (["AhKh", "QsQd"], "Qh Jh 2c 3d", ""),
    (["AhKh", "QsQd"], "Qh Jh 2c", ""),
    (["9h8h", "AsKd", "7c7d"], "Th 6c 2d 5s", ""),
    (["AsKs", "AdKd"], "Qs Jd 3c", "Ts Td 9c"),
    (["AsAd", None], "Ks 7d 2c 9h 3s", ""),
    (["Ac2c", "KdKs", "7h6h", "JcTc"], "9c 8d 2h 4c", "Qc"),
])
def test_exact_equity_matches_a_brute_force_loop(hands, board, dead):
    result = equity(hands, board=board, dead=dead)
    assert result.exact
    known = [None if h is None else cards(h) for h in hands]
    assert_matches(result, brute_force(known, cards(board), cards(dead)))


def test_two_random_hands_on_a_river_split_the_pot_evenly():
    dead = FULL_DECK[:28] + cards("Tc Td Th Ts 9c 9d 9s")  # 12 unseen: C(12, 2) * C(10, 2)
    result = equity([None, None], board="As Ks Qs Jd 9h", dead=dead)
    assert result.exact and result.boards == 66 * 45
    first, second = result.hands
    assert first.equity == pytest.approx(second.equity) == pytest.approx(0.5)
    assert_matches(result, brute_force([None, None], cards("As Ks Qs Jd 9h"), dead))


def test_boards_counts_every_deal_of_random_hole_cards_then_the_board():
    assert deal_count(48, 0, 5) == 1_712_304
    assert deal_count(47, 1, 2) == 1081 * 990
    assert equity(["AhKh", None], board="Qh Jh 2c 3d 9s").boards == 990
    assert equity(["AhKh", "QsQd"], board="Qh Jh 2c 3d").boards == 44


@pytest.mark.parametrize("seed", [1, 7, 2024])
def test_flop_equity_agrees_with_phevaluator_on_random_spots(seed):
    deck = [str(c) for c in FULL_DECK]
    random.Random(seed).shuffle(deck)
    hero, villain, board = deck[0:2], deck[2:4], deck[4:7]
    wins = ties = 0
    for turn, river in itertools.combinations(deck[7:], 2):
        mine = evaluate_cards(*hero, *board, turn, river)  # lower is better in phevaluator
        theirs = evaluate_cards(*villain, *board, turn, river)
        wins, ties = wins + (mine < theirs), ties + (mine == theirs)
    result = equity(["".join(hero), "".join(villain)], board=" ".join(board))
    assert result.boards == 990
    assert result.hands[0].win == wins / 990 and result.hands[0].tie == ties / 990


def test_monte_carlo_is_reproducible_with_a_seed():
    spot = {"hands": ["AhKh", "QsQd"], "board": "Qh Jh 2c", "exact_threshold": 0,
            "iterations": 1500}
    first, again = equity(**spot, seed=5), equity(**spot, seed=5)
    assert first == again
    assert not first.exact and first.boards == 1500
    assert equity(**spot, seed=7) != first


def test_monte_carlo_lands_within_three_standard_errors_of_the_exact_answer():
    exact = equity(["AhKh", "QsQd"], board="Qh Jh 2c")
    sampled = equity(["AhKh", "QsQd"], board="Qh Jh 2c", exact_threshold=0, iterations=5000)
    for truth, guess in zip(exact.hands, sampled.hands, strict=True):
        assert 0 < guess.stderr < 0.01
        assert abs(guess.equity - truth.equity) <= 3 * guess.stderr


def test_aces_against_a_random_hand_preflop_are_about_85_percent():
    result = equity(["AsAd", "??"], iterations=5000, seed=3)
    assert not result.exact
    aces, anything = result.hands
    assert anything.hand is None
    assert abs(aces.equity - 0.852) <= 3 * aces.stderr
    assert aces.equity + anything.equity == pytest.approx(1.0)


def test_dead_cards_are_out_of_play():
    live = equity(["Ah5h", "KcKd"], board="Qh 9h 2c 3s")
    dead = equity(["Ah5h", "KcKd"], board="Qh 9h 2c 3s", dead="Th Jh 4c 4d")
    assert live.boards == 44 and dead.boards == 40
    # Hearts, fours and aces win: 9 + 3 + 3 of 44 rivers; with four of them dead, 7 + 1 + 3 of 40.
    assert live.hands[0].win == 15 / 44
    assert dead.hands[0].win == 11 / 40


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 9), st.randoms(use_true_random=False))
def test_on_a_full_board_the_winners_share_the_pot(players, rng):
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    holes = [tuple(deck[2 * i : 2 * i + 2]) for i in range(players)]
    board = tuple(deck[2 * players : 2 * players + 5])
    result = equity(holes, board=board)
    best = winners(holes, board)
    assert result.boards == 1 and sum(result.equities) == pytest.approx(1.0)
    for seat, share in enumerate(result.hands):
        assert share.equity == pytest.approx(1 / len(best) if seat in best else 0.0)
        assert share.tie == (1.0 if seat in best and len(best) > 1 else 0.0)


def test_the_result_is_frozen():
    result = equity(["AhKh", "QsQd"], board="Qh Jh 2c 3d 4s")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.exact = False  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.hands[0].win = 1.0  # type: ignore[misc]


@pytest.mark.parametrize(("hands", "board", "dead", "error", "token"), [
    (["AhKh", "AhQd"], "", "", DuplicateCard, "Ah"),
    (["AhKh", "QsQd"], "Kh 2c 3c", "", DuplicateCard, "Kh"),
    (["AhKh", "QsQd"], "2c 3c 4c", "4c", DuplicateCard, "4c"),
    (["AhKh", "QsQd"], "2c", "", InvalidBoard, None),
    (["AhKh", "QsQd"], "2c 3c 4c 5c 6c 7c", "", InvalidBoard, None),
    (["AhKh"], "", "", InvalidPlayerCount, None),
    (["??"] * 10, "", "", InvalidPlayerCount, None),
    (["AhKhQh", "QsQd"], "", "", InvalidHoleCards, None),
    (["Ah", "QsQd"], "", "", InvalidHoleCards, None),
    (["AhZz", "QsQd"], "", "", InvalidCard, "Zz"),
    ([[Card.parse("Ah"), JOKER], "QsQd"], "", "", InvalidCard, "Xx"),
    (["??"] * 9, "", FULL_DECK[:30], DeckExhausted, None),
])
def test_bad_questions_raise_typed_errors(hands, board, dead, error, token):
    with pytest.raises(error) as raised:
        equity(hands, board=board, dead=dead)
    assert raised.value.code and raised.value.message
    if token is not None:
        assert raised.value.details["token"] == token


@pytest.mark.parametrize("options", [{"iterations": 0}, {"seed": -1}, {"exact_threshold": -5}])
def test_bad_sampling_options_raise_a_typed_error(options):
    with pytest.raises(InvalidSampling):
        equity(["AhKh", "QsQd"], **options)
