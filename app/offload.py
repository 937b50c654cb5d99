"""Work that answers a request but is not a table's, run in other processes.

The odds tools' equities and outs and the avatars' image decoding and encoding are CPU
work in Python and C extensions that take and release the GIL as they go: on a thread of
the server they hold the interpreter the tables' event loop needs. :class:`Offload` runs
them in a pool of ``OFFLOAD_PROCESSES`` spawned processes (1 by default) and awaits the
answer, so a request costs the server only the pickling of its question and answer.
With ``OFFLOAD_PROCESSES=0`` the work runs on a thread of the server, as before.

The pool's processes, the worker (:mod:`app.worker`) and the password-hashing threads
(:mod:`app.accounts.passwords`) run at a lower CPU priority (:func:`lower_priority`):
on a busy machine the tables' loop gets a core first, and they take what it leaves.

A pool whose process died (a crash, the out-of-memory killer) answers that call with
:class:`ServiceUnavailable` and is replaced on the next call.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

import anyio.to_thread

from app.errors import ServiceUnavailable

log = logging.getLogger(__name__)
Answer = TypeVar("Answer")
NICENESS = 10  # about a tenth of a normal thread's share of a busy core


def lower_priority() -> None:
    """Lower the calling thread's CPU priority by :data:`NICENESS` (on Linux, where a
    thread has a priority of its own; elsewhere the whole process's)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICENESS)


class Offload:
    """A pool of worker processes for a request's heavy part (see the module docstring)."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    def _started(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # Spawned, not forked: a fresh interpreter holds none of the server's threads,
            # sockets or event loop.
            self._pool = ProcessPoolExecutor(self.processes,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=lower_priority)
        return self._pool

    async def run(self, function: Callable[..., Answer], *args: object) -> Answer:
        """``function(*args)`` in the pool (both must pickle), or on a thread without one;
        the function's own error is raised as it is."""
        if self.processes == 0:
            return await anyio.to_thread.run_sync(function, *args)
        pool = self._started()
        try:
            return await asyncio.wrap_future(pool.submit(function, *args))
        except BrokenProcessPool:
            log.error("an offload process died running %s; the pool is replaced",
                      getattr(function, "__name__", function))
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise ServiceUnavailable("the server could not finish this computation; "
                                     "try again") from None

    async def close(self) -> None:
        """Stop the pool's processes (what they run is abandoned)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
