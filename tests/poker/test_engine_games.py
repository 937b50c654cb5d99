"""The engine in every game: dealing, showdown, side pots, run it twice, JSON and the view."""

import json
from random import Random

import pytest

from app.poker.cards import Deck, parse_cards
from app.poker.engine import Hand
from app.poker.errors import InvalidHandSetup
from app.poker.events import HoleCardsDealt, PotAwarded
from app.poker.fairness import dealt_positions
from app.poker.state import Game, Phase, Stakes
from app.poker.view import view, view_event
from tests.poker.stacked_decks import stacked_deck


def start(stacks, button, game, deck=None, **options):
    return Hand.start(stacks, button=button, stakes=Stakes(1, 2), game=game,
                      deck=deck or Deck(rng=Random(0)), **options)


@pytest.mark.parametrize(("game", "count"), [(Game.NLHE, 2), (Game.FLHE, 2), (Game.PLHE, 2),
                                             (Game.PLO, 4), (Game.PLO5, 5)])
def test_each_seat_gets_the_games_hole_cards(game, count):
    hand, events = start({0: 100, 1: 100, 2: 100}, 2, game)
    assert [len(s.cards) for s in hand.seats] == [count] * 3
    assert [len(e.cards) for e in events if isinstance(e, HoleCardsDealt)] == [count] * 3


def test_five_card_omaha_deals_one_card_at_a_time_five_times_around():
    deck = Deck(parse_cards("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c 5d 5h 5s 6c 6d 6h 6s 7c 7d "
                            "7h 7s 8c 8d 8h"))
    hand, _ = start({0: 100, 1: 100, 2: 100}, 2, Game.PLO5, deck)
    # Seat 0 (left of the button) gets the 1st, 4th, 7th, 10th and 13th card.
    assert " ".join(map(str, hand.seat(0).cards)) == "2c 2s 3h 4d 5c"
    assert " ".join(map(str, hand.seat(2).cards)) == "2h 3d 4c 4s 5h"


def test_five_card_omaha_needs_a_deck_for_five_cards_a_seat():
    with pytest.raises(InvalidHandSetup, match="expected a deck of at least 53 cards, got 52"):
        start(dict.fromkeys(range(9), 100), 0, Game.PLO5)


def test_an_omaha_showdown_plays_exactly_two_hole_cards():
    # The board holds four hearts and seat 0 the ace of hearts: a flush in hold'em, but
    # Omaha takes two hole cards, so seat 0 has ace high and seat 1's trip kings win.
    deck = stacked_deck(["Ah 2s 3d 4c", "Kd Kc 9s 8s"], "Kh Qh Jh 5d 9h")
    hand, _ = start({0: 100, 1: 100}, 1, Game.PLO, deck)
    play_to_the_end(hand)
    awards = [e for e in hand.history if isinstance(e, PotAwarded)]
    assert [(a.seats, a.hand) for a in awards] == [((1,), "three of a kind")]
    assert hand.stacks() == {0: 0, 1: 200}


def play_to_the_end(hand):
    """Every seat bets or raises the most it may, else calls or checks."""
    while not hand.is_complete:
        legal = {a.action.value: a for a in hand.legal_actions()}
        actor = hand.actor
        wager = legal.get("raise") or legal.get("bet")
        if wager is not None:
            hand.act(actor, wager.action, wager.max)
        else:
            hand.act(actor, "call" if "call" in legal else "check")


def test_omaha_side_pots_go_to_the_best_hand_each_can_win():
    deck = stacked_deck(["Jc Tc 2s 3s", "9c 8c 2d 3d", "7c 6c 4d 5d"], "Ac Kc Qc 8h 9d")
    hand, _ = start({0: 20, 1: 60, 2: 100}, 2, Game.PLO, deck)
    play_to_the_end(hand)
    pots = [(e.amount, e.seats, e.hand) for e in hand.history if isinstance(e, PotAwarded)]
    # The royal flush wins the main pot; the ace-high flush with 9-8 beats 7-6 for the side.
    assert pots == [(60, (0,), "royal flush"), (80, (1,), "flush")]
    assert hand.stacks() == {0: 60, 1: 80, 2: 40}


def test_an_omaha_hand_runs_twice_with_each_half_on_its_board():
    deck = stacked_deck(["As Ad Kc Qc", "7h 8h 9s Ts"], "")
    hand, _ = start({0: 100, 1: 100}, 1, Game.PLO, deck, run_it_twice=True)
    hand.raise_to(1, 6), hand.raise_to(0, 18), hand.raise_to(1, 54), hand.all_in(0)
    hand.call(1) if hand.actor == 1 else None
    assert hand.phase is Phase.RUN_IT_TWICE
    hand.run_twice(0), hand.run_twice(1)
    assert hand.is_complete and hand.runs == 2
    runs = [e.run for e in hand.history if isinstance(e, PotAwarded)]
    assert runs == [0, 1]
    assert sum(hand.stacks().values()) == 200


@pytest.mark.parametrize("game", list(Game))
def test_the_state_round_trips_through_json_in_every_game(game):
    hand, _ = start({0: 300, 1: 300, 2: 300}, 2, game)
    hand.call(2)
    copy = Hand.from_json(hand.to_json())
    assert copy == hand and copy.game is game
    assert copy.legal_actions() == hand.legal_actions()


def test_a_stored_state_without_a_game_reads_as_no_limit_hold_em():
    hand, _ = start({0: 300, 1: 300, 2: 300}, 2, Game.NLHE)
    data = json.loads(hand.to_json())
    for key in ("game", "street_bets", "capped"):
        del data[key]
    old = Hand.from_json(json.dumps(data))
    assert old.game is Game.NLHE
    assert old.legal_actions() == hand.legal_actions()


def test_a_limit_cap_survives_a_json_round_trip():
    hand, _ = start({0: 300, 1: 300, 2: 300}, 2, Game.FLHE)
    hand.raise_to(2, 4), hand.raise_to(0, 6), hand.raise_to(1, 8)
    copy = Hand.from_json(hand.to_json())
    assert copy.capped and not copy.can_raise(2, 10)


@pytest.mark.parametrize("game", [Game.PLO, Game.PLO5])
def test_omaha_hole_cards_are_shown_to_their_owner_only(game):
    hand, events = start({0: 300, 1: 300, 2: 300}, 2, game)
    for viewer in (0, 1, 2, None):
        seats = view(hand, viewer)["seats"]
        for s in seats:
            if s["seat"] == viewer:
                assert s["cards"] == [str(c) for c in hand.seat(viewer).cards]
            else:
                assert s["cards"] is None
        for e in events:
            if isinstance(e, HoleCardsDealt):
                shown = view_event(e, viewer)["cards"]
                assert shown is None if e.seat != viewer else len(shown) == game.hole_cards


def test_six_players_of_omaha_are_dealt_as_docs_fairness_says():
    deck = Deck(rng=Random(9))
    cards = deck.cards
    hand, _ = start(dict.fromkeys(range(6), 100), 5, Game.PLO, deck)
    assert hand.seats[0].cards == tuple(cards[p] for p in (0, 6, 12, 18))
    hand.call(2), hand.call(3), hand.call(4), hand.call(5), hand.call(0), hand.check(1)
    assert hand.board == [cards[25], cards[26], cards[27]]
    assert dealt_positions(6, 4)[1] == [25, 26, 27, 29, 31]


@pytest.mark.parametrize("game", list(Game))
def test_no_viewer_ever_sees_another_players_unshown_cards_in_any_game(game):
    rng = Random(f"view-{game.value}")
    for _ in range(15):
        hand, events = _random_start(rng, game)
        steps = [events]
        while not hand.is_complete:
            choice = rng.choice(hand.legal_actions())
            amount = choice.min if choice.min is not None else None
            steps.append(hand.act(hand.actor, choice.action, amount))
            for viewer in [*(s.number for s in hand.seats), None]:
                for s in view(hand, viewer)["seats"]:
                    owner = hand.seat(s["seat"])
                    if s["seat"] != viewer and not owner.shown:
                        assert s["cards"] is None
                    if s["cards"] is not None:
                        assert len(s["cards"]) == game.hole_cards
                for e in steps[-1]:
                    data = view_event(e, viewer)
                    if isinstance(e, HoleCardsDealt) and e.seat != viewer:
                        assert data["cards"] is None


def _random_start(rng, game):
    seats = rng.sample(range(10), rng.randint(2, 6))
    return Hand.start({s: rng.randint(5, 300) for s in seats}, button=rng.choice(seats),
                      stakes=Stakes(1, 2), deck=Deck(rng=Random(rng.random())), game=game)
