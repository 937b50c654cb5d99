"""The fewest payments that settle a night: exact against a search of every way of
paying, and always leaving everyone at zero."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.settle_up.transfers import (
    EXACT_PARTIES,
    ResultsDoNotBalance,
    Transfer,
    fewest_transfers,
)


def balanced(values: list[int]) -> dict[str, int]:
    """Results for players p0, p1, ...: the last one evens the others out."""
    results = {f"p{i}": value for i, value in enumerate(values)}
    results[f"p{len(values)}"] = -sum(values)
    return results


def settled(results: dict[str, int], transfers: list[Transfer[str]]) -> bool:
    left = dict(results)
    for transfer in transfers:
        assert transfer.amount > 0 and transfer.payer != transfer.payee
        left[transfer.payer] += transfer.amount
        left[transfer.payee] -= transfer.amount
    return not any(left.values())


def fewest_by_search(results: dict[str, int]) -> int:
    """n minus the most zero-sum groups, found by trying every split."""
    parties = frozenset(p for p, v in results.items() if v)

    def most_groups(left: frozenset[str]) -> int:
        if not left:
            return 0
        first = min(left)
        rest = sorted(left - {first})
        best = 0
        for size in range(len(rest) + 1):
            for others in combinations(rest, size):
                group = {first, *others}
                if sum(results[p] for p in group) == 0:
                    best = max(best, 1 + most_groups(left - group))
        return best

    return len(parties) - most_groups(parties)


@given(st.lists(st.integers(-50, 50), min_size=1, max_size=6))
def test_the_payments_settle_everyone_in_as_few_as_any_search_finds(values: list[int]) -> None:
    results = balanced(values)
    transfers = fewest_transfers(results)
    assert settled(results, transfers)
    assert len(transfers) == fewest_by_search(results)


@given(st.lists(st.integers(-1000, 1000), min_size=EXACT_PARTIES, max_size=EXACT_PARTIES + 6))
def test_many_players_settle_in_fewer_payments_than_there_are_players(values: list[int]) -> None:
    results = balanced(values)
    transfers = fewest_transfers(results)
    assert settled(results, transfers)
    assert len(transfers) <= max(0, sum(1 for v in results.values() if v) - 1)


def test_pairs_that_even_out_pay_each_other() -> None:
    # Greedy pairing of the biggest debtor with the biggest creditor needs four payments
    # here; two pairs that even out need two.
    results = {"ann": 7, "bob": -7, "cat": 5, "dan": -5}
    assert fewest_transfers(results) == [Transfer("bob", "ann", 7), Transfer("dan", "cat", 5)]
    tricky = {"a": 6, "b": 4, "c": -5, "d": -5}
    assert len(fewest_transfers(tricky)) == 3
    three_pairs = {"a": 9, "b": 4, "c": 2, "d": -4, "e": -2, "f": -9}
    assert len(fewest_transfers(three_pairs)) == 3


def test_results_that_do_not_add_up_to_zero_are_refused() -> None:
    with pytest.raises(ResultsDoNotBalance, match="add up to zero, got 5"):
        fewest_transfers({"ann": 10, "bob": -5})
    assert fewest_transfers({"ann": 0, "bob": 0}) == []
