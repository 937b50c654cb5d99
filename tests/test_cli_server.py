"""``holdem serve``, ``migrate``, ``create-admin`` and ``demote`` as real processes on real
databases: a fresh clone's first commands, and the one-line errors when something is off."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from app.accounts.mail import links_in
from app.config import Settings
from app.db.engine import Database
from app.db.migrations import (
    DatabaseUnreachable,
    alembic_config,
    downgrade,
    wait_until_reachable,
)
from app.db.models import AuditLogEntry, Role, User
from app.table.store import HOUSE_EMAIL
from tests.conftest import PASSWORD, free_port, production_env

ROOT = Path(__file__).resolve().parents[1]
START_SECONDS = 60


def holdem_env(tmp_path: Path, **settings: str) -> dict[str, str]:
    """The environment of a ``holdem`` process run from ``tmp_path`` (a clean folder)."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("DATABASE_URL", "ENV", "SECRET_KEY", "SMTP_HOST", "REDIS_URL",
                          "PUBLIC_URL")}
    return {**env, "PYTHONPATH": str(ROOT), "OUTBOX_DIR": str(tmp_path / "outbox"),
            "ARGON2_MEMORY_KIB": "64", "ARGON2_TIME_COST": "1", "ARGON2_PARALLELISM": "1",
            # Tests stop servers with hands in play: no waiting for them to end.
            "DRAIN_SECONDS": "0", **settings}


def holdem(tmp_path: Path, *args: str, stdin: str = "", timeout: float = 120,
           **settings: str) -> subprocess.CompletedProcess[str]:
    """Run ``holdem ARGS`` to completion in ``tmp_path``."""
    return subprocess.run([sys.executable, "-m", "app.cli", *args], input=stdin, cwd=tmp_path,
                          env=holdem_env(tmp_path, **settings), capture_output=True,
                          text=True, timeout=timeout, check=False)


def one_error_line(result: subprocess.CompletedProcess[str], command: str) -> str:
    """The single stderr line of a refused command (no traceback), which exited 2."""
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"holdem {command}: error: ")
    return lines[0]


@pytest.fixture
def fresh_sqlite(tmp_path: Path) -> str:
    """A SQLite URL in ``tmp_path`` where no database exists yet."""
    return f"sqlite+aiosqlite:///{tmp_path / 'var' / 'holdem.sqlite3'}"


def wait_for_health(process: subprocess.Popen[str], url: str) -> httpx.Response:
    """Poll ``/health`` until the server answers (or the process ends)."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline and process.poll() is None:
        try:
            return httpx.get(f"{url}/health", timeout=2)
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError(f"the server did not answer (exit status {process.poll()})")


def serve(tmp_path: Path, database_url: str, port: int) -> subprocess.Popen[str]:
    """``holdem serve`` on ``port`` of loopback, started (not yet answering)."""
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port)], cwd=tmp_path,
        env=holdem_env(tmp_path, DATABASE_URL=database_url), text=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def test_serve_migrates_a_fresh_database_in_development(tmp_path: Path, fresh_sqlite: str):
    port = free_port()
    process = serve(tmp_path, fresh_sqlite, port)
    try:
        health = wait_for_health(process, f"http://127.0.0.1:{port}")
        assert health.status_code == 200, health.text
        lobby = httpx.get(f"http://127.0.0.1:{port}/", timeout=10)
        assert lobby.status_code == 200
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=30)
    assert "no such table" not in output
    assert "Traceback" not in output


def test_serve_without_migrating_refuses_a_fresh_database_in_one_line(
    tmp_path: Path, fresh_sqlite: str
):
    refused = holdem(tmp_path, "serve", "--no-migrate", "--port", str(free_port()),
                     DATABASE_URL=fresh_sqlite)
    assert "run `holdem migrate`" in one_error_line(refused, "serve")


def test_production_never_migrates_on_serve_and_says_to_run_migrate(
    tmp_path: Path, fresh_sqlite: str
):
    production = {**production_env(), "DATABASE_URL": fresh_sqlite}
    refused = holdem(tmp_path, "serve", "--port", str(free_port()), **production)
    assert "run `holdem migrate`" in one_error_line(refused, "serve")
    migrated = holdem(tmp_path, "migrate", **production)
    assert migrated.returncode == 0, migrated.stderr


def test_serve_in_production_with_the_default_secret_is_one_line(tmp_path: Path):
    refused = holdem(tmp_path, "serve", "--port", str(free_port()), ENV="production")
    assert "SECRET_KEY" in one_error_line(refused, "serve")


def _mailed_link(outbox: Path) -> str:
    """The first link of the one mail written to ``outbox`` (waiting for it)."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline and not list(outbox.glob("*.eml")):
        time.sleep(0.1)
    (mail,) = outbox.glob("*.eml")
    message = message_from_bytes(mail.read_bytes(), policy=policy.default)
    assert isinstance(message, EmailMessage)
    return links_in(message)[0]


@contextlib.contextmanager
def serving(tmp_path: Path, database_url: str) -> Iterator[str]:
    """``holdem serve`` on a free port of loopback, answering; its URL."""
    port = free_port()
    process = serve(tmp_path, database_url, port)
    try:
        url = f"http://127.0.0.1:{port}"
        assert wait_for_health(process, url).status_code == 200
        yield url
    finally:
        process.terminate()
        process.communicate(timeout=30)


def test_serve_without_public_url_mails_links_to_the_port_it_serves_on(
    tmp_path: Path, fresh_sqlite: str
):
    with serving(tmp_path, fresh_sqlite) as url:
        signed_up = httpx.post(f"{url}/auth/signup", timeout=30, json={
            "email": "ann@example.com", "password": PASSWORD, "display_name": "Ann"})
        assert signed_up.status_code == 202, signed_up.text
        link = _mailed_link(tmp_path / "outbox")
    assert link.startswith(f"{url}/"), link


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in path.read_text().split()] if path.exists() else []


def _is_worker(pid: int) -> bool:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return False
    return b"spawn_main" in command


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_the_worker_of_a_killed_server_leaves_with_it(tmp_path: Path, fresh_sqlite: str):
    port = free_port()
    process = serve(tmp_path, fresh_sqlite, port)
    try:
        assert wait_for_health(process, f"http://127.0.0.1:{port}").status_code == 200
        deadline = time.monotonic() + START_SECONDS
        workers: list[int] = []
        while not workers and time.monotonic() < deadline:
            workers = [p for p in _children(process.pid) if _is_worker(p)]
            time.sleep(0.1)
        assert len(workers) == 1, _children(process.pid)
        process.kill()  # no shutdown at all: the worker must notice by itself
        process.communicate(timeout=30)
        deadline = time.monotonic() + 15
        while _is_worker(workers[0]) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _is_worker(workers[0]), "the worker outlived its server"
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=30)


@pytest.mark.parametrize(("public_url", "host", "port", "links"), [
    ("", "127.0.0.1", 8123, "http://127.0.0.1:8123"),
    ("", "0.0.0.0", 8123, "http://127.0.0.1:8123"),
    ("", "::", 9000, "http://[::1]:9000"),
    ("", "::1", 9000, "http://[::1]:9000"),
    ("", "poker.lan", 80, "http://poker.lan:80"),
    ("https://poker.example.com", "0.0.0.0", 8123, "https://poker.example.com"),
])
def test_links_follow_the_served_address_unless_public_url_is_set(
    public_url: str, host: str, port: int, links: str
):
    assert Settings(public_url=public_url).served_at(host, port).public_url == links


@pytest.mark.parametrize("port", ["99999", "65536", "0", "-1", "http", "80.5"])
def test_serve_refuses_a_port_outside_1_to_65535(
    port: str, capsys: pytest.CaptureFixture[str]
):
    from app.cli import build_parser

    with pytest.raises(SystemExit) as refused:
        build_parser().parse_args(["serve", "--port", port])
    assert refused.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error == (f"holdem serve: error: argument --port: expected a port from 1 to 65535, "
                     f"got {port!r}")


def test_migrate_says_what_it_did_from_which_revision_to_which(
    tmp_path: Path, fresh_sqlite: str
):
    from alembic.script import ScriptDirectory

    scripts = ScriptDirectory.from_config(alembic_config(fresh_sqlite))
    head = scripts.get_current_head()
    assert head is not None
    older = scripts.get_revision(head).down_revision
    assert isinstance(older, str)
    shown = fresh_sqlite

    created = holdem(tmp_path, "migrate", DATABASE_URL=fresh_sqlite)
    assert created.returncode == 0, created.stderr
    assert created.stdout.strip() == (
        f"created the database schema at revision {head}, the latest ({shown})")
    again = holdem(tmp_path, "migrate", DATABASE_URL=fresh_sqlite)
    assert again.stdout.strip() == (
        f"the database is already at the latest revision, {head} ({shown})")
    downgrade(fresh_sqlite, older)
    upgraded = holdem(tmp_path, "migrate", DATABASE_URL=fresh_sqlite)
    assert upgraded.stdout.strip() == (
        f"migrated the database from revision {older} to {head}, the latest ({shown})")


def test_migrate_against_an_unreachable_postgresql_is_one_line_and_status_2(tmp_path: Path):
    url = f"postgresql+asyncpg://holdem:secret-password@127.0.0.1:{free_port()}/holdem"
    refused = holdem(tmp_path, "migrate", "--wait", "1", DATABASE_URL=url)
    line = one_error_line(refused, "migrate")
    assert "cannot use the database at postgresql+asyncpg://holdem:***@127.0.0.1" in line
    assert "secret-password" not in refused.stderr


def test_waiting_for_the_database_retries_once_a_second_until_the_deadline():
    url = f"postgresql+asyncpg://postgres@127.0.0.1:{free_port()}/holdem"
    now = [0.0]
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        now[0] += seconds

    with pytest.raises(DatabaseUnreachable, match="cannot use the database"):
        wait_until_reachable(url, wait_seconds=3, clock=lambda: now[0], sleep=sleep)
    assert sleeps == [1.0, 1.0, 1.0]


class LatePostgres:
    """A TCP relay to the real PostgreSQL that starts listening only when told to:
    a database container that is still starting."""

    def __init__(self, target_port: int) -> None:
        self.port = free_port()
        self.target_port = target_port
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65_536):
                writer.write(data)
                await writer.drain()
        finally:
            writer.close()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer),
                             return_exceptions=True)

    def open(self) -> None:
        asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._relay, "127.0.0.1", self.port), self.loop).result(10)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


@pytest.fixture
def late_postgres(backend_url_postgres: str) -> Iterator[tuple[LatePostgres, str]]:
    from sqlalchemy.engine import make_url

    url = make_url(backend_url_postgres)
    relay = LatePostgres(url.port or 5432)
    try:
        yield relay, url.set(port=relay.port).render_as_string(hide_password=False)
    finally:
        relay.close()


@pytest.fixture
def backend_url_postgres() -> Iterator[str]:
    from tests.conftest import fresh_postgres_database

    with fresh_postgres_database("holdem_migrate_wait") as url:
        yield url


@pytest.mark.postgres
def test_migrate_wait_keeps_trying_until_postgresql_starts_listening(
    tmp_path: Path, late_postgres: tuple[LatePostgres, str]
):
    relay, url = late_postgres
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "migrate", "--wait", str(START_SECONDS)],
        cwd=tmp_path, env=holdem_env(tmp_path, DATABASE_URL=url), text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            process.wait(timeout=2)  # nothing listens yet: it is still trying
        relay.open()
        out, err = process.communicate(timeout=START_SECONDS + 30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert out.strip().startswith("created the database schema at revision ")


def test_create_admin_reads_the_password_from_piped_stdin(tmp_path: Path, fresh_sqlite: str):
    assert holdem(tmp_path, "migrate", DATABASE_URL=fresh_sqlite).returncode == 0
    created = holdem(tmp_path, "create-admin", "boss@example.com", stdin=f"{PASSWORD}\n",
                     DATABASE_URL=fresh_sqlite)
    assert created.returncode == 0, created.stderr
    assert created.stdout.strip() == "boss@example.com is an admin (new account)"
    empty = holdem(tmp_path, "create-admin", "nobody@example.com", DATABASE_URL=fresh_sqlite)
    assert "needs a password" in one_error_line(empty, "create-admin")


@pytest.mark.slow
async def test_demote_makes_an_admin_a_player_and_is_audited(tmp_path: Path, settings: Settings):
    db = {"DATABASE_URL": settings.database_url}
    for email in ("boss@example.com", "ann@example.com"):
        await asyncio.to_thread(holdem, tmp_path, "create-admin", email, stdin=PASSWORD, **db)
    demoted = await asyncio.to_thread(holdem, tmp_path, "demote", "Boss@Example.com",
                                      "--admin", "ann@example.com", **db)
    assert demoted.returncode == 0, demoted.stderr
    assert demoted.stdout.strip() == "Boss@Example.com is no longer an admin"
    by_nobody = await asyncio.to_thread(holdem, tmp_path, "demote", "ann@example.com", **db)
    assert by_nobody.returncode == 0, by_nobody.stderr
    database = Database(settings.database_url)
    try:
        async with database.sessions() as session:
            rows = await session.execute(select(User.email, User.id))
            ids = {email: id_ for email, id_ in rows}
            roles = (await session.scalars(select(User.role).where(
                User.email.in_(["boss@example.com", "ann@example.com"])))).all()
            assert set(roles) == {Role.PLAYER}
            log = (await session.execute(
                select(AuditLogEntry.action, AuditLogEntry.admin_id, AuditLogEntry.target_user_id)
                .where(AuditLogEntry.action == "demote_admin").order_by(AuditLogEntry.id))).all()
            # The operator's admin account when named, else the server's own (the house).
            assert [tuple(row) for row in log] == [
                ("demote_admin", ids["ann@example.com"], ids["boss@example.com"]),
                ("demote_admin", ids[HOUSE_EMAIL], ids["ann@example.com"]),
            ]
    finally:
        await database.dispose()
    again = await asyncio.to_thread(holdem, tmp_path, "demote", "boss@example.com", **db)
    assert "not an admin" in one_error_line(again, "demote")
    unknown = await asyncio.to_thread(holdem, tmp_path, "demote", "who@example.com", **db)
    assert "no account uses who@example.com" in one_error_line(unknown, "demote")
    not_admin = await asyncio.to_thread(holdem, tmp_path, "demote", "boss@example.com",
                                        "--admin", "ann@example.com", **db)
    assert "ann@example.com is not an admin" in one_error_line(not_admin, "demote")


@pytest.mark.parametrize("command", [[], ["serve"], ["migrate"], ["create-admin"], ["demote"],
                                     ["replay"], ["equity"]])
def test_help_is_plain_text(command: list[str], capsys: pytest.CaptureFixture[str]):
    from app.cli import main

    with pytest.raises(SystemExit):
        main([*command, "--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: holdem")
    assert "``" not in out


def test_the_main_help_names_every_command():
    import re

    from app.cli import build_parser

    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    named = re.findall(r"[a-z-]+", (parser.description or "").partition(":")[2])
    assert sorted(named) == sorted(commands.choices)


def _readme_commands() -> dict[str, str]:
    """The README's command list: each ``holdem`` command and the text of its lines."""
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("\n## Command line\n", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    parts = re.split(r"^holdem ([a-z-]+)", block, flags=re.MULTILINE)[1:]
    return dict(zip(parts[::2], parts[1::2], strict=True))


def test_the_readme_lists_every_command_with_every_option():
    from app.cli import build_parser

    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    listed = _readme_commands()
    assert sorted(listed) == sorted(commands.choices)
    for name, command in commands.choices.items():
        options = {option for action in command._actions for option in action.option_strings
                   if option.startswith("--") and option != "--help"}
        missing = {option for option in options if option not in listed[name]}
        assert missing == set(), f"holdem {name}: {sorted(missing)} not in the README"


def test_verify_hand_checks_the_commitment_recorded_before_the_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    from app.cli import main
    from app.poker.fairness import FairnessProof, commitment, new_server_seed
    from tests.poker.test_fairness import _played_history

    proof = FairnessProof(new_server_seed(), {0: "mine"})
    history = tmp_path / "hand.phh"
    history.write_text(_played_history(proof), encoding="utf-8")

    assert main(["verify-hand", str(history), "--commitment", proof.commitment.upper()]) == 0
    assert "as you recorded it" in capsys.readouterr().out
    swapped = commitment(new_server_seed())
    assert main(["verify-hand", "--json", str(history), "--commitment", swapped]) == 1
    failed = json.loads(capsys.readouterr().out)
    assert failed["ok"] is False and failed["error"]["code"] == "shuffle_mismatch"
    assert swapped in failed["error"]["message"]
    with pytest.raises(SystemExit) as bad:
        main(["verify-hand", str(history), "--commitment", "abc"])
    assert bad.value.code == 2 and "64 hex characters" in capsys.readouterr().err


def test_backup_copies_the_sqlite_database_while_the_server_runs(
    tmp_path: Path, fresh_sqlite: str
):
    with serving(tmp_path, fresh_sqlite) as url:
        for number in range(3):
            signup = httpx.post(f"{url}/auth/signup", timeout=10, json={
                "email": f"friend{number}@example.com", "password": PASSWORD,
                "display_name": f"Friend {number}"})
            assert signup.status_code == 202, signup.text
        copied = holdem(tmp_path, "backup", "copy.sqlite3", DATABASE_URL=fresh_sqlite)
        assert copied.returncode == 0, copied.stderr
        again = holdem(tmp_path, "backup", "copy.sqlite3", DATABASE_URL=fresh_sqlite)
        assert "copy.sqlite3 exists" in one_error_line(again, "backup")
    # The copy is a whole database: the accounts are there and the ledger balances.
    copy_url = f"sqlite+aiosqlite:///{tmp_path / 'copy.sqlite3'}"
    audited = holdem(tmp_path, "audit", "--json", DATABASE_URL=copy_url)
    assert audited.returncode == 0, audited.stdout + audited.stderr
    with sqlite3.connect(tmp_path / "copy.sqlite3") as copy:
        emails = {email for (email,) in copy.execute("SELECT email FROM users")}
    assert {f"friend{number}@example.com" for number in range(3)} <= emails


def test_backup_of_a_database_that_is_not_a_sqlite_file_is_refused(tmp_path: Path):
    postgres = "postgresql+asyncpg://holdem@127.0.0.1:5432/holdem"
    refused = holdem(tmp_path, "backup", "copy.sqlite3", DATABASE_URL=postgres)
    assert "pg_dump" in one_error_line(refused, "backup")
    missing = f"sqlite+aiosqlite:///{tmp_path / 'none.sqlite3'}"
    assert "no database at" in one_error_line(
        holdem(tmp_path, "backup", "copy.sqlite3", DATABASE_URL=missing), "backup")
    assert not (tmp_path / "copy.sqlite3").exists()
