"""What any watcher can count about a player: how they play, for the bots to read.

A :class:`Tendencies` record holds public counts only: hands dealt in, how often
the player put chips in before the flop of their own will, raised, moved all-in,
bet or called or folded to a bet after the flop, and the hands they showed (only
cards turned face up for everyone; a mucked hand is never counted). The table
keeps one per player and passes them to :func:`app.poker.bots.decide`;
:func:`observe` adds a finished hand to them, the same way at a table and in
``bench/bots.py``.

Counts lean towards the recent: once a player has 200 hands counted, every count
is halved. Rates come with a prior worth :data:`PRIOR_HANDS` hands, so a stranger
reads as an ordinary player and a player who shoved the last 20 hands reads as
one who shoves almost anything.

>>> t = Tendencies(hands=20, voluntary=20, raised=20, shoved=20)
>>> round(t.shove_range(prior=0.05), 2), round(Tendencies().shove_range(prior=0.05), 2)
(0.81, 0.05)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from statistics import fmean
from typing import Any

from app.poker.engine import Hand
from app.poker.events import ActionKind, BlindPosted, BoardDealt, HandShown, PlayerActed
from app.poker.hand_class import class_of
from app.poker.preflop import percentile

PRIOR_HANDS = 5.0
HALVE_AT = 200
SHOWN_KEPT = 12
_AGGRESSIVE = (ActionKind.BET, ActionKind.RAISE, ActionKind.ALL_IN)


@dataclass(frozen=True, slots=True)
class Tendencies:
    """Public counts about one player (see the module docstring)."""

    hands: int = 0
    voluntary: int = 0  # hands with chips put in before the flop, blinds aside
    raised: int = 0  # hands with a bet or raise before the flop
    shoved: int = 0  # hands moved all-in before the flop with a bet or raise
    acts: int = 0  # decisions after the flop
    bets: int = 0  # bets and raises after the flop
    faced: int = 0  # decisions after the flop facing a bet
    folds: int = 0  # folds to a bet after the flop
    showdowns: int = 0
    shown: tuple[int, ...] = ()  # hand classes shown after raising before the flop

    def _rate(self, count: int, out_of: int, prior: float) -> float:
        return (count + prior * PRIOR_HANDS) / (out_of + PRIOR_HANDS)

    def raise_range(self, prior: float = 0.15) -> float:
        """The share of hands this player raises with before the flop."""
        return max(self._rate(self.raised, self.hands, prior), self._shown_floor())

    def shove_range(self, prior: float) -> float:
        """The share of hands this player moves all-in with before the flop; ``prior``
        is what a stranger would (a push/fold chart's share when short)."""
        return max(self._rate(self.shoved, self.hands, prior), self._shown_floor())

    def voluntary_range(self) -> float:
        """The share of hands this player plays (calls or raises) before the flop."""
        return self._rate(self.voluntary, self.hands, 0.3)

    def bet_rate(self) -> float:
        """How often this player bets or raises after the flop when they act."""
        return self._rate(self.bets, self.acts, 0.3)

    def fold_rate(self) -> float:
        """How often this player folds to a bet after the flop."""
        return self._rate(self.folds, self.faced, 0.4)

    def _shown_floor(self) -> float:
        """Hands shown after raising read as a uniform draw from the range's top: twice
        their mean percentile, trusted as far as there are shown hands."""
        if not self.shown:
            return 0.0
        trust = len(self.shown) / (len(self.shown) + 3)
        return trust * min(1.0, 2 * fmean(percentile(c) for c in self.shown))

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data."""
        out = asdict(self)
        out["shown"] = list(self.shown)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tendencies:
        """Inverse of :meth:`to_dict` (missing counts are 0)."""
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        values["shown"] = tuple(int(c) for c in data.get("shown", ()))
        return cls(**values)


@dataclass(slots=True)
class _Seen:
    """One seat's part of one hand, while reading its history."""

    voluntary: bool = False
    raised: bool = False
    shoved: bool = False
    acts: int = 0
    bets: int = 0
    faced: int = 0
    folds: int = 0
    shown: int | None = None


def observe(reads: Mapping[str, Tendencies], hand: Hand,
            players: Mapping[int, str]) -> dict[str, Tendencies]:
    """``reads`` with a finished ``hand`` counted for the seats in ``players`` (seat ->
    the key the player's counts are kept under); other entries are kept as they are."""
    seen = _read_history(hand)
    out = dict(reads)
    for seat in hand.seats:
        key = players.get(seat.number)
        if key is not None:
            out[key] = _add(out.get(key, Tendencies()), seen.get(seat.number, _Seen()))
    return out


def _read_history(hand: Hand) -> dict[int, _Seen]:
    seen: dict[int, _Seen] = {}
    preflop, level, street = True, 0, dict[int, int]()
    for event in hand.history:
        if isinstance(event, BlindPosted):
            street[event.seat] = event.amount
            level = max(level, event.amount)
        elif isinstance(event, BoardDealt):
            preflop, level, street = False, 0, {}
        elif isinstance(event, PlayerActed):
            facing = level > street.get(event.seat, 0)
            raising = event.action in _AGGRESSIVE and event.total > level
            _count(seen.setdefault(event.seat, _Seen()), event, preflop, facing, raising)
            street[event.seat] = max(street.get(event.seat, 0), event.total)
            level = max(level, event.total)
        elif isinstance(event, HandShown) and len(event.cards) == 2:
            seen.setdefault(event.seat, _Seen()).shown = class_of(event.cards)
    return seen


def _count(seen: _Seen, event: PlayerActed, preflop: bool, facing: bool, raising: bool) -> None:
    if preflop:
        seen.voluntary |= event.action in (*_AGGRESSIVE, ActionKind.CALL)
        seen.raised |= raising
        seen.shoved |= raising and event.all_in
        return
    seen.acts += 1
    seen.bets += raising
    seen.faced += facing
    seen.folds += facing and event.action is ActionKind.FOLD


def _add(before: Tendencies, hand: _Seen) -> Tendencies:
    shown = before.shown
    if hand.shown is not None and hand.raised:
        shown = (*shown, hand.shown)[-SHOWN_KEPT:]
    after = Tendencies(
        hands=before.hands + 1, voluntary=before.voluntary + hand.voluntary,
        raised=before.raised + hand.raised, shoved=before.shoved + hand.shoved,
        acts=before.acts + hand.acts, bets=before.bets + hand.bets,
        faced=before.faced + hand.faced, folds=before.folds + hand.folds,
        showdowns=before.showdowns + (hand.shown is not None), shown=shown,
    )
    if after.hands < HALVE_AT:
        return after
    halves = {f.name: getattr(after, f.name) // 2 for f in fields(after) if f.name != "shown"}
    return replace(after, **halves)
