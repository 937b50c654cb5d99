"""Before the flop: open by position, push or fold when short, and price every raise.

Unopened pots: with more than :data:`app.poker.pushfold.PUSH_FOLD_BB` effective big
blinds a bot opens its style's share of hands, wider with fewer players behind;
with fewer it moves all-in with the push/fold chart's range or folds.

Facing a raise: the raiser's range is the share of hands they have raised (or moved
all-in) with so far, from the public counts (:class:`app.poker.tendencies.Tendencies`),
a stranger reading as an ordinary player (or, short, as the chart's pusher). The bot's
equity against that range (and the callers' ranges) comes from the shipped table
(:mod:`app.poker.preflop`) and is compared with the price: call when it pays, raise
again when it is well ahead, fold otherwise. A player who shoves every hand is read
as shoving any two cards, and is called by every hand that beats any two cards by
more than the price.
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random

from app.poker.bots.spot import (
    BotAction,
    Contender,
    Situation,
    all_in,
    check_call_or_fold,
    raise_to,
)
from app.poker.bots.styles import Profile
from app.poker.events import ActionKind
from app.poker.hand_class import class_of
from app.poker.preflop import equity_vs_classes, equity_vs_top, percentile
from app.poker.pushfold import PUSH_FOLD_BB, push_fraction, push_range, pushes
from app.poker.tendencies import Tendencies

CHART_BB = 20.0  # the push/fold chart's deepest stack
DEEP_SHOVE_PRIOR = 0.05  # a stranger's all-in from deeper than the chart
CALLER_SHARE = 0.6  # callers of a raise play the top part of their hands
_POSITION = {0: 0.5, 1: 2.2, 2: 1.6, 3: 1.25, 4: 1.0, 5: 0.85}
_STRANGER = Tendencies()


def decide_preflop(spot: Situation, profile: Profile, reads: Mapping[int, Tendencies],
                   rng: Random) -> BotAction:
    """The bot's action before the flop."""
    hand_class = class_of(spot.hole)
    if spot.level <= spot.big_blind:
        if spot.effective_bb <= PUSH_FOLD_BB:
            return _push_or_fold(spot, hand_class)
        return _open(spot, profile, hand_class)
    return _facing_raise(spot, profile, hand_class, reads, rng)


def _push_or_fold(spot: Situation, hand_class: int) -> BotAction:
    if pushes(hand_class, spot.effective_bb, behind=max(1, spot.behind)):
        return all_in(spot)
    return check_call_or_fold(spot, wants_in=False)


def _open(spot: Situation, profile: Profile, hand_class: int) -> BotAction:
    share = percentile(hand_class)
    width = profile.open * _POSITION.get(spot.behind, 0.75)
    if share <= width:
        limpers = max(0, spot.pot - spot.big_blind * 3 // 2)
        return raise_to(spot, round(spot.big_blind * profile.open_size) + limpers)
    return check_call_or_fold(spot, wants_in=share <= profile.limp)


def _facing_raise(spot: Situation, profile: Profile, hand_class: int,
                  reads: Mapping[int, Tendencies], rng: Random) -> BotAction:
    raiser = spot.aggressor
    if raiser is None:
        return check_call_or_fold(spot, wants_in=False)
    share = _raiser_equity(spot, raiser, reads, hand_class)
    for other in spot.others:
        if other.seat != raiser.seat and (other.bet == spot.level or other.all_in):
            called = reads.get(other.seat, _STRANGER).voluntary_range() * CALLER_SHARE
            share *= equity_vs_top(hand_class, called)
    if spot.effective_bb <= PUSH_FOLD_BB:  # the chart's game: every style plays the price
        return _all_in_or_fold(spot, 0.0, share, raiser)
    if raiser.all_in or spot.to_call >= 0.4 * spot.stack:  # a call commits the stack
        return _all_in_or_fold(spot, profile.all_in_margin, share, raiser)
    bluff = percentile(hand_class) <= 0.35 and rng.random() < profile.bluff / 3
    if share >= profile.reraise or bluff:
        return raise_to(spot, 3 * spot.level + (spot.pot - spot.level - spot.bet))
    return check_call_or_fold(spot, wants_in=share >= spot.price + profile.call_margin)


def _raiser_equity(spot: Situation, raiser: Contender, reads: Mapping[int, Tendencies],
                   hand_class: int) -> float:
    """The bot's equity against the range ``raiser`` makes this raise with: what their
    counts show, a stranger reading as an ordinary player, or, all-in within the
    chart's stacks, as the chart's pusher (nobody reads tighter than that: the
    equilibrium call loses little to a tighter pusher, who blinds away instead)."""
    counts = reads.get(raiser.seat, _STRANGER)
    size_bb = spot.in_big_blinds(raiser.bet + raiser.stack)
    if raiser.all_in and size_bb <= CHART_BB:
        behind = raiser.behind_at_start
        chart_share = push_fraction(size_bb, behind=behind)
        read = counts.shove_range(chart_share)
        if read <= chart_share:
            return equity_vs_classes(hand_class, push_range(size_bb, behind=behind))
        return equity_vs_top(hand_class, read)
    if raiser.all_in:
        return equity_vs_top(hand_class, counts.shove_range(DEEP_SHOVE_PRIOR))
    # A bigger raise is a stronger range: a three-times raise reads as the raise share.
    return equity_vs_top(hand_class,
                         counts.raise_range() * min(1.0, 3 * spot.big_blind / spot.level))


def _all_in_or_fold(spot: Situation, margin: float, share: float,
                    raiser: Contender) -> BotAction:
    """When a call commits the stack: call (or re-shove) when the equity beats the price
    of going all the way, else fold."""
    if raiser.all_in or ActionKind.RAISE not in spot.legal:
        return check_call_or_fold(spot, wants_in=share >= spot.price + margin)
    mine = spot.stack  # what a re-shove adds
    theirs = min(raiser.stack, mine - spot.to_call)
    price = mine / (spot.pot + mine + max(0, theirs))
    if share >= price + margin:
        return all_in(spot)
    return check_call_or_fold(spot, wants_in=False)
