"""Bots in every game: legal choices within the limits, Omaha hands read as Omaha."""

from __future__ import annotations

from random import Random

import numpy as np
import pytest

from app.poker.bots import BotAction, BotStyle, decide, read_view
from app.poker.bots.postflop import omaha_preflop_strength
from app.poker.cards import Deck, parse_cards
from app.poker.engine import Hand
from app.poker.events import ActionKind
from app.poker.state import Game, Stakes
from app.poker.tendencies import Tendencies
from app.poker.view import view
from tests.poker.stacked_decks import stacked_deck
from tests.poker.test_bots import assert_legal

STYLES = list(BotStyle)


@pytest.mark.parametrize("game", list(Game))
def test_tables_of_bots_play_every_game_legally_and_conserve_chips(game):
    rng = Random(7)
    for number in range(12):
        stacks = {seat: 400 + 150 * seat for seat in range(6)}
        hand, _ = Hand.start(stacks, button=number % 6, stakes=Stakes(5, 10),
                             deck=Deck(rng=Random(number)), game=game)
        while not hand.is_complete:
            seat = hand.actor
            assert seat is not None
            choice = decide(view(hand, seat), hand.legal_actions(), rng=rng,
                            style=STYLES[seat % len(STYLES)], iterations=60)
            assert_legal(hand, choice)
            hand.act(seat, choice.action, choice.amount)
        assert sum(hand.stacks().values()) == sum(stacks.values())


@pytest.mark.parametrize("game", [Game.PLO, Game.PLO5])
def test_a_bot_reads_all_its_omaha_hole_cards(game):
    hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=Stakes(5, 10),
                         deck=Deck(rng=Random(2)), game=game)
    spot = read_view(view(hand, 0), {a.action: a for a in hand.legal_actions()})
    assert len(spot.hole) == game.hole_cards and spot.game is game


def test_aces_double_suited_lead_and_rainbow_trash_trails_before_an_omaha_flop():
    ids = [[int(c) for c in parse_cards(h)]
           for h in ("AsAhKsKh", "JsTs9h8h", "Ac7d4h2s", "8c6d3h2s")]
    strength = omaha_preflop_strength(np.array(ids))
    assert list(np.argsort(-strength)) == [0, 1, 2, 3]


@pytest.mark.parametrize("style", STYLES)
def test_an_omaha_bot_plays_aces_against_a_pot_raise_from_a_player_who_raises_every_hand(
        style):
    # Seats from the left of the button: 1 (small blind), 2 (big blind), 0 (button).
    deck = stacked_deck(["9c7d4h2s", "AsAhKsKh", "8c6d3h2d"])
    hand, _ = Hand.start({0: 2000, 1: 2000, 2: 2000}, button=0, stakes=Stakes(5, 10),
                         deck=deck, game=Game.PLO)
    pot = next(a for a in hand.legal_actions() if a.action is ActionKind.RAISE).max
    hand.raise_to(0, pot)
    hand.fold(1)
    maniac = Tendencies(hands=40, voluntary=40, raised=40)
    choice = decide(view(hand, 2), hand.legal_actions(), style=style, rng=Random(3),
                    reads={0: maniac})
    assert choice.action in (ActionKind.CALL, ActionKind.RAISE)


@pytest.mark.parametrize("style", STYLES)
def test_an_omaha_bot_folds_rainbow_trash_to_a_raise_and_a_pot_reraise(style):
    # Seats from the left of the button: 1 (small blind), 2 (big blind), 0 (button).
    deck = stacked_deck(["AsAhKsKh", "8c5d3h2d", "QcQdJcTd"])
    hand, _ = Hand.start({0: 2000, 1: 2000, 2: 2000}, button=0, stakes=Stakes(5, 10),
                         deck=deck, game=Game.PLO)
    hand.raise_to(0, 35)
    pot = next(a for a in hand.legal_actions() if a.action is ActionKind.RAISE).max
    hand.raise_to(1, pot)
    choice = decide(view(hand, 2), hand.legal_actions(), style=style, rng=Random(3))
    assert choice == BotAction(ActionKind.FOLD)


def test_a_fixed_limit_bot_bets_exactly_the_fixed_size():
    deck = stacked_deck(["2c7d", "AhKh"], board="AsKdQh 3s 4d")
    hand, _ = Hand.start({0: 2000, 1: 2000}, button=0, stakes=Stakes(5, 10), deck=deck,
                         game=Game.FLHE)
    hand.call(0)
    hand.check(1)
    hand.check(1)
    choice = decide(view(hand, 0), hand.legal_actions(), style=BotStyle.AGGRESSIVE,
                    rng=Random(0))
    assert choice == BotAction(ActionKind.BET, 10)
