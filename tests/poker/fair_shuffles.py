"""Many fair shuffles at once with numpy, for the statistical tests of the shuffle.

:func:`batch_decks` follows the steps of :func:`app.poker.fairness.fair_deck`
(HMAC-SHA256 stream, rejection sampling, Fisher–Yates) for many server seeds
at once; the tests check it against ``fair_deck`` before trusting its counts.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from app.poker.fairness import message

BLOCKS = 4
CARDS = 52


def streams(server_seeds: Sequence[str], client_seeds: dict[int, str]) -> npt.NDArray[np.uint8]:
    """The first ``BLOCKS`` HMAC blocks of each seed's byte stream, one row per seed."""
    base = message(client_seeds)
    suffixes = [base + b":" + str(k).encode() for k in range(BLOCKS)]
    data = b"".join(hmac.digest(seed.encode(), m, "sha256")
                    for seed in server_seeds for m in suffixes)
    return np.frombuffer(data, dtype=np.uint8).reshape(len(server_seeds), 32 * BLOCKS)


def batch_decks(
    server_seeds: Sequence[str], client_seeds: dict[int, str] | None = None, *,
    reject: bool = True,
) -> npt.NDArray[np.uint8]:
    """Card ids of each seed's deck, one row per seed; ``reject=False`` is the biased
    ``byte % n`` shuffle the tests must be able to tell apart."""
    stream = streams(server_seeds, client_seeds or {})
    count = len(server_seeds)
    rows = np.arange(count)
    decks = np.tile(np.arange(CARDS, dtype=np.uint8), (count, 1))
    read = np.zeros(count, dtype=np.int64)
    for i in range(CARDS - 1, 0, -1):
        n = i + 1
        limit = 256 - 256 % n if reject else 256
        j = np.empty(count, dtype=np.int64)
        pending = rows
        while pending.size:
            assert int(read[pending].max()) < stream.shape[1], "stream too short"
            byte = stream[pending, read[pending]].astype(np.int64)
            read[pending] += 1
            ok = byte < limit
            j[pending[ok]] = byte[ok] % n
            pending = pending[~ok]
        top = decks[:, i].copy()
        decks[:, i] = decks[rows, j]
        decks[rows, j] = top
    return decks


def position_counts(decks: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """``counts[position, card]``: how often each card lies at each position."""
    positions = np.tile(np.arange(CARDS), decks.shape[0])
    flat = positions * CARDS + decks.reshape(-1).astype(np.int64)
    return np.bincount(flat, minlength=CARDS * CARDS).reshape(CARDS, CARDS)


def chi_square(counts: npt.NDArray[np.int64]) -> float:
    """Pearson's statistic of the position counts against a uniform shuffle."""
    expected = counts.sum() / (CARDS * CARDS)
    return float(((counts - expected) ** 2 / expected).sum())
