"""The servers bench/load.py can drive: how to start each, open tables, seat players, act."""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
SEATS = 6
SECRET_KEY = secrets.token_urlsafe(48)  # one per run: never a value in the repository
CREDITS = 10_000_000
BUY_IN = 100_000  # deep stacks: nobody busts during a run
ACTION_ORDER = ("check", "call", "muck", "show", "fold")
GC_STATS = "gc-pauses.json"  # written by the server when it stops


@dataclass(frozen=True)
class PlayerSeat:
    """Where one generated player sits and how it authenticates."""

    table_index: int
    seat: int
    order: int
    auth: dict[str, Any] | None


class Target:
    """A server under load. Subclasses say how to start it and speak its table protocol."""

    name: ClassVar[str] = ""
    path: ClassVar[str] = "/socket.io/"

    def start_server(self, port: int, *, gc_threshold: str, deflate: bool, workdir: Path,
                     hand_delay: float | None, name: int = 0) -> subprocess.Popen[bytes]:
        """Start server number ``name`` in a child process listening on 127.0.0.1:port."""
        raise NotImplementedError

    def prepare(self, clients: int, *, workdir: Path) -> list[PlayerSeat]:
        """Whatever must exist before players connect (accounts): the seats, six a table."""
        raise NotImplementedError

    def table_create(self, index: int) -> tuple[str, dict[str, Any]] | None:
        """The request that opens table ``index``, or None when tables need no opening."""
        return None

    def table_id(self, ack: dict[str, Any]) -> str:
        """The new table's id from the ack of :meth:`table_create`'s request."""
        raise NotImplementedError

    def sit(self, table_id: str, seat: PlayerSeat) -> tuple[str, dict[str, Any]]:
        """The event and payload that seat a connected player."""
        return "table:sit", {"table_id": table_id, "seat": seat.seat, "buy_in": BUY_IN}

    def is_my_turn(self, seat: PlayerSeat, turn: dict[str, Any]) -> bool:
        """Whether this ``table:turn`` asks ``seat`` to act."""
        return bool(turn.get("seat") == seat.seat)

    def action_payload(self, table_id: str, turn: dict[str, Any]) -> dict[str, Any]:
        """The ``table:action`` payload answering ``turn``."""
        raise NotImplementedError

    def clean_up(self, workdir: Path) -> None:
        """Remove what a finished run made outside its work folder (nothing by default)."""


def _popen(command: list[str], workdir: Path, name: str,
           env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    log = (workdir / f"{name}.log").open("wb")
    return subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)


def _server_flags(port: int, gc_threshold: str, deflate: bool, workdir: Path) -> list[str]:
    flags = ["--port", str(port), "--gc-stats", str(workdir / GC_STATS)]
    if gc_threshold:
        flags += ["--gc-threshold", gc_threshold]
    if not deflate:
        flags.append("--no-deflate")
    return flags


class BareTarget(Target):
    """bench/bare_server.py: python-socketio that only acks and broadcasts."""

    name = "bare"

    def start_server(self, port: int, *, gc_threshold: str, deflate: bool, workdir: Path,
                     hand_delay: float | None, name: int = 0) -> subprocess.Popen[bytes]:
        command = [sys.executable, str(ROOT / "bench" / "bare_server.py"),
                   *_server_flags(port, gc_threshold, deflate, workdir)]
        return _popen(command, workdir, "bare-server")

    def prepare(self, clients: int, *, workdir: Path) -> list[PlayerSeat]:
        return [
            PlayerSeat(table_index=i // SEATS, seat=i % SEATS, order=i,
                       auth={"token": f"bench-{i}"})
            for i in range(clients - clients % SEATS)
        ]

    def action_payload(self, table_id: str, turn: dict[str, Any]) -> dict[str, Any]:
        return {"table_id": table_id, "hand_id": turn["hand_id"], "type": "call"}


class HoldemTarget(Target):
    """holdem-server itself, on a fresh SQLite database, tables without bots.

    Accounts are written straight into the database through the app's models
    and ledger (sign-up would spend a second of password hashing per player),
    and each player connects with a session token issued the way login does.
    Players check when they can, else call (muck at the showdown), so hands
    run to the river and every seat acts on every street.
    """

    name = "holdem"

    def __init__(self, database_server: str | None = None, redis_url: str | None = None
                 ) -> None:
        # A PostgreSQL server URL: each run gets a fresh database on it (else SQLite).
        self.database_server = database_server
        # With Redis, the servers share the tables (a channel of their own per run).
        self.redis_url = redis_url

    def _database_url(self, workdir: Path) -> str:
        if not self.database_server:
            return f"sqlite+aiosqlite:///{workdir / 'load.sqlite3'}"
        from sqlalchemy.engine import make_url

        name = "holdem_load_" + workdir.name.replace("-", "_")
        return make_url(self.database_server).set(database=name).render_as_string(
            hide_password=False)

    def _fresh_database(self, workdir: Path) -> None:
        self._drop_database(workdir, then_create=True)

    def _drop_database(self, workdir: Path, *, then_create: bool = False) -> None:
        if not self.database_server:
            return
        from sqlalchemy import text
        from sqlalchemy.engine import make_url

        from app.db.engine import create_engine

        name = make_url(self._database_url(workdir)).database

        async def run() -> None:
            engine = create_engine(self.database_server or "", isolation_level="AUTOCOMMIT")
            async with engine.connect() as connection:
                await connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
                if then_create:
                    await connection.execute(text(f'CREATE DATABASE "{name}"'))
            await engine.dispose()

        asyncio.run(run())

    def clean_up(self, workdir: Path) -> None:
        """Drop the run's PostgreSQL database."""
        self._drop_database(workdir)

    def _env(self, workdir: Path, hand_delay: float | None) -> dict[str, str]:
        env = dict(os.environ)
        env.update({
            "ENV": "development",
            "DATABASE_URL": self._database_url(workdir),
            "SECRET_KEY": SECRET_KEY,
            "RATE_LIMITS_ENABLED": "false",
            # Every generated player connects from loopback.
            "MAX_SOCKETS_PER_ADDRESS": "1000000",
            "MAX_ANONYMOUS_SOCKETS_PER_ADDRESS": "1000000",
            "OUTBOX_DIR": str(workdir / "outbox"),
            "SHOWDOWN_SECONDS": "60",
            # A run ends by stopping its servers: no hand in play is worth waiting for.
            "DRAIN_SECONDS": "0",
            "REDIS_URL": self.redis_url or "",
            "REDIS_CHANNEL": f"load-{workdir.name}",
        })
        if hand_delay is not None:
            env["HAND_START_DELAY_SECONDS"] = str(hand_delay)
        return env

    def start_server(self, port: int, *, gc_threshold: str, deflate: bool, workdir: Path,
                     hand_delay: float | None, name: int = 0) -> subprocess.Popen[bytes]:
        env = self._env(workdir, hand_delay)
        if name == 0:
            self._fresh_database(workdir)
            subprocess.run([sys.executable, "-m", "app.cli", "migrate"], cwd=ROOT, env=env,
                           check=True, capture_output=True, timeout=120)
        flags = _server_flags(port, gc_threshold, deflate, workdir)
        if name:
            flags[flags.index("--gc-stats") + 1] = str(workdir / f"{name}-{GC_STATS}")
        command = [sys.executable, str(ROOT / "bench" / "holdem_server.py"), *flags]
        return _popen(command, workdir, f"holdem-server-{name}", env)

    def prepare(self, clients: int, *, workdir: Path) -> list[PlayerSeat]:
        count = clients - clients % SEATS
        tokens = asyncio.run(_create_players(self._env(workdir, None), count))
        return [
            PlayerSeat(table_index=i // SEATS, seat=i % SEATS, order=i, auth={"token": token})
            for i, token in enumerate(tokens)
        ]

    def table_create(self, index: int) -> tuple[str, dict[str, Any]] | None:
        return "table:create", {
            "name": f"load {index}", "seats": SEATS, "small_blind": 5, "big_blind": 10,
            "min_buy_in": 200, "max_buy_in": BUY_IN, "action_seconds": 300, "bots": False,
        }

    def table_id(self, ack: dict[str, Any]) -> str:
        return str(ack["table"]["table_id"])

    def action_payload(self, table_id: str, turn: dict[str, Any]) -> dict[str, Any]:
        legal = {a["action"] for a in turn.get("legal_actions") or ()}
        kind = next((k for k in ACTION_ORDER if k in legal), "fold")
        return {"table_id": table_id, "hand_id": turn["hand_id"], "type": kind}


async def _create_players(env: dict[str, str], count: int) -> list[str]:
    """``count`` verified accounts with credits, through the ledger; their session tokens."""
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        from app.accounts.passwords import hash_password
        from app.accounts.schemas import display_name_key
        from app.accounts.service import open_session
        from app.config import Settings
        from app.db import ledger
        from app.db.engine import Database
        from app.db.models import LedgerReason, User
        from app.db.models import utcnow as now

        settings = Settings()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    database = Database(settings.database_url)
    password_hash = await hash_password("load benchmark password", settings)
    tokens = []
    try:
        async with database.sessions() as session:
            for i in range(count):
                name = f"load{i}"
                user = User(email=f"{name}@load.invalid", display_name=name,
                            display_name_key=display_name_key(name),
                            password_hash=password_hash, email_verified_at=now())
                session.add(user)
                await session.flush()
                await ledger.credit(session, user.id, CREDITS, reason=LedgerReason.SIGNUP_GRANT)
                tokens.append(open_session(user, settings).token)
            await session.commit()
    finally:
        await database.dispose()
    return tokens


TARGETS: dict[str, type[Target]] = {"bare": BareTarget, "holdem": HoldemTarget}


def make_target(name: str, *, database_url: str | None = None,
                redis_url: str | None = None) -> Target:
    """The target called ``name``; holdem on the PostgreSQL server ``database_url`` and
    sharing tables through ``redis_url`` if given."""
    return HoldemTarget(database_url, redis_url) if name == "holdem" else TARGETS[name]()
