"""Bot players: a pure decision from what one seat may see.

A bot is a function, not an object with a hand reference: :func:`decide`
takes the seat's own projection of the hand (what
:func:`app.poker.view.view` returns for that seat) and the legal actions,
and returns a :class:`BotAction` the engine accepts. It never sees the deck
or another seat's hole cards because it is never given them. Randomness (the
Monte Carlo seed, mixed strategies) comes from an injected
:class:`random.Random`; the same view, actions and RNG state give the same
decision.

How it plays: before the flop it scores its two cards with the Chen formula
and compares the score with the style's thresholds, which rise with the size
of the raise it faces. After the flop it estimates its equity against one
random hand per opponent still in (a few hundred Monte Carlo deals, about a
millisecond) and compares it with the pot odds: it calls when the equity beats
the price, bets or raises for value when the equity is well above its fair
share, and the aggressive style bluffs some of the time it is checked to.
Bets are fractions of the pot, clamped to the legal minimum and maximum. It
never folds when it can check, and at the showdown it mucks a beaten hand.

>>> from random import Random
>>> from app.poker.cards import Deck
>>> from app.poker.engine import Hand
>>> from app.poker.state import Stakes
>>> from app.poker.view import view
>>> hand, _ = Hand.start({1: 1000, 4: 1000}, button=1, stakes=Stakes(5, 10),
...                      deck=Deck.stacked("7c As 2h Ad 2d 3d 4d 5d 6d 7d 8d 9d"))
>>> choice = decide(view(hand, hand.actor), hand.legal_actions(), style=BotStyle.TIGHT,
...                 rng=Random(1))
>>> choice
BotAction(action=<ActionKind.RAISE: 'raise'>, amount=30)
>>> _ = hand.act(hand.actor, choice.action, choice.amount)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from math import log2
from random import Random
from typing import Any

from app.poker.betting import LegalAction
from app.poker.cards import Card
from app.poker.equity import equity
from app.poker.events import ActionKind

DEFAULT_ITERATIONS = 300
_EXACT_THRESHOLD = 3_000  # river spots heads-up (990 deals) are enumerated exactly
_MAX_EQUITY_HANDS = 9  # the equity calculator's limit: the bot and eight opponents
_CONTENDING = ("active", "all_in")


class BotStyle(StrEnum):
    """How a bot plays: which hands it enters with and how hard it bets them."""

    TIGHT = "tight"
    LOOSE = "loose"
    AGGRESSIVE = "aggressive"


@dataclass(frozen=True, slots=True)
class BotAction:
    """A bot's choice: apply it with ``hand.act(seat, choice.action, choice.amount)``.

    ``amount`` is the street total for ``bet`` and ``raise`` and ``None``
    for every other action.
    """

    action: ActionKind
    amount: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The ``table:action`` payload fields: ``{"type": ..., "amount": ...}``."""
        out: dict[str, Any] = {"type": self.action.value}
        if self.amount is not None:
            out["amount"] = self.amount
        return out


@dataclass(frozen=True, slots=True)
class _Profile:
    """A style's numbers. Preflop thresholds are Chen scores (-1 to 20)."""

    play: float  # smallest score to call or open
    raise_first: float  # smallest score to open with a raise rather than a call
    reraise: float  # smallest score to raise a raise
    per_doubling: float  # extra score needed each time the raise faced doubles
    open_size: float  # open raise, in big blinds
    call_margin: float  # equity above the pot odds needed to call after the flop
    value: float  # equity times (opponents + 1) needed to bet or raise for value
    bluff: float  # chance of betting a weak hand when checked to
    bet_fraction: float  # bet size as a fraction of the pot


PROFILES: dict[BotStyle, _Profile] = {
    BotStyle.TIGHT: _Profile(
        play=8, raise_first=8, reraise=12, per_doubling=1.5, open_size=3.0,
        call_margin=0.05, value=1.6, bluff=0.0, bet_fraction=0.6,
    ),
    BotStyle.LOOSE: _Profile(
        play=5, raise_first=10, reraise=13, per_doubling=1.5, open_size=2.5,
        call_margin=-0.03, value=1.5, bluff=0.05, bet_fraction=0.5,
    ),
    BotStyle.AGGRESSIVE: _Profile(
        play=6, raise_first=6, reraise=10, per_doubling=1.0, open_size=3.0,
        call_margin=0.0, value=1.3, bluff=0.3, bet_fraction=0.75,
    ),
}


@dataclass(frozen=True, slots=True)
class Situation:
    """What a decision needs, read from one seat's view and the legal actions.

    ``pot`` counts every chip put in this hand, current street bets included;
    ``to_call`` is what calling adds (0 when the bot can check).
    """

    hole: tuple[Card, Card]
    board: tuple[Card, ...]
    opponents: int
    pot: int
    bet: int
    big_blind: int
    level: int
    legal: Mapping[ActionKind, LegalAction]

    @property
    def to_call(self) -> int:
        """Chips a call adds; 0 when checking is allowed."""
        call = self.legal.get(ActionKind.CALL)
        return call.amount or 0 if call is not None else 0

    @property
    def price(self) -> float:
        """Pot odds as the share of the final pot a call pays for."""
        return self.to_call / (self.pot + self.to_call) if self.to_call else 0.0


def decide(
    view: Mapping[str, Any],
    legal: Sequence[LegalAction] | None = None,
    *,
    style: BotStyle = BotStyle.TIGHT,
    rng: Random,
    iterations: int = DEFAULT_ITERATIONS,
) -> BotAction:
    """Choose the bot's action from its own view of the hand and the legal actions.

    ``view`` is the acting seat's projection, ``app.poker.view.view(hand,
    seat)``, taken when it is that seat's turn. ``legal`` is
    ``hand.legal_actions()``; left out, it is read from the view's
    ``legal_actions``. The result is always one of the legal actions, with a
    bet or raise amount inside its ``min``/``max``; apply it with
    ``hand.act(seat, choice.action, choice.amount)``. ``rng`` is the only
    source of randomness; ``iterations`` is the Monte Carlo sample size after
    the flop (300 deals take about a millisecond).

    >>> from random import Random
    >>> from app.poker.betting import LegalAction
    >>> legal = (LegalAction(ActionKind.SHOW), LegalAction(ActionKind.MUCK))
    >>> decide({}, legal, rng=Random(0))
    BotAction(action=<ActionKind.MUCK: 'muck'>, amount=None)
    """
    kinds = {a.action: a for a in (legal_from_view(view) if legal is None else legal)}
    if not kinds:
        raise ValueError("expected at least one legal action, got none")
    if ActionKind.MUCK in kinds:
        return BotAction(ActionKind.MUCK)
    spot = read_view(view, kinds)
    profile = PROFILES[style]
    if spot.board:
        return _postflop(spot, profile, rng, iterations)
    return _preflop(spot, profile)


def read_view(view: Mapping[str, Any], legal: Mapping[ActionKind, LegalAction]) -> Situation:
    """The facts a decision needs from a seat's view (``app.poker.view.view``).

    Raises :class:`ValueError` when the view does not show the viewer's own
    two hole cards (a spectator's view, or a seat not dealt in).
    """
    me = view["viewer"]
    seats = list(view["seats"])
    mine = next((s for s in seats if s["seat"] == me), None)
    cards = tuple(_card(c) for c in (mine or {}).get("cards") or ())
    if mine is None or len(cards) != 2:
        raise ValueError(f"expected the view of a seat dealt in, with its cards; got seat {me}")
    contending = sum(1 for s in seats if s["status"] in _CONTENDING)
    return Situation(
        hole=(cards[0], cards[1]),
        board=tuple(_card(c) for c in view["board"]),
        opponents=max(1, contending - 1),
        pot=int(view["pot_total"]),
        bet=int(mine["bet"]),
        big_blind=int(view["stakes"]["big_blind"]),
        level=int(view["level"]),
        legal=legal,
    )


def legal_from_view(view: Mapping[str, Any]) -> tuple[LegalAction, ...]:
    """The legal actions listed in a view (or a ``table:turn`` payload) as records.

    >>> legal_from_view({"legal_actions": [{"action": "call", "amount": 20}]})
    (LegalAction(action=<ActionKind.CALL: 'call'>, amount=20, min=None, max=None),)
    """
    return tuple(
        LegalAction(ActionKind(a["action"]), a.get("amount"), a.get("min"), a.get("max"))
        for a in view.get("legal_actions") or ()
    )


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


# ---- preflop -----------------------------------------------------------------


def chen_score(hole: tuple[Card, Card]) -> float:
    """Bill Chen's preflop score of two hole cards, from -1 (72o) to 20 (AA).

    >>> from app.poker.cards import parse_cards
    >>> [chen_score(parse_cards(h)) for h in ("AsAd", "AhKh", "7c2d")]
    [20.0, 12.0, -1.0]
    """
    high, low = sorted(hole, key=lambda c: c.rank, reverse=True)
    score = _chen_card(high.rank)
    if high.rank == low.rank:
        return max(5.0, 2 * score)
    if high.suit == low.suit:
        score += 2
    gap = high.rank - low.rank - 1
    score -= (0, 1, 2, 4, 5)[min(gap, 4)]
    if gap <= 1 and high.rank < 10:  # both below a queen: straights are easier
        score += 1
    return float(max(-1, -(-score // 1)))


def _chen_card(rank: int) -> float:
    return {12: 10.0, 11: 8.0, 10: 7.0, 9: 6.0}.get(rank, (rank + 2) / 2)


def _preflop(spot: Situation, profile: _Profile) -> BotAction:
    score = chen_score(spot.hole)
    faced = spot.level / spot.big_blind  # the bet to match, in big blinds
    doublings = log2(faced / 2) if faced > 2 else 0.0
    if faced <= 1:
        if score >= profile.raise_first:
            limped = max(0, spot.pot - spot.big_blind * 3 // 2)
            return _raise_to(spot, round(spot.big_blind * profile.open_size) + limped)
        return _check_call_or_fold(spot, score >= profile.play)
    if score >= profile.reraise + profile.per_doubling * max(0.0, doublings - 1):
        return _raise_to(spot, 3 * spot.level)
    return _check_call_or_fold(spot, score >= profile.play + profile.per_doubling * doublings)


# ---- after the flop --------------------------------------------------------------


def _postflop(spot: Situation, profile: _Profile, rng: Random, iterations: int) -> BotAction:
    share = _equity(spot, rng, iterations)
    strength = share * (spot.opponents + 1)  # 1.0 is a fair share of the pot
    can_check = spot.to_call == 0
    priced_in = share >= spot.price
    if (strength >= profile.value and priced_in) or (can_check and rng.random() < profile.bluff):
        pot_after_call = spot.pot + spot.to_call
        size = round(pot_after_call * profile.bet_fraction * (1.5 if strength > 2 else 1.0))
        return _raise_to(spot, spot.level + max(size, spot.big_blind))
    return _check_call_or_fold(spot, priced_in and share >= spot.price + profile.call_margin)


def _equity(spot: Situation, rng: Random, iterations: int) -> float:
    opponents = min(spot.opponents, _MAX_EQUITY_HANDS - 1)
    hands: list[tuple[Card, Card] | None] = [spot.hole, *([None] * opponents)]
    result = equity(
        hands, board=spot.board, iterations=iterations,
        seed=rng.getrandbits(32), exact_threshold=_EXACT_THRESHOLD,
    )
    return result.hands[0].equity


# ---- turning an intention into a legal action ------------------------------------


def _check_call_or_fold(spot: Situation, wants_in: bool) -> BotAction:
    if ActionKind.CHECK in spot.legal:
        return BotAction(ActionKind.CHECK)
    if wants_in and ActionKind.CALL in spot.legal:
        return BotAction(ActionKind.CALL)
    if wants_in and ActionKind.ALL_IN in spot.legal:
        return BotAction(ActionKind.ALL_IN)
    return BotAction(ActionKind.FOLD)


def _raise_to(spot: Situation, total: int) -> BotAction:
    """Bet or raise to ``total`` clamped to the legal range; call when raising is closed."""
    for kind in (ActionKind.BET, ActionKind.RAISE):
        option = spot.legal.get(kind)
        if option is not None and option.min is not None and option.max is not None:
            amount = min(max(total, option.min), option.max)
            # Raising most of the stack leaves nothing to fold with: push it all.
            if amount - spot.bet >= 0.7 * (option.max - spot.bet):
                amount = option.max
            return BotAction(kind, amount)
    return _check_call_or_fold(spot, wants_in=True)
