"""The mailbox every table runs on: one asyncio task applying one message at a time.

Requests from sockets, timer expiries and bot moves are all messages: a
coroutine function and its arguments, put on the table's queue (a request from
outside the table is a command record, :mod:`app.table.commands`, that the table
dispatches itself). The task
runs them strictly one after another, so game logic needs no locks and two
tabs of the same player can never race. A message is either asked (the caller
waits for its answer: :meth:`Mailbox.ask`) or told (nobody waits:
:meth:`Mailbox.tell`). After each message the table's
state is saved (when it changed) and the messages it produced are sent; when
saving fails, the message's caller gets that refusal instead of its answer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from app.db.engine import StorageUnavailable
from app.errors import HoldemError
from app.table.errors import InternalError, TableClosed

log = logging.getLogger(__name__)

Handler = Callable[..., Awaitable[Any]]


@dataclass(slots=True)
class Envelope:
    """One message: what to run, with what, and where the answer goes (if anyone waits)."""

    handler: Handler
    args: tuple[Any, ...]
    reply: asyncio.Future[Any] | None
    # Checked on the table's task just before the handler runs: raising refuses it.
    guard: Callable[[], None] | None = None


class Mailbox:
    """A queue of messages and the task that runs them one at a time."""

    def __init__(
        self, name: str, *, after_each: Callable[[], Awaitable[HoldemError | None]]
    ) -> None:
        self.name = name
        self._after_each = after_each
        self._queue: asyncio.Queue[Envelope | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self.closed = False
        # Refuse, unrun, the messages still queued once stopped (the table closed).
        self._refuse_queued = False
        # What a request gets once the table has stopped here (another process may run it).
        self._refusal: Callable[[], HoldemError] = lambda: TableClosed("this table has closed")

    def refusal(self) -> HoldemError:
        """What a request is told once the table has stopped here (or was given up)."""
        return self._refusal()

    def refuse_with(self, refusal: Callable[[], HoldemError]) -> None:
        """From now on, tell requests that cannot run ``refusal()`` (say, ``table_moved``)
        instead of ``table_closed``."""
        self._refusal = refusal

    def start(self) -> None:
        """Start the task that reads the queue."""
        self._task = asyncio.create_task(self._run(), name=f"table:{self.name}")

    async def ask(self, handler: Handler, *args: Any,
                  guard: Callable[[], None] | None = None) -> Any:
        """Run ``handler(*args)`` on the table's task and return its result (or raise);
        ``guard()``, run there first, may refuse it by raising."""
        if self.closed:
            raise self.refusal()
        reply: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(Envelope(handler, args, reply, guard))
        return await reply

    def tell(self, handler: Handler, *args: Any) -> None:
        """Queue ``handler(*args)`` without waiting for it (nobody hears how it went)."""
        if not self.closed:
            self._queue.put_nowait(Envelope(handler, args, None))

    def later(self, name: str, delay: float, handler: Handler, *args: Any) -> None:
        """Queue ``handler(*args)`` after ``delay`` seconds, replacing the timer ``name``."""
        self.cancel(name)
        loop = asyncio.get_running_loop()
        self._timers[name] = loop.call_later(max(0.0, delay), self.tell, handler, *args)

    def cancel(self, name: str) -> None:
        """Stop the timer ``name`` if it is set."""
        timer = self._timers.pop(name, None)
        if timer is not None:
            timer.cancel()

    def cancel_all(self) -> None:
        """Stop every timer."""
        for name in list(self._timers):
            self.cancel(name)

    def has(self, name: str) -> bool:
        """Whether the timer ``name`` is set and has not fired yet."""
        timer = self._timers.get(name)
        return timer is not None and not timer.cancelled() and timer.when() > (
            asyncio.get_running_loop().time())

    async def stop(self, *, run_queued: bool = True,
                   refusal: Callable[[], HoldemError] | None = None) -> None:
        """Stop reading the queue and every timer: after the messages already in it, or
        (``run_queued`` False) after the one running now, the others refused unrun; with
        ``refusal``, requests that cannot run are told that (see :meth:`refuse_with`)."""
        if refusal is not None:
            self._refusal = refusal
        self.closed = True
        self._refuse_queued = self._refuse_queued or not run_queued
        self.cancel_all()
        self._queue.put_nowait(None)
        if self._task is not None and self._task is not asyncio.current_task():
            await self._task

    async def _run(self) -> None:
        while (envelope := await self._queue.get()) is not None:
            if self._refuse_queued:
                self._refuse(envelope)
            else:
                await self._deliver(envelope)
        while not self._queue.empty():
            self._refuse(self._queue.get_nowait())

    def _refuse(self, envelope: Envelope | None) -> None:
        if envelope is not None and envelope.reply is not None and not envelope.reply.done():
            envelope.reply.set_exception(self.refusal())

    async def _deliver(self, envelope: Envelope) -> None:
        try:
            if envelope.guard is not None:
                envelope.guard()
            result = await envelope.handler(*envelope.args)
        except HoldemError as error:
            outcome: tuple[bool, Any] = (False, error)
            if isinstance(error, StorageUnavailable) and envelope.reply is None:
                log.warning("table %s: %s: the database is unreachable", self.name,
                            envelope.handler.__name__)
        except Exception as error:
            outcome = (False, _refusal(self.name, envelope.handler, error))
        else:
            outcome = (True, result)
        try:
            refusal = await self._after_each()
        except Exception:
            log.exception("table %s: saving or sending failed", self.name)
            refusal = InternalError("the table could not do that")
        if refusal is not None and outcome[0]:
            outcome = (False, refusal)
        if envelope.reply is not None and not envelope.reply.done():
            ok, value = outcome
            if ok:
                envelope.reply.set_result(value)
            else:
                envelope.reply.set_exception(value)


def _refusal(table: str, handler: Handler, error: Exception) -> HoldemError:
    """What a request that failed with ``error`` (no error of ours) is told: the database
    being unreachable by whatever path it was met is ``service_unavailable``, as
    documented; anything else is a fault of ours, logged."""
    if isinstance(error, StorageUnavailable):
        log.warning("table %s: %s: the database is unreachable (%s)", table,
                    handler.__name__, type(error).__name__)
        return StorageUnavailable()
    log.error("table %s: %s failed", table, handler.__name__, exc_info=error)
    return InternalError("the table could not do that")
