"""The worker: the server's work that is not a table's, in a process of its own: the mail
outbox, and the integrity scan and pruning (:class:`app.integrity.watch.IntegrityWatch`).

A table's event loop shares its interpreter with nothing heavy. Sending the mail outbox
(re-parsing each message, speaking SMTP or writing ``.eml`` files, marking rows sent)
costs as much CPU per mail as a table spends on many actions, and a burst of sign-ups
queues thousands at once: done in the server's process it holds the GIL the tables'
loop needs. With ``WORKER=process`` (the default) the server starts one worker process
when it starts (:class:`WorkerProcess`), starts it again when it dies (after a pause
that doubles up to a minute), and stops it when it stops. The worker sends the outbox
exactly as the server's own sender did (:class:`app.accounts.mail.Mailer`): mails are
claimed from the database, so several servers' workers never send one twice, and one
that dies leaves its claims to lapse. It leaves when its server does, however the server
ends, and at a lower CPU priority (:func:`app.offload.lower_priority`). ``WORKER=inline``
sends from the server's process (a one-process development server, and the tests).

Rendering a mail stays in the request that queues it: it is written to the outbox in the
transaction of the change that causes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
from multiprocessing.process import BaseProcess

from app.accounts.mail import Mailer
from app.config import Settings
from app.db.engine import Database
from app.integrity.watch import IntegrityWatch
from app.logs import configure_logging
from app.offload import lower_priority

log = logging.getLogger(__name__)

RESTART_FIRST_SECONDS = 1.0
RESTART_MOST_SECONDS = 60.0
STEADY_SECONDS = 60.0  # a worker that ran this long restarts after the first pause again
STOP_SECONDS = 10.0
WATCH_SECONDS = 0.5


class WorkerProcess:
    """The server's worker process: started, watched and started again, and stopped."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.process: BaseProcess | None = None
        self.starts = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the worker, and keep it running until :meth:`stop`."""
        if self._task is None:
            self._task = asyncio.create_task(self._supervise(), name="worker:supervisor")

    async def _supervise(self) -> None:
        loop = asyncio.get_running_loop()
        pause = RESTART_FIRST_SECONDS
        while True:
            started = loop.time()
            process = self._spawn()
            while process.is_alive():
                await asyncio.sleep(WATCH_SECONDS)
            if loop.time() - started >= STEADY_SECONDS:
                pause = RESTART_FIRST_SECONDS
            log.warning("the worker process stopped (exit code %s); starting it again in %.0f s",
                        process.exitcode, pause)
            await asyncio.sleep(pause)
            pause = min(RESTART_MOST_SECONDS, 2 * pause)

    def _spawn(self) -> BaseProcess:
        # Spawned, not forked: a fresh interpreter holds none of the server's threads,
        # sockets or event loop.
        context = multiprocessing.get_context("spawn")
        process = context.Process(target=run_worker, args=(self.settings, os.getpid()),
                                  name="holdem-worker", daemon=True)
        process.start()
        self.process = process
        self.starts += 1
        log.info("worker process %s started", process.pid)
        return process

    async def stop(self) -> None:
        """Stop watching, ask the worker to finish what it is sending, and wait for it
        (killing it after :data:`STOP_SECONDS`)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        process = self.process
        if process is None or not process.is_alive():
            return
        process.terminate()
        await asyncio.to_thread(process.join, STOP_SECONDS)
        if process.is_alive():
            process.kill()
            await asyncio.to_thread(process.join, STOP_SECONDS)


def run_worker(settings: Settings, server_pid: int) -> None:
    """The worker process's body: send the outbox until SIGTERM, or until the server that
    started it (``server_pid``) is gone."""
    lower_priority()
    configure_logging(settings)
    asyncio.run(_work(settings, server_pid))


async def _work(settings: Settings, server_pid: int) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    database = Database(settings.database_url)
    mailer = Mailer(settings, database)
    mailer.start()
    watch = IntegrityWatch(settings, database)
    watch.start()
    log.info("worker %s sends the mail outbox and runs the integrity scan", os.getpid())
    try:
        while not stop.is_set() and os.getppid() == server_pid:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), WATCH_SECONDS)
    finally:
        await watch.stop()
        await mailer.close()
        await database.dispose()
