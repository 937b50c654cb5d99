"""After the flop, and every street of Omaha: equity against what the bettor bets with.

The bot deals the unseen cards out a few hundred times (every opponent hand, exactly,
heads-up on the river of hold'em) and ranks the boards with
:func:`app.poker.evaluator.rank_batch`, or in Omaha with
:func:`app.poker.omaha.rank_omaha_batch` (exactly two hole cards and three of the
board). Facing a bet, the bettor's hands are weighted by what their counts say they bet
with: a player who bets a third of the time they act bets the top third of hands on
this board (plus a few draws and bluffs), one who bets every time bets anything. Before
an Omaha flop, where no chart exists, "the top third" is read from a hand's
:func:`omaha_preflop_strength`. It calls when that equity beats the price, raises when
it is well ahead, and bets for value when checked to; it bluffs only as often as the
players left have folded to bets.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from random import Random

import numpy as np
import numpy.typing as npt

from app.poker.bots.spot import BotAction, Situation, check_call_or_fold, raise_to
from app.poker.bots.styles import Profile
from app.poker.evaluator import rank_batch
from app.poker.hand_class import CLASSES, class_of_ids
from app.poker.omaha import rank_omaha_batch
from app.poker.preflop import equity_vs_top
from app.poker.tendencies import Tendencies

MODELLED = 4  # opponents dealt out in the sample; more count as this many
OUTSIDE_RANGE = 0.15  # weight of a bettor's hand below their betting share
_EXACT_RIVER = 1_000  # heads-up on the river every opponent hand (990) is counted
_STRANGER = Tendencies()
Ids = npt.NDArray[np.int64]


def decide_postflop(spot: Situation, profile: Profile, reads: Mapping[int, Tendencies],
                    rng: Random, iterations: int) -> BotAction:
    """The bot's action on the flop, turn or river, and on every street of Omaha."""
    bettor = spot.aggressor
    betting = 1.0
    if bettor is not None:  # before an Omaha flop, the bettor's raising share
        counts = reads.get(bettor.seat, _STRANGER)
        betting = counts.bet_rate() if spot.board else counts.raise_range()
    share = equity_against(spot, betting, np.random.default_rng(rng.getrandbits(32)),
                           iterations)
    strength = share * (spot.opponents + 1)  # 1.0 is a fair share of the pot
    if strength >= profile.value and share >= spot.price:
        size = round((spot.pot + spot.to_call) * profile.bet_fraction
                     * (1.5 if strength > 2 else 1.0))
        return raise_to(spot, spot.level + max(size, spot.big_blind))
    if spot.to_call == 0 and rng.random() < profile.bluff * _folds(spot, reads):
        return raise_to(spot, round(spot.pot * profile.bet_fraction))
    return check_call_or_fold(spot, share >= spot.price + profile.post_margin)


def _folds(spot: Situation, reads: Mapping[int, Tendencies]) -> float:
    """The chance every other player folds to a bet, by their counts."""
    chance = 1.0
    for other in spot.others:
        if not other.all_in:
            chance *= reads.get(other.seat, _STRANGER).fold_rate()
    return chance


def equity_against(spot: Situation, betting: float, rng: np.random.Generator,
                   iterations: int) -> float:
    """The bot's share of the pot against the others, the first of them (the bettor,
    when facing a bet) holding the top ``betting`` share of hands on this board."""
    k = len(spot.hole)
    known = [int(c) for c in (*spot.hole, *spot.board)]
    unseen = np.setdiff1d(np.arange(52), known)
    players = min(spot.opponents, MODELLED)
    to_come = 5 - len(spot.board)
    if players == 1 and to_come == 0 and k == 2:
        deals = _every_hand(unseen)
    else:
        deals = _sample(unseen, k * players + to_come, iterations, rng)
    board = np.hstack([np.tile(np.array(known[k:], np.int64), (len(deals), 1)),
                       deals[:, k * players:]])
    mine = _ranks(np.tile(np.array(known[:k], np.int64), (len(deals), 1)), board)
    theirs = np.stack([_ranks(deals[:, k * p:k * (p + 1)], board) for p in range(players)])
    best = theirs.max(axis=0)
    ties = (theirs == best).sum(axis=0)
    won = np.where(mine > best, 1.0, np.where(mine == best, 1.0 / (ties + 1), 0.0))
    weight = _bettor_weights(spot, deals[:, :k], betting) if spot.to_call else 1.0
    return float(np.average(won, weights=np.broadcast_to(weight, won.shape)))


def _ranks(holes: Ids, boards: Ids) -> npt.NDArray[np.int64]:
    """Each row's hand rank: the best five of seven, or Omaha's two and three."""
    if holes.shape[1] == 2:
        return rank_batch(np.hstack([holes, boards]))
    return rank_omaha_batch(holes, boards)


def _bettor_weights(spot: Situation, holes: Ids, betting: float) -> npt.NDArray[np.float64]:
    """1 for the bettor's hands in the top ``betting`` share on the board as it is now
    (before an Omaha flop, by :func:`omaha_preflop_strength`), :data:`OUTSIDE_RANGE`
    for the rest."""
    if spot.board:
        board = np.tile(np.array([int(c) for c in spot.board], np.int64), (len(holes), 1))
        now = _ranks(holes, board).astype(np.float64)
    else:
        now = omaha_preflop_strength(holes)
    cut = np.quantile(now, 1.0 - min(1.0, max(0.05, betting)))
    return np.where(now >= cut, 1.0, OUTSIDE_RANGE)


def omaha_preflop_strength(holes: Ids) -> npt.NDArray[np.float64]:
    """A strength for each row of Omaha hole cards before the flop: the mean hold'em
    equity (against any two cards) of all its two-card pairs, so that high pairs,
    suited and connected cards lead, and a hand whose cards all work together beats one
    good pair among trash."""
    table = _pair_strength()
    pairs = np.array([(a, b) for a in range(holes.shape[1]) for b in range(a + 1, holes.shape[1])])
    strength: npt.NDArray[np.float64] = table[holes[:, pairs[:, 0]], holes[:, pairs[:, 1]]]
    mean: npt.NDArray[np.float64] = strength.mean(axis=1)
    return mean


@cache
def _pair_strength() -> npt.NDArray[np.float64]:
    """Hold'em equity against any two cards of every two card ids, as a 52 x 52 table."""
    by_class = [equity_vs_top(c, 1.0) for c in range(CLASSES)]
    return np.array([[by_class[class_of_ids(a, b)] if a != b else 0.0 for b in range(52)]
                     for a in range(52)])


def _every_hand(unseen: Ids) -> Ids:
    first, second = np.triu_indices(len(unseen), k=1)
    return np.stack([unseen[first], unseen[second]], axis=1)


def _sample(unseen: Ids, cards: int, iterations: int, rng: np.random.Generator) -> Ids:
    """``iterations`` deals of ``cards`` distinct unseen cards each."""
    keys = rng.random((iterations, len(unseen)))
    return unseen[np.argsort(keys, axis=1)[:, :cards]]
