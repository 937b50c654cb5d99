"""Range equity: exact answers match hand-by-hand enumeration, samples match exact answers."""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest

from app.poker import range_equity as range_equity_module
from app.poker.cards import format_cards
from app.poker.equity import combination_ids, equity
from app.poker.evaluator import rank_batch, rank_on_boards
from app.poker.range_equity import (
    _PERMUTATIONS,
    RangeConflict,
    _orbit_count,
    _orbits,
    _suit_patterns,
    range_equity,
)
from app.poker.ranges import parse_range


def brute_force(first: str, second: str, board: str) -> float:
    """Equity of ``first`` averaged over every pair of disjoint combos, weighted by deals."""
    total = weight = 0.0
    for a in parse_range(first):
        for b in parse_range(second):
            cards = {*a, *b}
            if len(cards) < 4 or cards & set(equity_board(board)):
                continue
            result = equity([format_cards(a), format_cards(b)], board=board)
            total += result.hands[0].equity * result.boards
            weight += result.boards
    return total / weight


def equity_board(board: str) -> tuple:  # type: ignore[type-arg]
    from app.poker.cards import parse_cards
    return parse_cards(board)


def test_range_against_range_on_a_flop_matches_every_matchup_enumerated() -> None:
    result = range_equity(["TT+,AQs", "KQ,88-99"], board="Ks 8d 2c")
    assert result.exact
    assert result.hands[0].equity == pytest.approx(brute_force("TT+,AQs", "KQ,88-99",
                                                               "Ks 8d 2c"), abs=1e-12)


def test_single_combos_preflop_equal_the_hand_equity() -> None:
    ranged = range_equity(["AhKh", "QsQd"])
    plain = equity(["AhKh", "QsQd"])
    assert ranged.exact and ranged.deals == plain.boards
    assert ranged.hands[0].equity == pytest.approx(plain.hands[0].equity, abs=1e-12)


@pytest.mark.slow
def test_suit_closed_ranges_preflop_match_every_matchup_enumerated() -> None:
    assert range_equity(["AA", "KK"]).hands[0].equity == pytest.approx(
        brute_force("AA", "KK", ""), abs=1e-12)


def test_suit_patterns_stand_for_every_board_exactly_once() -> None:
    boards, weights = _suit_patterns()
    assert len(boards) == 134_459 and int(weights.sum()) == 2_598_960
    codes = []
    for perm in permutations(range(4)):
        relabelled = np.sort(boards // 4 * 4 + np.array(perm)[boards % 4], axis=1)
        codes.append(relabelled @ (52 ** np.arange(5)))
    assert len(np.unique(np.concatenate(codes))) == 2_598_960


def test_a_hand_against_a_range_preflop_is_exact() -> None:
    # One hand is a range of one combo: AhKh against a suit-closed range keeps the six
    # relabellings that leave hearts alone, and the answer fits the exact budget.
    result = range_equity(["AhKh", "QQ+,AKs"])
    assert result.exact and [h.combos for h in result.hands] == [1, 22]
    assert result.hands[0].equity == pytest.approx(
        range_equity(["AKs", "QQ+,AKs"]).hands[0].equity, abs=1e-12)


@pytest.mark.parametrize(("ranges", "board", "dead"), [
    (["AsKs", "QQ+"], "2c 2d 2h", ""),
    (["AhKh", "QsQd,JJ"], "", "2c 3c"),
    (["T9s", "??"], "Ah Ad 7c", "7d"),
])
def test_one_board_per_orbit_counts_exactly_what_every_board_counts(
    ranges: list[str], board: str, dead: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    by_orbit = range_equity(ranges, board, dead, exact_work=10**12)
    monkeypatch.setattr(range_equity_module, "_symmetries", lambda *_: ((0, 1, 2, 3),))
    every = range_equity(ranges, board, dead, exact_work=10**12)
    assert by_orbit.exact and every.exact
    assert by_orbit == every


@pytest.mark.parametrize("fixed", [(), (2,), (1, 3), (0, 1, 2)])
def test_orbits_are_counted_and_listed_alike_and_stand_for_every_board(
    fixed: tuple[int, ...]
) -> None:
    group = tuple(perm for perm in _PERMUTATIONS if all(perm[s] == s for s in fixed))
    unseen = list(range(4, 40))  # ranks whose four suits are all unseen
    tails = combination_ids(unseen, 3).astype(np.uint8)
    rows, sizes = _orbits(tails, group)
    assert len(rows) == _orbit_count(unseen, 3, group)
    assert int(sizes.sum()) == len(tails)
    images = {frozenset(card // 4 * 4 + perm[card % 4] for card in row)
              for row in rows.tolist() for perm in group}
    assert images == {frozenset(row) for row in tails.tolist()}


def test_ranks_on_boards_equal_the_batch_ranks() -> None:
    rng = np.random.default_rng(5)
    boards = np.array([rng.permutation(52)[:5] for _ in range(300)])
    holes = np.array([rng.permutation(52)[:2] for _ in range(40)])
    ranks = rank_on_boards(boards, holes)
    for b in range(len(boards)):
        for h in range(len(holes)):
            if set(boards[b]) & set(holes[h]):
                assert ranks[b, h] == 0
            else:
                assert ranks[b, h] == rank_batch([[*boards[b], *holes[h]]])[0]


def test_sampled_equity_is_within_its_standard_error_of_the_exact_one() -> None:
    exact = range_equity(["QQ+,AKs", "22+,A2s+"])
    sampled = range_equity(["QQ+,AKs", "22+,A2s+"], exact_work=0, iterations=100_000, seed=3)
    assert not sampled.exact and sampled.deals == 100_000
    for e, s in zip(exact.hands, sampled.hands, strict=True):
        assert 0 < s.stderr < 0.005
        assert abs(e.equity - s.equity) < 5 * s.stderr


def test_three_ranges_are_sampled_and_shares_add_up() -> None:
    result = range_equity(["AA", "KK", "QQ+"], iterations=20_000, seed=1)
    assert not result.exact
    assert sum(h.equity for h in result.hands) == pytest.approx(1.0)
    assert result.hands[0].equity > result.hands[1].equity


def test_a_range_with_no_live_combo_is_refused() -> None:
    with pytest.raises(RangeConflict):
        range_equity(["AA", "KK"], dead="Ac Ad Ah")
    with pytest.raises(RangeConflict):
        range_equity(["AhAd", "AhAd"])


def test_a_random_hand_against_a_range_is_any_two_cards_and_is_sampled() -> None:
    result = range_equity(["AA", "??"], iterations=40_000, seed=2)
    assert not result.exact and result.hands[1].combos == 1326
    exact = equity(["AsAh", None])
    assert abs(result.hands[0].equity - exact.hands[0].equity) < 5 * result.hands[0].stderr
