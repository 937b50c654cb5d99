"""All-in equity: exact chances of face-up hands on each street of a run-out, only then."""

from __future__ import annotations

from itertools import combinations

import eval7
import pytest

from app.poker.allin import runout_equities
from app.poker.cards import FULL_DECK, Card
from app.poker.engine import Hand
from app.poker.equity import equity
from app.poker.events import BoardDealt, HandShown
from app.poker.state import Stakes
from tests.poker.stacked_decks import stacked_deck
from tests.poker.test_engine_run_it_twice import twice_deck


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


# ---- a hand run twice: the first board is face up while the second is dealt ----------


def eval7_chances(holes: list[tuple[Card, ...]], board: tuple[Card, ...],
                  face_up: set[Card]) -> list[tuple[float, float, float]]:
    """(win, tie, equity) of each hole by enumerating every completion of ``board`` from
    the cards not face up, ranked by eval7 (an independent evaluator)."""
    unknown = [c for c in FULL_DECK if c not in face_up]
    peer = {c: eval7.Card(str(c)) for c in FULL_DECK}
    wins, ties, shares = [0] * len(holes), [0] * len(holes), [0.0] * len(holes)
    deals = 0
    for rest in combinations(unknown, 5 - len(board)):
        cards = [peer[c] for c in (*board, *rest)]
        ranks = [eval7.evaluate([peer[h[0]], peer[h[1]], *cards]) for h in holes]
        best = [i for i, r in enumerate(ranks) if r == max(ranks)]
        for i in best:
            shares[i] += 1 / len(best)
            if len(best) == 1:
                wins[i] += 1
            else:
                ties[i] += 1
        deals += 1
    return [(w / deals, t / deals, s / deals) for w, t, s in zip(wins, ties, shares,
                                                                 strict=True)]


@pytest.mark.parametrize(("holes", "first", "second", "shared"), [
    (["AhAd", "KsKc"], "2c 7d 9h 3s 4c", "Kh 8s 5d Jc Qc", 0),
    (["AhKh", "QsQd"], "Qh Jh 2c 3d 8h", "Tc 4h", 3),
    (["7h6h", "AsAc"], "8h 5c Kd 2s Qs", "9d 4d 3c Td Jd", 0),
])
def test_the_second_board_counts_the_first_boards_own_cards_as_face_up(
    holes: list[str], first: str, second: str, shared: int,
) -> None:
    deck = twice_deck(holes, first, second, shared=shared)
    hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=Stakes(5, 10), deck=deck,
                         run_it_twice=True)
    if shared:
        hand.call(0)
        hand.check(1)
    hand.all_in(hand.actor or 0)
    hand.all_in(hand.actor or 0)
    hand.run_twice(hand.asked[0])
    chances = [r for _, r in runout_equities(hand, hand.run_twice(hand.asked[0]))]
    second_run = [r for r in chances if r.run == 1]
    assert [len(r.board) for r in second_run] == [n for n in (3, 4) if n > shared]
    first_board = set(hand.boards()[0])
    live = list(hand.seats)
    for result in second_run:
        face_up = {c for s in live for c in s.cards} | first_board | set(result.board)
        expected = eval7_chances([s.cards for s in live], result.board, face_up)
        got = [value for s in result.seats for value in (s.win, s.tie, s.equity)]
        assert [s.seat for s in result.seats] == [s.number for s in live]
        assert got == pytest.approx([v for row in expected for v in row], abs=1e-12)
