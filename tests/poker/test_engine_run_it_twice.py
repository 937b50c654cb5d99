"""Running it twice: the question, the two boards, and each half of every pot."""

from __future__ import annotations

import json
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.poker.allin import runout_equities
from app.poker.cards import FULL_DECK, Card, Deck, parse_cards
from app.poker.engine import Hand
from app.poker.errors import NotAsked, NotInHand, WrongPhase
from app.poker.evaluator import rank
from app.poker.events import (
    BoardDealt,
    HandShown,
    PotAwarded,
    RunItTwiceChosen,
    RunItTwiceOffered,
)
from app.poker.pots import build_pots, split_between_runs, split_pot
from app.poker.state import Phase, SeatStatus, Stakes
from app.poker.view import view, view_event
from tests.poker.random_hands import MAX_STEPS, Setup, _choose, setups
from tests.poker.test_engine_properties import assert_no_leak

STAKES = Stakes(5, 10)
STREETS = ((0, 3), (3, 4), (4, 5))

def twice_deck(holes: list[str], first: str, second: str = "", *, shared: int = 0) -> Deck:
    """A deck that deals ``holes`` (seat order from the left of the button), the board
    ``first`` and then, run twice from ``shared`` board cards, the second board's own
    cards ``second``; burn cards (and cards not named) are the lowest spare cards."""
    hole_cards = [parse_cards(h) for h in holes]
    board, again = list(parse_cards(first)), list(parse_cards(second))
    named = {c for h in hole_cards for c in h} | set(board) | set(again)
    spare = iter([c for c in FULL_DECK if c not in named])
    order: list[Card] = [h[0] for h in hole_cards] + [h[1] for h in hole_cards]
    for start, end in STREETS:
        order += [next(spare), *board[start:end]]
    for start, end in STREETS:
        if start >= shared and again:
            order += [next(spare), *again[start - shared:end - shared]]
    return Deck(order + list(spare))

def heads_up_all_in(second: str = "Kh 8s 5d Jc Qc") -> Hand:
    """Seat 1 (AA, the big blind) and seat 0 (KK, the button) all-in before the flop."""
    deck = twice_deck(["AhAd", "KsKc"], "2c 7d 9h 3s 4c", second)
    hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=STAKES, deck=deck,
                         run_it_twice=True)
    hand.all_in(0)
    hand.all_in(1)
    return hand

def test_an_all_in_before_the_river_shows_the_hands_and_asks_every_contender() -> None:
    hand = heads_up_all_in()
    assert hand.phase is Phase.RUN_IT_TWICE and hand.asked == [1, 0]
    assert hand.board == [] and hand.actor is None and hand.legal_actions() == ()
    offered = [e for e in hand.history if isinstance(e, RunItTwiceOffered)]
    assert offered == [RunItTwiceOffered((1, 0))]
    assert all(s.shown for s in hand.seats)

def test_a_table_without_the_option_runs_the_board_once_without_asking() -> None:
    deck = twice_deck(["AhAd", "KsKc"], "2c 7d 9h 3s 4c")
    hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=STAKES, deck=deck)
    hand.all_in(0)
    hand.all_in(1)
    assert hand.is_complete and hand.runs == 1
    assert not [e for e in hand.history if isinstance(e, RunItTwiceOffered)]

def test_one_player_declining_runs_a_single_board() -> None:
    hand = heads_up_all_in()
    hand.run_twice(1)
    events = hand.run_once(0)
    assert events[0] == RunItTwiceChosen(0, agree=False)
    assert hand.is_complete and hand.runs == 1 and hand.second_board == []
    assert len(hand.boards()) == 1
    assert hand.stacks() == {1: 2000, 0: 0}
    assert [e.run for e in hand.history if isinstance(e, BoardDealt | PotAwarded)] == [0] * 4

def test_a_decline_ends_the_question_even_before_others_answer() -> None:
    deck = twice_deck(["AhAd", "KsKc", "QsQc"], "2c 7d 9h 3s 4c")
    hand, _ = Hand.start({0: 1000, 1: 1000, 2: 1000}, button=2, stakes=STAKES, deck=deck,
                         run_it_twice=True)
    for seat in (2, 0, 1):
        hand.all_in(seat)
    hand.run_once(0)
    assert hand.is_complete and hand.runs == 1
    with pytest.raises(WrongPhase, match="expected the run-it-twice question, got the complete"):
        hand.run_twice(1)

def test_when_all_agree_both_boards_come_from_the_same_deck_after_the_first() -> None:
    hand = heads_up_all_in()
    deck_after_first_board = None
    hand.run_twice(1)
    assert hand.board == []  # nothing is dealt before the last answer
    deck_after_first_board = list(hand.deck[8:])
    events = hand.run_twice(0)
    boards = [e for e in events if isinstance(e, BoardDealt)]
    assert [(e.street.value, e.run) for e in boards] == [
        ("flop", 0), ("turn", 0), ("river", 0), ("flop", 1), ("turn", 1), ("river", 1)]
    assert [" ".join(map(str, b)) for b in hand.boards()] == [
        "2c 7d 9h 3s 4c", "Kh 8s 5d Jc Qc"]
    second_run = [c for e in boards[3:] for c in e.cards]
    assert second_run == [c for c in deck_after_first_board if c in second_run]
    assert len(hand.burned) == 6

def test_each_half_of_the_pot_is_settled_on_its_own_board() -> None:
    hand = heads_up_all_in()
    hand.run_twice(1)
    hand.run_twice(0)
    awards = [e for e in hand.history if isinstance(e, PotAwarded)]
    assert [(e.run, e.amount, e.seats, e.hand) for e in awards] == [
        (0, 1000, (1,), "one pair"), (1, 1000, (0,), "three of a kind")]
    assert hand.stacks() == {1: 1000, 0: 1000}

def test_an_odd_pot_gives_the_extra_chip_to_the_first_board() -> None:
    deck = twice_deck(["AhAd", "KsKc", "2d3h"], "2c 7d 9h 3s 4c", "Kh 8s 5d Jc Qc")
    hand, _ = Hand.start({0: 101, 1: 101, 2: 101}, button=2, stakes=Stakes(5, 10, ante=1),
                         deck=deck, run_it_twice=True)
    hand.fold(2)
    hand.all_in(0)
    hand.all_in(1)
    hand.run_twice(0)
    hand.run_twice(1)
    awards = [(e.run, e.amount, e.seats) for e in hand.history if isinstance(e, PotAwarded)]
    assert awards == [(0, 102, (0,)), (1, 101, (1,))]
    assert split_between_runs(203) == (102, 101)
    assert hand.stacks() == {0: 102, 1: 101, 2: 100}

def test_side_pots_can_go_to_different_winners_on_each_board() -> None:
    deck = twice_deck(["AhAd", "KsKc", "QsQd"], "2c 7d 9h 3s 4c", "Qh 8s 5d Jc 6h")
    hand, _ = Hand.start({0: 100, 1: 500, 2: 500}, button=2, stakes=STAKES, deck=deck,
                         run_it_twice=True)
    for seat in (2, 0, 1):
        hand.all_in(seat)
    assert hand.asked == [0, 1, 2]
    for seat in (2, 1, 0):
        hand.run_twice(seat)
    awards = [(e.pot, e.run, e.amount, e.seats) for e in hand.history
              if isinstance(e, PotAwarded)]
    assert awards == [(0, 0, 150, (0,)), (0, 1, 150, (2,)),
                      (1, 0, 400, (1,)), (1, 1, 400, (2,))]
    assert hand.stacks() == {0: 150, 1: 400, 2: 550}

def test_a_player_with_chips_behind_is_asked_too() -> None:
    deck = twice_deck(["AhAd", "KsKc"], "2c 7d 9h 3s 4c", "Kh 8s 5d Jc Qc")
    hand, _ = Hand.start({0: 1000, 1: 300}, button=0, stakes=STAKES, deck=deck,
                         run_it_twice=True)
    hand.all_in(0)
    hand.call(1)
    assert hand.seat(0).status is SeatStatus.ACTIVE and hand.seat(0).stack == 700
    assert hand.asked == [1, 0]
    hand.run_twice(0)
    hand.run_twice(1)
    assert hand.stacks() == {1: 300, 0: 1000}

def test_a_board_run_twice_after_the_flop_keeps_the_flop_on_both_boards() -> None:
    deck = twice_deck(["AhAd", "KsKc"], "2c 7d Kd 3s 4c", "8s 5d", shared=3)
    hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=STAKES, deck=deck,
                         run_it_twice=True)
    hand.call(0)
    hand.check(1)
    hand.bet(1, 10)
    hand.all_in(0)
    hand.call(1)
    assert hand.phase is Phase.RUN_IT_TWICE and len(hand.board) == 3
    hand.run_twice(0)
    hand.run_twice(1)
    assert [" ".join(map(str, b)) for b in hand.boards()] == [
        "2c 7d Kd 3s 4c", "2c 7d Kd 8s 5d"]
    assert hand.stacks() == {1: 0, 0: 2000}

def test_answers_are_refused_from_seats_not_asked_and_bets_during_the_question() -> None:
    deck = twice_deck(["AhAd", "KsKc", "QsQc"], "2c 7d 9h 3s 4c")
    hand, _ = Hand.start({0: 1000, 1: 1000, 2: 1000}, button=2, stakes=STAKES, deck=deck,
                         run_it_twice=True)
    hand.fold(2)
    with pytest.raises(WrongPhase, match="expected the run-it-twice question, got the preflop"):
        hand.run_twice(0)
    hand.all_in(0)
    hand.all_in(1)
    with pytest.raises(NotAsked, match="expected an answer from seat 0, 1, got seat 2"):
        hand.run_twice(2)
    with pytest.raises(NotInHand):
        hand.run_once(7)
    with pytest.raises(WrongPhase, match="expected a betting round, got the run_it_twice"):
        hand.check(0)
    hand.run_twice(0)
    assert not hand.can_run_twice(0) and hand.can_run_once(1)
    with pytest.raises(NotAsked, match="expected an answer from seat 1, got seat 0"):
        hand.run_once(0)

def test_a_hand_waiting_for_answers_survives_json() -> None:
    hand = heads_up_all_in()
    hand.run_twice(1)
    again = Hand.from_json(hand.to_json())
    assert again == hand and again.asked == [0]
    again.run_twice(0)
    assert again.runs == 2 and Hand.from_json(again.to_json()) == again

def test_nobody_sees_a_card_of_the_second_board_before_everyone_agreed() -> None:
    hand = heads_up_all_in()
    events = hand.run_twice(1)
    second = [str(c) for c in parse_cards("Kh 8s 5d Jc Qc")]
    for viewer in (None, 0, 1):
        text = json.dumps([view(hand, viewer), *(view_event(e, viewer) for e in events)])
        assert not [c for c in second if f'"{c}"' in text]
    hand.run_twice(0)
    assert view(hand, None)["boards"][1] == second

# ---- chips are conserved, whatever is answered ---------------------------------

def reference_stacks_run_twice(hand: Hand) -> list[int]:
    """Final stacks by the written rules: pots by contribution level, each split in
    halves (the odd chip to the first board), each half to the best hands on its board."""
    seats = hand.seats
    final = [s.starting_stack - s.contributed - s.dead for s in seats]
    live = [s.status is not SeatStatus.FOLDED for s in seats]
    pots = build_pots([s.contributed for s in seats], live, sum(s.dead for s in seats))
    boards = hand.boards()
    for pot in pots:
        amounts = split_between_runs(pot.amount) if len(boards) == 2 else (pot.amount,)
        for amount, board in zip(amounts, boards, strict=True):
            claim = [p for p in pot.eligible if seats[p].status is not SeatStatus.MUCKED]
            if len(claim) > 1:
                ranks = {p: rank([*seats[p].cards, *board]) for p in claim}
                claim = [p for p in claim if ranks[p] == max(ranks.values())]
            for p, share in zip(claim, split_pot(amount, claim), strict=True):
                final[p] += share
    return final

def play_run_twice(data: st.DataObject, setup: Setup) -> Hand:
    hand, _ = Hand.start(setup.stacks, button=setup.button, stakes=setup.stakes,
                         deck=Deck(rng=Random(setup.seed)), run_it_twice=True)
    total = sum(setup.stacks.values())
    for _ in range(MAX_STEPS):
        if hand.is_complete:
            return hand
        if hand.phase is Phase.RUN_IT_TWICE:
            seat = data.draw(st.sampled_from(hand.asked))
            agree = data.draw(st.sampled_from([True, True, True, False]))
            events = hand.run_twice(seat) if agree else hand.run_once(seat)
        else:
            kind, amount = _choose(data, {a.action: a for a in hand.legal_actions()})
            events = hand.act(hand.actor, kind, amount)  # type: ignore[arg-type]
        in_play = sum(s.contributed + s.dead - s.won for s in hand.seats)
        assert sum(s.stack for s in hand.seats) + in_play == total
        assert all(s.stack >= 0 for s in hand.seats)
        if hand.phase is Phase.RUN_IT_TWICE:
            assert not [e for e in events if isinstance(e, BoardDealt)]
            assert hand.actor is None and not hand.legal_actions() and hand.asked
        elif not hand.is_complete:
            assert hand.actor is not None and hand.legal_actions()
        for viewer in [None, *(s.number for s in hand.seats)]:
            assert_no_leak(hand, events, viewer)
    raise AssertionError(f"the hand did not end in {MAX_STEPS} steps")

@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), setups(small_blind_below_big=False))
def test_chips_are_conserved_when_hands_are_run_twice(data: st.DataObject, setup: Setup) -> None:
    hand = play_run_twice(data, setup)
    assert sum(hand.stacks().values()) == sum(setup.stacks.values())
    assert [s.stack for s in hand.seats] == reference_stacks_run_twice(hand)
    assert Hand.from_json(hand.to_json()) == hand
    shown = {s.number for s in hand.seats if s.shown}
    assert all(e.seat in shown for e in hand.history if isinstance(e, HandShown))
    if hand.runs == 2:
        dealt = [c for b in hand.boards() for c in b]
        assert len(set(dealt)) == 10 - (5 - len(hand.second_board))

def test_all_in_equities_follow_the_streets_of_both_boards() -> None:

    hand = heads_up_all_in()
    assert runout_equities(hand, hand.run_twice(1)) == []
    chances = [(r.run, r.street, len(r.board)) for _, r in runout_equities(hand, hand.run_twice(0))]
    assert chances == [(0, "flop", 3), (0, "turn", 4), (1, "flop", 3), (1, "turn", 4)]
