"""Pre-actions: what a player asks to do when their turn comes, chosen while others act.

A pre-action is bound to the bet the player faced when choosing it (``to_call``) and to
the street it was chosen on. The rules, as the big poker rooms apply them:

- ``check``: check. Only while there is nothing to call; a bet cancels it.
- ``call``: call exactly ``to_call``. Any change of the bet to call (a raise, or an
  all-in that changes what can be called) cancels it.
- ``check_fold``: check if nothing is to call, else fold. Kept through bets and raises.
- ``call_any``: call whatever is bet (all-in for less when short), check when nothing is
  to call. Kept through raises.
- ``fold_any`` ("fold to any bet"): fold when facing a bet, check otherwise. Kept for the
  whole hand, street after street (checking does not use it up), until the player folds
  or clears it.

Every pre-action but ``fold_any`` lasts for its street only: new cards cancel it.

>>> from app.poker.state import Phase
>>> chosen = PreAction(Intent.CALL, 20, Phase.FLOP)
>>> chosen.holds(20, Phase.FLOP), chosen.holds(60, Phase.FLOP)
(True, False)
>>> PreAction(Intent.CHECK_FOLD, 0, Phase.FLOP).action(40).value
'fold'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from app.poker.events import ActionKind
from app.poker.state import Phase


class Intent(StrEnum):
    """The pre-actions a player may choose."""

    CHECK_FOLD = "check_fold"
    CHECK = "check"
    CALL = "call"
    CALL_ANY = "call_any"
    FOLD_ANY = "fold_any"


class PreActionError(ValueError):
    """A pre-action that cannot be chosen against the bet to call now."""

    def __init__(self, message: str, to_call: int) -> None:
        super().__init__(message)
        self.to_call = to_call


@dataclass(frozen=True, slots=True)
class PreAction:
    """One seat's pre-action: the intent, the bet to call it was chosen against, the
    street it was chosen on."""

    intent: Intent
    to_call: int
    street: Phase

    @classmethod
    def choose(cls, intent: Intent, amount: int | None, to_call: int,
               street: Phase) -> PreAction:
        """The pre-action ``intent`` chosen now, facing ``to_call``; raises
        :class:`PreActionError` when it does not fit (``check`` facing a bet, ``call``
        with nothing to call or for another ``amount``).

        >>> PreAction.choose(Intent.CALL, 10, 20, Phase.PREFLOP)
        Traceback (most recent call last):
        ...
        app.poker.preactions.PreActionError: expected a call of 20, got a call of 10
        """
        if intent is Intent.CHECK and to_call:
            raise PreActionError(f"expected a call of {to_call} or a fold, got a check",
                                 to_call)
        if intent is Intent.CALL:
            if not to_call:
                raise PreActionError("expected a check: there is nothing to call", to_call)
            if amount != to_call:
                raise PreActionError(f"expected a call of {to_call}, got a call of {amount}",
                                     to_call)
        return cls(intent, to_call, street)

    def holds(self, to_call: int, street: Phase) -> bool:
        """Whether this pre-action still stands, now that the bet to call is ``to_call``
        on ``street``."""
        if self.intent is Intent.FOLD_ANY:
            return True
        if street is not self.street:
            return False
        if self.intent is Intent.CHECK:
            return to_call == 0
        if self.intent is Intent.CALL:
            return to_call == self.to_call
        return True

    def action(self, to_call: int) -> ActionKind:
        """The action this pre-action takes when the turn comes, facing ``to_call``."""
        if self.intent is Intent.CALL:
            return ActionKind.CALL
        if self.intent is Intent.CALL_ANY:
            return ActionKind.CALL if to_call else ActionKind.CHECK
        if self.intent is Intent.CHECK:
            return ActionKind.CHECK
        return ActionKind.FOLD if to_call else ActionKind.CHECK

    def stays(self, to_call: int) -> bool:
        """Whether this pre-action stays chosen once taken facing ``to_call``: "fold to any
        bet" goes on checking until a bet comes; every other one is used up."""
        return self.intent is Intent.FOLD_ANY and not to_call

    def public(self) -> dict[str, Any]:
        """As its owner sees it: ``{intent, amount}`` (the amount of a ``call`` only)."""
        return {"intent": self.intent.value,
                "amount": self.to_call if self.intent is Intent.CALL else None}

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data."""
        return {"intent": self.intent.value, "to_call": self.to_call,
                "street": self.street.value}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PreAction:
        """Inverse of :meth:`to_dict`."""
        return cls(Intent(data["intent"]), int(data["to_call"]), Phase(data["street"]))
