"""Pots by contribution level, uncalled bets and odd chips."""

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from app.poker.pots import Pot, build_pots, split_pot, uncalled_bet


def test_equal_contributions_make_one_pot():
    assert build_pots([100, 100, 100], [True] * 3) == [Pot(300, (0, 1, 2))]


def test_short_all_in_makes_a_main_pot_and_a_side_pot():
    assert build_pots([40, 100, 100], [True] * 3) == [Pot(120, (0, 1, 2)), Pot(120, (1, 2))]


def test_several_all_in_levels_make_several_side_pots():
    pots = build_pots([50, 200, 1000, 1000, 20], [True] * 5)
    assert pots == [
        Pot(100, (0, 1, 2, 3, 4)),
        Pot(120, (0, 1, 2, 3)),
        Pot(450, (1, 2, 3)),
        Pot(1600, (2, 3)),
    ]


def test_folded_chips_feed_the_levels_they_reached_but_win_nothing():
    # The folded seat's 50 above every contender's level goes to the last pot.
    pots = build_pots([150, 40, 100, 100], [False, True, True, True])
    assert pots == [Pot(160, (1, 2, 3)), Pot(230, (2, 3))]


def test_levels_with_the_same_contenders_are_one_pot():
    # The folded seat's 60 is a level, but the same two seats contend on both sides of it.
    assert build_pots([60, 200, 200], [False, True, True]) == [Pot(460, (1, 2))]


def test_dead_money_goes_to_the_main_pot():
    assert build_pots([50, 100, 100], [True] * 3, dead=120) == [
        Pot(270, (0, 1, 2)),
        Pot(100, (1, 2)),
    ]


def test_uncalled_part_of_the_largest_bet_is_found():
    assert uncalled_bet([100, 400, 250]) == (1, 150)
    assert uncalled_bet([300, 300, 100]) is None
    assert uncalled_bet([0, 0]) is None


def test_odd_chips_go_one_at_a_time_from_the_left_of_the_button():
    assert split_pot(11, [0, 2, 4]) == [4, 4, 3]
    assert split_pot(11, [4, 2, 0]) == [3, 4, 4]
    assert split_pot(10, [1, 3]) == [5, 5]


@given(
    st.lists(st.integers(0, 500), min_size=2, max_size=10),
    st.lists(st.booleans(), min_size=10, max_size=10),
    st.integers(0, 50),
)
def test_pots_hold_every_chip_and_only_contenders_win(contributions, live, dead):
    live = live[: len(contributions)]
    if not any(live):
        live[0] = True
    pots = build_pots(contributions, live, dead)
    assert sum(p.amount for p in pots) == sum(contributions) + dead
    assert all(p.eligible and all(live[i] for i in p.eligible) for p in pots)
    assert all(set(a.eligible) > set(b.eligible) for a, b in pairwise(pots))


@given(st.integers(0, 10_000), st.sets(st.integers(0, 9), min_size=1))
def test_split_shares_differ_by_at_most_one_chip(amount, winners):
    shares = split_pot(amount, sorted(winners))
    assert sum(shares) == amount
    assert max(shares) - min(shares) <= 1
    assert shares == sorted(shares, reverse=True)
