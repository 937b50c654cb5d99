"""Omaha equity: exact against a count by hand, Monte Carlo seeded and within its error."""

from itertools import combinations

import pytest

from app.poker.cards import FULL_DECK, parse_cards
from app.poker.equity import InvalidBoard, InvalidHoleCards
from app.poker.omaha import rank_omaha
from app.poker.omaha_equity import omaha_equity


def by_hand(hands, board, dead=""):
    holes = [parse_cards(h) for h in hands]
    known = parse_cards(board)
    taken = {c for h in holes for c in h} | set(known) | set(parse_cards(dead))
    unseen = [c for c in FULL_DECK if c not in taken]
    shares = [0.0] * len(holes)
    boards = 0
    for rest in combinations(unseen, 5 - len(known)):
        ranks = [rank_omaha(h, [*known, *rest]) for h in holes]
        best = [i for i, r in enumerate(ranks) if r == max(ranks)]
        for i in best:
            shares[i] += 1 / len(best)
        boards += 1
    return [s / boards for s in shares], boards


@pytest.mark.parametrize(("hands", "board"), [
    (["AsAdKsKd", "JhTh9c8c"], "Qs 7h 2c"),
    (["AhKh2c3d", "QsQdJcTc", "9h8h7d6d"], "Th 5h 4c 2s"),
    (["AsKsQsJsTs", "9d9c8d8c7h"], "2s 3s 4h"),
])
def test_exact_omaha_equity_is_the_count_of_every_board(hands, board):
    result = omaha_equity(hands, board=board)
    expected, boards = by_hand(hands, board)
    assert result.exact and result.boards == boards
    assert result.equities == pytest.approx(expected)


def test_dead_cards_are_out_of_every_board():
    result = omaha_equity(["AsAdKsKd", "JhTh9c8c"], board="Qs 7h 2c 3d", dead="9h 9d")
    expected, boards = by_hand(["AsAdKsKd", "JhTh9c8c"], "Qs 7h 2c 3d", dead="9h 9d")
    assert boards == 38 and result.equities == pytest.approx(expected)


def test_monte_carlo_before_the_flop_is_seeded_and_near_the_exact_answer():
    hands = ["AsAdKsKd", "JhTh9c8c"]
    sampled = omaha_equity(hands, iterations=20_000, seed=3)
    assert not sampled.exact and sampled.boards == 20_000
    assert sampled == omaha_equity(hands, iterations=20_000, seed=3)
    exact = omaha_equity(hands, exact_threshold=2_000_000)
    assert exact.exact and exact.boards == 1_086_008
    for s, e in zip(sampled.hands, exact.hands, strict=True):
        assert abs(s.equity - e.equity) < 5 * s.stderr


def test_win_and_tie_add_up_when_the_board_plays():
    result = omaha_equity(["2c3d4h5s", "2d3c4s5h"], board="Ah Kh Qh Jh Th")
    assert [h.tie for h in result.hands] == [1.0, 1.0]
    assert result.equities == (0.5, 0.5)


def test_hold_em_hands_and_mixed_sizes_are_refused():
    with pytest.raises(InvalidHoleCards, match="four or five cards, all alike"):
        omaha_equity(["AsAd", "KsKd"])
    with pytest.raises(InvalidHoleCards, match="all alike"):
        omaha_equity(["AsAdKsKd", "QsQdJsJdTs"])
    with pytest.raises(InvalidBoard):
        omaha_equity(["AsAdKsKd", "QsQdJsJd"], board="2c 3c")


def test_an_omaha_all_in_announces_each_players_chances_on_each_street():
    from app.poker.allin import runout_equities
    from app.poker.engine import Hand
    from app.poker.state import Game, Stakes
    from tests.poker.stacked_decks import stacked_deck

    deck = stacked_deck(["AsAdKsKd", "JhTh9c8c"], "Qs 7h 2c 3d 4s")
    hand, _ = Hand.start({0: 6, 1: 6}, button=1, stakes=Stakes(1, 2), deck=deck, game=Game.PLO)
    hand.all_in(1)
    found = runout_equities(hand, hand.call(0))
    assert [r.street for _, r in found] == ["preflop", "flop", "turn"]
    flop = found[1][1]
    exact = omaha_equity(["AsAdKsKd", "JhTh9c8c"], board="Qs 7h 2c")
    by_seat = {s.seat: s.equity for s in flop.seats}
    assert [by_seat[0], by_seat[1]] == pytest.approx(list(exact.equities))  # 0 holds the aces
    for _, r in found:
        assert sum(s.equity for s in r.seats) == pytest.approx(1.0)
