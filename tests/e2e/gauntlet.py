"""The hostile-client gauntlet: many clients send random, malformed, replayed, out-of-order
and out-of-turn requests to a real server while real hands are played, and after every batch
the server must still keep every promise.

Six logged-in clients (one of them without credits) and one anonymous client send
seeded random requests (see :mod:`tests.e2e.payloads`); the seated ones also play
their turns with legal actions so hands keep being dealt at two tables with bots.
After each batch every sender pauses and :class:`Findings` records what broke:

- a request without an ack, an error code the protocol does not document, an
  ``internal_error``, a logged server error, a malformed payload not refused with
  ``invalid_payload``, a received event off its documented schema;
- a hole card a client may not see (another seat's unshown cards, anything unshown
  for a spectator or an anonymous client);
- per client and table, a ``seq`` not above the last one seen (a snapshot may repeat it);
- a table's public event reaching a client that does not watch it;
- the reconciling ledger audit not balancing.

A refused ``table:sit`` or ``table:quick-seat`` must leave its sender outside the
table, a resumed session (``table:join {since_seq}``) must get each message once and in
order, and a coercible payload (``"40"`` or ``true`` for a number) must be refused like
any other malformed one; each has a finding kind of its own, and every kind fails the run.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from random import Random
from typing import Any

import socketio
from sqlalchemy import select

from app.admin.audit import audit
from app.db import ledger
from app.db.engine import Database
from app.db.models import LedgerReason, User
from app.db.tables import HandRecord
from app.protocol import ERROR_CLASSES, REQUESTS
from tests.conftest import Accounts, Player
from tests.e2e.findings import ErrorLog, Findings, cards_seen
from tests.e2e.payloads import Label, Payloads, Request, label, mutate
from tests.realtime.harness import Client, LiveServer

DOCUMENTED_CODES = frozenset(cls.code for cls in ERROR_CLASSES)
ACK_SECONDS = 15.0
TABLE = {"small_blind": 5, "big_blind": 10, "min_buy_in": 100, "max_buy_in": 2_000,
         "bots": True, "action_seconds": 1.0}
OPENS_A_VIEW = ("table:join", "table:sit", "table:quick-seat")
KEPT = 20
KEPT_BODIES = 600
UNWATCH_SETTLING_SECONDS = 0.25


def _queued_by_a_refused_sit(data: dict[str, Any]) -> bool:
    # What a refused sit at a bot's seat could send and then take back with the state (a
    # bot's departure, the waiting list without the sitter): if it went out, its number
    # would be given again to the next message, so a repeat of it is a reused seq.
    event = data.get("event") or {}
    bot_left = event.get("type") == "player_left" and bool((event.get("player") or {}).get("bot"))
    return bot_left or event.get("type") == "waiting_list"


class Stream:
    """What one client saw of one table: the last seq, whether it watches, whether it ever
    sat there (its private messages may still come after it left)."""

    def __init__(self) -> None:
        self.last: int | None = None
        self.bodies: dict[int, str] = {}
        self.unwatched_at = float("-inf")
        self.rewound: set[int] = set()
        self.watching = False
        self.seated = False
        self.refused_sit = False


class Hostile(Client):
    """A gauntlet client: records everything, checks seq order and visibility on arrival."""

    def __init__(self, gauntlet: Gauntlet, number: int, player: Player | None) -> None:
        super().__init__(gauntlet.server.url, player)
        self.gauntlet = gauntlet
        self.number = number
        self.public_id = player.public_id if player else None
        self.streams: dict[str, Stream] = {}
        self.turns: dict[str, dict[str, Any]] = {}
        self.hands: dict[str, str] = {}
        self.old_hands: list[str] = []
        self.sent: list[Request] = []
        self.pending: tuple[str, str | None] | None = None
        self.held: list[str] = []
        self.resuming = False
        self.refused_quick_seat = False
        self.session = 0
        self.last_answered = ""
        self._listen()

    def stream(self, table_id: str) -> Stream:
        return self.streams.setdefault(table_id, Stream())

    def _listen(self) -> None:
        # Messages of a closed session may still be handled after the next one starts:
        # they carry the session they came from.
        session = self.session

        async def record(event: str, data: Any = None) -> None:
            await self._record_of(session, event, data)

        self.sio.on("*", record)

    async def _record_of(self, session: int, event: str, data: Any = None) -> None:
        if event == "table:batch" and isinstance(data, dict):
            # Several messages sent together: each is checked as if it came alone.
            self._check(event, data)
            for message in data.get("messages", []):
                await self._record_of(session, message["event"], message["data"])
            return
        await super()._record(event, data)
        if isinstance(data, dict) and isinstance(data.get("table_id"), str) \
                and isinstance(data.get("seq"), int):
            self.gauntlet.saw(self, event, data, old_session=session != self.session)

    async def reconnect(self) -> None:
        """A new session: the old one is gone with its rooms; the client keeps its seqs."""
        await self.sio.disconnect()
        self.session += 1
        self.sio = socketio.AsyncClient(reconnection=False)
        self._listen()
        for stream in self.streams.values():
            stream.watching = False
        await self.connect()


class Gauntlet:
    """Runs the clients against one live server and collects :class:`Findings`."""

    def __init__(self, server: LiveServer, accounts: Accounts, *, seed: int) -> None:
        self.server = server
        self.accounts = accounts
        self.rng = Random(seed)
        self.payloads = Payloads(self.rng)
        self.findings = Findings()
        self.clients: list[Hostile] = []
        self.broke: Hostile | None = None
        self.tables: list[str] = []
        self.seat_maps: dict[str, dict[int, str]] = {}
        self.sightings: list[tuple[Hostile, str, str, int, str]] = []
        self.database = Database(server.database.engine.url)

    # ---- arranging ---------------------------------------------------------------------

    async def arrange(self, people: int = 6) -> None:
        """Players and two tables with bots where hands are dealt, a third with a bot alone;
        one player is broke."""
        players = [await self.accounts.player(verified=False) for _ in range(people)]
        async with self.database.sessions() as session:
            broke = await session.get(User, players[-1].id)
            assert broke is not None
            await ledger.debit(session, broke.id, broke.balance,
                               reason=LedgerReason.ADMIN_ADJUSTMENT, reference="gauntlet")
            await session.commit()
        # The house exists before play (two tables creating it at once find one house:
        # test_gauntlet_findings.py).
        await self.server.realtime.host.services.store.house()
        self.clients = [Hostile(self, n, p) for n, p in enumerate(players)]
        self.broke = self.clients[-1]
        self.clients.append(Hostile(self, people, None))
        for client in self.clients:
            await client.connect()
        host = self.clients[0]
        for name, seats, bots, sitters in (("A", 6, 2, (0, 1, 2)), ("B", 4, 1, (3, 4))):
            created = await host.ok("table:create", {**TABLE, "name": f"gauntlet {name}",
                                                     "seats": seats, "bot_count": bots})
            table_id = created["table"]["table_id"]
            self.tables.append(table_id)
            for seat, number in enumerate(sitters):
                await self.send(self.clients[number], "table:sit", (
                    {"table_id": table_id, "seat": seat, "buy_in": 1_000},), "arranged")
            for client in self.clients[:people - 1]:
                await self.send(client, "table:join", ({"table_id": table_id},), "arranged")
        # A player without credits tries the free seat at B: refused, and must watch nothing.
        await self.send(self.broke, "table:sit", (
            {"table_id": self.tables[1], "seat": 2, "buy_in": 1_000},), "arranged")
        # And the bot's seat at C, where no hand is dealt, then someone chats there.
        created = await host.ok("table:create", {**TABLE, "name": "gauntlet C", "seats": 3,
                                                 "bot_count": 1})
        table_c = created["table"]["table_id"]
        self.tables.append(table_c)
        await self.send(host, "table:join", ({"table_id": table_c},), "arranged")
        await self.send(self.broke, "table:sit", (
            {"table_id": table_c, "seat": 2, "buy_in": 1_000},), "arranged")
        await self.send(host, "table:chat", ({"table_id": table_c, "text": "hello"},),
                        "arranged")

    # ---- sending -----------------------------------------------------------------------

    async def send(self, client: Hostile, event: str, args: tuple[Any, ...], kind: str) -> Any:
        """One request and its checks: an ack, a documented code, the label respected."""
        request = Request(event, args, label(event, args), kind)
        findings = self.findings
        findings.requests += 1
        findings.labels[request.label.value] += 1
        table_id = args[0].get("table_id") if args and isinstance(args[0], dict) else None
        client.pending = (event, table_id if isinstance(table_id, str) else None)
        # python-socketio sends a tuple as several arguments, and None as none.
        data = None if not args else tuple(args) if len(args) > 1 or args[0] is None \
            else args[0]
        try:
            ack = await client.sio.call(event, data, timeout=ACK_SECONDS)
        except (TimeoutError, socketio.exceptions.TimeoutError):
            findings.no_ack.append(f"client {client.number}: {request.describe()}")
            return None
        finally:
            client.pending = None
        client.last_answered = f"{request.describe()[:120]} -> {str(ack)[:80]}"
        self._check_ack(client, request, ack)
        self._after_ack(client, request, ack)
        return ack

    def _check_ack(self, client: Hostile, request: Request, ack: Any) -> None:
        findings = self.findings
        if not isinstance(ack, dict) or not isinstance(ack.get("ok"), bool):
            findings.no_ack.append(f"client {client.number}: {request.describe()} -> {ack!r}")
            return
        code = "ok" if ack["ok"] else str(ack.get("error", {}).get("code"))
        findings.codes[code] += 1
        findings.accepted += ack["ok"]
        line = f"client {client.number}: {request.describe()} -> {code}"
        if code != "ok" and code not in DOCUMENTED_CODES:
            findings.undocumented.append(line)
        if code == "internal_error":
            findings.internal_errors.append(line)
        if code != "invalid_payload" and request.label is Label.MALFORMED:
            findings.malformed_accepted.append(line)
        if code != "invalid_payload" and request.label is Label.COERCED:
            findings.coerced_accepted.append(line)

    def _after_ack(self, client: Hostile, request: Request, ack: dict[str, Any]) -> None:
        held, client.held = client.held, []
        ok = isinstance(ack, dict) and ack.get("ok") is True
        sitting = request.event in ("table:sit", "table:quick-seat")
        if not ok:
            # Messages that came while a refused request was answered: it opened no view.
            code = ack.get("error", {}).get("code") if isinstance(ack, dict) else ack
            for seen_at in held:
                self._unwatched(f"{seen_at} while {request.describe()[:100]} -> {code}",
                                sitting)
            if request.event == "table:quick-seat":
                # Which table it tried is not said: any table may now reach this client.
                client.refused_quick_seat = True
        payload = request.args[0] if len(request.args) == 1 else None
        if not isinstance(payload, dict) or not isinstance(ack, dict):
            return
        table_id = ack.get("table_id") or payload.get("table_id")
        if not isinstance(table_id, str):
            return
        stream = client.stream(table_id)
        if ok:
            if request.label is Label.VALID:
                client.sent = [*client.sent[-(KEPT - 1):], request]
            if request.event in OPENS_A_VIEW:
                stream.watching = True
            if request.event in ("table:sit", "table:quick-seat"):
                stream.seated = True
                if table_id not in self.tables:
                    self.tables.append(table_id)
            elif request.event == "table:unwatch":
                stream.watching = False
                stream.unwatched_at = time.monotonic()
            elif request.event == "table:create":
                self.tables.append(ack["table"]["table_id"])
            return
        if sitting:
            stream.refused_sit = True

    # ---- receiving ---------------------------------------------------------------------

    def saw(self, client: Hostile, name: str, data: dict[str, Any], *,
            old_session: bool = False) -> None:
        """Check one table message on arrival: seq order, who may receive it, hole cards."""
        self.findings.messages += 1
        table_id, seq = data["table_id"], data["seq"]
        stream = client.stream(table_id)
        kind = (data.get("event") or {}).get("type", "") if name == "table:event" else ""
        where = f"client {client.number} table {table_id} {name} {kind} seq {seq}".replace(
            "  ", " ")
        body = json.dumps(data, sort_keys=True)
        if stream.last is not None and (seq < stream.last or (
                seq == stream.last and name != "table:snapshot")):
            if client.resuming:
                found = self.findings.resume_seq
            elif stream.bodies.get(seq, body) != body or name == "table:snapshot" \
                    or seq in stream.rewound or _queued_by_a_refused_sit(data):
                found = self.findings.seq_reused
            else:
                found = self.findings.seq
            found.append(f"{where} after seq {stream.last}")
        if name == "table:snapshot" and stream.last is not None and seq < stream.last:
            # The table's seq went back: the numbers after it will be given out again.
            stream.rewound.update(range(seq + 1, stream.last + 1))
        if name != "table:snapshot":
            stream.bodies[seq] = body
            stream.bodies.pop(seq - KEPT_BODIES, None)
        stream.last = seq if stream.last is None else max(stream.last, seq)
        # The client handles each message in a task of its own: one that came before the
        # ack of table:unwatch may be handled just after it.
        settling = time.monotonic() - stream.unwatched_at < UNWATCH_SETTLING_SECONDS
        if not (stream.watching or old_session or settling):
            pending = client.pending
            if pending is not None and pending[0] in OPENS_A_VIEW and pending[1] in (
                    table_id, None):
                client.held.append(where)
            elif stream.refused_sit or client.refused_quick_seat:
                self._unwatched(where, True)
            elif not self._server_watcher(client, table_id):
                # The client's own record can lag its acks; the table's list of watchers
                # cannot: a session that is not on it must not get the table's events.
                self._unwatched(f"{where} (last answered: {client.last_answered})", False)
        hand_id = data.get("hand_id")
        if isinstance(hand_id, str):
            self._note_hand(client, table_id, hand_id, name, data)

    def _server_watcher(self, client: Hostile, table_id: str) -> bool:
        table = self.server.realtime.host.live.tables.get(table_id)
        return table is not None and client.sio.get_sid() in table.watchers

    def _unwatched(self, where: str, refused: bool) -> None:
        found = self.findings.after_refused_sit if refused else self.findings.unwatched
        found.append(f"{where}: not watching")

    def _note_hand(self, client: Hostile, table_id: str, hand_id: str, name: str,
                   data: dict[str, Any]) -> None:
        if client.hands.get(table_id) != hand_id:
            previous = client.hands.get(table_id)
            if previous:
                client.old_hands = [*client.old_hands[-(KEPT - 1):], previous]
            client.hands[table_id] = hand_id
        if name == "table:turn":
            if data.get("legal_actions") is not None:
                client.turns[table_id] = data
            else:
                client.turns.pop(table_id, None)
        event = data.get("event") or {}
        if event.get("type") == "hand_ended" and client is self.clients[0]:
            self.findings.hands_ended += 1
        if hand_id not in self.seat_maps:
            self._map_seats(table_id, hand_id)
        for seat in cards_seen(name, data):
            self.sightings.append((client, table_id, hand_id, seat, f"{name} seq {data['seq']}"))

    def _map_seats(self, table_id: str, hand_id: str) -> None:
        """Who sits where in the hand, read from the live table while it is played."""
        table = self.server.realtime.host.live.tables.get(table_id)
        current = table.state.current if table is not None else None
        if table is None or current is None or current.id != hand_id:
            return
        self.seat_maps[hand_id] = {
            s.number: table.state.players[s.number].person.public_id for s in current.hand.seats}

    # ---- playing -----------------------------------------------------------------------

    def _next_request(self, client: Hostile) -> tuple[str, tuple[Any, ...], str] | None:
        rng = self.rng
        turn = next(iter(client.turns.values()), None)
        if turn is not None and rng.random() < 0.6:
            return self._legal(client, turn)
        if client.sent and rng.random() < 0.1:
            old = rng.choice(client.sent)
            # A replayed since_seq would ask for messages the client already has.
            args = tuple({k: v for k, v in a.items() if k != "since_seq"}
                         if isinstance(a, dict) else a for a in old.args)
            return old.event, args, "replay"
        event = rng.choice(REQUESTS).name
        if event == "table:create" and rng.random() < 0.9:
            event = "table:action"
        if client is self.broke and event in ("table:join", "table:quick-seat"):
            # Without credits it mostly watches nothing and tries to sit.
            event = rng.choice(("table:unwatch", "table:sit", "table:sit"))
        table_id = self.payloads.table_id(self.tables)
        hand_id = self.payloads.hand_id(client.hands.get(table_id), client.old_hands)
        payload = self.payloads.build(event, table_id, hand_id, rng.randint(1, 3_000))
        if event == "table:join":
            self._resume_point(client, payload)
        if rng.random() < 0.45:
            mutated = mutate(rng, event, payload)
            return mutated.event, mutated.args, mutated.kind
        return event, (payload,), "valid"

    def _resume_point(self, client: Hostile, payload: dict[str, Any]) -> None:
        # A join with since_seq asks for everything after it again: only a client that
        # watches nothing there (a refused sit may have made it watch: item 2) and holds no
        # seat may ask, and only from what it saw last.
        stream = client.stream(payload["table_id"])
        if stream.last is not None and not (stream.watching or stream.seated
                                            or stream.refused_sit) and self.rng.random() < 0.5:
            payload["since_seq"] = stream.last + self.rng.choice((0, 0, 0, 10**6))

    def _legal(self, client: Hostile, turn: dict[str, Any]) -> tuple[str, tuple[Any, ...], str]:
        client.turns.pop(turn["table_id"], None)
        choice = self.rng.choice(turn["legal_actions"])
        payload: dict[str, Any] = {"table_id": turn["table_id"], "hand_id": turn["hand_id"],
                                   "type": choice["action"]}
        if "min" in choice and "max" in choice:
            payload["amount"] = self.rng.choice((choice["min"], choice["max"], self.rng.randint(
                choice["min"], choice["max"])))
        self.findings.legal_actions += 1
        return "table:action", (payload,), "legal"

    async def _sender(self, client: Hostile, count: int) -> None:
        for _ in range(count):
            if not client.sio.connected:
                return
            planned = self._next_request(client)
            if planned is None:
                continue
            event, args, kind = planned
            await self.send(client, event, args, kind)

    async def batch(self, size: int) -> None:
        """``size`` requests spread over every client at once, then the checks."""
        share = max(1, size // len(self.clients))
        await asyncio.gather(*(self._sender(client, share) for client in self.clients))
        self.findings.batches += 1
        await self.check()

    async def resume(self) -> None:
        """A seated client loses its connection and resumes from the last seq it saw."""
        seated = [c for c in self.clients[:-2] if any(s.seated for s in c.streams.values())]
        if not seated:
            return
        client = self.rng.choice(seated)
        watched = [t for t, s in client.streams.items() if s.watching]
        for table_id in (t for t, s in client.streams.items() if s.seated):
            await self.send(client, "table:sit-in", ({"table_id": table_id},), "resume")
        client.resuming = True
        try:
            await client.reconnect()
            # A private message (hole cards, a turn) sent to the new session before it
            # joins would arrive now, and fail the not-watching check.
            await asyncio.sleep(0.5)
            for table_id in watched:
                # The last seq it saw: the old session may have handled messages until it
                # closed (each in a task of its own), and the new one gets none before it
                # joins.
                since = client.stream(table_id).last
                payload: dict[str, Any] = {"table_id": table_id}
                if since is not None:
                    payload["since_seq"] = since
                await self.send(client, "table:join", (payload,), "resume")
            await asyncio.sleep(0.5)
        finally:
            client.resuming = False
        self.findings.resumes += 1

    # ---- checking ----------------------------------------------------------------------

    async def check(self, *, final: bool = False) -> None:
        """Hole cards against who sat where, and the reconciling audit. A sighting in a hand
        that ended before its message was handled waits for the hand's record; at the
        ``final`` check, a few seconds at most."""
        for _ in range(20 if final else 1):
            await self._check_cards(final=final)
            if not self.sightings:
                break
            await asyncio.sleep(0.5)
        if final and self.sightings:
            self.findings.unresolved_hands.extend(sorted(
                {f"{table} hand {hand}" for _, table, hand, _, _ in self.sightings}))
        report = await audit(self.database)
        self.findings.audits += 1
        if not report.balanced:
            self.findings.unbalanced.append(report.describe())

    async def _check_cards(self, *, final: bool) -> None:
        sightings, self.sightings = self.sightings, []
        missing = {hand_id for _, _, hand_id, _, _ in sightings if hand_id not in self.seat_maps}
        if missing:
            async with self.database.sessions() as session:
                rows = await session.execute(
                    select(HandRecord.id, HandRecord.summary).where(HandRecord.id.in_(missing)))
                for hand_id, summary in rows:
                    self.seat_maps[hand_id] = {p["seat"]: p["player"]["public_id"]
                                               for p in summary["players"]}
        for client, table_id, hand_id, seat, where in sightings:
            seats = self.seat_maps.get(hand_id)
            if seats is None:
                self.sightings.append((client, table_id, hand_id, seat, where))
            elif client.public_id is None or seats.get(seat) != client.public_id:
                self.findings.leaks.append(
                    f"client {client.number} saw seat {seat}'s cards in {where} at "
                    f"table {table_id} hand {hand_id}")

    async def run(self, requests: int, *, batch: int = 500,
                  progress: Callable[[Findings], None] | None = None) -> Findings:
        """Send about ``requests`` requests in batches; the findings of the whole run."""
        started = time.monotonic()
        with ErrorLog() as errors:
            try:
                await self.arrange()
                await self.check()
                while self.findings.requests < requests:
                    await self.batch(min(batch, requests - self.findings.requests))
                    await self.resume()
                    self.findings.elapsed = time.monotonic() - started
                    if progress is not None:
                        progress(self.findings)
                await self.check(final=True)
            finally:
                for client in self.clients:
                    self.findings.off_schema += client.off_schema
                    if client.sio.connected:
                        await client.disconnect()
                await self.database.dispose()
        self.findings.logged_errors = errors.records
        self.findings.elapsed = time.monotonic() - started
        return self.findings

