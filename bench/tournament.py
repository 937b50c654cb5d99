"""A multi-table tournament timed from outside: table silences and moved players' waits.

    .venv/bin/python bench/tournament.py                 # SQLite, a fresh database file
    .venv/bin/python bench/tournament.py \
        --database-url postgresql+asyncpg://postgres@127.0.0.1:5432/test   # a fresh database

The goal it measures (from the issue): a balanced field is seated at its new table by
the next hand there, no listed table silent and no moved player unseated for more than
10 s.

It starts a real ``holdem serve`` with the production table timings (3 s between hands,
bots acting after 1 s, 20 s to act) on a fresh migrated database, bootstraps an admin with
``holdem create-admin``, signs people up over REST, and has the admin create a
multi-table tournament (``POST /admin/tournaments``) with bots, short levels, a break and
late registration. People play over Socket.IO: each joins every table the tournament
seats them at (``user:notice`` ``tournament_seat``) and acts on their turns, half of them
pushing all-in, half calling and checking, so the field shrinks fast; some register only
after the start (late registration). An observer, logged in as the admin, reads
``GET /tournaments/{id}`` every second and joins every table listed there
(``table:join``), then records:

- each listed table's silences: the time between its consecutive ``table:event`` and
  ``table:turn`` messages (those of a ``table:batch`` too) while it is listed and the
  tournament runs, less breaks, and apart from them the waits of hand-for-hand play
  (bench/tournament_timing.py); the listing is read once a second, so a silence at the
  edge of a listing is known to about a second;
- each player moved between tables (``player_left`` with chips at one table,
  ``player_sat`` at another): the time without a seat; and for people, from their own
  ``player_left`` to their ``tournament_seat`` notice, as they saw it.

It prints one JSON summary (the figures against the goal, the entrants, the levels
played, the duration, the load average) and exits with status 1 when the tournament does
not start, or does not finish within ``--timeout`` seconds of its start. Every phase has a
time limit; the server is stopped and a PostgreSQL database dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import asdict
from itertools import pairwise
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import socketio  # noqa: E402

from bench.tournament_timing import (  # noqa: E402
    Poll,
    Seen,
    Silence,
    figures,
    moves,
    silences,
)
from tests.conftest import free_port, random_secret, scratch_database  # noqa: E402
from tests.e2e.test_crash import Server as ServerProcess  # noqa: E402

GOAL_SECONDS = 10.0
START_SECONDS = 60.0  # a server start on a busy machine
CALL_SECONDS = 10.0  # any one request
POLL_SECONDS = 1.0
SHOVE = ("all_in", "call", "check", "muck")
CALLER = ("check", "call", "muck", "fold")
TOLERATED = {"stale_action", "not_your_turn", "hand_over"}
PASSWORD = "tournament timing passphrase"
BLINDS = ((10, 20), (20, 40), (30, 60), (50, 100), (100, 200), (200, 400), (400, 800),
          (800, 1600), (1500, 3000), (3000, 6000))


class Clock:
    """Seconds since the run began (the observer's and the players' common clock)."""

    def __init__(self) -> None:
        self.origin = time.monotonic()

    def __call__(self) -> float:
        return time.monotonic() - self.origin


def structure(late_levels: int, break_after: int) -> dict[str, Any]:
    """One-minute levels with antes from the fourth, a one-minute break after level
    ``break_after`` (0: none)."""
    periods: list[dict[str, Any]] = []
    for number, (small, big) in enumerate(BLINDS, start=1):
        periods.append({"kind": "level", "small_blind": small, "big_blind": big,
                        "ante": big if number >= 4 else 0, "big_blind_ante": number >= 4,
                        "minutes": 1})
        if number == break_after:
            periods.append({"kind": "break", "minutes": 1})
    return {"name": "timing", "starting_stack": 1000, "late_levels": late_levels,
            "periods": periods}


def messages(event: str, data: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """A message as received, a ``table:batch`` unpacked."""
    if event == "table:batch":
        for message in data["messages"]:
            yield message["event"], message["data"]
    elif isinstance(data, dict):
        yield event, data


# ---- the people ------------------------------------------------------------------------


class Person:
    """A player over Socket.IO: joins each table the tournament seats them at and takes
    the first of ``style``'s actions that is legal on each turn."""

    def __init__(self, url: str, session: dict[str, Any], style: tuple[str, ...],
                 clock: Clock) -> None:
        self.url, self.style, self.clock = url, style, clock
        self.token = session["access_token"]
        self.public_id = session["user"]["public_id"]
        self.sio = socketio.AsyncClient(reconnection=False)
        self.sio.on("*", self._received)
        self.tables: list[str] = []
        self.left: list[tuple[float, str]] = []  # our own player_left with chips, as seen
        self.seated: list[tuple[float, str]] = []  # our tournament_seat notices
        self.finished: dict[str, Any] | None = None
        self.acks: Counter[str] = Counter()
        self._handled: set[tuple[str, int]] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def connect(self) -> None:
        await self.sio.connect(self.url, auth={"token": self.token}, transports=["websocket"],
                               wait_timeout=CALL_SECONDS)

    async def register(self, tournament_id: str) -> None:
        ack = await self.sio.call("tournament:register", {"tournament_id": tournament_id},
                                  timeout=CALL_SECONDS)
        if not ack.get("ok"):
            raise RuntimeError(f"tournament:register refused: {ack}")

    async def _received(self, event: str, data: Any = None) -> None:
        at = self.clock()
        for name, body in messages(event, data):
            if name == "user:notice":
                self._notice(at, body)
            elif name == "table:event" and body["event"]["type"] == "player_left" and (
                    body["event"]["player"]["public_id"] == self.public_id
                    and body["event"]["stack"] > 0):
                self.left.append((at, body["table_id"]))
            turn = body.get("turn") if name == "table:snapshot" else (
                body if name == "table:turn" else None)
            if turn and turn.get("legal_actions"):
                self._spawn(self._act(turn))

    def _notice(self, at: float, notice: dict[str, Any]) -> None:
        if notice["kind"] == "tournament_seat":
            self.seated.append((at, notice["table_id"]))
            if notice["table_id"] not in self.tables:
                self.tables.append(notice["table_id"])
                self._spawn(self._call("table:join", {"table_id": notice["table_id"]}))
        elif notice["kind"] == "tournament_finished":
            self.finished = notice

    async def _act(self, turn: dict[str, Any]) -> None:
        key = (turn["table_id"], turn["seq"])
        if key in self._handled:
            return
        self._handled.add(key)
        kinds = [a["action"] for a in turn["legal_actions"]]
        kind = next((k for k in self.style if k in kinds), kinds[0])
        await self._call("table:action", {"table_id": turn["table_id"],
                                          "hand_id": turn["hand_id"], "type": kind})

    async def _call(self, event: str, payload: dict[str, Any]) -> None:
        try:
            ack = await self.sio.call(event, payload, timeout=CALL_SECONDS)
        except Exception as error:  # counted; the run goes on
            self.acks[f"{event}: {type(error).__name__}"] += 1
            return
        code = "ok" if ack.get("ok") else ack.get("error", {}).get("code", "?")
        self.acks[f"{event}: {code}"] += 1

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def refused(self) -> dict[str, int]:
        """Acks that were neither ok nor a refusal a race explains (a stale action)."""
        return {k: n for k, n in self.acks.items()
                if not k.endswith(": ok") and k.split(": ")[1] not in TOLERATED}

    def moves(self) -> list[float]:
        """For each change of table (consecutive tournament_seat notices naming two
        tables), the seconds from our player_left at the old one to the notice of the new
        one (0 when the notice came first)."""
        waits = []
        for (sat, table), (moved, new) in pairwise(self.seated):
            left = [at for at, old in self.left if old == table and at >= sat]
            if left and new != table:
                waits.append(max(0.0, moved - left[0]))
        return waits


# ---- the observer ------------------------------------------------------------------------


class Observer:
    """Reads the tournament every second, joins each table it lists and notes the time of
    every message there."""

    def __init__(self, url: str, token: str, tournament_id: str, clock: Clock) -> None:
        self.url, self.token, self.tournament_id, self.clock = url, token, tournament_id, clock
        self.sio = socketio.AsyncClient(reconnection=False)
        self.sio.on("*", self._received)
        self.polls: list[Poll] = []
        self.marks: dict[str, list[tuple[float, str]]] = {}
        self.seen: list[Seen] = []
        self.joined: set[str] = set()
        self.levels: set[int] = set()
        self.entrants = 0
        self.hands = 0
        self.started: float | None = None
        self.ended: float | None = None

    async def _received(self, event: str, data: Any = None) -> None:
        at = self.clock()
        for name, body in messages(event, data):
            if name not in ("table:event", "table:turn"):
                continue
            kind = body["event"]["type"] if name == "table:event" else "turn"
            self.marks.setdefault(body["table_id"], []).append((at, kind))
            self.hands += int(kind == "hand_started")
            if kind in ("player_sat", "player_left"):
                e = body["event"]
                self.seen.append(Seen(at, body["table_id"], e["player"]["public_id"],
                                      "sat" if kind == "player_sat" else "left", e["stack"]))
            elif kind == "table_closed":
                self.seen.append(Seen(at, body["table_id"], "", "closed"))

    async def watch(self, http: httpx.AsyncClient, start_within: float, timeout: float
                    ) -> bool:
        """Poll until the tournament is over; whether it started within ``start_within``
        seconds and finished within ``timeout`` seconds of its start."""
        await self.sio.connect(self.url, auth={"token": self.token}, transports=["websocket"],
                               wait_timeout=CALL_SECONDS)
        begun = self.clock()
        while True:
            tick = self.clock()
            detail = (await http.get(f"/tournaments/{self.tournament_id}")).raise_for_status()
            if self._record(detail.json()):
                return self.started is not None
            if (self.clock() - (self.started or begun)
                    > (timeout if self.started is not None else start_within)):
                return False
            for table in self.polls[-1].tables - self.joined:
                with contextlib.suppress(Exception):  # not open yet: next time
                    ack = await self.sio.call("table:join", {"table_id": table},
                                              timeout=CALL_SECONDS)
                    if ack.get("ok"):
                        self.joined.add(table)
            await asyncio.sleep(max(0.0, tick + POLL_SECONDS - self.clock()))

    def _record(self, state: dict[str, Any]) -> bool:
        """Note one reading; whether the tournament is over."""
        at, status, level = self.clock(), state["status"], state["level"] or {}
        running = status == "running"
        if running and self.started is None:
            self.started = at
        if level.get("number"):
            self.levels.add(int(level["number"]))
        self.entrants = int(state["entrants"])
        self.polls.append(Poll(at, running, bool(level.get("on_break")),
                               bool(state["hand_for_hand"]),
                               frozenset(t["table_id"] for t in state["tables"])))
        if status in ("finished", "cancelled"):
            self.ended = at
            return True
        return False


# ---- the server -------------------------------------------------------------------------


class Server(ServerProcess):
    """``holdem serve`` in its own process, on a fresh database, logging to ``folder``."""

    def __init__(self, database_url: str, port: int, folder: Path) -> None:
        env = {**os.environ, "ENV": "development", "DATABASE_URL": database_url,
               "SECRET_KEY": random_secret(), "RATE_LIMITS_ENABLED": "false",
               "OUTBOX_DIR": str(folder / "outbox"), "REDIS_URL": "", "SMTP_HOST": "",
               "DRAIN_SECONDS": "0", "ARGON2_TIME_COST": "1", "ARGON2_MEMORY_KIB": "64",
               "ARGON2_PARALLELISM": "1"}
        super().__init__(env, port, folder / "server.log")

    def holdem(self, *args: str) -> None:
        """Run a ``holdem`` command against the server's database."""
        subprocess.run([sys.executable, "-m", "app.cli", *args], cwd=ROOT, env=self.env,
                       check=True, capture_output=True, timeout=120)

    def logged(self) -> str:
        """What the server has written to its log so far."""
        return self.log.read_text(errors="replace") if self.log and self.log.exists() else ""

    def errors_logged(self) -> int:
        """Lines of the server's log at level ERROR (tracebacks start with one)."""
        return sum(" ERROR " in line or line.startswith("ERROR")
                   for line in self.logged().splitlines())


async def login(http: httpx.AsyncClient, email: str) -> dict[str, Any]:
    answer = await http.post("/auth/login", json={"email": email, "password": PASSWORD})
    answer.raise_for_status()
    result: dict[str, Any] = answer.json()
    return result


async def sign_up(http: httpx.AsyncClient, number: int) -> dict[str, Any]:
    email = f"timing{number}@example.com"
    answer = await http.post("/auth/signup", json={
        "email": email, "password": PASSWORD, "display_name": f"timing_{number}"})
    answer.raise_for_status()
    return await login(http, email)


# ---- one run -------------------------------------------------------------------------------


async def run(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    """Set up the server, the admin and the people; play the tournament out while the
    observer watches; the summary."""
    clock = Clock()
    server.holdem("migrate")
    server.holdem("create-admin", "boss@example.com", "--password", PASSWORD)
    await server.start()
    loads = [os.getloadavg()[0]]
    async with httpx.AsyncClient(base_url=server.url, timeout=CALL_SECONDS) as http:
        admin = await login(http, "boss@example.com")
        sessions = [await sign_up(http, n) for n in range(args.people)]
        starts_at = time.time() + args.lead
        created = await http.post("/admin/tournaments", headers={
            "Authorization": f"Bearer {admin['access_token']}"}, json={
            "name": "Timing", "kind": "multi_table", "table_size": args.table_size,
            "buy_in": 10, "preset": None, "starts_at": starts_at, "bots": args.bots,
            "structure": structure(args.late_levels, args.break_after)})
        created.raise_for_status()
        tournament_id = created.json()["id"]
        people = [Person(server.url, s, SHOVE if n % 2 == 0 else CALLER, clock)
                  for n, s in enumerate(sessions)]
        for person in people:
            await person.connect()
        on_time = len(people) - args.late
        for person in people[:on_time]:
            await person.register(tournament_id)
        observer = Observer(server.url, admin["access_token"], tournament_id, clock)
        watching = asyncio.create_task(observer.watch(http, args.lead + 60, args.timeout))
        sampling = asyncio.create_task(_sample_load(loads))
        late = asyncio.create_task(_late(people[on_time:], tournament_id, starts_at,
                                         args.late_every))
        try:
            finished = await watching
            await _told(people)
        finally:
            for task in (late, sampling):
                task.cancel()
            for client in [*(p.sio for p in people), observer.sio]:
                with contextlib.suppress(Exception):
                    await client.disconnect()
    loads.append(os.getloadavg()[0])
    if args.record:
        record(Path(args.record), observer, people)
    late_done = late.done() and not late.cancelled() and late.exception() is None
    return report(args, observer, people, finished=finished, loads=loads,
                  late_registered=late_done or args.late == 0, errors=server.errors_logged())


async def _late(people: list[Person], tournament_id: str, starts_at: float,
                every: float) -> None:
    """Register each late person ``every`` seconds after the start, one after another."""
    for n, person in enumerate(people, start=1):
        await asyncio.sleep(max(0.0, starts_at + n * every - time.time()))
        await person.register(tournament_id)


async def _told(people: list[Person], seconds: float = 10.0) -> None:
    """Wait (a bounded time) until every person has heard the tournament is over."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(p.finished is None for p in people):
        await asyncio.sleep(0.1)


async def _sample_load(loads: list[float]) -> None:
    while True:
        await asyncio.sleep(15)
        loads.append(os.getloadavg()[0])


def record(path: Path, observer: Observer, people: list[Person]) -> None:
    """Write what was seen (every poll, message time and seat change) as JSON, for a
    closer look at a figure."""
    path.write_text(json.dumps({
        "started": observer.started, "ended": observer.ended,
        "polls": [asdict(p) | {"tables": sorted(p.tables)} for p in observer.polls],
        "marks": observer.marks, "seen": [asdict(s) for s in observer.seen],
        "people": [{"public_id": p.public_id, "left": p.left, "seated": p.seated}
                   for p in people]}))


def report(args: argparse.Namespace, observer: Observer, people: list[Person], *,
           finished: bool, loads: list[float], late_registered: bool, errors: int
           ) -> dict[str, Any]:
    """The run's JSON summary."""
    found = [s for table, marks in observer.marks.items()
             for s in silences(table, marks, observer.polls)]
    found += [s for table in {t for p in observer.polls for t in p.tables} - set(observer.marks)
              for s in silences(table, [], observer.polls)]
    plain = [s for s in found if not s.hand_for_hand]
    longest: dict[str, float] = {}
    for s in plain:
        longest[s.table] = max(longest.get(s.table, 0.0), s.seconds)
    moved, unseated = moves(observer.seen)
    end = observer.ended if observer.ended is not None else observer.clock()
    origin = observer.started or 0.0
    listed = {t for p in observer.polls if p.running for t in p.tables}
    broke = [m for m in moved
             if not any(p.at > m.left and m.from_table in p.tables for p in observer.polls)]
    return {
        "finished": finished, "database": args.database_url.split(":")[0] if
        args.database_url else "sqlite",
        "entrants": observer.entrants, "people": len(people), "bots": args.bots,
        "late_entries": args.late, "late_registered": late_registered,
        "table_size": args.table_size, "tables_listed": len(listed),
        "structure": f"1,000 chips; one-minute levels from 10/20 to 3000/6000, big-blind "
                     f"antes from level 4; late registration for {args.late_levels} levels; "
                     + (f"a one-minute break after level {args.break_after}"
                        if args.break_after else "no break"),
        "levels_played": max(observer.levels, default=0),
        "duration_s": round(end - origin, 1), "hands": observer.hands,
        "goal_s": GOAL_SECONDS,
        "goal_met": all(x <= GOAL_SECONDS for x in (
            max(longest.values(), default=0.0), max((m.seconds for m in moved), default=0.0),
            *(end - s.at for s in unseated))),
        "table_silence_s": {
            **figures(list(longest.values())), "tables": len(longest),
            "p95_of_all_silences": figures([s.seconds for s in plain])["p95"],
            "silences": len(plain), "over_goal": sum(s.seconds > GOAL_SECONDS for s in plain),
            "on_break_excluded": round(sum(s.on_break for s in found), 1),
            "worst": [_silence(s, origin) for s in sorted(plain, key=lambda s: -s.seconds)[:5]]},
        "hand_for_hand_silence_s": figures([s.seconds for s in found if s.hand_for_hand]),
        "moved_unseated_s": {
            **figures([m.seconds for m in moved]), "by_break": len(broke),
            "by_balancing": len(moved) - len(broke),
            "seat_before_leaving": sum(m.sat < m.left for m in moved),
            "still_unseated": [{"player": s.player, "table": s.table,
                                "for_s": round(end - s.at, 1)} for s in unseated],
            "worst": [{"player": m.player, "from": m.from_table, "to": m.to_table,
                       "at_s": round(m.left - origin, 1), "seconds": round(m.seconds, 3)}
                      for m in sorted(moved, key=lambda m: -m.seconds)[:3]]},
        "people_moved_s": figures([w for p in people for w in p.moves()]),
        "people_finished": sum(p.finished is not None for p in people),
        "refused_acks": dict(sum((Counter(p.refused()) for p in people), Counter())),
        "server_errors_logged": errors,
        "load_average_1m": {"start": loads[0], "max": max(loads), "end": loads[-1]},
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "timings": "production defaults: HAND_START_DELAY_SECONDS 3, BOT_DELAY_SECONDS 1, "
                   "ACTION_SECONDS 20, SHOWDOWN_SECONDS 5",
    }


def _silence(s: Silence, origin: float) -> dict[str, Any]:
    return {"table": s.table, "at_s": round(s.start - origin, 1), "seconds": round(s.seconds, 3),
            "after": s.before, "before": s.after}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default="",
                        help="a PostgreSQL server: the run gets a fresh database there "
                             "(default: a fresh SQLite file)")
    parser.add_argument("--people", type=int, default=6, help="players over Socket.IO")
    parser.add_argument("--late", type=int, default=2,
                        help="of the people, how many register after the start")
    parser.add_argument("--late-every", type=float, default=20.0,
                        help="seconds between the late registrations, from the start")
    parser.add_argument("--bots", type=int, default=16)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--late-levels", type=int, default=2,
                        help="levels (of one minute) with late registration open")
    parser.add_argument("--break-after", type=int, default=3,
                        help="a one-minute break after this level (0: none)")
    parser.add_argument("--lead", type=float, default=10.0,
                        help="seconds from creating the tournament to its start")
    parser.add_argument("--timeout", type=float, default=900.0,
                        help="seconds from the start within which it must finish")
    parser.add_argument("--port", type=int, default=0, help="default: a free port")
    parser.add_argument("--record", default="",
                        help="also write every poll, message time and seat change seen to "
                             "this JSON file")
    args = parser.parse_args()
    if not 0 <= args.late <= args.people or args.late * args.late_every > 60 * args.late_levels:
        parser.error("--late must be at most --people, and every late entry due while late "
                     "registration is open")
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tournament-")))
        url = scratch_database(stack, folder, "tournament", args.database_url)
        server = Server(url, args.port or free_port(), folder)
        stack.callback(server.stop)
        bound = START_SECONDS + args.lead + args.timeout + 120
        try:
            summary = asyncio.run(asyncio.wait_for(run(args, server), bound))
        except Exception as error:
            print(json.dumps({"finished": False, "error": repr(error)}), file=sys.stdout)
            print(server.logged()[-3000:], file=sys.stderr)
            return 1
    print(json.dumps(summary, indent=1))
    return 0 if summary["finished"] else 1


if __name__ == "__main__":
    sys.exit(main())
