"""Public counts about players: only what every watcher saw, never a mucked hand."""

from __future__ import annotations

from app.poker.engine import Hand
from app.poker.hand_class import class_index
from app.poker.state import Phase, Stakes
from app.poker.tendencies import HALVE_AT, Tendencies, observe
from tests.poker.stacked_decks import stacked_deck

NAMES = {0: "ann", 1: "bob"}


def checked_down(bob: str, ann: str) -> Hand:
    """Heads-up on a board of As Kc 8d 4s 3h: the button (seat 0, ann) min-raises, the
    big blind (seat 1, bob) calls, both check to the showdown, where bob shows first."""
    deck = stacked_deck([bob, ann], board="As Kc 8d 4s 3h")
    hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=Stakes(5, 10), deck=deck)
    hand.raise_to(0, 20)
    hand.call(1)
    for _ in range(3):
        hand.check(1)
        hand.check(0)
    return hand


def test_a_shown_winner_is_counted_and_a_mucked_loser_is_not():
    hand = checked_down(bob="AhAd", ann="7c2d")
    assert hand.phase is Phase.SHOWDOWN
    assert hand.actor == 0  # the beaten raiser chooses: it mucks
    hand.muck(0)
    assert hand.is_complete
    reads = observe({}, hand, NAMES)
    assert reads["ann"].shown == () and reads["ann"].showdowns == 0
    assert reads["bob"].showdowns == 1 and reads["bob"].shown == ()  # bob did not raise
    assert reads["ann"].raised == 1 and reads["bob"].raised == 0
    assert reads["bob"].voluntary == 1 and reads["bob"].faced == 0


def test_a_raiser_who_shows_at_the_showdown_has_the_hand_counted():
    hand = checked_down(bob="7c2d", ann="AhAd")  # ann's aces beat bob's shown hand
    reads = observe({}, hand, NAMES)
    assert reads["ann"].shown == (class_index("AA"),)


def test_an_all_in_is_counted_as_a_shove_and_a_raise():
    deck = stacked_deck(["QsQd", "7c2d"])
    hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=Stakes(5, 10), deck=deck)
    hand.all_in(0)
    hand.call(1)
    reads = observe({}, hand, NAMES)
    assert reads["ann"] == Tendencies(hands=1, voluntary=1, raised=1, shoved=1, showdowns=1,
                                      shown=(class_index("72o"),))  # dealt to the button
    assert reads["bob"].shoved == 0 and reads["bob"].showdowns == 1 and reads["bob"].shown == ()


def test_bets_and_folds_after_the_flop_are_counted():
    deck = stacked_deck(["7c2d", "AhAd"], board="As Kc 8d 4s 3h")
    hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=Stakes(5, 10), deck=deck)
    hand.call(0)
    hand.check(1)
    hand.check(1)
    hand.bet(0, 10)
    hand.fold(1)
    reads = observe({}, hand, NAMES)
    assert (reads["ann"].acts, reads["ann"].bets, reads["ann"].faced) == (1, 1, 0)
    assert (reads["bob"].acts, reads["bob"].faced, reads["bob"].folds) == (2, 1, 1)
    assert reads["bob"].fold_rate() > Tendencies().fold_rate()


def test_counts_lean_to_the_recent_and_other_players_are_kept():
    old = Tendencies(hands=HALVE_AT - 1, voluntary=HALVE_AT - 1)
    hand = checked_down(bob="AhAd", ann="7c2d")
    hand.muck(0)
    reads = observe({"ann": old, "cy": Tendencies(hands=3)}, hand, NAMES)
    assert reads["ann"].hands == HALVE_AT // 2 and reads["ann"].voluntary == HALVE_AT // 2
    assert reads["cy"] == Tendencies(hands=3)


def test_a_habitual_shover_reads_as_shoving_almost_anything():
    shover = Tendencies(hands=20, voluntary=20, raised=20, shoved=20)
    assert shover.shove_range(prior=0.05) > 0.8
    assert Tendencies(hands=100, shoved=1).shove_range(prior=0.05) < 0.02
    shown_trash = Tendencies(hands=3, raised=1, shown=(class_index("72o"),) * 6)
    assert shown_trash.raise_range() > 0.6
