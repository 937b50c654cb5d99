"""All-in equity: exact chances of face-up hands on each street of a run-out, only then."""

from __future__ import annotations

import pytest

from app.poker.allin import runout_equities
from app.poker.engine import Hand
from app.poker.equity import equity
from app.poker.events import BoardDealt, HandShown
from app.poker.state import Stakes
from tests.poker.stacked_decks import stacked_deck


def test_an_all_in_before_the_flop_gives_the_chances_before_the_flop_after_it_and_the_turn(
) -> None:
    hand, _ = Hand.start({0: 100, 1: 100}, button=0, stakes=Stakes(1, 2),
                         deck=stacked_deck(["AhAd", "KsKc"], "7d9h3s5dJc"))
    hand.all_in(0)
    events = hand.all_in(1)
    chances = runout_equities(hand, events)
    assert [r.street for _, r in chances] == ["preflop", "flop", "turn"]
    for index, result in chances:
        assert isinstance(events[index], HandShown | BoardDealt)
        expected = equity(["AhAd", "KsKc"], board=result.board)
        assert [s.equity for s in result.seats] == pytest.approx(expected.equities)
        assert [s.seat for s in result.seats] == [1, 0]
    assert [len(r.board) for _, r in chances] == [0, 3, 4]


def test_three_hands_all_in_on_the_flop_get_the_chances_on_the_flop_and_the_turn() -> None:
    hand, _ = Hand.start({0: 500, 1: 500, 2: 500}, button=0, stakes=Stakes(5, 10),
                         deck=stacked_deck(["AhAd", "KsKc", "QdQc"], "7d9h3s5dJc"))
    for seat in (0, 1, 2):
        hand.call(seat) if hand.can_call(seat) else hand.check(seat)
    assert hand.phase.value == "flop"
    hand.all_in(hand.actor or 0)
    hand.all_in(hand.actor or 0)
    events = hand.all_in(hand.actor or 0)
    chances = runout_equities(hand, events)
    assert [r.street for _, r in chances] == ["flop", "turn"]
    assert sum(s.equity for s in chances[0][1].seats) == pytest.approx(1.0)


def test_nothing_is_announced_without_an_all_in_or_with_a_hand_still_hidden() -> None:
    hand, _ = Hand.start({0: 100, 1: 100}, button=0, stakes=Stakes(1, 2),
                         deck=stacked_deck(["AhAd", "KsKc"], "7d9h3s5dJc"))
    assert runout_equities(hand, hand.call(0)) == []
    assert runout_equities(hand, hand.check(1)) == []
    hand, _ = Hand.start({0: 100, 1: 100}, button=0, stakes=Stakes(1, 2),
                         deck=stacked_deck(["AhAd", "KsKc"], "7d9h3s5dJc"))
    assert runout_equities(hand, hand.fold(0)) == []


def test_an_all_in_on_the_river_has_nothing_left_to_announce() -> None:
    hand, _ = Hand.start({0: 100, 1: 100}, button=0, stakes=Stakes(1, 2),
                         deck=stacked_deck(["AhAd", "KsKc"], "7d9h3s5dJc"))
    hand.call(0)
    hand.check(1)
    for _ in range(2):
        hand.check(1)
        hand.check(0)
    assert hand.phase.value == "river"
    hand.all_in(1)
    assert runout_equities(hand, hand.call(0)) == []
