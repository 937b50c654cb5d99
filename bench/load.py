"""Socket.IO load benchmark: K players at 6-max tables, against holdem-server or a bare baseline.

    .venv/bin/python bench/load.py --target bare --clients 1200 --mode pace
    .venv/bin/python bench/load.py --target holdem --clients 600 --mode fast
    .venv/bin/python bench/load.py --compare --clients 1200     # bare, then holdem: the ratio
    .venv/bin/python bench/load.py --target bare --idle --clients 2000   # memory only
    .venv/bin/python bench/load.py --target holdem --servers 2 --route table \
        --database-url postgresql+asyncpg://postgres@127.0.0.1:5432/test \
        --redis-url redis://127.0.0.1:6379/0          # two processes, routed by table

With ``--signups N`` (and ``--odds R``) a burst of sign-ups and logins over REST (and
odds requests) runs against the server during the measured window (bench/burst.py), and
``--worker inline`` sends the mail from the server's own process, as it did before the
worker process: the tables' figures under the burst, beside the quiet ones.

It starts the server itself (one uvicorn worker; ``--gc-threshold`` and
``--deflate`` choose the two settings under test, which default to how ``holdem serve``
runs, for the baseline too), connects the clients from
``--procs`` generator processes with the raw-protocol client of
bench/loadclient.py, seats six per table and lets them play:

- ``--mode pace``: the player whose turn it is acts ``--pace`` seconds after
  its ``table:turn`` arrives (about one action per table every 3 s);
- ``--mode fast``: it acts as soon as its turn arrives, and holdem deals the next hand
  0.1 s after one ends (``--hand-delay``; the server's own 3 s would leave it idle
  between hands, bounded by the pause and not by its CPU: "saturated" would not be).

With ``--servers N`` the players reach the servers as a proxy would send them:

- ``--route seat`` (the default): the seats of each table go round the servers, as a proxy
  that spreads connections without regard to tables does;
- ``--route table``: each table's first player opens it on any server; then every player
  of the table connects, with ``table=<id>`` in its query as the browser's table page
  does, to the server a hash of the table id picks, as the proxy of deploy/nginx.conf
  does, and the table moves there.

The report gives the forwarded share for either route: the actions the servers sent on
to another process (``holdem_forwarded_requests_total``) over the actions sent.

Latency is the time from sending ``table:action`` to the next player's
``table:turn`` arriving, over the ``--duration`` seconds after a ``--warmup``.
It reports p50/p95/p99/max, actions per second, every ack (ok or not), server
CPU (utime+stime from /proc/<pid>/stat) and RSS per connected player
(/proc/<pid>/status: resident memory after connecting, minus before, over the
players; and again at the end of the window, once the tables have played), and the load
average, since this machine is shared. With
``--redis-url`` or ``--database-url`` on PostgreSQL it also reports what each
action cost those services (bench/services.py: Redis commands and CPU, PostgreSQL
commits, read-only transactions, rows, WAL and backend CPU). Every phase has
a time limit and the server and generators are stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import platform
import random
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from importlib.metadata import version
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.cli import SERVER_GC_THRESHOLDS  # noqa: E402
from app.collector import FREEZE_SECONDS  # noqa: E402
from bench import burst, gcpauses  # noqa: E402
from bench.loadclient import HandshakeError, SioClient, connect  # noqa: E402
from bench.services import ServiceMeter  # noqa: E402
from bench.targets import GC_STATS, TARGETS, PlayerSeat, Target, make_target  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")
CONNECT_CONCURRENCY = 64
PHASE_TIMEOUT = 180.0  # connecting and seating 2,000 players; more get longer
DRAIN_SECONDS = 15.0  # longest wait for the acks of actions already sent
MAX_CLIENTS = 12_000  # the 10,000-player pace run, and a margin
FAST_HAND_DELAY = 0.1  # seconds between hands in --mode fast, unless --hand-delay says
MOVED_ATTEMPTS = 5  # a request refused with table_moved is sent again, as browsers do
HAND_ACTIONS = 26  # about a hand of six players who check or call down: 4 streets, mucks


@dataclass(frozen=True)
class Options:
    """One run's settings (everything that goes into a result line)."""

    target: str
    clients: int
    mode: str
    pace: float
    warmup: float
    duration: float
    procs: int
    port: int
    gc_threshold: str
    server_deflate: bool
    client_deflate: bool
    idle: bool
    seed: int
    hand_delay: float | None = None
    database_url: str | None = None
    servers: int = 1
    redis_url: str | None = None
    route: str = "seat"
    signups: int = 0
    signup_concurrency: int = 16
    odds: float = 0.0


@dataclass
class WorkerReport:
    """What one generator process saw."""

    connected: int = 0
    connect_failures: int = 0
    seated: int = 0
    sent: int = 0
    acked_ok: int = 0
    acked_error: int = 0
    unacked: int = 0
    error_codes: Counter[str] = field(default_factory=Counter)
    latencies_ms: list[float] = field(default_factory=list)
    turns_received: int = 0
    cpu_seconds: float = 0.0


# ---- generator processes -------------------------------------------------------------


class Player:
    """One connected player: its seat and what it does on its turn."""

    def __init__(self, seat: PlayerSeat) -> None:
        self.seat = seat
        self.client: SioClient | None = None


class Generator:
    """The players of one process and the bookkeeping of their tables."""

    def __init__(self, opts: Options, target: Target, seats: list[PlayerSeat]) -> None:
        self.opts, self.target = opts, target
        self.players = [Player(s) for s in seats]
        self.report = WorkerReport()
        self.table_ids: dict[int, str] = {}
        # table index -> (when its last action went out, the hand it was in)
        self.sent_at: dict[int, tuple[float, str]] = {}
        self.pending: dict[int, tuple[Player, Any]] = {}  # turns that arrived before "go"
        self.running = False
        self.window: tuple[float, float] = (0.0, 0.0)
        self.rng = random.Random(opts.seed)
        self.loop: asyncio.AbstractEventLoop | None = None
        # Actions each table plays at once when it starts, so the window finds the tables
        # at every point of their hands (hand ends included), not all at the first deal.
        self.ahead: dict[int, int] = {}

    def on_event(self, client: SioClient, event: str, data: Any) -> None:
        if event == "table:batch":
            for message in data["messages"]:
                self.on_event(client, message["event"], message["data"])
            return
        if event != "table:turn":
            return
        player: Player = client.state
        if not self.target.is_my_turn(player.seat, data):
            return
        self.report.turns_received += 1
        now = time.perf_counter()
        index = player.seat.table_index
        sent = self.sent_at.pop(index, None)
        # A new hand's first turn waits for the deal delay: not a latency sample.
        if sent is not None and self.window[0] <= sent[0] <= self.window[1] \
                and sent[1] == str(data.get("hand_id")):
            self.report.latencies_ms.append((now - sent[0]) * 1000)
        if not self.running:
            self.pending[index] = (player, data)
            return
        self._schedule(player, data, self._delay(index))

    def _delay(self, index: int) -> float:
        """How long the player to act at table ``index`` thinks: nothing while the table
        fast-forwards to its starting point, else the pace, give or take half of it."""
        if self.opts.mode != "pace":
            return 0.0
        if self.ahead.get(index, 0) > 0:
            self.ahead[index] -= 1
            return 0.0
        return self.opts.pace * self.rng.uniform(0.5, 1.5)

    def _schedule(self, player: Player, turn: Any, delay: float) -> None:
        assert self.loop is not None
        if delay <= 0:
            self._act(player, turn)
        else:
            self.loop.call_later(delay, self._act, player, turn)

    def _act(self, player: Player, turn: Any) -> None:
        if not self.running or player.client is None:
            return
        now = time.perf_counter()
        if now > self.window[1]:
            return
        index = player.seat.table_index
        payload = self.target.action_payload(self.table_ids[index], turn)
        self.sent_at[index] = (now, str(turn.get("hand_id")))
        in_window = now >= self.window[0]
        if in_window:
            self.report.sent += 1
        player.client.emit("table:action", payload, lambda ack: self._acked(ack, in_window))

    def _acked(self, ack: Any, in_window: bool) -> None:
        if not in_window:
            return
        if _ok(ack):
            self.report.acked_ok += 1
        else:
            self.report.acked_error += 1
            self.report.error_codes[_code(ack)] += 1

    def _server(self, player: Player) -> tuple[int, dict[str, str] | None]:
        """The port a player connects to, and its connection's query: with ``--route
        table``, once its table is open, the server its table's id hashes to; else its
        seat's turn round the servers."""
        table_id = self.table_ids.get(player.seat.table_index)
        if self.opts.route == "table" and table_id is not None:
            return self.opts.port + table_server(table_id, self.opts.servers), {
                "table": table_id}
        return self.opts.port + player.seat.order % self.opts.servers, None

    def firsts(self, *, connected: bool = False) -> list[Player]:
        """The first player (``connected``: the first connected one) of each table."""
        firsts: dict[int, Player] = {}
        for p in self.players:
            if p.client is not None or not connected:
                firsts.setdefault(p.seat.table_index, p)
        return list(firsts.values())

    def disconnect(self, players: list[Player]) -> None:
        """Close these players' connections (to connect them again elsewhere)."""
        for player in players:
            if player.client is not None:
                player.client.close()
                player.client = None
                self.report.connected -= 1

    async def connect_all(self, players: list[Player] | None = None) -> None:
        limit = asyncio.Semaphore(CONNECT_CONCURRENCY)

        async def one(player: Player) -> None:
            async with limit:
                try:
                    port, query = self._server(player)
                    client = await connect(
                        "127.0.0.1", port, auth=player.seat.auth,
                        on_event=self.on_event, path=self.target.path,
                        deflate=self.opts.client_deflate, query=query,
                    )
                except (OSError, TimeoutError, HandshakeError) as exc:
                    self.report.connect_failures += 1
                    self.report.error_codes[f"connect:{type(exc).__name__}:{exc}"[:80]] += 1
                    return
                client.state = player
                player.client = client
                self.report.connected += 1

        await asyncio.gather(*(one(p) for p in (self.players if players is None else players)))

    async def open_tables(self) -> None:
        """Each table's first player opens it (the bare baseline needs no opening)."""
        for player in self.firsts(connected=True):
            index = player.seat.table_index
            request = self.target.table_create(index)
            if request is None:
                self.table_ids[index] = str(index)
                continue
            assert player.client is not None
            ack = await _request(player.client, *request)
            if not _ok(ack):
                self.report.error_codes[f"create:{_code(ack)}"] += 1
                continue
            self.table_ids[index] = self.target.table_id(ack)

    async def sit_all(self) -> None:
        """Seat every connected player, table by table, in seat order."""
        async def sit(player: Player) -> None:
            assert player.client is not None
            table_id = self.table_ids[player.seat.table_index]
            for _ in range(MOVED_ATTEMPTS):
                ack = await _request(player.client, *self.target.sit(table_id, player.seat))
                if _code(ack) != "table_moved":
                    break
                # The table is moving to the server its players reach: ask again, as
                # the browser does.
                await asyncio.sleep(ack["error"].get("retry_after", 1))
            if _ok(ack):
                self.report.seated += 1
            else:
                self.report.error_codes[f"sit:{_code(ack)}"] += 1

        ready = [p for p in self.players
                 if p.client is not None and p.seat.table_index in self.table_ids]
        ready.sort(key=lambda p: p.seat.order)
        for start in range(0, len(ready), CONNECT_CONCURRENCY):
            await asyncio.gather(*(sit(p) for p in ready[start:start + CONNECT_CONCURRENCY]))

    def start(self) -> None:
        """Start acting: the turns already waiting go after a random part of one pace."""
        now = time.perf_counter()
        self.window = (now + self.opts.warmup, now + self.opts.warmup + self.opts.duration)
        self.running = True
        for index, (player, turn) in self.pending.items():
            self.ahead[index] = self.rng.randrange(HAND_ACTIONS)
            self._schedule(player, turn, self._delay(index))
        self.pending.clear()

    def close(self) -> None:
        self.report.unacked = sum(p.client.pending_acks for p in self.players if p.client)
        for p in self.players:
            if p.client is not None:
                p.client.close()


def table_server(table_id: str, servers: int) -> int:
    """The server (0 to ``servers`` - 1) a table's players reach with ``--route table``: a
    stable hash of its id, as the proxy's (any hash serves; the table moves to wherever
    its players are).

    >>> table_server("a1b2c3", 1)
    0
    """
    return zlib.crc32(table_id.encode()) % servers


def _ok(ack: Any) -> bool:
    return isinstance(ack, dict) and ack.get("ok") is True


def _code(ack: Any) -> str:
    if isinstance(ack, dict) and isinstance(ack.get("error"), dict):
        return str(ack["error"].get("code", "?"))
    return repr(ack)[:40]


async def _request(client: SioClient, event: str, data: Any, timeout: float = 30.0) -> Any:
    """Emit and wait for the ack (None when none arrives in time)."""
    done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def acked(ack: Any) -> None:
        if not done.done():
            done.set_result(ack)

    client.emit(event, data, acked)
    try:
        return await asyncio.wait_for(done, timeout)
    except TimeoutError:
        return None


def phase_timeout(opts: Options) -> float:
    """Time allowed to connect and seat everyone: handshakes are server-bound."""
    return PHASE_TIMEOUT * max(1.0, opts.clients / 2000)


async def _worker_main(opts: Options, seats: list[PlayerSeat], pipe: Connection) -> None:
    loop = asyncio.get_running_loop()
    target = make_target(opts.target, database_url=opts.database_url,
                         redis_url=opts.redis_url)
    gen = Generator(opts, target, seats)
    gen.loop = loop
    if opts.route == "table" and not opts.idle:
        # The tables first; then everyone connects for their table, where it hashes to.
        await gen.connect_all(gen.firsts())
        await asyncio.wait_for(gen.open_tables(), phase_timeout(opts))
        gen.disconnect(gen.firsts())
        await gen.connect_all()
    else:
        await gen.connect_all()
        if not opts.idle:
            await asyncio.wait_for(gen.open_tables(), phase_timeout(opts))
    if not opts.idle:
        await asyncio.wait_for(gen.sit_all(), phase_timeout(opts))
    pipe.send(("ready", gen.report.connected))
    if not await loop.run_in_executor(None, pipe.poll, phase_timeout(opts)):
        gen.close()
        return
    pipe.recv()  # "go"
    gen.start()
    await asyncio.sleep(opts.warmup + opts.duration)
    gen.running = False
    deadline = time.monotonic() + DRAIN_SECONDS
    while time.monotonic() < deadline and any(
            p.client is not None and p.client.pending_acks for p in gen.players):
        await asyncio.sleep(0.05)
    gen.close()
    usage = os.times()
    gen.report.cpu_seconds = usage.user + usage.system
    # asdict would rebuild the Counter from its (key, count) pairs, counting the pairs.
    pipe.send(("report", {**asdict(gen.report), "error_codes": dict(gen.report.error_codes)}))
    await asyncio.sleep(0.2)


def _worker(opts: Options, seats: list[PlayerSeat], pipe: Connection) -> None:
    try:
        import uvloop

        uvloop.run(_worker_main(opts, seats, pipe))
    except ImportError:
        asyncio.run(_worker_main(opts, seats, pipe))


# ---- the server process ---------------------------------------------------------


def cpu_seconds(pids: list[int]) -> float:
    """utime + stime of processes, in seconds."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / CLK_TCK


def children(pids: list[int]) -> list[int]:
    """Every descendant of processes (Linux): a server's worker and offload pool."""
    found: list[int] = []
    for pid in pids:
        path = Path(f"/proc/{pid}/task/{pid}/children")
        if path.exists():
            kids = [int(k) for k in path.read_text().split()]
            found += kids + children(kids)
    return found


def rss_kib(pids: list[int]) -> int:
    """Resident set size of processes, in KiB."""
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def scrape(ports: list[int]) -> list[str] | None:
    """Every server's ``/metrics``; None where a server publishes none (the bare
    baseline)."""
    texts = []
    for port in ports:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
                texts.append(answer.read().decode())
        except (OSError, ValueError):
            return None
    return texts


def loop_lag(texts: list[str] | None) -> dict[str, int] | None:
    """How many of the servers' event-loop lag samples (``holdem_event_loop_lag_seconds``)
    were at most each bound, by bound."""
    counts: Counter[str] = Counter()
    for line in _sample_lines(texts, "holdem_event_loop_lag_seconds_bucket{"):
        bound = line.split('le="', 1)[1].split('"', 1)[0]
        counts[bound] += int(float(line.rsplit(" ", 1)[1]))
    return dict(counts) if counts else None


def forwarded_actions(texts: list[str] | None) -> int | None:
    """How many ``table:action`` requests the servers forwarded to another process."""
    if texts is None:
        return None
    prefix = 'holdem_forwarded_requests_total{event="table:action"}'
    return sum(int(float(line.rsplit(" ", 1)[1])) for line in _sample_lines(texts, prefix))


def _sample_lines(texts: list[str] | None, prefix: str) -> list[str]:
    return [line for text in texts or [] for line in text.splitlines()
            if line.startswith(prefix)]


def lag_over(before: dict[str, int] | None, after: dict[str, int] | None
             ) -> dict[str, int] | None:
    """Loop lag samples of the measured window over 50, 100 and 200 ms, and in all."""
    if before is None or after is None:
        return None
    def delta(bound: str) -> int:
        return after.get(bound, 0) - before.get(bound, 0)
    total = delta("+Inf")
    return {"samples": total, "over_50ms": total - delta("0.05"),
            "over_100ms": total - delta("0.1"), "over_200ms": total - delta("0.2")}


def load_average() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def wait_for_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    """Block until something listens on 127.0.0.1:port (or the server died)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"server did not listen on port {port} within {timeout} s")


# ---- one run ---------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of ``values``; 0.0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def run(opts: Options, *, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Start the server, run the load, stop everything; the measured numbers."""
    target = make_target(opts.target, database_url=opts.database_url,
                         redis_url=opts.redis_url)
    workdir = Path(os.environ.get("LOAD_WORKDIR", "/tmp")) / f"holdem-load-{os.getpid()}"
    workdir.mkdir(parents=True, exist_ok=True)
    servers = [target.start_server(opts.port + n, gc_threshold=opts.gc_threshold,
                                   deflate=opts.server_deflate, workdir=workdir,
                                   hand_delay=opts.hand_delay, name=n)
               for n in range(opts.servers)]
    try:
        for n, server in enumerate(servers):
            wait_for_port(opts.port + n, server)
        time.sleep(0.5)
        seats = target.prepare(opts.clients, workdir=workdir)
        time.sleep(0.5)
        database = getattr(target, "_database_url", None)
        meter = ServiceMeter(opts.redis_url,
                             database(workdir) if database and opts.database_url else None)
        result = _measure(opts, [s.pid for s in servers], seats, log, meter)
    except BaseException:
        log(f"  failed: the server's log and database are kept in {workdir}")
        raise
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(5)
    files = [workdir / GC_STATS, *(workdir / f"{n}-{GC_STATS}" for n in range(1, opts.servers))]
    stats = [json.loads(f.read_text()) for f in files if f.exists()]
    result["server_gc"] = stats[0] if stats else None
    start, end = result.pop("window")
    # The collections of the measured window, the servers' together.
    result["gc_in_window"] = _merged([gcpauses.in_window(s, start, end) for s in stats])
    target.clean_up(workdir)
    shutil.rmtree(workdir, ignore_errors=True)
    return result


def _measure(opts: Options, pids: list[int], seats: list[PlayerSeat],
             log: Callable[[str], None], meter: ServiceMeter) -> dict[str, Any]:
    rss_before = rss_kib(pids)
    ctx = mp.get_context("fork")
    pipes, procs = [], []
    for k in range(opts.procs):
        # Whole tables per process, so a table's latency is timed in one clock.
        mine = [s for s in seats if s.table_index % opts.procs == k]
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(opts, mine, child), daemon=True)
        proc.start()
        pipes.append(parent)
        procs.append(proc)
    side = _start_burst(opts, ctx)
    try:
        connected = 0
        for pipe in pipes:
            if not pipe.poll(phase_timeout(opts)):
                raise RuntimeError("a generator did not connect its players in time")
            connected += pipe.recv()[1]
        time.sleep(1.0)
        rss_connected = rss_kib(pids)
        log(f"  {connected} players connected; server RSS {rss_connected / 1024:.0f} MiB")
        load_before = load_average()
        for pipe in [*pipes, *([side[0]] if side else [])]:
            pipe.send("go")
        time.sleep(opts.warmup)
        ports = [opts.port + n for n in range(len(pids))]
        helpers = children(pids)
        cpu0, services0, metrics0 = cpu_seconds(pids), meter.snapshot(), scrape(ports)
        helpers0 = cpu_seconds(helpers)
        window = [time.time()]
        time.sleep(opts.duration)
        cpu1, services1, metrics1 = cpu_seconds(pids), meter.snapshot(), scrape(ports)
        helpers1 = cpu_seconds([p for p in helpers if Path(f"/proc/{p}").exists()])
        window.append(time.time())
        rss_busy = rss_kib(pids)
        reports = []
        for pipe in pipes:
            if not pipe.poll(DRAIN_SECONDS + 30):
                raise RuntimeError("a generator did not report in time")
            reports.append(pipe.recv()[1])
        side_report = None
        if side is not None:
            if not side[0].poll(DRAIN_SECONDS + 120):
                raise RuntimeError("the sign-up burst did not report in time")
            side_report = side[0].recv()
        load_after = load_average()
    finally:
        for proc in procs + ([side[1]] if side else []):
            proc.join(5)
            if proc.is_alive():
                proc.kill()
    result = _summary(opts, reports, connected=connected,
                      rss=(rss_before, rss_connected, rss_busy), cpu=cpu1 - cpu0,
                      loads=(load_before, load_after))
    result["services"] = ServiceMeter.per_action(services0, services1, result["sent"])
    result["loop_lag"] = lag_over(loop_lag(metrics0), loop_lag(metrics1))
    result["forwarded_share"] = forwarded_share(
        forwarded_actions(metrics0), forwarded_actions(metrics1), result["sent"])
    result["window"] = window
    result["helpers_cpu_pct"] = round(100 * max(0.0, helpers1 - helpers0) / opts.duration, 1)
    result["burst"] = burst.summary(side_report)
    return result


def _start_burst(opts: Options, ctx: Any) -> tuple[Connection, Any] | None:
    """The sign-up and odds burst's process (bench/burst.py), when asked for."""
    if not (opts.signups or opts.odds):
        return None
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=burst.run_burst, daemon=True, args=(
        f"http://127.0.0.1:{opts.port}", opts.signups, opts.signup_concurrency, opts.odds,
        opts.warmup, opts.duration, child))
    proc.start()
    return parent, proc


def forwarded_share(before: int | None, after: int | None, sent: int) -> float | None:
    """The share of the window's actions that a server forwarded to another process.

    >>> forwarded_share(10, 60, 200)
    0.25
    >>> forwarded_share(None, None, 200) is None
    True
    """
    if before is None or after is None or not sent:
        return None
    return round((after - before) / sent, 4)


def _summary(opts: Options, reports: list[dict[str, Any]], *, connected: int,
             rss: tuple[int, int, int], cpu: float, loads: tuple[str, str]) -> dict[str, Any]:
    latencies = [x for r in reports for x in r["latencies_ms"]]
    codes: Counter[str] = Counter()
    for r in reports:
        codes.update(r["error_codes"])
    total = {k: sum(r[k] for r in reports)
             for k in ("sent", "acked_ok", "acked_error", "unacked", "connect_failures", "seated")}
    before, after_connect, busy = rss
    return {
        "kib_per_player_after_play": round((busy - before) / max(1, connected), 1),
        "target": opts.target, "mode": "idle" if opts.idle else opts.mode,
        "database": ("postgresql" if opts.database_url else "sqlite")
        if opts.target == "holdem" else "-",
        "servers": opts.servers, "redis": bool(opts.redis_url), "route": opts.route,
        "clients": opts.clients, "connected": connected, **total,
        "error_codes": dict(codes),
        "actions_per_s": round(total["sent"] / opts.duration, 1),
        "latency_ms": {f"p{q}": round(percentile(latencies, q), 2) for q in (50, 95, 99)}
        | {"max": round(max(latencies, default=0.0), 2), "samples": len(latencies)},
        "server_cpu_pct": round(100 * cpu / opts.duration, 1),
        "server_cpu_ms_per_action": round(1000 * cpu / total["sent"], 2) if total["sent"] else 0.0,
        "server_rss_mib": round(busy / 1024, 1),
        "kib_per_player": round((after_connect - before) / max(1, connected), 1),
        "generator_cpu_s": round(sum(r["cpu_seconds"] for r in reports), 1),
        "hand_delay_s": opts.hand_delay if opts.target == "holdem" else None,
        "gc_threshold": opts.gc_threshold or "default",
        "gc_freeze_s": float(os.environ.get("GC_FREEZE_SECONDS", FREEZE_SECONDS)),
        "server_deflate": opts.server_deflate, "client_deflate": opts.client_deflate,
        "load_average": f"{loads[0]} -> {loads[1]}",
    }


def describe(result: dict[str, Any]) -> str:
    """One readable line for a result."""
    lat = result["latency_ms"]
    return (
        f"{result['target']:6} {result.get('database', '-'):10} "
        f"x{result.get('servers', 1)}{'+redis' if result.get('redis') else '':6} "
        f"{'by table ' if result.get('route') == 'table' else ''}"
        f"{result['mode']:4} "
        f"{result['connected']:5} players  "
        f"{result['actions_per_s']:7.1f} act/s  p50 {lat['p50']:7.2f}  p95 {lat['p95']:7.2f}  "
        f"p99 {lat['p99']:7.2f}  max {lat['max']:7.1f} ms  cpu {result['server_cpu_pct']:5.1f}% "
        f"({result.get('server_cpu_ms_per_action', 0):.2f} ms/action)  "
        f"{result['kib_per_player']:6.1f} KiB/player "
        f"({result.get('kib_per_player_after_play', 0):.1f} after playing)  "
        f"acks {result['acked_ok']}/{result['sent']} "
        f"{_forwarded_line(result.get('forwarded_share'))}"
        f"err {result['acked_error']} unacked {result['unacked']} "
        f"connect-fail {result['connect_failures']}  gc {result['gc_threshold']} "
        f"freeze {result.get('gc_freeze_s', 0)} s  "
        f"deflate {'on' if result['server_deflate'] and result['client_deflate'] else 'off'}  "
        f"{_gc_line(result.get('server_gc'))}{_window_line(result.get('gc_in_window'))}"
        f"load {result['load_average']}"
        f"  server's children (worker, offload) cpu {result.get('helpers_cpu_pct', 0)}%"
        + "".join(f"  {k} {v}" for k, v in (result.get("services") or {}).items())
        + (f"  burst {json.dumps(result['burst'])}" if result.get("burst") else "")
    )


def _merged(windows: list[dict[str, Any] | None]) -> dict[str, Any] | None:
    found = [w for w in windows if w is not None]
    if not found:
        return None
    merged = {k: sum(w[k] for w in found) for k in ("over_10ms", "over_50ms", "over_100ms")}
    longest = [w["longest"] for w in found if w["longest"] is not None]
    return {**merged, "longest": max(longest, default=None)}


def _forwarded_line(share: float | None) -> str:
    return "" if share is None else f"forwarded {100 * share:.1f}% "


def _gc_line(stats: dict[str, Any] | None) -> str:
    if not stats:
        return ""
    full = stats["gen2"]
    return (f"full GCs {full['collections']} (longest {full['max_ms']:.0f} ms, "
            f"total {full['total_ms']:.0f} ms)  ")


def _window_line(window: dict[str, Any] | None) -> str:
    if not window:
        return ""
    longest = window["longest"]
    return (f"GC pauses in the window: {window['over_10ms']} over 10 ms, "
            f"{window['over_50ms']} over 50 ms, {window['over_100ms']} over 100 ms"
            + (f", longest {longest[0]:.0f} ms (gen{longest[1]})  " if longest else "  "))


def ratio(bare: dict[str, Any], holdem: dict[str, Any]) -> str:
    """holdem-server's numbers relative to the bare baseline's."""
    def part(a: float, b: float) -> str:
        return f"{a / b:.2f}" if b else "n/a"

    return (
        f"holdem / bare: actions/s {part(holdem['actions_per_s'], bare['actions_per_s'])}, "
        f"p99 {part(holdem['latency_ms']['p99'], bare['latency_ms']['p99'])}x, "
        f"KiB per player {part(holdem['kib_per_player'], bare['kib_per_player'])}x"
    )


def environment() -> dict[str, str]:
    """Machine and library versions for the results file."""
    return {
        "python": platform.python_version(), "machine": platform.machine(),
        "cpus": str(os.cpu_count()), "kernel": platform.release(),
        **{name: version(name) for name in ("uvicorn", "python-socketio", "python-engineio",
                                             "websockets", "uvloop")},
    }


def parse_args(argv: list[str] | None = None) -> tuple[argparse.Namespace, list[Options]]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--target", choices=sorted(TARGETS), default="bare")
    p.add_argument("--compare", action="store_true", help="run bare, then holdem")
    p.add_argument("--clients", type=int, default=600)
    p.add_argument("--mode", choices=["pace", "fast"], default="pace")
    p.add_argument("--idle", action="store_true", help="connect only: memory per connection")
    p.add_argument("--pace", type=float, default=3.0, help="seconds per action per table")
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--duration", type=float, default=20.0)
    p.add_argument("--procs", type=int, default=1, help="generator processes")
    p.add_argument("--port", type=int, default=8765)
    # Both servers run as `holdem serve` runs in production unless told otherwise: a
    # baseline on slower settings than ours would flatter us.
    p.add_argument("--gc-threshold", default=",".join(map(str, SERVER_GC_THRESHOLDS)),
                   help="gen0,gen1,gen2 thresholds of both servers' collector (default: "
                        "holdem serve's; '' for Python's)")
    p.add_argument("--gc-freeze", type=float, default=FREEZE_SECONDS,
                   help="both servers collect their young objects and freeze the survivors "
                        "this often, in seconds (default: holdem serve's; 0: never)")
    p.add_argument("--deflate", dest="no_deflate", action="store_false",
                   help="server with per-message deflate (holdem serve turns it off)")
    p.add_argument("--no-deflate", dest="no_deflate", action="store_true", default=True,
                   help="server without per-message deflate (the default, as holdem serve)")
    p.add_argument("--client-no-deflate", action="store_true",
                   help="clients do not offer per-message deflate (browsers do)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--hand-delay", type=float, default=None,
                   help=f"holdem: seconds between hands (default: {FAST_HAND_DELAY} in "
                        "--mode fast, else the server's)")
    p.add_argument("--json", action="store_true", help="print each result as a JSON line")
    p.add_argument("--signups", type=int, default=0,
                   help="holdem: sign up and log in this many new accounts over REST during "
                        "the window (bench/burst.py)")
    p.add_argument("--signup-concurrency", type=int, default=16)
    p.add_argument("--odds", type=float, default=0.0,
                   help="holdem: odds requests per second during the window")
    p.add_argument("--worker", choices=["process", "inline"], default="process",
                   help="holdem: who sends the mail outbox (WORKER; default: a worker "
                        "process, as holdem serve runs)")
    p.add_argument("--servers", type=int, default=1,
                   help="holdem: this many server processes sharing the tables (needs "
                        "--database-url and --redis-url); players go round them")
    p.add_argument("--route", choices=["seat", "table"], default="seat",
                   help="holdem with --servers: the seats of a table go round the servers "
                        "(seat), or every player of a table connects for it to the server "
                        "its id hashes to, as the proxy routes (table)")
    p.add_argument("--redis-url", default=None,
                   help="holdem: share the tables through this Redis (e.g. "
                        "redis://127.0.0.1:6379/0), even with one server")
    p.add_argument("--database-url", default=None,
                   help="holdem on PostgreSQL: a server URL such as "
                        "postgresql+asyncpg://postgres@127.0.0.1:5432/test (each run gets a "
                        "fresh database there); default: a fresh SQLite file")
    args = p.parse_args(argv)
    if args.clients > MAX_CLIENTS or args.duration > 300:
        p.error(f"bounded runs only: at most {MAX_CLIENTS:,} clients and 300 s")
    if args.servers > 1 and not (args.database_url and args.redis_url):
        p.error("several servers share tables through PostgreSQL and Redis: give "
                "--database-url and --redis-url")
    # The servers read it when they start (bench/serving.py).
    os.environ["GC_FREEZE_SECONDS"] = str(args.gc_freeze)
    os.environ["WORKER"] = args.worker
    targets = ["bare", "holdem"] if args.compare else [args.target]
    if args.hand_delay is None and args.mode == "fast":
        args.hand_delay = FAST_HAND_DELAY
    runs = [
        Options(target=t, clients=args.clients, mode=args.mode, pace=args.pace,
                warmup=0.0 if args.idle else args.warmup, duration=args.duration,
                procs=args.procs, port=args.port, gc_threshold=args.gc_threshold,
                server_deflate=not args.no_deflate, client_deflate=not args.client_no_deflate,
                idle=args.idle, seed=args.seed, hand_delay=args.hand_delay,
                database_url=args.database_url, servers=args.servers if t == "holdem" else 1,
                redis_url=args.redis_url if t == "holdem" else None,
                route=args.route if t == "holdem" else "seat",
                signups=args.signups if t == "holdem" else 0,
                signup_concurrency=args.signup_concurrency,
                odds=args.odds if t == "holdem" else 0.0)
        for t in targets
    ]
    return args, runs


def main(argv: list[str] | None = None) -> int:
    args, runs = parse_args(argv)
    print(json.dumps(environment()), flush=True)
    results = []
    for opts in runs:
        print(f"{opts.target}: {opts.clients} clients, {'idle' if opts.idle else opts.mode}",
              flush=True)
        result = run(opts, log=lambda line: print(line, flush=True))
        results.append(result)
        print(json.dumps(result) if args.json else describe(result), flush=True)
    if len(results) == 2:
        print(ratio(*results), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
