"""A raked hand in every export: PHH (``_rake``, replayed to the same stacks), PokerStars
text (``Total pot 120 | Rake 3``, read back by pokerkit's parser) and OHH (each pot's
rake)."""

from __future__ import annotations

import dataclasses
import tomllib

import jsonschema
import pytest

from app.poker.engine import Hand
from app.poker.errors import InvalidHandHistory
from app.poker.events import HandEnded
from app.poker.hand_export import ExportView, rake_of
from app.poker.ohh import to_ohh
from app.poker.phh import replay, to_phh
from app.poker.pokerstars import to_pokerstars
from app.poker.rake import RakeRule
from app.poker.state import Stakes
from tests.poker.export_checks import check_stars, facts_for, parse_stars, stored
from tests.poker.ohh_schema import SCHEMA
from tests.poker.stacked_decks import stacked_deck
from tests.poker.test_engine_run_it_twice import twice_deck

RULE = RakeRule(500, caps=((2, 3), (3, 40)))


def raked_side_pots() -> Hand:
    """Three ways: seat 1 all in for 100 with AA, seats 2 (KK) and 0 (QQ) play a side pot
    to the river; 5 % of 700 is 35, taken 15 from the main pot and 20 from the side."""
    hand, _ = Hand.start({0: 1000, 1: 100, 2: 1000}, button=0, stakes=Stakes(5, 10),
                         deck=stacked_deck(["AhAd", "KsKc", "QsQc"], "2c 7d 9h 3s 4c"),
                         rake=RULE)
    hand.raise_to(0, 300)
    hand.all_in(1)
    hand.call(2)
    for _ in range(3):
        hand.check(2)
        hand.check(0)
    while not hand.is_complete:
        hand.show(hand.actor)  # type: ignore[arg-type]
    return hand


def raked_heads_up() -> Hand:
    """Heads-up to the river for 120: 5 % is 6, capped at 3 for two players."""
    hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=Stakes(5, 10),
                         deck=stacked_deck(["AhAd", "KsKc"], "2c 7d 9h 3s 4c"), rake=RULE)
    hand.call(0)
    hand.check(1)
    hand.bet(1, 50)
    hand.call(0)
    hand.check(1)
    hand.check(0)
    hand.check(1)
    hand.check(0)
    while not hand.is_complete:
        hand.show(hand.actor)  # type: ignore[arg-type]
    return hand


def raked_twice() -> Hand:
    deck = twice_deck(["AhAd", "KsKc"], "2c 7d 9h 3s 4c", "Kh 8s 5d Jc Qc")
    hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=Stakes(5, 10), deck=deck,
                         run_it_twice=True, rake=RakeRule(100))
    hand.all_in(0)
    hand.all_in(1)
    hand.run_twice(1)
    hand.run_twice(0)
    return hand


HANDS = {"side pots": raked_side_pots, "heads-up": raked_heads_up, "run twice": raked_twice}


@pytest.mark.parametrize("make", HANDS.values(), ids=HANDS.keys())
def test_the_phh_records_the_rake_and_replays_to_the_same_stacks(make: object) -> None:
    hand = make()  # type: ignore[operator]
    text = to_phh(hand)
    data = tomllib.loads(text)
    assert data["_rake"] == rake_of(hand) > 0
    # The finishing stacks are after the rake: with it they add up to the starting stacks.
    assert sum(data["finishing_stacks"]) + data["_rake"] == sum(data["starting_stacks"])
    replayed = replay(text)
    assert replayed.match is True
    ended = replayed.hand.history[-1]
    assert isinstance(ended, HandEnded) and ended.rake == data["_rake"]
    assert replayed.finishing_stacks == [s.stack for s in hand.seats]


def test_a_history_whose_rake_the_pots_cannot_pay_is_refused() -> None:
    text = to_phh(raked_heads_up()).replace("_rake = 3", "_rake = 30")
    with pytest.raises(InvalidHandHistory, match="rake"):
        replay(text)
    with pytest.raises(InvalidHandHistory, match="_rake"):
        replay(to_phh(raked_heads_up()).replace("_rake = 3", "_rake = -3"))


def test_pokerstars_text_names_the_rake_and_pokerkit_reads_the_hand() -> None:
    hand = raked_side_pots()
    for viewer in (None, 0, 1, 2):
        view = ExportView(stored(hand), facts_for(hand), viewer)
        text = to_pokerstars(view)
        assert "Total pot 700 Main pot 285. Side pot 380. | Rake 35" in text
        check_stars(text, view)  # pokerkit's parser reads it; every chip accounted for
    heads_up = raked_heads_up()
    view = ExportView(stored(heads_up), facts_for(heads_up), None)
    text = to_pokerstars(view)
    assert "Total pot 120 | Rake 3" in text
    (parsed,) = parse_stars(text)
    assert parsed.starting_stacks == [1000, 1000]
    check_stars(text, view)


def test_a_hand_run_twice_names_its_rake_once() -> None:
    hand = raked_twice()
    view = ExportView(stored(hand), facts_for(hand), None)
    text = to_pokerstars(view)
    assert "Total pot 2000 | Rake 20" in text
    check_stars(text, view)


def test_ohh_pots_carry_their_rake_and_what_each_win_paid() -> None:
    hand = raked_side_pots()
    view = ExportView(stored(hand), dataclasses.replace(facts_for(hand)), None)
    ohh = to_ohh(view)
    jsonschema.validate(ohh, SCHEMA)
    pots = ohh["ohh"]["pots"]
    assert [(p["number"], p["amount"], p["rake"]) for p in pots] == [(0, 300, 15), (1, 400, 20)]
    for pot in pots:
        wins = pot["player_wins"]
        assert sum(w["win_amount"] for w in wins) == pot["amount"] - pot["rake"]
        assert sum(w["contributed_rake"] for w in wins) == pot["rake"]
