"""Errors of integrity a client can act on."""

from __future__ import annotations

from app.errors import HoldemError


class LinkedAccountSeated(HoldemError):
    """An account linked to yours (same address or device) already sits at this table.

    The message never says which; ``linked_ids`` (not sent) is for the flag it raises."""

    code = "linked_account_seated"
    status = 409

    def __init__(self, message: str, *, linked_ids: tuple[int, ...] = (), **details: object
                 ) -> None:
        super().__init__(message, **details)
        self.linked_ids = linked_ids


class FlagNotFound(HoldemError):
    """No flag has this id."""

    code = "flag_not_found"
    status = 404


class FlagHandled(HoldemError):
    """The flag was already dismissed or acted on."""

    code = "flag_handled"
    status = 409


class NothingToClawBack(HoldemError):
    """A claw-back needs a chip-dumping flag whose evidence names who lost the chips."""

    code = "nothing_to_claw_back"
    status = 409
