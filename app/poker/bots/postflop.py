"""After the flop: equity against what the bettor bets with, against the price.

The bot deals the unseen cards out a few hundred times (every opponent hand, exactly,
heads-up on the river) and ranks the boards with :func:`app.poker.evaluator.rank_batch`.
Facing a bet, the bettor's hands are weighted by what their counts say they bet with:
a player who bets a third of the time they act bets the top third of hands on this
board (plus a few draws and bluffs), one who bets every time bets anything. It calls
when that equity beats the price, raises when it is well ahead, and bets for value
when checked to; it bluffs only as often as the players left have folded to bets.
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random

import numpy as np
import numpy.typing as npt

from app.poker.bots.spot import BotAction, Situation, check_call_or_fold, raise_to
from app.poker.bots.styles import Profile
from app.poker.evaluator import rank_batch
from app.poker.tendencies import Tendencies

MODELLED = 4  # opponents dealt out in the sample; more count as this many
OUTSIDE_RANGE = 0.15  # weight of a bettor's hand below their betting share
_EXACT_RIVER = 1_000  # heads-up on the river every opponent hand (990) is counted
_STRANGER = Tendencies()
Ids = npt.NDArray[np.int64]


def decide_postflop(spot: Situation, profile: Profile, reads: Mapping[int, Tendencies],
                    rng: Random, iterations: int) -> BotAction:
    """The bot's action on the flop, turn or river."""
    bettor = spot.aggressor
    betting = reads.get(bettor.seat, _STRANGER).bet_rate() if bettor is not None else 1.0
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
    known = [int(c) for c in (*spot.hole, *spot.board)]
    unseen = np.setdiff1d(np.arange(52), known)
    players = min(spot.opponents, MODELLED)
    to_come = 5 - len(spot.board)
    if players == 1 and to_come == 0:
        deals = _every_hand(unseen)
    else:
        deals = _sample(unseen, 2 * players + to_come, iterations, rng)
    board = np.hstack([np.tile(np.array(known[2:], np.int64), (len(deals), 1)),
                       deals[:, 2 * players:]])
    mine = rank_batch(np.hstack([np.tile(np.array(known[:2], np.int64), (len(deals), 1)),
                                 board]))
    theirs = np.stack([rank_batch(np.hstack([deals[:, 2 * p:2 * p + 2], board]))
                       for p in range(players)])
    best = theirs.max(axis=0)
    ties = (theirs == best).sum(axis=0)
    won = np.where(mine > best, 1.0, np.where(mine == best, 1.0 / (ties + 1), 0.0))
    weight = _bettor_weights(spot, deals[:, :2], betting) if spot.to_call else 1.0
    return float(np.average(won, weights=np.broadcast_to(weight, won.shape)))


def _bettor_weights(spot: Situation, holes: Ids, betting: float) -> npt.NDArray[np.float64]:
    """1 for the bettor's hands in the top ``betting`` share on the board as it is now,
    :data:`OUTSIDE_RANGE` for the rest."""
    board = np.tile(np.array([int(c) for c in spot.board], np.int64), (len(holes), 1))
    now = rank_batch(np.hstack([holes, board]))
    cut = np.quantile(now, 1.0 - min(1.0, max(0.05, betting)))
    return np.where(now >= cut, 1.0, OUTSIDE_RANGE)


def _every_hand(unseen: Ids) -> Ids:
    first, second = np.triu_indices(len(unseen), k=1)
    return np.stack([unseen[first], unseen[second]], axis=1)


def _sample(unseen: Ids, cards: int, iterations: int, rng: np.random.Generator) -> Ids:
    """``iterations`` deals of ``cards`` distinct unseen cards each."""
    keys = rng.random((iterations, len(unseen)))
    return unseen[np.argsort(keys, axis=1)[:, :cards]]
