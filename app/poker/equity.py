"""Equity: how often each hand wins, ties, and its share of the pot.

Boards are enumerated exactly when there are few enough of them (heads-up
preflop with both hands known, 1,712,304 boards, is exact); otherwise a seeded
Monte Carlo sample is drawn. Either way each seven-card hand is packed in one
64-bit word (byte i holds card i), built with numpy from combination tables and
ranked in large batches by :func:`app.poker.evaluator.rank_batch`: no Python
loop over boards.

>>> result = equity(["AhKh", "QsQd"], board="Qh Jh 2c 3d")
>>> result.exact, result.boards
(True, 44)
>>> [round(h.equity, 4) for h in result.hands]
[0.2273, 0.7727]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import comb, sqrt

import numpy as np
import numpy.typing as npt

from app.errors import HoldemError
from app.poker.cards import Card, DeckExhausted, DuplicateCard, InvalidCard, parse_cards
from app.poker.evaluator import rank_batch

MIN_PLAYERS = 2
MAX_PLAYERS = 9
DEFAULT_ITERATIONS = 200_000
DEFAULT_EXACT_THRESHOLD = 2_000_000
BOARD_SIZES = (0, 3, 4, 5)
_CHUNK = 1 << 16  # deals per rank_batch call: big batches that still fit in cache
# Work, the unit odds are budgeted in (app.tools): about one comparison of two ranked
# hands, some 30 million a second on one core. Ranking a hand in a batch of deals costs:
RANKED_HAND_WORK = 10

CardsLike = str | Sequence[Card]
IdArray = npt.NDArray[np.uint8]
# A hand or a board packed in one integer: byte i holds the id of card i.
Words = npt.NDArray[np.uint64]
_Deals = tuple[list[Words], Words]  # (hole words of the random hands, board words)


class InvalidBoard(HoldemError):
    """A board that is not 0, 3, 4 or 5 cards."""

    code = "invalid_board"


class InvalidHoleCards(HoldemError):
    """A hand that is not exactly two cards."""

    code = "invalid_hole_cards"


class InvalidPlayerCount(HoldemError):
    """Fewer than two or more than nine hands."""

    code = "invalid_player_count"


class InvalidSampling(HoldemError):
    """A Monte Carlo setting out of range: iterations, seed or exact threshold."""

    code = "invalid_sampling"


@dataclass(frozen=True, slots=True)
class HandEquity:
    """One hand's share: ``win`` alone, ``tie`` for best, ``equity`` with ties split.

    All three are fractions in [0, 1]; ``stderr`` is the standard error of
    ``equity`` (0.0 when exact). ``hand`` is ``None`` for a random hand.
    """

    hand: tuple[Card, ...] | None
    win: float
    tie: float
    equity: float
    stderr: float


@dataclass(frozen=True, slots=True)
class EquityResult:
    """Per-hand equities in input order; ``boards`` deals were evaluated."""

    hands: tuple[HandEquity, ...]
    exact: bool
    boards: int

    @property
    def equities(self) -> tuple[float, ...]:
        """Each hand's equity, in input order."""
        return tuple(h.equity for h in self.hands)


@dataclass(frozen=True, slots=True)
class _Spot:
    """A validated question: known holes (or None), board and the unseen cards."""

    holes: tuple[tuple[Card, Card] | None, ...]
    board: tuple[Card, ...]
    unseen: IdArray

    @property
    def unknown(self) -> int:
        return sum(h is None for h in self.holes)

    @property
    def to_deal(self) -> int:
        return 2 * self.unknown + 5 - len(self.board)

    @property
    def board_word(self) -> np.uint64:
        """The known board cards in bytes 2, 3, ... (bytes 0-1 hold the hole cards)."""
        return np.uint64(sum(int(c) << 8 * (2 + i) for i, c in enumerate(self.board)))


def equity(
    hands: Sequence[CardsLike | None],
    board: CardsLike = (),
    dead: CardsLike = (),
    *,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
    exact_threshold: int = DEFAULT_EXACT_THRESHOLD,
) -> EquityResult:
    """Win, tie and equity of 2 to 9 hands; ``None`` (or ``"??"``) is a random hand.

    Exact when the deals left (boards times hole cards of random hands) are at
    most ``exact_threshold``; otherwise ``iterations`` Monte Carlo deals drawn
    with ``numpy.random.default_rng(seed)``. ``dead`` cards are out of play.

    >>> r = equity(["AsAd", None], board="Ks 7d 2c 9h 3s")
    >>> r.exact, r.boards, round(r.hands[0].equity, 3)
    (True, 990, 0.893)
    """
    if iterations < 1 or seed < 0 or exact_threshold < 0:
        raise InvalidSampling(
            f"need iterations >= 1, seed >= 0 and exact_threshold >= 0, got {iterations}, "
            f"{seed} and {exact_threshold}", iterations=iterations, seed=seed,
            exact_threshold=exact_threshold)
    spot = _validate(hands, board, dead)
    deals = deal_count(spot.unseen.size, spot.unknown, 5 - len(spot.board))
    if deals <= exact_threshold:
        counts = _tally_all(spot, _exact_deals(spot))
        return equity_result(spot.holes, counts, deals, exact=True)
    rng = np.random.default_rng(seed)
    counts = _tally_all(spot, _random_deals(spot, rng, iterations))
    return equity_result(spot.holes, counts, iterations, exact=False)


def equity_work(
    hands: Sequence[CardsLike | None],
    board: CardsLike = (),
    dead: CardsLike = (),
    *,
    iterations: int = DEFAULT_ITERATIONS,
    exact_threshold: int = DEFAULT_EXACT_THRESHOLD,
) -> int:
    """The work :func:`equity` would do, known before it starts (and its input checked):
    hands ranked (deals x hands) x :data:`RANKED_HAND_WORK`.

    >>> equity_work(["AhKh", "QsQd"], board="Qh Jh 2c 3d")
    880
    """
    spot = _validate(hands, board, dead)
    deals = deal_count(spot.unseen.size, spot.unknown, 5 - len(spot.board))
    counted = deals if deals <= exact_threshold else iterations
    return counted * len(spot.holes) * RANKED_HAND_WORK


def deal_count(unseen: int, unknown_hands: int, board_cards: int) -> int:
    """How many distinct deals complete a spot: hole pairs for each random hand, then a board.

    >>> deal_count(48, 0, 5)  # heads-up preflop, both hands known
    1712304
    """
    total, left = 1, unseen
    for _ in range(unknown_hands):
        total, left = total * comb(left, 2), left - 2
    return total * comb(left, board_cards)


def _validate(hands: Sequence[CardsLike | None], board: CardsLike, dead: CardsLike) -> _Spot:
    if not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
        raise InvalidPlayerCount(
            f"equity needs {MIN_PLAYERS} to {MAX_PLAYERS} hands, got {len(hands)}",
            count=len(hands))
    holes = tuple(hole_cards(h) for h in hands)
    board_cards, dead_cards = natural_cards(board), natural_cards(dead)
    if len(board_cards) not in BOARD_SIZES:
        raise InvalidBoard(f"a board has 0, 3, 4 or 5 cards, got {len(board_cards)}",
                           count=len(board_cards))
    known = [c for h in holes if h is not None for c in h] + [*board_cards, *dead_cards]
    check_distinct(known)
    unseen = np.array(sorted(set(range(52)) - set(known)), dtype=np.uint8)
    spot = _Spot(holes, board_cards, unseen)
    if spot.to_deal > unseen.size:
        raise DeckExhausted(f"{spot.to_deal} cards to deal but only {unseen.size} unseen",
                            left=int(unseen.size))
    return spot


def natural_cards(cards: CardsLike) -> tuple[Card, ...]:
    """Cards from text or a sequence; jokers and non-cards raise :class:`InvalidCard`."""
    parsed = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
    for card in parsed:
        if not isinstance(card, Card) or card.is_joker:
            raise InvalidCard(f"{card!r} is not a natural card", token=str(card))
    return parsed


def hole_cards(hand: CardsLike | None) -> tuple[Card, Card] | None:
    """Two hole cards, or ``None`` for a random hand (``None`` or ``"??"``)."""
    if hand is None or (isinstance(hand, str) and hand.strip() == "??"):
        return None
    cards = natural_cards(hand)
    if len(cards) != 2:
        raise InvalidHoleCards(f"a hand has two cards, got {len(cards)}: "
                               f"{''.join(map(str, cards)) or 'none'}", count=len(cards))
    return cards[0], cards[1]


def check_distinct(cards: Sequence[Card]) -> None:
    """Raise :class:`DuplicateCard` if a card appears twice among hands, board and dead."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCard(f"card {card} is used twice", token=str(card))
        seen.add(card)


def _colex(parts: Words, k: int) -> Words:
    """OR of ``parts[j_1, 0] | ... | parts[j_k, k - 1]`` over every ``j_1 < ... < j_k``.

    Rows come in colex order: the subsets of the first ``j`` cards come first, so
    each step reuses a prefix of the previous one. With ``parts[j, i]`` the j-th
    unseen card shifted into byte ``i`` this packs every board into one word
    per board, in a few numpy copies instead of a Python loop over the boards.
    """
    rows = np.zeros(1, dtype=np.uint64)
    for size in range(1, k + 1):
        rows = np.concatenate([rows[: comb(j, size - 1)] | parts[j, size - 1]
                               for j in range(size - 1, len(parts))])
    return rows


def combination_ids(cards: npt.ArrayLike, k: int) -> npt.NDArray[np.int64]:
    """Every ``k``-subset of ``cards`` (card ids, at most 255 of them) as rows, in colex order.

    >>> combination_ids([0, 5, 9], 2).tolist()
    [[0, 5], [0, 9], [5, 9]]
    """
    ids = np.asarray(cards, dtype=np.uint8)
    if k == 0:
        return np.empty((1, 0), np.int64)
    words = _colex(_card_parts(ids, 0, k), k)
    return words.astype("<u8").view(np.uint8).reshape(-1, 8)[:, :k].astype(np.int64)


def _card_parts(cards: IdArray, first_byte: int, k: int) -> Words:
    """``parts[j, i]``: card ``cards[j]`` placed in byte ``first_byte + i`` of a word."""
    shifts = np.arange(first_byte, first_byte + k, dtype=np.uint64) * np.uint64(8)
    return cards.astype(np.uint64)[:, None] << shifts[None, :]


def _mask_parts(cards: IdArray, k: int) -> Words:
    """``parts[j, i]``: the bit of card ``cards[j]``, whatever the position."""
    return np.repeat((np.uint64(1) << cards.astype(np.uint64))[:, None], k, axis=1)


def _exact_deals(spot: _Spot) -> Iterator[_Deals]:
    """Every deal: hole pairs of the random hands, then the rest of the board."""
    fixed, unseen = len(spot.board), spot.unseen
    stages = [(2, 0)] * spot.unknown + [(5 - fixed, 2 + fixed)]
    used = np.zeros(1, dtype=np.uint64)
    words: list[Words] = []
    for k, first_byte in stages:
        packed = _colex(_card_parts(unseen, first_byte, k), k)
        if len(stages) > 1:  # random hands: keep only deals where no card comes twice
            masks = _colex(_mask_parts(unseen, k), k)
            rows, cols = np.nonzero((used[:, None] & masks[None, :]) == 0)
            used, words = used[rows] | masks[cols], [w[rows] for w in words]
            packed = packed[cols]
        words.append(packed)
    boards = words.pop() | spot.board_word
    for start in range(0, len(boards), _CHUNK):
        part = slice(start, start + _CHUNK)
        yield [w[part] for w in words], boards[part]


def _random_deals(spot: _Spot, rng: np.random.Generator, iterations: int) -> Iterator[_Deals]:
    """``iterations`` random deals, each a partial Fisher-Yates shuffle of the unseen cards."""
    n, k, fixed = spot.unseen.size, spot.to_deal, len(spot.board)
    for start in range(0, iterations, _CHUNK):
        size = min(_CHUNK, iterations - start)
        perm = np.tile(spot.unseen, (size, 1))
        rows = np.arange(size)
        for j in range(k):
            pick = rng.integers(j, n, size)
            head = perm[rows, j]
            perm[rows, j] = perm[rows, pick]
            perm[rows, pick] = head
        dealt = perm[:, :k].astype(np.uint64)
        holes = [dealt[:, 2 * h] | dealt[:, 2 * h + 1] << np.uint64(8) for h in range(spot.unknown)]
        board = np.full(size, spot.board_word, dtype=np.uint64)
        for i in range(5 - fixed):
            board |= dealt[:, 2 * spot.unknown + i] << np.uint64(8 * (2 + fixed + i))
        yield holes, board


def _tally_all(spot: _Spot, deals: Iterator[_Deals]) -> npt.NDArray[np.int64]:
    """Sum of :func:`_tally` over the chunks of deals."""
    players = len(spot.holes)
    counts = np.zeros((players, players + 1), dtype=np.int64)
    for holes, boards in deals:
        counts += tally_best(_ranks(spot, holes, boards))
    return counts


def _ranks(spot: _Spot, holes: list[Words], boards: Words) -> npt.NDArray[np.int64]:
    """(players, deals) ranks: each seven-card hand is one word, bytes 0-6 its card ids."""
    players, size = len(spot.holes), len(boards)
    sevens = np.empty((players, size), dtype=np.uint64)
    random_holes = iter(holes)
    for seat, hole in enumerate(spot.holes):
        word = next(random_holes) if hole is None else np.uint64(hole[0] | hole[1] << 8)
        np.bitwise_or(boards, word, out=sevens[seat])
    # Little-endian so that byte i is card i on any machine (no copy on x86 and ARM).
    ids = sevens.astype("<u8", copy=False).view(np.uint8).reshape(players * size, 8)[:, :7]
    return np.asarray(rank_batch(ids), dtype=np.int64).reshape(players, size)


def tally_best(ranks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """counts[p, k]: deals on which hand p is one of exactly k best hands (k = 1 is a win),
    from ``ranks[p, deal]``."""
    players = ranks.shape[0]
    top = ranks == ranks.max(axis=0)
    sharing = np.add.reduce(top, axis=0, dtype=np.uint8)
    counts = np.zeros((players, players + 1), dtype=np.int64)
    for k in range(1, players + 1):
        counts[:, k] = np.count_nonzero(top & (sharing == k), axis=1)
    return counts


def equity_result(holes: Sequence[tuple[Card, ...] | None], counts: npt.NDArray[np.int64],
                  deals: int, *, exact: bool) -> EquityResult:
    """Fractions from :func:`tally_best`'s counts over ``deals``; the stderr of the mean
    share per deal for Monte Carlo."""
    split = 1.0 / np.maximum(np.arange(counts.shape[1]), 1)
    hands = []
    for hole, row in zip(holes, counts, strict=True):
        share = float(row @ split) / deals
        square = float(row @ split**2) / deals
        stderr = 0.0 if exact else sqrt(max(square - share * share, 0.0) / deals)
        hands.append(HandEquity(hole, int(row[1]) / deals, int(row[2:].sum()) / deals,
                                share, stderr))
    return EquityResult(tuple(hands), exact, deals)
