"""PHH of every game: the variant's code, replay to the same hand, pokerkit reads it, the
replayer and the fair-deal check see four and five hole cards."""

import json
import tomllib
import warnings
from random import Random

import pytest
from pokerkit import HandHistory

from app.poker.cards import Deck
from app.poker.engine import Hand
from app.poker.errors import InvalidHandHistory
from app.poker.fairness import FairnessProof, ShuffleMismatch, new_server_seed
from app.poker.phh import phh_fields, phh_for_viewer, replay, to_phh, verify_history
from app.poker.replayer import replay_frames
from app.poker.state import Game, Stakes
from tests.poker.game_oracle import POTS_REFORMED, play, random_setup
from tests.poker.pokerkit_oracle import pokerkit_shares

VARIANTS = {Game.NLHE: ("NT", None), Game.FLHE: ("FT", None), Game.PLHE: ("NT", "plhe"),
            Game.PLO: ("PO", None), Game.PLO5: ("PO", "plo5")}


def random_hands(game, count):
    rng = Random(f"phh-{game.value}")
    for _ in range(count):
        yield play(random_setup(rng, game), rng)


@pytest.mark.parametrize("game", list(Game))
def test_a_hand_exports_with_its_variant_code(game):
    hand, _ = next(random_hands(game, 1))
    data = tomllib.loads(to_phh(hand))
    assert (data["variant"], data.get("_game")) == VARIANTS[game]
    if game is Game.FLHE:
        assert (data["small_bet"], data["big_bet"]) == (hand.stakes.big_blind,
                                                        2 * hand.stakes.big_blind)
        assert "min_bet" not in data
    else:
        assert data["min_bet"] == hand.stakes.big_blind


@pytest.mark.parametrize("game", list(Game))
def test_exported_hands_of_every_game_replay_to_the_same_stacks(game):
    for hand, _ in random_hands(game, 25):
        again = replay(to_phh(hand))
        assert again.match is True
        assert again.hand.game is game
        assert [s.cards for s in again.hand.seats] == [s.cards for s in hand.seats]


@pytest.mark.parametrize("game", [Game.NLHE, Game.FLHE, Game.PLHE, Game.PLO])
def test_pokerkit_reads_our_export_of_every_game_it_knows(game):
    checked = 0
    for hand, verdict in random_hands(game, 25):
        if verdict.diverged:
            continue  # a raise our rules allow and pokerkit's refuse (app.poker.limits)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            *_, last = HandHistory.loads(to_phh(hand))
        if POTS_REFORMED in verdict.differences:
            assert sum(last.stacks) == sum(s.stack for s in hand.seats)
        else:
            assert list(last.stacks) in ([s.stack for s in hand.seats], pokerkit_shares(hand))
        checked += 1
    assert checked >= 20


def test_pokerkit_refuses_five_card_omaha_rather_than_misplay_it():
    hand, _ = next(random_hands(Game.PLO5, 1))
    with warnings.catch_warnings(), pytest.raises(ValueError):
        warnings.simplefilter("ignore")
        list(HandHistory.loads(to_phh(hand)))


def test_a_history_naming_a_game_of_another_variant_is_refused():
    hand, _ = next(random_hands(Game.PLO5, 1))
    text = to_phh(hand).replace('variant = "PO"', 'variant = "NT"')
    with pytest.raises(InvalidHandHistory, match="expected _game to be a game of variant 'NT'"):
        replay(text)


def test_a_limit_history_needs_a_big_bet_twice_the_small_bet():
    hand, _ = next(random_hands(Game.FLHE, 1))
    big = hand.stakes.big_blind
    text = to_phh(hand).replace(f"big_bet = {2 * big}", f"big_bet = {3 * big}")
    with pytest.raises(InvalidHandHistory, match="expected a big_bet twice the small_bet"):
        replay(text)


@pytest.mark.parametrize("game", [Game.PLO, Game.PLO5])
def test_other_players_omaha_cards_are_masked_in_the_history(game):
    hand, _ = Hand.start({0: 100, 1: 100, 2: 100}, button=2, stakes=Stakes(1, 2),
                         deck=Deck(rng=Random(4)), game=game)
    hand.fold(2), hand.fold(0)
    text = phh_for_viewer(to_phh(hand), 2)
    masked = "?" * (2 * game.hole_cards)
    assert f'"d dh p1 {masked}"' in text and f'"d dh p3 {masked}"' in text
    assert f'"d dh p2 {"".join(map(str, hand.seat(1).cards))}"' in text


@pytest.mark.parametrize("game", [Game.PLO, Game.PLO5])
def test_the_replayer_shows_omaha_cards_to_their_owner_only(game):
    hand, _ = Hand.start({0: 100, 1: 100, 2: 100}, button=2, stakes=Stakes(1, 2),
                         deck=Deck(rng=Random(5)), game=game)
    hand.fold(2), hand.fold(0)
    frames = replay_frames(to_phh(hand), 1)
    seats = frames[0]["hand"]["seats"]
    assert [s["cards"] is not None for s in seats] == [False, True, False]
    assert len(next(s for s in seats if s["seat"] == 1)["cards"]) == game.hole_cards


@pytest.mark.parametrize("game", list(Game))
def test_a_fair_deal_of_every_game_verifies_card_by_card(game):
    proof = FairnessProof(new_server_seed(), {0: "me", 2: "you"})
    hand, _ = Hand.start({0: 300, 1: 300, 2: 300}, button=2, stakes=Stakes(1, 2),
                         deck=Deck(proof.deck()), game=game)
    while not hand.is_complete:
        legal = {a.action.value for a in hand.legal_actions()}
        hand.act(hand.actor, "show" if "show" in legal else "call" if "call" in legal
                 else "check")
    text = to_phh(hand, fields=phh_fields(proof))
    _, checked = verify_history(text)
    assert checked == 3 * game.hole_cards + 5
    first = "".join(map(str, hand.seats[0].cards))
    swapped = first[2:4] + first[:2] + first[4:]
    with pytest.raises(ShuffleMismatch):
        verify_history(text.replace(f"p1 {first}", f"p1 {swapped}", 1))


def test_holdem_replay_replays_histories_of_every_game(tmp_path, capsys):
    from app.cli import main

    for game in Game:
        hand, _ = next(random_hands(game, 1))
        (tmp_path / f"{game.value}.phh").write_text(to_phh(hand))
    assert main(["replay", "--json", str(tmp_path)]) == 0
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(reports) == len(Game)
    assert all(r["ok"] and r["match"] is True for r in reports)
