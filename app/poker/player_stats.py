"""Player statistics a tracker shows: VPIP, PFR, 3-bet, fold to 3-bet, c-bet, fold to
c-bet, aggression, WTSD and W$SD, each with the number of chances it was counted over.

Every one of them is counted from what everybody at the table saw: the betting actions,
which streets were dealt, who was still in at the end and who was paid a pot. A hand is
first reduced to a :class:`PublicHand`, which holds no card at all, and the counts are
taken from that alone; so a viewer's counts about a player can never depend on cards the
viewer did not see (a hand mucked at the showdown counts for VPIP and for going to the
showdown, never for how strong it was).

>>> from app.poker.cards import Deck
>>> from app.poker.engine import Hand
>>> from app.poker.state import Stakes
>>> hand, _ = Hand.start({0: 100, 1: 100, 2: 100}, button=0, stakes=Stakes(1, 2),
...                      deck=Deck.stacked("Ah Ks Qd Ad Kc Qc 2c 7d 9h 3s 4c 5d Jh 8c"))
>>> for seat, action, amount in [(0, "raise", 6), (1, "fold", None), (2, "call", None),
...                              (2, "check", None), (0, "bet", 6), (2, "fold", None)]:
...     _ = hand.act(seat, action, amount)
>>> counts = hand_counters(public_hand(hand))
>>> counts[0].vpip, counts[0].pfr, counts[0].cbet, counts[0].cbet_chances
(1, 1, 1, 1)
>>> counts[2].fold_to_cbet, counts[2].fold_to_cbet_chances, counts[1].vpip
(1, 1, 0)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any

from app.poker.allin import RunoutEquity
from app.poker.engine import Hand
from app.poker.events import ActionKind, BoardDealt, PlayerActed, PotAwarded
from app.poker.state import Phase

_STREETS = {Phase.FLOP: 1, Phase.TURN: 2, Phase.RIVER: 3}
_BETTING = frozenset({ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET,
                      ActionKind.RAISE})
_WAGERS = frozenset({ActionKind.BET, ActionKind.RAISE})


@dataclass(frozen=True, slots=True)
class PublicAction:
    """A betting action everybody saw: who, on which street (0 preflop … 3 river), what."""

    street: int
    seat: int
    action: ActionKind


@dataclass(frozen=True, slots=True)
class PublicHand:
    """What everybody at the table saw of a finished hand, without a single card: the
    seats dealt in, the betting, how far the board went, the seats still in at the end
    and the seats paid a pot."""

    seats: tuple[int, ...]
    actions: tuple[PublicAction, ...]
    streets_dealt: int  # 0: no flop; 1: a flop; 2: a turn; 3: a river
    still_in: frozenset[int]
    paid: frozenset[int]


def public_hand(hand: Hand) -> PublicHand:
    """The public part of a complete hand (see :class:`PublicHand`)."""
    street = 0
    actions: list[PublicAction] = []
    folded: set[int] = set()
    paid: set[int] = set()
    for event in hand.history:
        if isinstance(event, BoardDealt) and event.run == 0:
            street = max(street, _STREETS.get(event.street, 0))
        elif isinstance(event, PlayerActed) and event.action in _BETTING:
            actions.append(PublicAction(street, event.seat, event.action))
            if event.action is ActionKind.FOLD:
                folded.add(event.seat)
        elif isinstance(event, PotAwarded):
            paid.update(s for s, amount in zip(event.seats, event.amounts, strict=True)
                        if amount > 0)
    seats = tuple(s.number for s in hand.seats)
    return PublicHand(seats, tuple(actions), street,
                      frozenset(s for s in seats if s not in folded), frozenset(paid))


@dataclass(slots=True)
class Counters:
    """One player's counts over some hands; each stat beside its chances
    (``*_chances``). Counters add up with ``+``."""

    hands: int = 0
    preflop_chances: int = 0  # hands with a decision before the flop
    vpip: int = 0  # chips put in before the flop of their own will
    pfr: int = 0  # a raise before the flop
    three_bet_chances: int = 0
    three_bet: int = 0
    fold_to_three_bet_chances: int = 0
    fold_to_three_bet: int = 0
    cbet_chances: int = 0
    cbet: int = 0
    fold_to_cbet_chances: int = 0
    fold_to_cbet: int = 0
    postflop_aggressive: int = 0  # bets and raises after the flop
    postflop_calls: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    showdowns_won: int = 0

    def __add__(self, other: Counters) -> Counters:
        return Counters(*(getattr(self, n) + getattr(other, n) for n in COUNTER_NAMES))

    def to_dict(self) -> dict[str, int]:
        """The counts by name."""
        return {n: getattr(self, n) for n in COUNTER_NAMES}


COUNTER_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Counters))


def _ratio(count: int, chances: int) -> float | None:
    return round(100 * count / chances, 1) if chances else None


def summary(c: Counters) -> dict[str, Any]:
    """The stats read from counters: each a percentage with its sample (``None`` before
    the first chance), and the aggression factor (bets and raises per call after the
    flop).

    >>> summary(Counters(hands=4, preflop_chances=4, vpip=1, postflop_aggressive=3))["vpip"]
    {'value': 25.0, 'sample': 4}
    """
    pairs = {
        "vpip": (c.vpip, c.preflop_chances), "pfr": (c.pfr, c.preflop_chances),
        "three_bet": (c.three_bet, c.three_bet_chances),
        "fold_to_three_bet": (c.fold_to_three_bet, c.fold_to_three_bet_chances),
        "cbet": (c.cbet, c.cbet_chances), "fold_to_cbet": (c.fold_to_cbet, c.fold_to_cbet_chances),
        "wtsd": (c.showdowns, c.saw_flop), "wsd": (c.showdowns_won, c.showdowns),
    }
    out: dict[str, Any] = {name: {"value": _ratio(n, d), "sample": d}
                           for name, (n, d) in pairs.items()}
    moves = c.postflop_aggressive + c.postflop_calls
    factor = round(c.postflop_aggressive / c.postflop_calls, 2) if c.postflop_calls else None
    out["af"] = {"value": factor, "sample": moves}
    out["hands"] = c.hands
    return out


@dataclass(slots=True)
class _Preflop:
    raises: int = 0
    opener: int | None = None
    aggressor: int | None = None
    seen: set[int] = field(default_factory=set)
    faced_open: set[int] = field(default_factory=set)
    faced_three: set[int] = field(default_factory=set)


def _preflop(actions: Iterable[PublicAction], counts: dict[int, Counters]) -> int | None:
    """Count the preflop stats; the last preflop raiser (who may c-bet), if any."""
    s = _Preflop()
    for a in actions:
        c = counts[a.seat]
        wager = a.action in _WAGERS
        if a.seat not in s.seen:
            s.seen.add(a.seat)
            c.preflop_chances += 1
        if a.action in (ActionKind.CALL, *_WAGERS) and not c.vpip:
            c.vpip = 1
        if wager and not c.pfr:
            c.pfr = 1
        if s.raises == 1 and a.seat != s.opener and a.seat not in s.faced_open:
            s.faced_open.add(a.seat)
            c.three_bet_chances += 1
            c.three_bet += wager
        if s.raises == 2 and a.seat == s.opener and a.seat not in s.faced_three:
            s.faced_three.add(a.seat)
            c.fold_to_three_bet_chances += 1
            c.fold_to_three_bet += a.action is ActionKind.FOLD
        if wager:
            s.raises += 1
            s.opener = a.seat if s.raises == 1 else s.opener
            s.aggressor = a.seat
    return s.aggressor


def _flop(actions: Iterable[PublicAction], aggressor: int | None,
          counts: dict[int, Counters]) -> None:
    """Count c-bets and folds to them: the preflop raiser's bet into a flop nobody bet."""
    bets = 0
    cbet = False
    faced: set[int] = set()
    for a in actions:
        c = counts[a.seat]
        if a.seat == aggressor and bets == 0:
            c.cbet_chances += 1
            c.cbet += a.action is ActionKind.BET
            cbet = a.action is ActionKind.BET
        elif cbet and bets == 1 and a.seat not in faced:
            faced.add(a.seat)
            c.fold_to_cbet_chances += 1
            c.fold_to_cbet += a.action is ActionKind.FOLD
        if a.action in _WAGERS:
            bets += 1


def hand_counters(hand: PublicHand) -> dict[int, Counters]:
    """What one hand adds to each seat's counters (see :class:`Counters`)."""
    counts = {seat: Counters(hands=1) for seat in hand.seats}
    aggressor = _preflop((a for a in hand.actions if a.street == 0), counts)
    _flop((a for a in hand.actions if a.street == 1), aggressor, counts)
    for a in hand.actions:
        if a.street > 0 and a.action in _WAGERS:
            counts[a.seat].postflop_aggressive += 1
        elif a.street > 0 and a.action is ActionKind.CALL:
            counts[a.seat].postflop_calls += 1
    folded_preflop = {a.seat for a in hand.actions
                      if a.street == 0 and a.action is ActionKind.FOLD}
    showdown = len(hand.still_in) > 1
    for seat, c in counts.items():
        c.saw_flop = int(hand.streets_dealt >= 1 and seat not in folded_preflop)
        c.showdowns = int(showdown and seat in hand.still_in)
        c.showdowns_won = int(showdown and seat in hand.still_in and seat in hand.paid)
    return counts


def all_in_adjusted(hand: Hand, chances: RunoutEquity) -> dict[int, int]:
    """Each seat's result had every pot been shared by the chances when the last hands
    were turned up all in (``chances``, the first all-in equity of the hand): what the seat
    won is replaced by each pot (less its rake) times its share of that pot. A side pot's
    share is the seat's equity over those of the seats that can win it (exact heads-up,
    close otherwise). Whole chips, rounded; a seat with no chance keeps its result.
    """
    equity = {s.seat: s.equity for s in chances.seats}
    won = dict.fromkeys((s.number for s in hand.seats), 0)
    raked: dict[int, int] = {}
    for award in hand.history:
        if isinstance(award, PotAwarded):
            raked[award.pot] = raked.get(award.pot, 0) + award.rake
            for seat, amount in zip(award.seats, award.amounts, strict=True):
                won[seat] += amount
    expected = dict.fromkeys(won, 0.0)
    for k, pot in enumerate(hand.pots()):
        amount = pot.amount - raked.get(k, 0)
        contenders = [seat for seat in pot.eligible if seat in equity]
        total = sum(equity[seat] for seat in contenders)
        if len(pot.eligible) == 1 or not total:
            for seat in pot.eligible:
                expected[seat] += amount / len(pot.eligible)
            continue
        for seat in contenders:
            expected[seat] += amount * equity[seat] / total
    return {s.number: s.stack - s.starting_stack - won[s.number] + round(expected[s.number])
            for s in hand.seats}
