"""Payloads for the hostile-client gauntlet: valid, boundary, malformed and coercible.

Every payload is labelled by validating it against the event's own pydantic
model, so the label follows the documented protocol: ``valid`` passes in strict
JSON mode, ``coerced`` passes only when types are coerced (``"40"`` for 40),
``malformed`` fails either way. A server that keeps its promise refuses every
``coerced`` and ``malformed`` payload with ``invalid_payload``.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from random import Random
from typing import Any

from pydantic import BaseModel, ValidationError

from app.poker.bots import BotStyle
from app.poker.events import ActionKind
from app.protocol import REQUESTS

MODELS: dict[str, type[BaseModel]] = {r.name: r.model for r in REQUESTS}
# "connect" and "disconnect" are left out: they reach the server's connection handlers
# (tests/e2e/test_gauntlet.py, test_reserved_event_names_...).
UNKNOWN_EVENTS = ("table:explode", "TABLE:ACTION", "admin:close", "lobby:list ", "", "💥",
                  "table:action\x00", "message", "connect_error")
# No NUL character: PostgreSQL refuses it in a table name (test_gauntlet_findings.py).
UNICODE = ("ⓐⓑⓒ", "שלום", "🂡🂱🃁", "e\u0301", "\u200b\u200d", "A\x01B", "\ud7ff", "ñ" * 40,
           "\u202eevil", "𝔘𝔫𝔦", "<script>", "' OR 1=1 --", "%s%n", "\r\n\t")
NESTED_DEPTH = 40


class Label(enum.StrEnum):
    """What the protocol says of a payload."""

    VALID = "valid"
    COERCED = "coerced"
    MALFORMED = "malformed"


@dataclass(frozen=True, slots=True)
class Request:
    """One request to send: the event name, its arguments and its label."""

    event: str
    args: tuple[Any, ...]
    label: Label
    kind: str

    def describe(self) -> str:
        """The request in one line (shortened)."""
        text = json.dumps(self.args, ensure_ascii=True, default=str)
        return f"{self.event} {text[:160]}{'…' if len(text) > 160 else ''} ({self.kind})"


def label(event: str, args: tuple[Any, ...]) -> Label:
    """The protocol's verdict on ``event`` sent with ``args``."""
    model = MODELS.get(event)
    if model is None or len(args) > 1:
        return Label.MALFORMED
    payload = args[0] if args else {}
    try:
        model.model_validate_json(json.dumps(payload), strict=True)
        return Label.VALID
    except (ValidationError, ValueError, TypeError):
        pass
    try:
        model.model_validate(payload, strict=False)
    except (ValidationError, ValueError, TypeError):
        return Label.MALFORMED
    return Label.COERCED


def nested(depth: int) -> Any:
    """A value nested ``depth`` levels deep."""
    value: Any = "deep"
    for level in range(depth):
        value = {"x": value} if level % 2 else [value]
    return value


def wrong_values(rng: Random) -> list[Any]:
    """Values of every JSON type, some coercible, some huge, some nested."""
    return [
        "40", "1", "0", "true", "", "abc", "1e3", " 7 ", True, False, 1.5, 2.0, -1, 0,
        10**40, -(10**40), [1], [], {"$gt": 1}, {}, None, nested(NESTED_DEPTH),
        "x" * rng.choice((41, 201, 5_000, 100_000)), rng.choice(UNICODE),
        rng.choice(list(ActionKind)).value.upper(), "fold ", float(rng.randint(0, 9)),
    ]


def mutate(rng: Random, event: str, payload: dict[str, Any]) -> Request:
    """A hostile variant of a valid payload."""
    choice = rng.randrange(9)
    args: tuple[Any, ...]
    if choice == 0 and payload:
        broken = dict(payload)
        missing = rng.choice(sorted(broken))
        del broken[missing]
        args, kind = (broken,), f"missing {missing}"
    elif choice == 1:
        extra = rng.choice(("admin", "user_id", "__proto__", "seq", "balance", "é"))
        args, kind = ({**payload, extra: rng.choice(wrong_values(rng))},), f"extra {extra}"
    elif choice in (2, 3, 4) and payload:
        field = rng.choice(sorted(payload))
        args, kind = ({**payload, field: rng.choice(wrong_values(rng))},), f"wrong {field}"
    elif choice == 5:
        args, kind = (rng.choice((None, [payload], "table", 7, True, nested(NESTED_DEPTH))),), \
            "not an object"
    elif choice == 6:
        args, kind = (payload, payload), "two arguments"
    elif choice == 7:
        return Request(rng.choice(UNKNOWN_EVENTS), (payload,), Label.MALFORMED, "unknown event")
    else:
        args, kind = (), "no payload"
    return Request(event, args, label(event, args), kind)


class Payloads:
    """Valid payloads of every documented request, from what a client knows of the tables."""

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def table_id(self, known: list[str]) -> str:
        """Mostly a table that exists, sometimes one that does not."""
        rng = self.rng
        if known and rng.random() < 0.85:
            return rng.choice(known)
        return rng.choice(("nope", "0" * 12, "x" * 32, "Ω", "table:1", "../admin"))

    def hand_id(self, current: str | None, old: list[str]) -> str:
        """The hand in play, an old one, or one that never was."""
        rng = self.rng
        pick = rng.random()
        if current and pick < 0.5:
            return current
        if old and pick < 0.85:
            return rng.choice(old)
        return rng.choice(("0" * 32, "hand", "ff" * 16))

    def build(self, event: str, table: str, hand: str, chips: int) -> dict[str, Any]:
        """A payload for ``event`` that passes the schema (the server may still refuse it)."""
        rng = self.rng
        by_table = {"table_id": table}
        if event == "lobby:list":
            return {}
        if event == "table:create":
            seats = rng.randint(2, 10)
            bots = rng.random() < 0.5
            return {"name": rng.choice(UNICODE)[:40] or "t", "seats": seats, "small_blind": 5,
                    "big_blind": 10, "bots": bots,
                    "bot_count": rng.randint(0, seats - 1) if bots else 0,
                    "action_seconds": rng.choice((0.01, 0.5, 1.0, 300)),
                    "bot_style": rng.choice([None, *[s.value for s in BotStyle]]),
                    "private": rng.random() < 0.2}
        if event == "table:quick-seat":
            return {"small_blind": 5, "big_blind": 10, "buy_in": rng.choice((100, 2000, chips)),
                    "bots": rng.random() < 0.5}
        if event == "table:join":
            return by_table
        if event == "table:sit":
            return {**by_table, "seat": rng.randint(0, 9),
                    "buy_in": rng.choice((100, 1000, 2000, 99, 2001, chips))}
        if event == "table:top-up":
            return {**by_table, "amount": rng.choice((1, 100, 1900, 2000, 10**12))}
        if event == "table:chat":
            return {**by_table, "text": rng.choice(UNICODE)[:200]}
        if event == "table:report":
            return {**by_table, "public_id": rng.choice(("0" * 32, "ab" * 16)),
                    "reason": rng.choice(UNICODE)[:500].strip() or "rude"}
        if event == "table:action":
            kind = rng.choice(list(ActionKind)).value
            payload: dict[str, Any] = {**by_table, "hand_id": hand, "type": kind}
            if kind in ("bet", "raise") or rng.random() < 0.2:
                payload["amount"] = rng.choice((0, 10, 20, 40, 1000, 10**12))
            return payload
        return by_table
