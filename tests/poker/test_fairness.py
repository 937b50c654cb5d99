"""The provably fair shuffle: its documented vectors, its statistics, and checking a deal."""

from __future__ import annotations

import hmac
import math
import random
import re
from pathlib import Path

import pytest

from app.poker.cards import FULL_DECK, Card, Deck, parse_cards
from app.poker.engine import Hand
from app.poker.fairness import (
    DealtCards,
    FairnessProof,
    InvalidSeed,
    NoProof,
    ShuffleMismatch,
    commitment,
    dealt_positions,
    fair_deck,
    message,
    new_server_seed,
    verify_client_seed,
    verify_deal,
)
from app.poker.phh import phh_fields, phh_for_viewer, proof_from_phh, to_phh, verify_history
from app.poker.state import Stakes
from tests.poker.fair_shuffles import batch_decks, chi_square, position_counts

DOC = Path(__file__).resolve().parents[2] / "docs" / "FAIRNESS.md"
DOF = 51 * 51


def documented_example() -> dict[str, str]:
    """The ``key = value`` lines of the worked example in docs/FAIRNESS.md."""
    block = DOC.read_text(encoding="utf-8").split("## Worked example", 1)[1]
    body = block.split("```text\n", 1)[1].split("```", 1)[0]
    return dict(re.fullmatch(r"(\w+)\s+= (.*)", line).groups()  # type: ignore[union-attr]
                for line in body.splitlines())


def example_seeds(example: dict[str, str]) -> dict[int, str]:
    return {int(seat): seed for seat, seed in
            (item.split(":") for item in example["client_seeds"].split())}


def random_seeds(count: int, salt: int) -> list[str]:
    rng = random.Random(salt)
    return [rng.randbytes(32).hex() for _ in range(count)]


def test_the_documented_example_is_reproduced() -> None:
    example = documented_example()
    seed, seeds = example["server_seed"], example_seeds(example)
    assert commitment(seed) == example["commitment"]
    assert message(seeds) == example["message"].replace("\\n", "\n").encode()
    block = hmac.digest(seed.encode(), message(seeds) + b":0", "sha256")
    assert block.hex() == example["block_0"]
    assert fair_deck(seed, seeds) == parse_cards(example["deck"])


def test_the_documented_deal_is_what_the_engine_deals_from_that_deck() -> None:
    example = documented_example()
    deck = fair_deck(example["server_seed"], example_seeds(example))
    hand, _ = Hand.start({0: 100, 3: 100, 5: 100}, button=int(example["button"]),
                         stakes=Stakes(1, 2), deck=Deck(deck))
    for seat in (0, 3, 5):
        assert hand.seat(seat).cards == parse_cards(example[f"seat_{seat}"])
    while not hand.is_complete and hand.phase.value != "showdown":
        actor = hand.actor
        assert actor is not None
        hand.act(actor, "check" if hand.can_check(actor) else "call")
    assert hand.board == list(parse_cards(" ".join(example[k] for k in ("flop", "turn",
                                                                         "river"))))


def test_every_deck_is_a_permutation_of_the_52_cards() -> None:
    for seed in random_seeds(50, salt=1):
        assert sorted(fair_deck(seed, {2: "x"})) == list(FULL_DECK)


def test_each_client_seed_changes_the_deck() -> None:
    seed = new_server_seed()
    decks = {fair_deck(seed, {}), fair_deck(seed, {0: "a"}), fair_deck(seed, {0: "b"}),
             fair_deck(seed, {1: "a"}), fair_deck(seed, {0: "a", 1: "a"})}
    assert len(decks) == 5


def test_the_batch_shuffle_of_the_statistical_tests_is_the_real_shuffle() -> None:
    seeds = random_seeds(500, salt=2)
    decks = batch_decks(seeds, {3: "spy"})
    assert [tuple(Card.from_id(int(c)) for c in row) for row in decks] == [
        fair_deck(seed, {3: "spy"}) for seed in seeds]


def _chi_square_bound() -> float:
    # Far beyond chance for 2601 degrees of freedom (about six standard deviations).
    return DOF + 6 * math.sqrt(2 * DOF)


def test_positions_are_uniform_over_100_000_shuffles() -> None:
    counts = position_counts(batch_decks(random_seeds(100_000, salt=3)))
    assert counts.sum() == 100_000 * 52
    assert chi_square(counts) < _chi_square_bound()


@pytest.mark.slow
def test_positions_are_uniform_over_1_000_000_shuffles() -> None:
    counts = position_counts(batch_decks(random_seeds(1_000_000, salt=4)))
    assert chi_square(counts) < _chi_square_bound()


def test_the_chi_square_test_sees_a_modulo_bias() -> None:
    counts = position_counts(batch_decks(random_seeds(100_000, salt=3), reject=False))
    assert chi_square(counts) > 2 * _chi_square_bound()


def test_server_seeds_are_fresh_hex_and_commitments_are_their_sha256() -> None:
    seeds = {new_server_seed() for _ in range(20)}
    assert len(seeds) == 20
    assert all(re.fullmatch(r"[0-9a-f]{64}", s) for s in seeds)
    with pytest.raises(InvalidSeed):
        commitment("not hex")


@pytest.mark.parametrize("seed", ["", "x" * 65, "with space", "colon:seed", "é", "a\nb"])
def test_client_seeds_outside_the_alphabet_are_refused(seed: str) -> None:
    with pytest.raises(InvalidSeed):
        verify_client_seed(seed)


def test_dealt_positions_follow_the_dealing_order() -> None:
    holes, board = dealt_positions(3)
    assert holes == [(0, 3), (1, 4), (2, 5)]
    assert board == [7, 8, 9, 11, 13]


def _deal(proof: FairnessProof, players: int) -> DealtCards:
    deck = proof.deck()
    holes, board = dealt_positions(players)
    return DealtCards([(deck[a], deck[b]) for a, b in holes], [deck[p] for p in board])


def test_a_true_deal_verifies_card_by_card() -> None:
    proof = FairnessProof(new_server_seed(), {0: "me", 4: "you"})
    assert verify_deal(proof, _deal(proof, 4)) == 4 * 2 + 5


def test_unknown_cards_are_skipped_and_a_short_board_is_fine() -> None:
    proof = FairnessProof(new_server_seed(), {})
    dealt = _deal(proof, 3)
    hidden = DealtCards([dealt.holes[0], (None, None), (None, dealt.holes[2][1])],
                        dealt.board[:3])
    assert verify_deal(proof, hidden) == 2 + 1 + 3


@pytest.mark.parametrize("where", range(2 * 3 + 5))
def test_any_altered_card_fails_verification(where: int) -> None:
    proof = FairnessProof(new_server_seed(), {1: "abc"})
    dealt = _deal(proof, 3)
    cards = [c for pair in dealt.holes for c in pair] + list(dealt.board)
    used = set(cards)
    cards[where] = next(c for c in FULL_DECK if c not in used)
    altered = DealtCards([(cards[2 * k], cards[2 * k + 1]) for k in range(3)], cards[6:])
    with pytest.raises(ShuffleMismatch):
        verify_deal(proof, altered)


def test_other_seeds_do_not_verify_the_deal() -> None:
    proof = FairnessProof(new_server_seed(), {1: "abc"})
    dealt = _deal(proof, 2)
    with pytest.raises(ShuffleMismatch):
        verify_deal(FairnessProof(proof.server_seed, {1: "abd"}), dealt)


def test_a_proof_round_trips_and_a_wrong_commitment_is_refused() -> None:
    proof = FairnessProof(new_server_seed(), {2: "b", 0: "a"})
    data = proof.to_dict()
    assert data["client_seeds"] == [{"seat": 0, "seed": "a"}, {"seat": 2, "seed": "b"}]
    assert FairnessProof.from_dict(data) == proof
    with pytest.raises(ShuffleMismatch):
        FairnessProof.from_dict({**data, "commitment": commitment(new_server_seed())})
    with pytest.raises(InvalidSeed):
        FairnessProof.from_dict({"server_seed": proof.server_seed})


def _played_history(proof: FairnessProof) -> str:
    hand, _ = Hand.start({0: 100, 2: 100, 5: 100}, button=2, stakes=Stakes(1, 2),
                         deck=Deck(proof.deck()))
    while not hand.is_complete:
        actor = hand.actor
        assert actor is not None
        choices = [a.action.value for a in hand.legal_actions()]
        hand.act(actor, next(k for k in ("check", "call", "show") if k in choices))
    return to_phh(hand, fields=phh_fields(proof))


def test_a_history_carries_its_proof_and_verifies_for_every_reader() -> None:
    proof = FairnessProof(new_server_seed(), {0: "a-1", 5: "z_9"})
    text = _played_history(proof)
    assert proof_from_phh(text) == proof
    assert verify_history(text) == (proof, 3 * 2 + 5)
    assert verify_history(phh_for_viewer(text, 1))[1] == 3 * 2 + 5  # all shown at showdown


def test_a_history_without_seeds_cannot_be_verified() -> None:
    proof = FairnessProof(new_server_seed(), {})
    text = _played_history(proof).split("_fair_scheme")[0]
    assert proof_from_phh(text) is None
    with pytest.raises(NoProof):
        verify_history(text)


def test_a_history_whose_seed_was_swapped_fails() -> None:
    proof = FairnessProof(new_server_seed(), {})
    text = _played_history(proof).replace(proof.server_seed, new_server_seed())
    with pytest.raises(ShuffleMismatch):
        verify_history(text)
