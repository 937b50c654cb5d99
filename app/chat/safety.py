"""What one process knows about chat safety, held in memory so that no chat line costs a
database read: the word list, each known player's mute and whom they ignore, and the
lines said here that the chat log has not stored yet.

A player is *known* once their record was read (:meth:`ChatSafety.know`, when they join
a table or first chat here) and stays known for ``ttl`` seconds; changes made anywhere
arrive as news (:meth:`ChatSafety.apply`), so a mute, an unmute, an ignore or a new word
takes effect at once on every process, and the ``ttl`` only bounds how long a process
that missed a piece of news can be wrong.

>>> safety = ChatSafety(["darn"], ttl=60)
>>> safety.know(7, muted_until=None, ignored=["abc"], now=0)
>>> safety.ignorers_of("abc")
frozenset({7})
>>> safety.apply({"kind": "chat_ignores", "user_id": 7, "ignored": []})
>>> safety.ignorers_of("abc")
frozenset()
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.chat.wordfilter import DEFAULT_WORDS, WordFilter
from app.errors import HoldemError

# Lines waiting for the chat log; past this (the database unreachable for long) the
# oldest are dropped rather than the process's memory.
PENDING_KEPT = 20_000


class Muted(HoldemError):
    """An admin muted this player until a given time."""

    code = "muted"
    status = 403


@dataclass(frozen=True, slots=True)
class SaidLine:
    """One line said at a table, for the chat log: as typed and as shown."""

    table_id: str
    user_id: int
    said: str
    shown: str
    at: float


@dataclass(slots=True)
class _Known:
    muted_until: float | None
    ignored: frozenset[str]
    read_at: float


class ChatSafety:
    """The word filter, the known players' mutes and ignore lists, and the unlogged lines."""

    def __init__(self, words: Iterable[str] = DEFAULT_WORDS, *, ttl: float = 300) -> None:
        self.filter = WordFilter(words)
        self.ttl = ttl
        self._known: dict[int, _Known] = {}
        # public id -> the users who ignore that player (of the known ones).
        self._ignorers: dict[str, set[int]] = {}
        self._pending: deque[SaidLine] = deque(maxlen=PENDING_KEPT)

    # ---- the word list -------------------------------------------------------------

    def set_words(self, words: Iterable[str]) -> None:
        """Mask these words from now on (instead of the previous list)."""
        self.filter = WordFilter(words)

    # ---- players -------------------------------------------------------------------

    def knows(self, user_id: int, now: float) -> bool:
        """Whether the user's record was read less than ``ttl`` seconds ago."""
        known = self._known.get(user_id)
        return known is not None and now - known.read_at < self.ttl

    def know(self, user_id: int, *, muted_until: float | None, ignored: Iterable[str],
             now: float) -> None:
        """Hold the user's mute (a POSIX time, or None) and the public ids they ignore."""
        self._unindex(user_id)
        known = _Known(muted_until, frozenset(ignored), now)
        self._known[user_id] = known
        for public_id in known.ignored:
            self._ignorers.setdefault(public_id, set()).add(user_id)

    def forget(self, user_id: int) -> None:
        """Hold nothing about the user any more."""
        self._unindex(user_id)
        self._known.pop(user_id, None)

    def _unindex(self, user_id: int) -> None:
        known = self._known.get(user_id)
        for public_id in known.ignored if known else ():
            ignorers = self._ignorers.get(public_id)
            if ignorers is not None:
                ignorers.discard(user_id)
                if not ignorers:
                    del self._ignorers[public_id]

    def ignores(self, user_id: int) -> frozenset[str]:
        """The public ids whose chat the user does not read."""
        known = self._known.get(user_id)
        return known.ignored if known else frozenset()

    def ignorers_of(self, public_id: str) -> frozenset[int]:
        """The users (of the known ones) who do not read this player's chat."""
        return frozenset(self._ignorers.get(public_id, ()))

    def muted_until(self, user_id: int, now: float) -> float | None:
        """Until when the user is muted (None: not muted now)."""
        known = self._known.get(user_id)
        until = known.muted_until if known else None
        return until if until is not None and until > now else None

    def verify_can_chat(self, user_id: int, now: float) -> None:
        """:class:`Muted` (saying until when) while an admin's mute lasts."""
        until = self.muted_until(user_id, now)
        if until is not None:
            stamp = datetime.fromtimestamp(until, UTC).strftime("%Y-%m-%d %H:%M UTC")
            raise Muted(f"an admin muted you until {stamp}", until=until)

    # ---- news ----------------------------------------------------------------------

    def apply(self, news: dict[str, Any]) -> None:
        """Take a change made on any process: ``chat_words`` {words}, ``chat_mute``
        {user_id, until}, ``chat_ignores`` {user_id, ignored}. Other news is ignored."""
        kind = news.get("kind")
        if kind == "chat_words":
            self.set_words(str(word) for word in news.get("words") or ())
            return
        if kind not in ("chat_mute", "chat_ignores"):
            return
        user_id = int(news["user_id"])
        known = self._known.get(user_id)
        if known is None:
            return  # read in full when the user next needs it
        if kind == "chat_mute":
            until = news.get("until")
            known.muted_until = float(until) if until is not None else None
        else:
            self.know(user_id, muted_until=known.muted_until,
                      ignored=(str(p) for p in news.get("ignored") or ()), now=known.read_at)

    # ---- the chat log --------------------------------------------------------------

    def said(self, line: SaidLine) -> None:
        """Keep a line for the chat log."""
        self._pending.append(line)

    def take_said(self) -> list[SaidLine]:
        """The lines kept since the last call, oldest first."""
        lines = list(self._pending)
        self._pending.clear()
        return lines

    def put_back(self, lines: list[SaidLine]) -> None:
        """Lines the log could not store, to try again (before any kept since)."""
        self._pending.extendleft(reversed(lines))
