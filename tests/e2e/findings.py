"""What the gauntlet (:mod:`tests.e2e.gauntlet`) counts and finds, and how it reads messages:
which are private to their receiver, which show hole cards, which server errors were logged.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

WATCHED_LOGGERS = ("app", "socketio", "engineio", "asyncio", "uvicorn.error")


@dataclass
class Findings:
    """What one gauntlet run sent, saw and found broken."""

    requests: int = 0
    accepted: int = 0
    codes: Counter[str] = field(default_factory=Counter)
    labels: Counter[str] = field(default_factory=Counter)
    legal_actions: int = 0
    hands_ended: int = 0
    batches: int = 0
    audits: int = 0
    resumes: int = 0
    messages: int = 0
    elapsed: float = 0.0
    no_ack: list[str] = field(default_factory=list)
    undocumented: list[str] = field(default_factory=list)
    internal_errors: list[str] = field(default_factory=list)
    malformed_accepted: list[str] = field(default_factory=list)
    coerced_accepted: list[str] = field(default_factory=list)
    logged_errors: list[str] = field(default_factory=list)
    off_schema: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    unresolved_hands: list[str] = field(default_factory=list)
    seq: list[str] = field(default_factory=list)
    seq_reused: list[str] = field(default_factory=list)
    resume_seq: list[str] = field(default_factory=list)
    unwatched: list[str] = field(default_factory=list)
    after_refused_sit: list[str] = field(default_factory=list)
    unbalanced: list[str] = field(default_factory=list)

    @property
    def per_second(self) -> float:
        """Requests answered per second of the run."""
        return self.requests / self.elapsed if self.elapsed else 0.0

    def summary(self, examples: int = 1) -> str:
        """The numbers of the run, one finding kind a line (with its first ``examples``)."""
        lines = [f"{self.requests} requests in {self.elapsed:.1f}s ({self.per_second:.0f}/s), "
                 f"{self.accepted} accepted, {self.legal_actions} legal actions, "
                 f"{self.hands_ended} hands ended, {self.messages} messages received, "
                 f"{self.batches} batches, {self.audits} audits, {self.resumes} resumes",
                 f"labels {dict(self.labels)}", f"codes {dict(self.codes.most_common())}"]
        for name in ("no_ack", "undocumented", "internal_errors", "malformed_accepted",
                     "coerced_accepted", "logged_errors", "off_schema", "leaks",
                     "unresolved_hands", "seq", "seq_reused", "resume_seq", "unwatched",
                     "after_refused_sit", "unbalanced"):
            found: list[str] = getattr(self, name)
            lines.append(f"{name}: {len(found)}")
            lines += [f"    {line[:300]}" for line in found[:examples]]
        return "\n".join(lines)


class ErrorLog(logging.Handler):
    """Collects every record at ERROR or above from the server's loggers."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(f"{record.name}: {record.getMessage()}"
                            + (f" ({record.exc_info[1]!r})" if record.exc_info else ""))

    def __enter__(self) -> ErrorLog:
        for name in WATCHED_LOGGERS:
            logging.getLogger(name).addHandler(self)
        return self

    def __exit__(self, *_: object) -> None:
        for name in WATCHED_LOGGERS:
            logging.getLogger(name).removeHandler(self)


def is_private(name: str, data: dict[str, Any]) -> bool:
    if name == "table:turn":
        return data.get("legal_actions") is not None
    event = data.get("event") or {}
    return name == "table:event" and event.get("type") == "hole_cards_dealt" \
        and event.get("cards") is not None


def cards_seen(name: str, data: dict[str, Any]) -> list[int]:
    """The seats whose unshown hole cards this message shows."""
    if name == "table:event":
        event = data["event"]
        if event.get("type") != "hand_shown" and event.get("cards") is not None \
                and "seat" in event:
            return [event["seat"]]
        return []
    if name == "table:snapshot" and data.get("hand"):
        return [s["seat"] for s in data["hand"]["seats"]
                if s.get("cards") is not None and not s.get("shown")]
    return []
