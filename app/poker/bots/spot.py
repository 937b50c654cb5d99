"""What a bot's decision starts from: the facts of one seat's view, and its choices.

:func:`read_view` turns a seat's projection (``app.poker.view.view``) and the legal
actions into a :class:`Situation`; :func:`check_call_or_fold` and :func:`raise_to`
turn an intention back into a legal :class:`BotAction`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.poker.betting import LegalAction
from app.poker.cards import Card
from app.poker.events import ActionKind
from app.poker.state import Game

_CONTENDING = ("active", "all_in")


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
class Contender:
    """Another seat still in the hand, as every watcher sees it."""

    seat: int
    bet: int  # this street
    stack: int  # behind
    all_in: bool
    behind_at_start: int  # seats dealt in from this one round to the big blind


@dataclass(frozen=True, slots=True)
class Situation:
    """What a decision needs, read from one seat's view and the legal actions.

    ``pot`` counts every chip put in this hand, current street bets included;
    ``others`` are the other seats still in, clockwise from the bot; ``behind`` is
    how many of them may still act after the bot before the flop.
    """

    seat: int
    hole: tuple[Card, ...]  # two cards, or four or five in Omaha
    board: tuple[Card, ...]
    others: tuple[Contender, ...]
    behind: int
    pot: int
    bet: int
    stack: int
    big_blind: int
    level: int
    legal: Mapping[ActionKind, LegalAction]
    blinds: int = 0  # the chips every hand starts with in the pot: blinds and antes
    game: Game = Game.NLHE

    @property
    def opponents(self) -> int:
        """Other seats still in (at least one)."""
        return max(1, len(self.others))

    @property
    def to_call(self) -> int:
        """Chips a call adds (all the stack when that is less); 0 when checking is allowed."""
        return 0 if ActionKind.CHECK in self.legal else min(self.level - self.bet, self.stack)

    @property
    def price(self) -> float:
        """Pot odds as the share of the final pot a call pays for."""
        return self.to_call / (self.pot + self.to_call) if self.to_call else 0.0

    @property
    def aggressor(self) -> Contender | None:
        """Who made the bet the bot faces: the first seat clockwise at the street's level
        (every seat between it and the bot has called or folded since)."""
        if self.level <= self.bet:
            return None
        return next((o for o in self.others if o.bet == self.level), None) or max(
            self.others, key=lambda o: o.bet, default=None)

    def in_big_blinds(self, chips: int) -> float:
        """Chips in big blinds as the blinds and antes count: with antes worth half the
        blinds, a big blind counts as 1.5 big blinds."""
        return chips * 1.5 / max(self.blinds, 1.5 * self.big_blind)

    @property
    def effective_bb(self) -> float:
        """The effective stack in big blinds: the bot's chips against the deepest other
        seat still in (:meth:`in_big_blinds`)."""
        deepest = max((o.stack + o.bet for o in self.others), default=0)
        return self.in_big_blinds(min(self.stack + self.bet, deepest))


def read_view(view: Mapping[str, Any], legal: Mapping[ActionKind, LegalAction]) -> Situation:
    """The facts a decision needs from a seat's view (``app.poker.view.view``).

    Raises :class:`ValueError` when the view does not show the viewer's own
    hole cards (a spectator's view, or a seat not dealt in).
    """
    me = view["viewer"]
    game = Game(view.get("game", Game.NLHE))
    seats = list(view["seats"])
    mine = next((s for s in seats if s["seat"] == me), None)
    cards = tuple(_card(c) for c in (mine or {}).get("cards") or ())
    if mine is None or len(cards) != game.hole_cards:
        raise ValueError(f"expected the view of a seat dealt in, with its cards; got seat {me}")
    at = seats.index(mine)
    clockwise = seats[at + 1:] + seats[:at]
    big_blind = view.get("big_blind_seat")
    return Situation(
        seat=me, hole=cards, game=game,
        board=tuple(_card(c) for c in view["board"]),
        others=tuple(_contender(s, seats, big_blind) for s in clockwise
                     if s["status"] in _CONTENDING),
        behind=_behind(clockwise, big_blind) if me != big_blind else 0,
        pot=int(view["pot_total"]), bet=int(mine["bet"]), stack=int(mine["stack"]),
        big_blind=int(view["stakes"]["big_blind"]), level=int(view["level"]), legal=legal,
        blinds=_blinds(view["stakes"], len(seats)),
    )


def _blinds(stakes: Mapping[str, Any], dealt: int) -> int:
    """What the blinds and antes put in the pot before anyone acts."""
    ante = int(stakes.get("ante") or 0)
    antes = ante if stakes.get("big_blind_ante") else ante * dealt
    return int(stakes["small_blind"]) + int(stakes["big_blind"]) + antes


def _contender(seat: Mapping[str, Any], seats: list[Mapping[str, Any]],
               big_blind: int | None) -> Contender:
    at = seats.index(seat)
    after = seats[at + 1:] + seats[:at]
    behind = _behind(after, big_blind, every=True) if seat["seat"] != big_blind else 0
    return Contender(int(seat["seat"]), int(seat["bet"]), int(seat["stack"]),
                     seat["status"] == "all_in", behind)


def _behind(clockwise: list[Mapping[str, Any]], big_blind: int | None, *,
            every: bool = False) -> int:
    """Seats from the next one round to the big blind that can still act (or, with
    ``every``, that were dealt in)."""
    count = 0
    for seat in clockwise:
        count += every or seat["status"] == "active"
        if seat["seat"] == big_blind:
            break
    return count


def legal_from_view(view: Mapping[str, Any]) -> tuple[LegalAction, ...]:
    """The legal actions listed in a view (or a ``table:turn`` payload) as records.

    >>> legal_from_view({"legal_actions": [{"action": "call", "amount": 20}]})
    (LegalAction(action=<ActionKind.CALL: 'call'>, amount=20, min=None, max=None),)
    """
    return tuple(
        LegalAction(ActionKind(a["action"]), a.get("amount"), a.get("min"), a.get("max"))
        for a in view.get("legal_actions") or ()
    )


def legal_map(legal: Sequence[LegalAction]) -> dict[ActionKind, LegalAction]:
    """Legal actions by kind."""
    return {a.action: a for a in legal}


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


def check_call_or_fold(spot: Situation, wants_in: bool) -> BotAction:
    """Check when free; else call (or go all-in for less) when ``wants_in``; else fold."""
    if ActionKind.CHECK in spot.legal:
        return BotAction(ActionKind.CHECK)
    if wants_in and ActionKind.CALL in spot.legal:
        return BotAction(ActionKind.CALL)
    if wants_in and ActionKind.ALL_IN in spot.legal:
        return BotAction(ActionKind.ALL_IN)
    return BotAction(ActionKind.FOLD)


def raise_to(spot: Situation, total: int) -> BotAction:
    """Bet or raise to ``total`` clamped to the legal range; call when raising is closed."""
    for kind in (ActionKind.BET, ActionKind.RAISE):
        option = spot.legal.get(kind)
        if option is not None and option.min is not None and option.max is not None:
            amount = min(max(total, option.min), option.max)
            # Raising most of the stack leaves nothing to fold with: push it all.
            if amount - spot.bet >= 0.7 * (option.max - spot.bet):
                amount = option.max
            return BotAction(kind, amount)
    return check_call_or_fold(spot, wants_in=True)


def all_in(spot: Situation) -> BotAction:
    """Move the whole stack in: the largest bet or raise, else call (or all-in for less)."""
    return raise_to(spot, spot.stack + spot.bet)
