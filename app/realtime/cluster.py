"""The other server processes, over Redis: forwarded table requests, table messages
for their sessions, and table news.

A client may be connected to any process; a table runs on one (its lease
owner). Every key and channel here is named under ``holdem:<REDIS_CHANNEL>:``,
so sites sharing one Redis keep apart. Each process reads its own channel
``process:<id>``, which carries, in the order they were sent:

- ``request``: a request about a table this process owns, with the session id, the
  user behind it and the process the session is on (``home``); the owner runs it as
  if the session were its own and remembers where that session is. The asker is
  usually the session's process; a process that no longer runs the table sends the
  request on to its owner, and passes the answer back;
- ``deliver``: one encoded packet for some of this process's sessions (a table's
  message for the sessions of this process that watch it): a table's message
  reaches each interested process once, and no other;
- ``answer``: a request's answer, with the rooms the request had the session enter
  or leave. It is sent after what the request sent the session, on the same
  channel, so the session's acknowledgement follows them. A process that sent the
  request on passes the rooms on with its own answer: they reach the session's
  process before the acknowledgement.

How many sockets each user holds on each process is a Redis hash per user,
``sockets:<user id>``, so the per-account limit counts every process's.

News every process hears travels on ``cluster``: a session that disconnected,
tables released by a draining process, a new owner asking who watches a table
it took over.

The lobby is a Redis hash, ``lobby``: each owner writes its tables' summaries,
so every process lists every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable
from contextvars import ContextVar
from typing import Any

import orjson
import redis.asyncio as redis

from app.db.models import Role
from app.errors import HoldemError, error_from_dict
from app.realtime.rooms import RedisRooms, send_here
from app.table.errors import InternalError, TableMoved
from app.table.state import Viewer

log = logging.getLogger(__name__)

REQUEST_SECONDS = 10.0
# A user's socket counts are forgotten this long after the last connect or disconnect.
SOCKET_COUNTS_SECONDS = 24 * 3600
NAMESPACE = "/"

# The rooms a forwarded request had its session enter (True) or leave (False): they go
# back with the answer, and the session's own process applies them before the ack.
_carried: ContextVar[list[tuple[str, str, bool]] | None] = ContextVar("carried",
                                                                      default=None)

Request = Callable[[str, str, Viewer | None, dict[str, Any], int], Awaitable[dict[str, Any]]]
News = Callable[[dict[str, Any]], Awaitable[None]]


def viewer_to_dict(viewer: Viewer | None) -> dict[str, Any] | None:
    """A viewer as it travels between processes."""
    if viewer is None:
        return None
    return {"user_id": viewer.user_id, "public_id": viewer.public_id, "name": viewer.name,
            "role": viewer.role.value}


def viewer_from_dict(data: dict[str, Any] | None) -> Viewer | None:
    """The viewer a message carries."""
    if data is None:
        return None
    return Viewer(int(data["user_id"]), str(data["public_id"]), str(data["name"]),
                  Role(data["role"]))


def answer_error(body: dict[str, Any]) -> HoldemError:
    """The error another process answered, as the same error class here."""
    return error_from_dict(body, InternalError)


class Cluster:
    """This process's link to the others."""

    def __init__(self, url: str, process_id: str, *, name: str, on_request: Request,
                 on_news: News, rooms: RedisRooms) -> None:
        self.process_id = process_id
        self._prefix = f"holdem:{name}:"
        self._news = self._prefix + "cluster"
        self._lobby = self._prefix + "lobby"
        self._redis: redis.Redis = redis.from_url(url)
        self._on_request = on_request
        self._on_news = on_news
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ready = asyncio.Event()
        self._rooms = rooms
        # The process each session of another process is on, learnt from its requests
        # and from the answers to a takeover's question of who watches a table.
        self._located: dict[str, str] = {}

    def channel(self, process_id: str) -> str:
        """The channel one process reads its requests and answers on."""
        return f"{self._prefix}process:{process_id}"

    async def start(self) -> None:
        """Listen on this process's channel, the news channel and the Socket.IO manager's
        channel (answers)."""
        self._reader = asyncio.create_task(self._read(), name="cluster:reader")
        await asyncio.wait_for(self._ready.wait(), timeout=10)
        await self._rooms.listen()

    async def stop(self) -> None:
        """Stop listening (answers still awaited fail)."""
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
            self._reader = None
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(TableMoved("the server is stopping: try again",
                                                retry_after=1))
        await self._redis.aclose()

    async def reachable(self) -> bool:
        """Whether Redis answers now."""
        try:
            return bool(await self._redis.ping())
        except Exception:
            return False

    # ---- requests ----------------------------------------------------------------------

    async def request(self, owner: str, event: str, sid: str, viewer: Viewer | None,
                      payload: dict[str, Any], hops: int) -> dict[str, Any]:
        """Run ``event`` on the process ``owner`` and return its answer (an ack body)."""
        ident = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        try:
            receivers = await self._publish(self.channel(owner), {
                "kind": "request", "id": ident, "reply_to": self.process_id, "event": event,
                "sid": sid, "home": self.home(sid), "viewer": viewer_to_dict(viewer),
                "payload": payload, "hops": hops})
            if not receivers:
                raise TableMoved("the server running this table is gone: try again",
                                 retry_after=1)
            answer = await asyncio.wait_for(future, REQUEST_SECONDS)
        except TimeoutError:
            raise TableMoved("the server running this table did not answer: try again",
                             retry_after=1) from None
        finally:
            self._waiting.pop(ident, None)
        self._carry_on(answer.get("rooms") or ())
        return dict(answer.get("result") or {})

    async def ask(self, process_id: str, event: str, payload: dict[str, Any]
                  ) -> dict[str, Any]:
        """Run an ``internal:*`` request on another process; its answer, or its error."""
        answer = await self.request(process_id, event, "", None, payload, 1)
        if not answer.get("ok"):
            raise answer_error(answer.get("error") or {})
        return answer

    # ---- sessions of other processes ---------------------------------------------------

    def where(self, sid: str) -> str | None:
        """The process a session of another process is on, if known."""
        return self._located.get(sid)

    def home(self, sid: str) -> str:
        """The process a session is on: another one, if known, else this one."""
        return self._located.get(sid, self.process_id)

    @staticmethod
    def carry_room(sid: str, room: str, *, entered: bool) -> bool:
        """While answering a forwarded request: have the session enter (or leave) a room
        on its own process, with the answer. False outside a forwarded request."""
        carried = _carried.get()
        if carried is None:
            return False
        carried.append((sid, room, entered))
        return True

    def forget_processes(self, gone: set[str]) -> None:
        """Forget the sessions of processes that are gone."""
        self._located = {sid: p for sid, p in self._located.items() if p not in gone}

    async def deliver(self, process_id: str, sids: list[str], text: str) -> None:
        """Hand one encoded packet to sessions of another process."""
        await self._publish(self.channel(process_id),
                            {"kind": "deliver", "sids": sids, "packet": text})

    async def news(self, body: dict[str, Any]) -> None:
        """Tell every process (this one included)."""
        await self._publish(self._news, {**body, "from": self.process_id})

    async def tell(self, process_id: str, body: dict[str, Any]) -> None:
        """Tell one process."""
        await self._publish(self.channel(process_id), {**body, "from": self.process_id})

    async def _publish(self, to: str, body: dict[str, Any]) -> int:
        return int(await self._redis.publish(to, orjson.dumps(body)))

    # ---- every process's sockets of one user ------------------------------------------

    async def count_sockets(self, user_id: int, change: int) -> dict[str, int]:
        """Change this process's count of a user's sockets by ``change`` and return every
        process's count (a Redis hash by process id, ``sockets:<user id>``), in one step."""
        key = f"{self._prefix}sockets:{user_id}"
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hincrby(key, self.process_id, change)
            pipe.expire(key, SOCKET_COUNTS_SECONDS)
            pipe.hgetall(key)
            *_, counts = await pipe.execute()
        return {(k.decode() if isinstance(k, bytes) else str(k)): int(v)
                for k, v in counts.items()}

    async def forget_socket_counts(self, user_id: int, processes: list[str]) -> None:
        """Drop the counts of a user's sockets on processes that are gone."""
        await self._redis.hdel(f"{self._prefix}sockets:{user_id}", *processes)

    # ---- the tournaments' director ---------------------------------------------------

    async def direct(self, seconds: float) -> None:
        """Say this process runs the tournaments (for ``seconds``; said again each beat)."""
        await self._redis.set(self._prefix + "director", self.process_id,
                              px=max(1, int(seconds * 1000)))

    async def director(self) -> str | None:
        """The process that runs the tournaments, if one said so lately."""
        value = await self._redis.get(self._prefix + "director")
        if value is None:
            return None
        return value.decode() if isinstance(value, bytes) else str(value)

    # ---- the lobby ---------------------------------------------------------------------

    async def list_table(self, table_id: str, summary: dict[str, Any] | None) -> None:
        """Write (None: remove) a table's lobby summary."""
        if summary is None:
            await self._redis.hdel(self._lobby, table_id)
        else:
            await self._redis.hset(self._lobby, table_id, orjson.dumps(summary))

    async def prune_listing(self, open_ids: set[str]) -> None:
        """Drop listed tables that are no longer open (their process died closing them)."""
        listed = {k.decode() if isinstance(k, bytes) else k
                  for k in await self._redis.hkeys(self._lobby)}
        if stale := listed - open_ids:
            await self._redis.hdel(self._lobby, *stale)

    async def listing(self) -> list[dict[str, Any]]:
        """Every listed table of every process."""
        values = await self._redis.hvals(self._lobby)
        return [orjson.loads(v) for v in values]

    # ---- reading -----------------------------------------------------------------------

    async def _read(self) -> None:
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(self.channel(self.process_id), self._news)
        self._ready.set()
        try:
            async for message in pubsub.listen():
                if message.get("type") != "message":
                    continue
                try:
                    body = orjson.loads(message["data"])
                except orjson.JSONDecodeError:
                    log.warning("cluster: a message that is not JSON was ignored")
                    continue
                if body.get("kind") == "deliver":
                    # Handed over here, in channel order: before any answer behind it.
                    await send_here(self._rooms.server, str(body["packet"]),
                                    list(body["sids"]))
                else:
                    self._dispatch(body)
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call]

    def _answered(self, body: dict[str, Any]) -> None:
        """An answer to one of this process's requests (others' answers are ignored).

        The rooms it carries for this process's sessions are entered (or left) at once,
        before anything behind the answer on this channel is read; the others are the
        rooms of sessions this process sent the request on for (see :meth:`_carry_on`)."""
        if body.get("to") not in (None, self.process_id):
            return
        future = self._waiting.get(str(body.get("id")))
        if future is not None and not future.done():
            rooms = self._rooms
            for sid, room, entered in body.get("rooms") or ():
                if rooms.is_connected(sid, NAMESPACE):
                    if entered:
                        rooms.basic_enter_room(sid, NAMESPACE, room)
                    else:
                        rooms.basic_leave_room(sid, NAMESPACE, room)
            future.set_result(body)

    def _carry_on(self, rooms: Iterable[list[Any]]) -> None:
        """While answering a forwarded request that this process sent on to the table's
        owner: the rooms the owner carried for sessions of other processes go on with
        this process's answer, towards the session's own process."""
        for sid, room, entered in rooms:
            if not self._rooms.is_connected(sid, NAMESPACE):
                self.carry_room(sid, room, entered=entered)

    def _dispatch(self, body: dict[str, Any]) -> None:
        kind = body.get("kind")
        if kind == "answer":
            self._answered(body)
        elif kind == "request":
            if body.get("sid"):
                # Not the asker, which may be sending the request on for the session's
                # process (a process older than "home" always asks for its own sessions).
                self._located[str(body["sid"])] = str(body.get("home") or body["reply_to"])
            self._spawn(self._answer(body))
        else:
            self._learn(body)
            self._spawn(self._on_news(body))

    def _learn(self, news: dict[str, Any]) -> None:
        """Keep where other processes' sessions are as news tells."""
        kind, origin = news.get("kind"), str(news.get("from"))
        if kind == "disconnected":
            self._located.pop(str(news.get("sid")), None)
        elif kind == "watching" and origin != self.process_id:
            for session in news.get("sessions") or ():
                self._located[str(session["sid"])] = origin

    def _spawn(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("cluster: handling a message failed", exc_info=task.exception())

    async def _answer(self, body: dict[str, Any]) -> None:
        carried: list[tuple[str, str, bool]] = []
        _carried.set(carried)
        try:
            result = await self._on_request(
                str(body["event"]), str(body["sid"]), viewer_from_dict(body.get("viewer")),
                dict(body.get("payload") or {}), int(body.get("hops", 1)))
        except Exception:
            log.exception("cluster: a forwarded %s failed", body.get("event"))
            result = {"ok": False, "error": InternalError("something went wrong on our "
                                                          "side").to_dict()}
        # On the asking process's channel, behind what the request sent the session.
        reply_to = str(body["reply_to"])
        await self._publish(self.channel(reply_to), {
            "kind": "answer", "to": reply_to, "id": body["id"], "result": result,
            "rooms": carried})
