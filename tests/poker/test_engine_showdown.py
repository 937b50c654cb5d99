"""Rule tests for uncalled bets, pots, odd chips and the showdown."""

from app.poker.engine import Hand
from app.poker.events import (
    ActionKind,
    BoardDealt,
    HandMucked,
    HandShown,
    PotAwarded,
    UncalledBetReturned,
)
from app.poker.state import Phase, SeatStatus, Stakes
from app.poker.view import view
from tests.poker.stacked_decks import stacked_deck

ROYAL_BOARD = "AhKhQhJhTh"


def start(stacks, button, holes, board="", *, sb=50, bb=100):
    return Hand.start(stacks, button=button, stakes=Stakes(sb, bb), deck=stacked_deck(holes, board))


def check_down(hand):
    while hand.phase not in (Phase.SHOWDOWN, Phase.COMPLETE):
        hand.check(hand.actor)


def finish(hand):
    """Check the hand down and muck every beaten hand."""
    while not hand.is_complete:
        (hand.muck if hand.phase is Phase.SHOWDOWN else hand.check)(hand.actor)


def shown(events):
    return [e.seat for e in events if isinstance(e, HandShown)]


def test_uncalled_bet_is_returned_to_the_bettor():
    hand, _ = start({0: 1000, 1: 1000, 2: 1000}, 2, ["2c3d", "4c5d", "7h8h"])
    hand.raise_to(2, 300)
    hand.fold(0)
    events = hand.fold(1)
    assert events[1] == UncalledBetReturned(2, 200)
    assert events[2] == PotAwarded(0, 250, (2,), (250,), None)
    assert hand.stacks() == {0: 950, 1: 900, 2: 1150}


def test_all_in_bet_larger_than_any_call_is_partly_returned():
    hand, _ = start({0: 1000, 1: 300, 2: 500}, 2, ["2c3d", "4c5d", "7h8h"])
    hand.fold(2)
    hand.all_in(0)
    events = hand.call(1)
    assert UncalledBetReturned(0, 700) in events
    assert hand.is_complete and sum(hand.stacks().values()) == 1800


def test_folded_chips_stay_in_the_pots_they_fed():
    hand, _ = start({0: 1000, 1: 1000, 2: 1000}, 2, ["AsAd", "4c5d", "KsKd"], "2c7d9hJcQs")
    hand.raise_to(2, 300)
    hand.call(0)
    hand.fold(1)
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(700, (0, 2))]
    finish(hand)
    assert hand.stacks() == {0: 1400, 1: 900, 2: 700}


def test_side_pots_are_won_by_the_best_hand_that_reached_them():
    # Seat 1 (all-in 300) has the best hand; seat 2 beats seat 0 for the side pot.
    hand, _ = start({0: 1000, 1: 300, 2: 1000}, 2, ["2c3d", "AsAd", "KsKd"], "4h7d9hJcQs")
    hand.all_in(2)
    hand.call(0)
    hand.call(1)
    assert hand.is_complete
    awards = [e for e in hand.history if isinstance(e, PotAwarded)]
    assert [(a.amount, a.seats) for a in awards] == [(900, (1,)), (1400, (2,))]
    assert hand.stacks() == {0: 0, 1: 900, 2: 1400}


def test_tied_hands_split_the_pot():
    hand, _ = start({0: 1000, 1: 1000}, 1, ["2c3d", "4c5d"], ROYAL_BOARD)
    hand.call(1)
    check_down(hand)
    assert hand.stacks() == {0: 1000, 1: 1000}


def test_odd_chip_goes_left_of_button():
    # 35 chips split three ways: 12 / 12 / 11, the extra chips to the first
    # winners clockwise from the button (seat 1): seats 3 and 0, not seat 1.
    hand, _ = start({0: 1000, 1: 1000, 2: 1000, 3: 1000}, 1,
                    ["2c3d", "4c5d", "6c7d", "8c9d"], ROYAL_BOARD, sb=5, bb=10)
    hand.call(0)
    hand.call(1)
    hand.fold(2)
    hand.check(3)
    check_down(hand)
    award = next(e for e in hand.history if isinstance(e, PotAwarded))
    assert award == PotAwarded(0, 35, (3, 0, 1), (12, 12, 11), "royal flush")
    assert hand.stacks() == {0: 1002, 1: 1001, 2: 995, 3: 1002}


def test_each_pot_is_split_on_its_own_even_when_an_all_in_hand_loses():
    # Seat 1 is all-in for 101 and loses; seats 2 and 3 tie. The main pot (405)
    # and the side pot (353) each give their odd chip to seat 2, first left of
    # the button: the pots are never merged because seat 1 could not win.
    hand, _ = start({0: 1000, 1: 101, 2: 1000, 3: 1000, 4: 1000}, 4,
                    ["3c4d", "2c2d", "AsKd", "AcKs", "QcJd"], "Ah Kh 7c 8d 9s", sb=1, bb=2)
    for seat in (2, 3, 4):
        hand.call(seat)
    hand.fold(0)
    hand.all_in(1)
    for seat in (2, 3, 4):
        hand.call(seat)
    hand.bet(2, 51)
    hand.call(3)
    hand.call(4)
    hand.bet(2, 100)
    hand.call(3)
    hand.fold(4)
    check_down(hand)
    assert hand.is_complete and shown(hand.history) == [1, 2, 3]
    awards = [(e.amount, e.seats, e.amounts) for e in hand.history if isinstance(e, PotAwarded)]
    assert awards == [(405, (2, 3), (203, 202)), (353, (2, 3), (177, 176))]
    assert hand.stacks() == {0: 999, 1: 0, 2: 1128, 3: 1126, 4: 848}


def test_showdown_starts_with_the_last_aggressor_on_the_river():
    hand, _ = start({0: 1000, 1: 1000, 2: 1000}, 2, ["2c3d", "4c5d", "6c7d"], ROYAL_BOARD)
    hand.call(2)
    hand.call(0)
    hand.check(1)
    while hand.phase is not Phase.RIVER:
        hand.check(hand.actor)
    hand.check(0)
    hand.bet(1, 100)
    hand.call(2)
    events = hand.call(0)
    assert shown(events) == [1, 2, 0]


def test_showdown_without_a_river_bet_starts_left_of_the_button():
    hand, _ = start({0: 1000, 1: 1000, 2: 1000}, 0, ["2c3d", "4c5d", "6c7d"], ROYAL_BOARD)
    hand.call(0)
    hand.call(1)
    hand.check(2)
    check_down(hand)
    assert shown(hand.history) == [1, 2, 0]


def test_a_beaten_hand_may_be_mucked():
    hand, _ = start({0: 1000, 1: 1000}, 1, ["AsAd", "2c7d"], "3h5h9cJdKs")
    hand.call(1)
    check_down(hand)
    assert hand.phase is Phase.SHOWDOWN
    assert shown(hand.history) == [0]
    assert hand.actor == 1
    assert [a.action for a in hand.legal_actions()] == [ActionKind.SHOW, ActionKind.MUCK]
    events = hand.muck(1)
    assert events[0] == HandMucked(1)
    assert hand.seat(1).status is SeatStatus.MUCKED
    assert view(hand, 0)["seats"][1]["cards"] is None
    assert hand.stacks() == {0: 1100, 1: 900}


def test_a_beaten_hand_may_also_be_shown():
    hand, _ = start({0: 1000, 1: 1000}, 1, ["AsAd", "2c7d"], "3h5h9cJdKs")
    hand.call(1)
    check_down(hand)
    events = hand.show(1)
    assert shown(events) == [1]
    assert hand.stacks() == {0: 1100, 1: 900}


def test_all_in_hands_are_always_shown():
    # Seat 1 is all-in preflop with the worst hand and is shown anyway; seat 2,
    # beaten but not all-in, gets the choice.
    hand, _ = start({0: 1000, 1: 200, 2: 1000}, 2, ["AsAd", "2c7d", "KsKd"], "3h5h9cJdQs")
    hand.call(2)
    hand.call(0)
    hand.all_in(1)
    hand.call(2)
    hand.call(0)
    check_down(hand)
    assert shown(hand.history) == [0, 1]
    assert hand.actor == 2 and hand.phase is Phase.SHOWDOWN
    hand.muck(2)
    assert hand.stacks() == {0: 1400, 1: 0, 2: 800}


def test_uncontested_winner_never_shows():
    hand, _ = start({0: 1000, 1: 1000, 2: 1000}, 2, ["AsAd", "2c7d", "KsKd"])
    hand.raise_to(2, 300)
    hand.fold(0)
    hand.fold(1)
    assert shown(hand.history) == []
    assert view(hand, None)["seats"][2]["cards"] is None


def test_board_is_burned_and_dealt_from_the_injected_deck():
    hand, _ = start({0: 1000, 1: 1000}, 1, ["AsAd", "2c7d"], "3h5h9cJdKs")
    hand.call(1)
    check_down(hand)
    assert [str(c) for c in hand.board] == ["3h", "5h", "9c", "Jd", "Ks"]
    assert [str(c) for c in hand.burned] == ["2d", "2h", "2s"]
    dealt = [e.cards for e in hand.history if isinstance(e, BoardDealt)]
    assert [len(c) for c in dealt] == [3, 1, 1]
