"""Provably fair shuffles: the server commits to a seed, players add theirs, all is revealed.

The deck of a hand is a deterministic function of a secret *server seed* and
the *client seeds* the seated players sent; docs/FAIRNESS.md states the scheme
for people who want to check it with other tools. In short:

1. The server seed is 32 bytes from :mod:`secrets`, written as 64 lowercase hex
   characters. Its *commitment* is ``SHA-256(seed text)`` in hex; it is
   published before the client seeds are collected and again in ``hand_started``.
2. The client seeds (1 to 64 characters of ``A-Z a-z 0-9 _ -``) are joined into
   one message: ``"holdem-fair-v1"`` then, for each seat in increasing order,
   ``"\\n<seat>:<seed>"``.
3. A byte stream is ``HMAC-SHA256(key=seed text, msg=message + ":" + counter)``
   for counter ``0, 1, 2, ...`` (decimal), the 32-byte blocks one after another.
4. Starting from the deck in card order ``2c 2d 2h 2s 3c ... As``, a
   Fisher–Yates shuffle runs for ``i`` from 51 down to 1: it reads bytes until
   one is below ``256 - 256 % (i + 1)`` (so every index is equally likely), takes
   ``j = byte % (i + 1)`` and swaps positions ``i`` and ``j``.
5. Position 0 is dealt first: one card to each seat from the left of the
   button, a second round (and in Omaha a third and fourth, or fifth), then burn
   and flop, burn and turn, burn and river.

>>> from app.poker.cards import format_cards
>>> seed = "00" * 32
>>> commitment(seed)[:16]
'60e05bd1b195af2f'
>>> format_cards(fair_deck(seed, {})[:5])
'Kc9hTc4d6d'
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.errors import HoldemError
from app.poker.cards import FULL_DECK, Card

SCHEME = "holdem-fair-v1"
SEED_BYTES = 32
CLIENT_SEED = re.compile(r"[A-Za-z0-9_-]{1,64}")
_SERVER_SEED = re.compile(r"[0-9a-f]{64}")


class InvalidSeed(HoldemError):
    """A server or client seed that is not in the documented form."""

    code = "invalid_seed"


class ShuffleMismatch(HoldemError):
    """A dealt card is not the card the revealed seeds put at its place in the deck."""

    code = "shuffle_mismatch"


class NoProof(HoldemError):
    """A hand history without the seeds of a fair shuffle (a stacked deck, or an old hand)."""

    code = "no_fairness_proof"


def new_server_seed() -> str:
    """A fresh secret server seed from the operating system's CSPRNG (64 hex characters)."""
    return secrets.token_hex(SEED_BYTES)


def commitment(server_seed: str) -> str:
    """The published commitment to a server seed: SHA-256 of its text, in hex."""
    _check_server_seed(server_seed)
    return hashlib.sha256(server_seed.encode("ascii")).hexdigest()


def verify_client_seed(seed: str) -> None:
    """Raise :class:`InvalidSeed` unless ``seed`` is 1-64 characters of ``A-Za-z0-9_-``."""
    if not isinstance(seed, str) or CLIENT_SEED.fullmatch(seed) is None:
        raise InvalidSeed("expected a client seed of 1 to 64 characters from A-Z, a-z, 0-9, "
                          "'_' and '-'")


def message(client_seeds: Mapping[int, str]) -> bytes:
    """The HMAC message for these client seeds (seat number to seed).

    >>> message({4: "b", 1: "a"})
    b'holdem-fair-v1\\n1:a\\n4:b'
    """
    for seed in client_seeds.values():
        verify_client_seed(seed)
    lines = "".join(f"\n{seat}:{client_seeds[seat]}" for seat in sorted(client_seeds))
    return (SCHEME + lines).encode("ascii")


def byte_stream(server_seed: str, client_seeds: Mapping[int, str]) -> Iterator[int]:
    """The endless stream of shuffle bytes: HMAC-SHA256 blocks in counter mode."""
    _check_server_seed(server_seed)
    key, base = server_seed.encode("ascii"), message(client_seeds)
    counter = 0
    while True:
        yield from hmac.digest(key, base + b":" + str(counter).encode("ascii"), "sha256")
        counter += 1


def fair_deck(server_seed: str, client_seeds: Mapping[int, str]) -> tuple[Card, ...]:
    """The deck, top card first, that these seeds determine (see the module docstring)."""
    stream = byte_stream(server_seed, client_seeds)
    deck = list(FULL_DECK)
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        limit = 256 - 256 % bound
        byte = next(stream)
        while byte >= limit:
            byte = next(stream)
        j = byte % bound
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def _check_server_seed(seed: str) -> None:
    if not isinstance(seed, str) or _SERVER_SEED.fullmatch(seed) is None:
        raise InvalidSeed("expected a server seed of 64 lowercase hex characters")


@dataclass(frozen=True, slots=True)
class FairnessProof:
    """What proves one hand's deck: the server seed, its commitment and the client seeds."""

    server_seed: str
    client_seeds: dict[int, str]
    _commitment: str | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def commitment(self) -> str:
        """SHA-256 of the server seed, as published before the hand (worked out once: a
        table stores its hand's proof with every action)."""
        if (known := self._commitment) is None:
            known = commitment(self.server_seed)
            object.__setattr__(self, "_commitment", known)
        return known

    def deck(self) -> tuple[Card, ...]:
        """The deck these seeds determine."""
        return fair_deck(self.server_seed, self.client_seeds)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data; ``client_seeds`` as ``[{"seat", "seed"}]`` in seat order."""
        return {"scheme": SCHEME, "commitment": self.commitment,
                "server_seed": self.server_seed,
                "client_seeds": [{"seat": seat, "seed": self.client_seeds[seat]}
                                 for seat in sorted(self.client_seeds)]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FairnessProof:
        """Inverse of :meth:`to_dict`; a ``commitment`` that does not match is refused."""
        try:
            proof = cls(str(data["server_seed"]),
                        {int(row["seat"]): str(row["seed"]) for row in data["client_seeds"]})
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidSeed(f"expected server_seed and client_seeds, got {error}") from None
        message(proof.client_seeds)
        stated = data.get("commitment")
        if stated is not None and stated != proof.commitment:
            raise ShuffleMismatch("the server seed does not match its commitment",
                                  commitment=stated, computed=proof.commitment)
        return proof


@dataclass(frozen=True, slots=True)
class DealtCards:
    """The cards a hand showed, by where they came from; None where a card is unknown.

    ``holes`` are the seats' hole cards (two, four or five) in dealing order (from the left of the
    button); ``board`` the flop, turn and river dealt so far; ``second_board`` the
    cards of a second run-out (a hand run twice), which the deck deals after the
    first board's river, with a burn card before each street.
    """

    holes: Sequence[tuple[Card | None, ...]]
    board: Sequence[Card]
    second_board: Sequence[Card] = ()


def dealt_positions(seats: int, hole_cards: int = 2
                    ) -> tuple[list[tuple[int, ...]], list[int]]:
    """Deck positions of each seat's hole cards (two, or four or five in Omaha: one
    round of one card each at a time) and of the five board cards.

    >>> dealt_positions(2)
    ([(0, 2), (1, 3)], [5, 6, 7, 9, 11])
    >>> dealt_positions(2, 4)
    ([(0, 2, 4, 6), (1, 3, 5, 7)], [9, 10, 11, 13, 15])
    """
    holes = [tuple(r * seats + i for r in range(hole_cards)) for i in range(seats)]
    first = hole_cards * seats
    return holes, [first + 1, first + 2, first + 3, first + 5, first + 7]


def verify_deal(proof: FairnessProof, dealt: DealtCards) -> int:
    """Check every known dealt card against the deck the seeds determine.

    Returns how many cards were checked; raises :class:`ShuffleMismatch` naming
    the first card that differs.
    """
    deck = proof.deck()
    holes, board = dealt_positions(len(dealt.holes),
                                   len(dealt.holes[0]) if dealt.holes else 2)
    expected: list[tuple[str, int, Card | None]] = []
    for n, (cards, places) in enumerate(zip(dealt.holes, holes, strict=True), start=1):
        expected += [(f"p{n} hole card {k + 1}", place, card)
                     for k, (card, place) in enumerate(zip(cards, places, strict=True))]
    expected += [(f"board card {k + 1}", place, card)
                 for k, (card, place) in enumerate(zip(dealt.board, board, strict=False))]
    shared = 5 - len(dealt.second_board)
    start = board[0] - 1 + {0: 0, 3: 4, 4: 6, 5: 0}[shared]
    expected += [(f"second board card {shared + k + 1}", place - start + board[-1] + 1, card)
                 for k, (card, place) in enumerate(zip(dealt.second_board, board[shared:],
                                                       strict=True))]
    checked = 0
    for where, place, card in expected:
        if card is None:
            continue
        if deck[place] != card:
            raise ShuffleMismatch(
                f"{where} is {card}, but the seeds put {deck[place]} there",
                where=where, dealt=str(card), expected=str(deck[place]))
        checked += 1
    return checked
