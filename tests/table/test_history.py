"""What each person of a hand won from the house's bots (the daily cap counts it)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.table.history import house_shares


def test_a_person_alone_with_bots_won_or_lost_exactly_what_the_bots_lost_or_won() -> None:
    assert house_shares({0: 400, 1: -250, 2: -150}, {1, 2}) == {0: 400}
    assert house_shares({0: -60, 1: 60}, {1}) == {0: -60}


def test_the_bots_loss_goes_to_the_winners_in_proportion_to_what_they_won() -> None:
    # The bot lost 300 and a person 100: the winners of 300 and 100 share the bot's 300.
    assert house_shares({0: 300, 1: 100, 2: -100, 3: -300}, {3}) == {0: 225, 1: 75, 2: 0}


def test_the_bots_win_comes_from_the_losers_in_proportion_to_what_they_lost() -> None:
    assert house_shares({0: -200, 1: -100, 2: 50, 3: 250}, {3}) == {0: -167, 1: -83, 2: 0}


def test_people_who_only_played_each_other_took_nothing_from_the_house() -> None:
    assert house_shares({0: 80, 1: -80, 2: 0}, {2}) == {0: 0, 1: 0}


@st.composite
def zero_sum_hands(draw: st.DrawFn) -> tuple[dict[int, int], set[int]]:
    seats = draw(st.integers(2, 10))
    nets = draw(st.lists(st.integers(-10_000, 10_000), min_size=seats - 1,
                         max_size=seats - 1))
    nets.append(-sum(nets))
    bots = draw(st.sets(st.integers(0, seats - 1), min_size=1, max_size=seats - 1))
    return dict(enumerate(nets)), bots


@given(zero_sum_hands())
def test_the_shares_add_up_to_the_bots_result_and_never_exceed_a_persons_own(
    hand: tuple[dict[int, int], set[int]],
) -> None:
    nets, bots = hand
    shares = house_shares(nets, bots)
    assert set(shares) == set(nets) - bots
    assert sum(shares.values()) == -sum(nets[seat] for seat in bots)
    for seat, share in shares.items():
        assert share == 0 or (share > 0) == (nets[seat] > 0)
        assert abs(share) <= abs(nets[seat])
