"""Errors the hand engine raises: one type per failure a player or table can act on.

Every error carries a stable machine ``code`` and says what was expected and
what was got. An engine method that raises has not changed the hand.
"""

from __future__ import annotations

from app.errors import HoldemError


class EngineError(HoldemError):
    """Base of every error raised by the hand engine."""

    code = "engine_error"


class InvalidHandSetup(EngineError):
    """A hand cannot start with these seats, stakes, button or deck."""

    code = "invalid_hand_setup"


class HandOver(EngineError):
    """The hand is complete; nothing more can be done in it."""

    code = "hand_over"
    status = 409


class NotYourTurn(EngineError):
    """Someone other than the player to act tried to act."""

    code = "not_your_turn"
    status = 409


class NotInHand(EngineError):
    """A seat that was not dealt into this hand, or has folded."""

    code = "not_in_hand"
    status = 409


class WrongPhase(EngineError):
    """An action made in the wrong phase (e.g. a bet during the showdown)."""

    code = "wrong_phase"
    status = 409


class InvalidAction(EngineError):
    """An action that is not one of the legal actions right now."""

    code = "invalid_action"


class CannotCheck(InvalidAction):
    """A check while facing a bet (details: ``to_call``)."""

    code = "cannot_check"


class CannotRaise(InvalidAction):
    """A bet or raise when betting is not open to this player."""

    code = "cannot_raise"


class BetTooSmall(InvalidAction):
    """A bet or raise below the minimum (details: ``min``)."""

    code = "bet_too_small"


class BetTooLarge(InvalidAction):
    """A bet or raise beyond the player's stack (details: ``max``)."""

    code = "bet_too_large"


class InvalidHandHistory(HoldemError):
    """A PHH hand history that cannot be parsed or replayed."""

    code = "invalid_hand_history"


class NotAsked(InvalidAction):
    """An answer to the run-it-twice question from a seat that is not asked (folded, or
    already answered)."""

    code = "not_asked"
