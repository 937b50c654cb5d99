"""Tracker stats counted from the public part of a hand, never from a hidden card."""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.poker.allin import RunoutEquity, runout_equities
from app.poker.cards import Card, Deck
from app.poker.engine import Hand
from app.poker.events import PotAwarded
from app.poker.player_stats import (
    Counters,
    PublicHand,
    all_in_adjusted,
    hand_counters,
    public_hand,
    summary,
)
from app.poker.rake import RakeRule
from app.poker.state import Stakes
from tests.poker.export_checks import KINDS, OTHER_GAMES, Kind, random_hands, stored


def play(stacks: dict[int, int], deck: str, script: list[tuple[str, int | None]]) -> Hand:
    """Deal with the button on the first seat and take each action in turn, then show
    or muck at the showdown as asked (``show``/``muck`` entries come last)."""
    hand, _ = Hand.start(stacks, button=min(stacks), stakes=Stakes(5, 10),
                         deck=Deck.stacked(deck))
    for action, amount in script:
        if hand.is_complete:
            break
        hand.act(hand.seats[hand.to_act[0]].number, action, amount)
    return hand


THREE_WAY = "Ah Ks Qd Ad Kc Qc 2c 7d 9h 3s 4c 5d Jh 8c"


def test_a_three_bet_counts_for_the_three_bettor_and_the_fold_for_the_opener() -> None:
    hand = play({0: 500, 1: 500, 2: 500}, THREE_WAY,
                [("raise", 30), ("raise", 90), ("fold", None), ("fold", None)])
    c = hand_counters(public_hand(hand))
    assert (c[0].pfr, c[0].fold_to_three_bet, c[0].fold_to_three_bet_chances) == (1, 1, 1)
    assert (c[1].three_bet, c[1].three_bet_chances, c[1].vpip) == (1, 1, 1)
    # The big blind faced a three-bet, not an open raise: no chance to three-bet.
    assert (c[2].three_bet, c[2].three_bet_chances, c[2].vpip) == (0, 0, 0)
    assert c[0].three_bet_chances == 0 and c[1].fold_to_three_bet_chances == 0
    assert all(x.saw_flop == 0 and x.showdowns == 0 for x in c.values())


def test_a_donk_bet_takes_away_the_raisers_cbet_chance() -> None:
    hand = play({0: 500, 1: 500}, "Ah Ks Ad Kc 2c 7d 9h 3s 4c 5d Jh 8c",
                [("raise", 30), ("call", None), ("bet", 20), ("fold", None)])
    c = hand_counters(public_hand(hand))
    assert c[0].cbet_chances == 0 and c[1].fold_to_cbet_chances == 0
    assert c[1].postflop_aggressive == 1 and c[0].saw_flop == c[1].saw_flop == 1


def test_a_called_cbet_counts_as_a_call_after_the_flop_and_a_chance_to_fold() -> None:
    hand = play({0: 500, 1: 500}, "Ah Ks Ad Kc 2c 7d 9h 3s 4c 5d Jh 8c",
                [("raise", 30), ("call", None), ("check", None), ("bet", 20),
                 ("call", None)])
    c = hand_counters(public_hand(hand))
    assert (c[0].cbet, c[0].cbet_chances) == (1, 1)
    assert (c[1].fold_to_cbet, c[1].fold_to_cbet_chances, c[1].postflop_calls) == (0, 1, 1)


def checked_down(deck: str, losers_muck: bool = True) -> Hand:
    """Heads-up, called and checked to the showdown, the loser mucking."""
    script: list[tuple[str, int | None]] = [("call", None)] + [("check", None)] * 7
    script += [("show", None), ("muck" if losers_muck else "show", None)]
    return play({0: 500, 1: 500}, deck, script)


def test_a_hand_mucked_at_the_showdown_counts_for_going_there_not_for_winning() -> None:
    hand = checked_down("Ah Ks Ad Kc 2c 7d 9h 3s 4c 5d Jh 8c")
    c = hand_counters(public_hand(hand))
    winner = next(s for s, x in c.items() if x.showdowns_won)
    loser = 1 - winner
    assert c[winner].showdowns == c[loser].showdowns == 1
    assert c[loser].showdowns_won == 0 and c[loser].vpip + c[winner].vpip == 1


def _cards_in(value: Any) -> bool:
    if isinstance(value, Card):
        return True
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(_cards_in(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, tuple | list | set | frozenset):
        return any(_cards_in(v) for v in value)
    return False


def test_the_public_part_of_a_hand_holds_no_card() -> None:
    view = public_hand(checked_down("Ah Ks Ad Kc 2c 7d 9h 3s 4c 5d Jh 8c"))
    assert isinstance(view, PublicHand) and not _cards_in(view)


def test_the_losers_unseen_cards_change_nothing_anybody_counts() -> None:
    # The same actions and the same winner; only the mucked hand differs (KsKc, then 7s2d).
    seen = hand_counters(public_hand(checked_down("Ah Ks Ad Kc 2c 7d 9h 3s 4c 5d Jh 8c")))
    other = hand_counters(public_hand(checked_down("Ah 7s Ad 2d 2c 7d 9h 3s 4c 5d Jh 8c")))
    assert seen == other


def test_counters_add_up_and_read_as_percentages_with_their_samples() -> None:
    total = Counters(hands=1, preflop_chances=1, vpip=1) + Counters(hands=1, preflop_chances=1)
    read = summary(total)
    assert read["hands"] == 2 and read["vpip"] == {"value": 50.0, "sample": 2}
    assert read["af"] == {"value": None, "sample": 0}
    assert read["wsd"] == {"value": None, "sample": 0}


def _all_in_three_ways(rake: RakeRule | None = None) -> tuple[Hand, RunoutEquity]:
    """A short stack and two deep ones all in before the flop: a main pot and a side pot;
    the hand's first all-in equity."""
    hand, _ = Hand.start({0: 100, 1: 300, 2: 300}, button=0, stakes=Stakes(1, 2),
                         deck=Deck.stacked(THREE_WAY), rake=rake)
    first: RunoutEquity | None = None
    for seat in (0, 1, 2):
        chances = runout_equities(hand, hand.all_in(seat))
        first = first or (chances[0][1] if chances else None)
    while not hand.is_complete:
        chances = runout_equities(hand, hand.show(hand.actor))  # type: ignore[arg-type]
        first = first or (chances[0][1] if chances else None)
    assert first is not None
    return hand, first


def test_all_in_adjusted_results_share_each_pot_by_equity_and_add_up_to_nothing() -> None:
    hand, chances = _all_in_three_ways()
    adjusted = all_in_adjusted(hand, chances)
    assert sum(adjusted.values()) == 0
    equity = {s.seat: s.equity for s in chances.seats}
    main, side = hand.pots()
    short = next(seat for seat in main.eligible if seat not in side.eligible)
    # The short stack can win only the main pot: its share of it, less what it put in.
    assert adjusted[short] == round(main.amount * equity[short]) - 100
    played = {s.number: s.stack - s.starting_stack for s in hand.seats}
    assert adjusted != played


def test_all_in_adjusted_results_of_a_raked_hand_share_the_pots_less_the_rake() -> None:
    hand, chances = _all_in_three_ways(RakeRule(500))
    raked = sum(e.rake for e in hand.history if isinstance(e, PotAwarded))
    assert raked == 35  # 5 % of 700
    adjusted = all_in_adjusted(hand, chances)
    # The seats' results, adjusted or not, add up to what the house took.
    assert sum(adjusted.values()) == sum(s.stack - s.starting_stack for s in hand.seats) == -35
    equity = {s.seat: s.equity for s in chances.seats}
    main, _ = hand.pots()
    # Seat 0, all in for 100, can win only the main pot of 300, which paid 15 of the rake.
    assert adjusted[0] == round((main.amount - 15) * equity[0]) - 100


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), kind=st.sampled_from(KINDS + OTHER_GAMES))
def test_every_count_stays_within_its_chances_in_random_hands_of_every_game(
    data: st.DataObject, kind: Kind
) -> None:
    hand = data.draw(random_hands(kind))
    counts = hand_counters(public_hand(hand))
    assert set(counts) == {s.number for s in hand.seats}
    for c in counts.values():
        assert c.hands == 1 and c.vpip <= c.preflop_chances <= 1 and c.pfr <= c.vpip
        assert c.three_bet <= c.three_bet_chances <= 1
        assert c.fold_to_three_bet <= c.fold_to_three_bet_chances <= 1
        assert c.cbet <= c.cbet_chances <= 1 and c.fold_to_cbet <= c.fold_to_cbet_chances <= 1
        assert c.showdowns_won <= c.showdowns <= c.saw_flop <= 1
    showdown = [seat for seat, c in counts.items() if c.showdowns]
    assert len(showdown) != 1
    assert not showdown or any(counts[seat].showdowns_won for seat in showdown)
    # The stored hand history (seats numbered by position) counts the same: stats could
    # be recounted from it.
    kept = stored(hand)
    recounted = hand_counters(public_hand(kept))
    assert [recounted[s.number] for s in kept.seats] == [counts[s.number] for s in hand.seats]
