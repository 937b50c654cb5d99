"""The base of every error a user can act on: a stable code and a human message."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

# Every error class by its code (the first class to claim a code keeps it).
_BY_CODE: dict[str, type[HoldemError]] = {}


class HoldemError(Exception):
    """An error with a stable machine ``code``, a human ``message`` and details.

    Subclasses set ``code`` (and ``status`` for HTTP); details are extra
    JSON-safe fields a client can use, such as ``{"min": 200}``.
    """

    code: ClassVar[str] = "error"
    status: ClassVar[int] = 400

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "code" in cls.__dict__:
            _BY_CODE.setdefault(cls.code, cls)

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        """The JSON error body: ``{"code", "message", **details}``."""
        return {"code": self.code, "message": self.message, **self.details}


def error_from_dict(body: dict[str, Any], default: type[HoldemError]) -> HoldemError:
    """The error a body made by :meth:`HoldemError.to_dict` describes (another process's
    answer), as its own class here; ``default`` for a code no class claims."""
    cls = _BY_CODE.get(str(body.get("code")), default)
    details = {k: v for k, v in body.items() if k not in ("code", "message")}
    return cls(str(body.get("message", "")), **details)


class ErrorDetail(BaseModel):
    """What went wrong: a stable ``code``, a human ``message`` and the error's own fields."""

    model_config = ConfigDict(extra="allow")

    code: str = Field(examples=["rate_limited"])
    message: str = Field(examples=["too many attempts, try again in 30 s"])


class ErrorBody(BaseModel):
    """The body of every error response."""

    error: ErrorDetail


ERROR_DESCRIPTIONS = {
    400: "Bad request: a link token that is unknown, used or expired, or cards that do not "
         "parse",
    401: "Not signed in, or the session expired or was revoked",
    403: "Signed in but not allowed (wrong password, banned, not an admin, no CSRF header)",
    404: "No such resource",
    409: "Conflicts with the current state (a taken name, credits not ready yet)",
    413: "The request body is over this route's limit (see max_bytes)",
    422: "The request is invalid: each problem is listed with its location",
    429: "Too many attempts: retry after Retry-After seconds",
    503: "Busy or unavailable for now: retry after Retry-After seconds",
}
RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait", "schema": {"type": "integer"}}}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a router whose routes may answer ``statuses``."""
    # Errors are JSON even from routes whose success is not (hand histories as text).
    content = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
    return {
        status: {"model": ErrorBody, "description": ERROR_DESCRIPTIONS[status],
                 "content": content,
                 **({"headers": RETRY_AFTER} if status in (429, 503) else {})}
        for status in statuses
    }


class ServiceUnavailable(HoldemError):
    """The server cannot do this right now (its database is unreachable, or the process
    computing an answer died): try again shortly (``retry_after`` when known)."""

    code = "service_unavailable"
    status = 503


# --- validation problems in people's words ----------------------------------------------
# One place turns pydantic's errors into the ``problems`` of an ``invalid_payload`` error
# and its message, for the REST API and Socket.IO alike: what is wrong in plain words,
# about the field by name, with numbers as people write them.

_SAYINGS: dict[str, str] = {
    "missing": "is required",
    "extra_forbidden": "is not something this accepts",
    "greater_than_equal": "must be at least {ge}",
    "greater_than": "must be more than {gt}",
    "less_than_equal": "must be at most {le}",
    "less_than": "must be less than {lt}",
    "multiple_of": "must be a multiple of {multiple_of}",
    "int_type": "must be a whole number",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_type": "must be a number",
    "float_parsing": "must be a number",
    "finite_number": "must be a number",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "string_type": "must be text",
    "string_too_short": "must be at least {min_length} characters long",
    "string_too_long": "must be at most {max_length} characters long",
    "string_pattern_mismatch": "is not in the expected form",
    "too_short": "must have at least {min_length} items",
    "too_long": "must have at most {max_length} items",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
    "enum": "must be {expected}",
    "literal_error": "must be {expected}",
    "json_invalid": "is not valid JSON",
}
# A custom validator's message that reads as the rest of a sentence about its field.
_PREDICATE = re.compile(r"^(must|may|should|cannot|can|is|has|needs)\b")
_IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_WORDS = {"min": "minimum", "max": "maximum"}


def _number(value: Any) -> Any:
    """12000 as "12,000" (and 300.0 as "300"), anything else as it is."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return value


def _words(identifier: str) -> str:
    """``min_buy_in`` as "minimum buy-in": a field name as people say it."""
    return " ".join(_WORDS.get(word, word) for word in identifier.split("_")).replace(
        "buy in", "buy-in")


def _label(location: tuple[int | str, ...]) -> str:
    """The field a location points at, by name ("" for the payload as a whole)."""
    names = [part for part in location if isinstance(part, str)]
    if not names:
        return ""
    label = _words(names[-1])
    items = [part for part in location if isinstance(part, int)]
    return f"{label} (item {items[-1] + 1})" if items else label


def _sentence(text: str) -> str:
    text = text.strip().rstrip(".")
    return f"{text[:1].upper()}{text[1:]}." if text else text


def problem_message(error: Mapping[str, Any], *, source_parts: int = 0) -> str:
    """One pydantic error as a sentence: "Big blind must be at least 1."

    ``source_parts`` leading parts of the location say where the value came from (REST's
    ``body`` or ``query``), not which field it is.
    """
    label = _label(tuple(error.get("loc", ()))[source_parts:])
    kind = str(error.get("type"))
    context = {key: _number(value) for key, value in (error.get("ctx") or {}).items()}
    saying = _SAYINGS.get(kind)
    if kind == "string_too_short" and context.get("min_length") == "1":
        saying = "must not be empty"
    if saying is None:
        # A custom validator's own words, with any field name in them said as words.
        said = str(context.get("error") or error.get("msg", "")).removeprefix("Value error, ")
        said = _IDENTIFIER.sub(lambda m: _words(m.group(0)), said)
        if label and _PREDICATE.match(said):
            return _sentence(f"{label} {said}")
        return _sentence(said)
    return _sentence(f"{label or 'the request'} {saying.format(**context)}")


def validation_problems(
    errors: Iterable[Mapping[str, Any]], *, source_parts: int = 0
) -> list[dict[str, Any]]:
    """The ``problems`` of an ``invalid_payload`` error: each ``location`` as pydantic gives
    it (clients place messages by it) and a human ``message``.

    >>> from pydantic import BaseModel, Field, ValidationError
    >>> class Stakes(BaseModel):
    ...     big_blind: int = Field(ge=1, le=1_000_000)
    >>> try:
    ...     Stakes(big_blind=2_000_000)
    ... except ValidationError as error:
    ...     validation_problems(error.errors())
    [{'location': ['big_blind'], 'message': 'Big blind must be at most 1,000,000.'}]
    """
    return [{"location": [str(part) for part in error.get("loc", ())],
             "message": problem_message(error, source_parts=source_parts)} for error in errors]


def problems_summary(problems: Iterable[Mapping[str, Any]], fallback: str) -> str:
    """The message of an ``invalid_payload`` error: its problems' sentences, in order."""
    return " ".join(str(problem["message"]) for problem in problems) or fallback
