"""Payout tables by entrants, rounding to whole credits, and ICM deals."""

from __future__ import annotations

import pytest

from app.tournaments.icm import InvalidDeal, icm_deal, icm_equities
from app.tournaments.payouts import BASIS, paid_places, payout_shares, prizes, split_tie


@pytest.mark.parametrize(("entrants", "places"), [(2, 1), (6, 2), (9, 3), (10, 3), (20, 4),
                                                  (100, 15), (300, 45), (500, 75)])
def test_about_fifteen_percent_of_a_big_field_is_paid(entrants: int, places: int) -> None:
    assert paid_places(entrants) == places


@pytest.mark.parametrize("entrants", range(2, 600, 7))
def test_shares_add_up_never_rise_and_a_min_cash_beats_the_buy_in(entrants: int) -> None:
    shares = payout_shares(entrants)
    assert sum(shares) == BASIS
    assert list(shares) == sorted(shares, reverse=True)
    assert shares[-1] * entrants > BASIS


def test_payout_rounding_gives_whole_credits_and_the_remainder_to_first_place() -> None:
    assert prizes(1001, 9) == (501, 300, 200)
    assert prizes(7, 6) == (5, 2)
    assert prizes(0, 9) == (0, 0, 0)


@pytest.mark.parametrize("pool", [1, 99, 12_345, 999_999])
def test_prizes_always_add_up_to_the_pool(pool: int) -> None:
    for entrants in (2, 9, 45, 312):
        assert sum(prizes(pool, entrants)) == pool


def test_a_tie_splits_the_prizes_of_the_places_it_covers() -> None:
    assert split_tie([300, 200, 101]) == [201, 200, 200]


def test_icm_gives_equal_stacks_equal_shares_and_adds_up_to_the_prizes() -> None:
    assert icm_equities([100, 100], [70, 30]) == [50.0, 50.0]
    values = icm_equities([9000, 4000, 2500, 500], [500, 300, 200])
    assert sum(values) == pytest.approx(1000)
    assert values == sorted(values, reverse=True)


def test_an_icm_deal_is_in_whole_credits_that_add_up_to_the_prizes_left() -> None:
    deal = icm_deal([9000, 4000, 2500, 500], [500, 300, 200, 0])
    assert sum(deal) == 1000 and all(isinstance(x, int) for x in deal)
    assert deal == sorted(deal, reverse=True)


def test_a_deal_for_more_than_a_final_table_is_refused() -> None:
    with pytest.raises(InvalidDeal):
        icm_equities([100] * 11, [1000])
