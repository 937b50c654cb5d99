"""The base of every error a user can act on: a stable code and a human message."""

from __future__ import annotations

from typing import Any, ClassVar


class HoldemError(Exception):
    """An error with a stable machine ``code``, a human ``message`` and details.

    Subclasses set ``code`` (and ``status`` for HTTP); details are extra
    JSON-safe fields a client can use, such as ``{"min": 200}``.
    """

    code: ClassVar[str] = "error"
    status: ClassVar[int] = 400

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        """The JSON error body: ``{"code", "message", **details}``."""
        return {"code": self.code, "message": self.message, **self.details}
