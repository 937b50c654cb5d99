"""Hands run twice (and bomb pots) in hand histories: PHH export, replay, the replayer,
and the fair shuffle's check of both boards."""

from __future__ import annotations

import tomllib
from random import Random

import pytest

from app.poker.cards import FULL_DECK, Deck
from app.poker.engine import Hand
from app.poker.errors import InvalidHandHistory
from app.poker.fairness import FairnessProof, ShuffleMismatch, new_server_seed
from app.poker.phh import dealt_from_phh, phh_fields, replay, to_phh, verify_history
from app.poker.replayer import replay_frames
from app.poker.state import Stakes
from tests.poker.test_engine_run_it_twice import heads_up_all_in, twice_deck


def three_way_run_twice(deck: Deck) -> Hand:
    hand, _ = Hand.start({0: 100, 1: 500, 2: 500}, button=2, stakes=Stakes(5, 10), deck=deck,
                         run_it_twice=True)
    for seat in (2, 0, 1):
        hand.all_in(seat)
    for seat in (1, 2, 0):
        hand.run_twice(seat)
    return hand


def test_a_hand_run_twice_writes_its_second_board_as_a_user_defined_field() -> None:
    hand = heads_up_all_in()
    hand.run_twice(1)
    hand.run_twice(0)
    data = tomllib.loads(to_phh(hand))
    assert data["_second_board"] == ["Kh8s5d", "Jc", "Qc"]
    assert [a for a in data["actions"] if a.startswith("d db")] == [
        "d db 2c7d9h", "d db 3s", "d db 4c"]
    assert data["finishing_stacks"] == [1000, 1000]


def test_a_hand_run_twice_replays_from_its_phh_to_the_same_boards_and_stacks() -> None:
    deck = twice_deck(["AhAd", "KsKc", "QsQd"], "2c 7d 9h 3s 4c", "Qh 8s 5d Jc 6h")
    hand = three_way_run_twice(deck)
    again = replay(to_phh(hand))
    assert again.match is True and again.hand.runs == 2
    assert again.hand.boards() == hand.boards()
    assert to_phh(again.hand) == to_phh(hand)


def run_twice_after_the_flop() -> Hand:
    """Heads-up, all in on a 2c 7d Kd flop and run twice: 3s 4c, then 8s 5d."""
    deck = twice_deck(["AhAd", "KsKc"], "2c 7d Kd 3s 4c", "8s 5d", shared=3)
    hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=Stakes(5, 10), deck=deck,
                         run_it_twice=True)
    hand.call(0)
    hand.check(1)
    hand.all_in(1)
    hand.call(0)
    hand.run_twice(1)
    hand.run_twice(0)
    return hand


def test_a_hand_run_twice_after_the_flop_replays_with_the_flop_on_both_boards() -> None:
    hand = run_twice_after_the_flop()
    text = to_phh(hand)
    assert tomllib.loads(text)["_second_board"] == ["8s", "5d"]
    assert replay(text).hand.boards() == hand.boards()


def test_a_declined_run_twice_is_an_ordinary_history() -> None:
    hand = heads_up_all_in()
    hand.run_once(0)
    text = to_phh(hand)
    assert "_second_board" not in tomllib.loads(text)
    assert replay(text).match is True


def test_a_second_board_that_repeats_a_card_is_refused() -> None:
    hand = heads_up_all_in()
    hand.run_twice(1)
    hand.run_twice(0)
    text = to_phh(hand).replace('"Kh8s5d"', '"Kh8s2c"')
    with pytest.raises(InvalidHandHistory, match="the same card is dealt twice"):
        replay(text)


def test_the_replayer_steps_through_a_hand_run_twice() -> None:
    deck = twice_deck(["AhAd", "KsKc", "QsQd"], "2c 7d 9h 3s 4c", "Qh 8s 5d Jc 6h")
    hand = three_way_run_twice(deck)
    frames = replay_frames(to_phh(hand), viewer=None)
    kinds = [[e["type"] for e in f["events"]] for f in frames]
    asked = next(f for f in frames if f["hand"]["phase"] == "run_it_twice")
    assert asked["hand"]["run_it_twice"] == [0, 1, 2] and len(asked["hand"]["boards"]) == 1
    assert [k[0] for k in kinds[-3:]] == ["run_it_twice_chosen"] * 3
    last = frames[-1]["hand"]
    assert last["phase"] == "complete"
    assert last["boards"] == [["2c", "7d", "9h", "3s", "4c"], ["Qh", "8s", "5d", "Jc", "6h"]]
    assert [s["stack"] for s in last["seats"]] == [150, 400, 550]


def test_the_replayer_steps_through_a_bomb_pot() -> None:
    hand, _ = Hand.start({0: 1000, 1: 1000, 2: 1000}, button=0, stakes=Stakes(5, 10),
                         deck=Deck(rng=Random(3)), bomb_pot=20)
    while not hand.is_complete:
        actor = hand.actor
        assert actor is not None
        hand.act(actor, "check" if hand.can_check(actor) else "muck")
    frames = replay_frames(to_phh(hand), viewer=1)
    assert frames[0]["hand"]["phase"] == "flop" and len(frames[0]["hand"]["board"]) == 3
    assert frames[-1]["hand"]["phase"] == "complete"
    assert [s["stack"] for s in frames[-1]["hand"]["seats"]] == [s.stack for s in hand.seats]


def test_the_fair_shuffle_check_covers_both_boards_of_a_hand_run_twice() -> None:
    proof = FairnessProof(new_server_seed(), {0: "me"})
    hand = three_way_run_twice(Deck(proof.deck()))
    text = to_phh(hand, fields=phh_fields(proof))
    assert len(dealt_from_phh(text).second_board) == 5
    assert verify_history(text)[1] == 6 + 10
    second = tomllib.loads(text)["_second_board"][1]
    other = next(str(c) for c in FULL_DECK if str(c) not in text)  # any card not dealt
    with pytest.raises(ShuffleMismatch, match="second board card 4"):
        verify_history(text.replace(f'"{second}"', f'"{other}"'))
