"""Soft-play and bot-like signals, and the chip flow of a hand, on constructed hand data."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.integrity.flow import PairFlow, add_hand, hand_flows
from app.integrity.signals import (
    Action,
    SharedPots,
    add_shared_pots,
    longest_session,
    robotic,
    soft_play,
    timing,
)

PEOPLE = {0: 10, 1: 20, 2: 30}  # seat: user id


def _flop_checked_down(hand: int) -> list[Action]:
    return [Action(0, 0, "cc"), Action(0, 1, "cc"), Action(0, 2, "f"),
            Action(1, 0, "cc"), Action(1, 1, "cc"), Action(2, 0, "cc"), Action(2, 1, "cc")]


def test_a_pair_that_never_bets_into_each_other_after_the_flop_is_soft_play() -> None:
    shared: dict[tuple[int, int], SharedPots] = {}
    for hand in range(30):
        add_shared_pots(shared, f"h{hand}", _flop_checked_down(hand), PEOPLE)
    assert [(p.low, p.high, p.hands, p.aggression) for p in shared.values()] == \
        [(10, 20, 30, 0)]
    assert [(p.low, p.high) for p in soft_play(shared.values(), min_hands=30)] == [(10, 20)]
    assert soft_play(shared.values(), min_hands=31) == []


def test_one_bet_into_the_other_while_both_are_in_clears_the_pair() -> None:
    shared: dict[tuple[int, int], SharedPots] = {}
    for hand in range(30):
        add_shared_pots(shared, f"h{hand}", _flop_checked_down(hand), PEOPLE)
    add_shared_pots(shared, "bet", [Action(0, 0, "cc"), Action(0, 1, "cc"), Action(0, 2, "cc"),
                                    Action(1, 0, "cbr"), Action(1, 1, "f"),
                                    Action(1, 2, "f")], PEOPLE)
    assert shared[10, 20].aggression == 1 and shared[10, 20].hands == 31
    assert soft_play(shared.values(), min_hands=30) == []


def test_a_bet_after_the_other_folded_and_pots_without_a_flop_do_not_count() -> None:
    shared: dict[tuple[int, int], SharedPots] = {}
    add_shared_pots(shared, "preflop", [Action(0, 0, "cbr"), Action(0, 1, "f")], PEOPLE)
    assert shared == {}
    add_shared_pots(shared, "folded", [Action(0, 0, "cc"), Action(0, 1, "cc"),
                                       Action(0, 2, "f"), Action(1, 1, "f"),
                                       Action(1, 0, "cbr")], PEOPLE)
    assert (shared[10, 20].hands, shared[10, 20].aggression) == (1, 0)


def test_decision_times_that_hardly_vary_over_many_decisions_look_robotic() -> None:
    steady = timing([1.5 + (i % 3) * 0.01 for i in range(120)])
    human = timing([0.8 + (i * 7 % 11) * 0.6 for i in range(120)])
    few = timing([1.5] * 20)
    assert steady.decisions == 120 and steady.spread < 0.3
    assert robotic(steady, min_decisions=100, max_spread=0.3)
    assert not robotic(human, min_decisions=100, max_spread=0.3)
    assert not robotic(few, min_decisions=100, max_spread=0.3)


def test_a_session_runs_until_a_fifteen_minute_break() -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    minute = timedelta(minutes=1)
    marathon = [(start + i * 2 * minute, start + (i * 2 + 1) * minute) for i in range(420)]
    later = start + 20 * 60 * minute
    short = [(later + i * 2 * minute, later + (i * 2 + 1) * minute) for i in range(10)]
    found = longest_session(marathon + short)
    assert found is not None and found.hands == 420
    assert round(found.hours, 2) == 13.98
    broken = marathon[:200] + [(t + 16 * minute, e + 16 * minute) for t, e in marathon[200:]]
    split = longest_session(broken)
    assert split is not None and split.hands == 220
    assert longest_session([]) is None


def test_chip_flow_follows_the_losses_to_the_winners_bots_included() -> None:
    assert hand_flows({0: 150, 1: -100, 2: -50}) == {(1, 0): 100, (2, 0): 50}
    pairs: dict[tuple[int, int], PairFlow] = {}
    # Seat 2 is a bot: what 10 lost to it is not counted between people.
    add_hand(pairs, "a", 10, {0: 200, 1: -100, 2: -100}, {0: 10, 1: 20})
    add_hand(pairs, "b", 10, {0: -300, 1: 150, 2: 150}, {0: 10, 1: 20})
    add_hand(pairs, "c", 10, {0: 40, 1: -40}, {0: 10, 1: 20})
    pair = pairs[10, 20]
    assert (pair.high_to_low, pair.low_to_high, pair.hands) == (140, 150, 3)
    assert (pair.loser, pair.winner, pair.net) == (10, 20, 10)
    assert pair.hand_ids == ["a", "b", "c"] and round(pair.one_way, 3) == 0.517
