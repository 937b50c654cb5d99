"""The hand evaluator: exhaustive counts, a peer library, wild cards, and bad input."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from functools import cache

import eval7
import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.poker.cards import FULL_DECK, JOKER, Card, parse_cards
from app.poker.evaluator import (
    Category,
    HandValue,
    InvalidHand,
    category_batch,
    category_of,
    evaluate,
    rank,
    rank_batch,
    winners,
)

FIVE_CARD_CATEGORY_COUNTS = {
    Category.STRAIGHT_FLUSH: 40,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.ONE_PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}

hands_of = st.integers(min_value=5, max_value=7).flatmap(
    lambda n: st.lists(st.sampled_from(FULL_DECK), min_size=n, max_size=n, unique=True)
)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def random_hands(n_hands: int, size: int, seed: int) -> npt.NDArray[np.int64]:
    """``n_hands`` random hands of ``size`` distinct card ids."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n_hands, 52)), axis=1)[:, :size]


def same_order(ours: npt.NDArray[np.int64], theirs: npt.NDArray[np.int64]) -> bool:
    """True when both rankings order every pair of hands the same way (ties included)."""
    order = np.argsort(ours, kind="stable")
    step_ours, step_theirs = np.diff(ours[order]), np.diff(theirs[order])
    return bool(np.all(step_theirs >= 0) and np.array_equal(step_ours > 0, step_theirs > 0))


# ---------------------------------------------------------------- every five-card hand


@pytest.fixture(scope="module")
def every_five_card_hand() -> npt.NDArray[np.uint8]:
    flat = itertools.chain.from_iterable(itertools.combinations(range(52), 5))
    return np.fromiter(flat, dtype=np.uint8, count=5 * 2_598_960).reshape(-1, 5)


def test_every_five_card_hand_falls_into_exactly_7462_ranks(
    every_five_card_hand: npt.NDArray[np.uint8],
) -> None:
    ranks = rank_batch(every_five_card_hand)
    assert len(ranks) == 2_598_960
    assert len(np.unique(ranks)) == 7_462
    assert ranks.min() == 1 and ranks.max() == 7_462


def test_every_five_card_hand_gives_the_known_category_counts(
    every_five_card_hand: npt.NDArray[np.uint8],
) -> None:
    counts = np.bincount(category_batch(rank_batch(every_five_card_hand)), minlength=10)
    assert {c: int(counts[c]) for c in FIVE_CARD_CATEGORY_COUNTS} == FIVE_CARD_CATEGORY_COUNTS
    assert counts[Category.FIVE_OF_A_KIND] == 0


def test_the_scalar_path_agrees_with_the_batch_path_on_a_sample_of_five_card_hands(
    every_five_card_hand: npt.NDArray[np.uint8],
) -> None:
    sample = every_five_card_hand[::97]
    scalar = [rank([FULL_DECK[i] for i in row]) for row in sample.tolist()]
    assert scalar == rank_batch(sample).tolist()


# ---------------------------------------------------------------- a peer library


@pytest.mark.parametrize("size", [7, 6, 5])
def test_rankings_agree_with_eval7_on_100000_random_hands(size: int) -> None:
    hands = random_hands(100_000, size, seed=size)
    peer_cards = [eval7.Card(str(card)) for card in FULL_DECK]
    theirs = np.array([eval7.evaluate([peer_cards[i] for i in row]) for row in hands.tolist()])
    ours = rank_batch(hands)
    assert same_order(ours, theirs)
    assert [rank([FULL_DECK[i] for i in row]) for row in hands.tolist()] == ours.tolist()


EVAL7_HAND_TYPES = {"Pair": "one pair", "Trips": "three of a kind", "Quads": "four of a kind"}


def test_categories_agree_with_eval7_hand_types() -> None:
    hands = random_hands(20_000, 7, seed=11)
    peer_cards = [eval7.Card(str(card)) for card in FULL_DECK]
    theirs = [
        eval7.handtype(eval7.evaluate([peer_cards[i] for i in row])) for row in hands.tolist()
    ]
    ours = [Category(c).label for c in category_batch(rank_batch(hands))]
    assert ours == [EVAL7_HAND_TYPES.get(t, t.lower()) for t in theirs]


@settings(max_examples=300, deadline=None)
@given(hands_of)
def test_a_hand_ranks_as_the_best_of_its_five_card_subsets(hand: list[Card]) -> None:
    assert rank(hand) == max(rank(five) for five in itertools.combinations(hand, 5))


@settings(max_examples=200, deadline=None)
@given(hands_of, st.permutations(range(4)))
def test_renaming_the_suits_never_changes_a_rank(hand: list[Card], suits: list[int]) -> None:
    renamed = [Card.from_id(c.rank * 4 + suits[c.suit]) for c in hand]
    assert rank(renamed) == rank(hand)


# ---------------------------------------------------------------- the batch path


def test_batch_ranks_do_not_depend_on_threads_dtype_or_layout() -> None:
    hands = random_hands(100_000, 7, seed=3)
    expected = rank_batch(hands, threads=1)
    assert rank_batch(hands, threads=2).tolist() == expected.tolist()
    assert rank_batch(hands.astype(np.uint8)).tolist() == expected.tolist()
    padded = np.zeros((len(hands), 8), np.uint8)
    padded[:, :7] = hands
    assert rank_batch(padded[:, :7]).tolist() == expected.tolist()


def test_an_empty_batch_gives_no_ranks() -> None:
    assert rank_batch(np.empty((0, 7), np.int64)).shape == (0,)


def test_categories_follow_from_ranks() -> None:
    assert category_of(1) is Category.HIGH_CARD
    assert category_of(7_462) is Category.STRAIGHT_FLUSH
    assert category_of(7_475) is Category.FIVE_OF_A_KIND
    ranks = np.arange(1, 7_476)
    assert category_batch(ranks).tolist() == [category_of(int(r)) for r in ranks]


# ---------------------------------------------------------------- what evaluate() reports


@pytest.mark.parametrize(
    ("hand", "name", "best"),
    [
        ("Ah Kd 7c 7d 2s 9h 3c", "one pair", "7d 7c Ah Kd 9h"),
        ("Kh Kd 5c 5d 9s 9c Ah", "two pair", "Kh Kd 9s 9c Ah"),
        ("9h 9d 9c 4s 4d 4h Ac", "full house", "9h 9d 9c 4s 4h"),
        ("8c 8d 8h 8s Kc Kd Ah", "four of a kind", "8s 8h 8d 8c Ah"),
        ("Qd Qs Qc 7h 4d", "three of a kind", "Qs Qd Qc 7h 4d"),
        ("5d 4c 3h 2s Ac Kd 9s", "straight", "5d 4c 3h 2s Ac"),
        ("9c Td Jh Qs Ks Kd 2c", "straight", "Ks Qs Jh Td 9c"),
        ("Ah 2h 5h 9h Jh Kh 3h", "flush", "Ah Kh Jh 9h 5h"),
        ("5c 4c 3c 2c Ac Ad", "straight flush", "5c 4c 3c 2c Ac"),
        ("Ah Kh Qh Jh Th 9h 8h", "royal flush", "Ah Kh Qh Jh Th"),
        ("Kd Qd Jd Td 9d", "straight flush", "Kd Qd Jd Td 9d"),
        ("Ac Jd 8h 6s 3c 2d", "high card", "Ac Jd 8h 6s 3c"),
    ],
)
def test_best_holds_the_five_cards_used_in_reading_order(hand: str, name: str, best: str) -> None:
    value = evaluate(cards(hand))
    assert (value.name, value.best) == (name, cards(best))
    assert value.rank == rank(cards(hand))


def test_only_the_ace_high_straight_flush_is_named_royal() -> None:
    assert evaluate(cards("As Ks Qs Js Ts")).name == "royal flush"
    assert evaluate(cards("As Ks Qs Js Ts")).category is Category.STRAIGHT_FLUSH
    assert evaluate(cards("Ks Qs Js Ts 9s As Ah")).name == "royal flush"
    assert evaluate(cards("Ks Qs Js Ts 9s Ah Ad")).name == "straight flush"
    assert evaluate(cards("Ah Kh Qh Jh Xx")).name == "royal flush"


@settings(max_examples=200, deadline=None)
@given(hands_of)
def test_best_is_five_of_the_cards_and_worth_the_whole_hand(hand: list[Card]) -> None:
    value = evaluate(hand)
    assert len(value.best) == 5 and set(value.best) <= set(hand)
    assert rank(value.best) == value.rank
    assert category_of(value.rank) is value.category


# ---------------------------------------------------------------- winners


def test_winners_returns_the_single_best_hand() -> None:
    board = cards("Ah Kd 7c 7d 2s")
    assert winners([cards("As Qc"), cards("Kh Kc"), cards("9c 8c")], board) == [1]


def test_winners_returns_every_hand_that_ties() -> None:
    board = cards("Ah 9d 7c 7d 2s")
    assert winners([cards("As Qc"), cards("Ac Qd"), cards("Ad 3c")], board) == [0, 1]


def test_everyone_splits_when_the_board_plays() -> None:
    board = cards("Ts Js Qs Ks As")
    assert winners([cards("2c 3d"), cards("4h 5c"), cards("Ac Ad")], board) == [0, 1, 2]


def test_winners_plays_wild_cards() -> None:
    board = cards("2c 9h 8d Kc 4s")
    hands = [cards("9s 9c"), cards("Xx 2d")]
    assert winners(hands, board) == [0]
    assert winners(hands, board, wild_ranks={0}) == [1]
    assert evaluate([*hands[1], *board], wild_ranks={0}).name == "four of a kind"


# ---------------------------------------------------------------- wild cards


def test_a_joker_makes_five_of_a_kind_above_a_straight_flush() -> None:
    five_aces = evaluate(cards("Ah Ad Ac As Xx"))
    assert five_aces.name == "five of a kind"
    assert five_aces.rank > rank(cards("As Ks Qs Js Ts"))
    assert five_aces.best == cards("As Ah Ad Ac Xx")


def test_wild_cards_appear_in_best_where_the_card_they_stand_for_goes() -> None:
    value = evaluate(cards("Ah As Xx Kd Qc 3h 4h"))
    assert (value.name, value.best) == ("three of a kind", cards("As Ah Xx Kd Qc"))
    value = evaluate(cards("9d 7d 6d 2h 2c Jc Kh"), wild_ranks={0})
    assert (value.name, value.best) == ("straight flush", cards("2h 9d 2c 7d 6d"))


def test_deuces_wild_counts_every_deuce_as_wild() -> None:
    assert evaluate(cards("2c 2d 2h 2s 7c")).name == "four of a kind"
    assert evaluate(cards("2c 2d 2h 2s 7c"), wild_ranks={0}).name == "five of a kind"
    assert evaluate(cards("2c Xx Xx 2s 3d"), wild_ranks={0}).best[0] == Card.parse("3d")


@settings(max_examples=200, deadline=None)
@given(hands_of, st.data())
def test_a_joker_is_never_worse_than_the_card_it_replaces(
    hand: list[Card], data: st.DataObject
) -> None:
    replaced = data.draw(st.integers(min_value=0, max_value=len(hand) - 1))
    with_joker = [JOKER if i == replaced else c for i, c in enumerate(hand)]
    assert evaluate(with_joker).rank >= evaluate(hand).rank


Substitute = tuple[int, int]  # (rank, suit) a card stands as; wild cards may repeat one


@cache
def reference_value(five: tuple[Substitute, ...]) -> tuple[int, tuple[int, ...]]:
    """Slow, obvious valuation of five cards as played, repeats allowed (a wild's copy)."""
    ranks = sorted((r for r, _ in five), reverse=True)
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape, order = tuple(n for _, n in groups), tuple(r for r, _ in groups)
    if shape == (5,):
        return Category.FIVE_OF_A_KIND, order
    if len(groups) == 5:
        flush = len({s for _, s in five}) == 1
        if ranks == [12, 3, 2, 1, 0] or ranks[0] - ranks[4] == 4:
            high = 3 if ranks[0] - ranks[4] != 4 else ranks[0]
            return (Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT), (high,)
        return (Category.FLUSH if flush else Category.HIGH_CARD), tuple(ranks)
    shapes = {(4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}
    return Category(shapes[shape]), order


def brute_force_value(hand: Sequence[Card], wild_ranks: set[int]) -> tuple[int, tuple[int, ...]]:
    """Every card of the deck for every wild (repeats allowed), the best five of each."""
    natural = [(c.rank, c.suit) for c in hand if not (c.is_joker or c.rank in wild_ranks)]
    n_wild = len(hand) - len(natural)
    deck = [(c.rank, c.suit) for c in FULL_DECK]
    return max(
        reference_value(tuple(sorted(five)))
        for stand_ins in itertools.combinations_with_replacement(deck, n_wild)
        for five in itertools.combinations(natural + list(stand_ins), 5)
    )


def random_wild_hands(count: int, n_wild: int, seed: int) -> list[tuple[list[Card], set[int]]]:
    """Hands of 5-7 cards with ``n_wild`` wild cards: jokers, or deuces with deuces wild."""
    rng = np.random.default_rng(seed)
    hands = []
    for _ in range(count):
        size = int(rng.integers(5, 8))
        deuces_wild = bool(rng.integers(2))
        jokers = int(rng.integers(n_wild + 1)) if deuces_wild else n_wild
        deuces = rng.permutation(4)[: n_wild - jokers].tolist()
        naturals = rng.permutation(52 - 4 * deuces_wild)[: size - n_wild] + 4 * deuces_wild
        hand = [JOKER] * jokers + [FULL_DECK[i] for i in deuces + naturals.tolist()]
        shuffled = [hand[i] for i in rng.permutation(len(hand))]
        hands.append((shuffled, {0} if deuces_wild else set()))
    return hands


@pytest.mark.parametrize(("n_wild", "count"), [(1, 250), (2, 30)])
def test_wild_hands_rank_as_a_brute_force_substitution_of_every_card(
    n_wild: int, count: int
) -> None:
    hands = random_wild_hands(count, n_wild, seed=n_wild)
    values = [evaluate(hand, wild_ranks=wild) for hand, wild in hands]
    oracle = [brute_force_value(hand, wild) for hand, wild in hands]
    dense = {key: i for i, key in enumerate(sorted(set(oracle)))}
    assert same_order(np.array([v.rank for v in values]), np.array([dense[k] for k in oracle]))
    assert [v.category for v in values] == [k[0] for k in oracle]
    for value, (_, wild), key in zip(values, hands, oracle, strict=True):
        assert brute_force_value(value.best, wild) == key, value


wild_hands = st.tuples(
    st.integers(min_value=5, max_value=6), st.integers(min_value=1, max_value=2), st.booleans()
).flatmap(
    lambda shape: st.tuples(
        st.lists(
            st.sampled_from(FULL_DECK[4:] if shape[2] else FULL_DECK),
            min_size=shape[0] - shape[1],
            max_size=shape[0] - shape[1],
            unique=True,
        ),
        st.lists(
            st.sampled_from([JOKER, *FULL_DECK[:4]] if shape[2] else [JOKER]),
            min_size=shape[1],
            max_size=shape[1],
            unique=shape[2],
        ),
        st.just({0} if shape[2] else set()),
    )
)


@settings(max_examples=150, deadline=None)
@given(wild_hands)
def test_a_wild_hand_is_worth_its_best_substitution(
    hand: tuple[list[Card], list[Card], set[int]],
) -> None:
    naturals, wilds, wild_ranks = hand
    value = evaluate(naturals + wilds, wild_ranks=wild_ranks)
    expected = brute_force_value(naturals + wilds, wild_ranks)
    assert (value.category, brute_force_value(value.best, wild_ranks)) == (expected[0], expected)


def test_five_wild_cards_are_five_aces() -> None:
    value = evaluate(cards("Xx Xx 2c 2d 2h 7s"), wild_ranks={0})
    assert value.rank == evaluate(cards("Ah Ad Ac As Xx")).rank
    assert value.best == cards("Xx Xx 2c 2d 2h")


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("hand", ["Ah Kd 7c 7d", "Ah Kd 7c 7d 2s 9h 3c 4c"])
def test_four_or_eight_cards_are_not_a_hand(hand: str) -> None:
    size = len(cards(hand))
    with pytest.raises(InvalidHand, match=f"expected 5 to 7 cards, got {size}"):
        evaluate(cards(hand))
    with pytest.raises(InvalidHand, match=f"expected 5 to 7 cards, got {size}"):
        rank(cards(hand))
    ids = np.array([[int(c) for c in cards(hand)]])
    with pytest.raises(InvalidHand, match=r"expected an \(N, 5\|6\|7\) array"):
        rank_batch(ids)


def test_the_fast_paths_refuse_jokers() -> None:
    with pytest.raises(InvalidHand, match="natural cards only"):
        rank(cards("Ah Kd 7c 7d Xx"))
    with pytest.raises(InvalidHand, match="natural cards only"):
        rank_batch(np.array([[48, 44, 40, 36, 52]]))


@pytest.mark.parametrize("bad_id", [-1, -60, 53, 200])
def test_rank_batch_refuses_ids_that_are_not_cards(bad_id: int) -> None:
    with pytest.raises(InvalidHand, match="card ids must be 0 to 51"):
        rank_batch(np.array([[0, 5, 9, 13, bad_id]]))


def test_rank_batch_refuses_arrays_that_are_not_card_ids() -> None:
    with pytest.raises(InvalidHand, match="must be integers"):
        rank_batch(np.zeros((3, 7)))
    with pytest.raises(InvalidHand, match="array of card ids"):
        rank_batch(np.zeros(7, np.int64))


def test_evaluate_refuses_a_card_twice_and_wild_ranks_that_are_not_ranks() -> None:
    with pytest.raises(InvalidHand, match="card Ah appears twice"):
        evaluate(parse_cards("Ah Ah Kd 7c 2s", allow_duplicates=True))
    with pytest.raises(InvalidHand, match="wild ranks must be 0"):
        evaluate(cards("Ah Kd 7c 3d 2s"), wild_ranks={13})


def test_winners_refuses_a_card_dealt_twice_and_an_empty_table() -> None:
    with pytest.raises(InvalidHand, match="appears in two hands"):
        winners([cards("Ah Kd"), cards("Ah Qc")], cards("2c 3d 4h 5s 9c"))
    with pytest.raises(InvalidHand, match="at least one hand"):
        winners([], cards("2c 3d 4h 5s 9c"))


def test_hand_values_are_plain_frozen_data() -> None:
    value = evaluate(cards("Ah Kd 7c 7d 2s"))
    assert value == HandValue(value.rank, Category.ONE_PAIR, cards("7d 7c Ah Kd 2s"))
    with pytest.raises(AttributeError):
        value.rank = 1  # type: ignore[misc]
