"""The README's account walkthrough, read from README.md itself and run with bash, line by
line as written, against ``holdem serve`` and a real SMTP server: the two cannot drift."""

from __future__ import annotations

import asyncio
import contextlib
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select

from app.accounts.mail import links_in
from app.db.engine import Database
from app.db.models import AuditLogEntry, Role, User, UserStatus
from app.db.tournaments import TournamentRecord
from app.tournaments.rules import TournamentStatus
from tests.conftest import Mailbox, free_port
from tests.test_cli_server import holdem_env, wait_for_health

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SERVER_LINE = "B=http://127.0.0.1:8000"
# A line where the reader pastes the token of the newest mailed link to an address.
PASTE = re.compile(r"^(?P<name>\w+)=TOKEN-FROM-THE-MAIL\s+#.*?(?P<to>[\w.+-]+@[\w-]+\.[\w.]+)")
READY = "__walkthrough_ready__"
STEP_SECONDS = 60


def sh_blocks(markdown: str, heading: str) -> list[str]:
    """The fenced ``sh`` blocks of one ``##`` section, in order."""
    section = markdown.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^```sh\n(.*?)^```$", section, flags=re.DOTALL | re.MULTILINE)


def walkthrough_script() -> str:
    """The Accounts section's blocks, then the Tournaments section's, which continue them."""
    markdown = README.read_text(encoding="utf-8")
    return "\n".join(sh_blocks(markdown, "Accounts") + sh_blocks(markdown, "Tournaments"))


def test_the_walkthrough_is_the_accounts_and_tournaments_sections_of_the_readme():
    markdown = README.read_text(encoding="utf-8")
    assert len(sh_blocks(markdown, "Accounts")) == 2
    assert len(sh_blocks(markdown, "Tournaments")) == 1
    script = walkthrough_script()
    assert script.count(SERVER_LINE) == 1
    assert len([line for line in script.splitlines() if PASTE.match(line)]) == 3
    # Every call to the server fails loudly: no silent `curl -s`.
    assert re.findall(r"^.*\bcurl\b.*$", script, flags=re.MULTILINE) == [
        'api() { curl -sS --fail-with-body "$@" || return; echo; }']
    # Nothing for the reader to fill in by hand but the mailed tokens, and no fixed dates.
    assert not re.search(r"<\w+>|\$ADMIN\b|\b1[6-9]\d{8}\b", script)


@dataclass
class Walkthrough:
    """The server the walkthrough talks to, its database and its mail."""

    url: str
    database_url: str
    mailbox: Mailbox
    folder: Path


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """A folder laid out as the README's reader has it: ``docs/`` and ``.venv/``."""
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    assert (tmp_path / ".venv" / "bin" / "holdem").exists()
    return tmp_path


@contextlib.contextmanager
def holdem_serve(folder: Path, env: dict[str, str], port: int) -> Iterator[None]:
    with (folder / "server.log").open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(port)], cwd=folder,
            env=env, text=True, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_for_health(process, f"http://127.0.0.1:{port}")
            yield
        finally:
            process.terminate()
            process.wait(timeout=30)


@pytest.fixture
async def walkthrough(
    clone: Path, smtp_server: tuple[Mailbox, int], mailbox: Mailbox
) -> AsyncIterator[Walkthrough]:
    """``holdem serve`` on a fresh SQLite database (it migrates it), mailing the loopback
    SMTP server, with the default rate limits a reader has."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    database_url = f"sqlite+aiosqlite:///{clone / 'var' / 'holdem.sqlite3'}"
    env = holdem_env(clone, DATABASE_URL=database_url, PUBLIC_URL=url,
                     SMTP_HOST="127.0.0.1", SMTP_PORT=str(smtp_server[1]),
                     SMTP_SECURITY="none", MAIL_RETRY_SECONDS="0")
    with holdem_serve(clone, env, port):
        yield Walkthrough(url, database_url, mailbox, clone)


async def mailed_token(mailbox: Mailbox, to: str) -> str:
    """The token of the next mail to ``to`` that carries a link with one."""
    while True:
        message: EmailMessage = await mailbox.wait_for(to, timeout=STEP_SECONDS)
        for link in links_in(message):
            if found := re.search(r"[?&]token=([^&\s]+)", link):
                return found.group(1)


class Shell:
    """One bash process fed the walkthrough line by line, as a reader types it."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.output = ""

    async def send(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text.encode())
        await self.process.stdin.drain()

    async def settle(self) -> None:
        """Wait until every line sent so far has run."""
        assert self.process.stdout is not None
        await self.send(f"echo {READY}\n")
        while True:
            line = await asyncio.wait_for(self.process.stdout.readline(), STEP_SECONDS)
            if not line:
                raise AssertionError(f"the walkthrough stopped:\n{await self.failure()}")
            if line.decode().strip() == READY:
                return
            self.output += line.decode()

    async def failure(self) -> str:
        assert self.process.stderr is not None
        await self.process.wait()
        error = (await self.process.stderr.read()).decode()
        return f"exit {self.process.returncode}\n--- output\n{self.output[-3000:]}\n" \
               f"--- errors\n{error[-3000:]}"


async def run_walkthrough(walkthrough: Walkthrough, script: str) -> Shell:
    """Run ``script`` with bash, stopping at the first failing command; each
    ``TOKEN-FROM-THE-MAIL`` line gets the token of the mail it names."""
    env = holdem_env(walkthrough.folder, DATABASE_URL=walkthrough.database_url)
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"
    process = await asyncio.create_subprocess_exec(
        "bash", "--noprofile", "--norc", cwd=walkthrough.folder, env=env,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    shell = Shell(process)
    await shell.send("set -euo pipefail\n")
    for line in script.replace(SERVER_LINE, f"B={walkthrough.url}").splitlines(keepends=True):
        if paste := PASTE.match(line):
            await shell.settle()
            token = await mailed_token(walkthrough.mailbox, paste["to"])
            line = f"{paste['name']}='{token}'\n"
        await shell.send(line)
    await shell.settle()
    await shell.send("exit 0\n")
    assert await process.wait() == 0, await shell.failure()
    return shell


async def test_every_command_of_the_readme_walkthrough_works_as_written(
    walkthrough: Walkthrough,
):
    before = set(walkthrough.folder.iterdir())
    shell = await run_walkthrough(walkthrough, walkthrough_script())
    assert '"display_name":"Annie"' in shell.output
    # The reader's working folder (the repository) is left as it was: no cookie jar.
    assert set(walkthrough.folder.iterdir()) - before == set()

    database = Database(walkthrough.database_url)
    try:
        async with database.sessions() as session:
            ann = await session.scalar(select(User).where(User.id == 1))
            assert ann is not None and ann.status is UserStatus.DELETED
            bob = await session.scalar(select(User).where(User.email == "bob@example.com"))
            assert bob is not None
            assert (bob.role, bob.status, bob.balance) == (Role.PLAYER, UserStatus.ACTIVE,
                                                           9_500)
            actions = (await session.scalars(
                select(AuditLogEntry.action).order_by(AuditLogEntry.id))).all()
            assert actions == ["create_admin", "promote_admin", "demote_admin", "ban",
                               "unban", "adjust_credits", "mute", "unmute",
                               "chat_word_add", "chat_word_remove", "create_tournament",
                               "create_tournament", "cancel_tournament"]
            tournaments = {t.name: t for t in await session.scalars(select(TournamentRecord))}
            assert tournaments["Sunday turbo"].status is TournamentStatus.CANCELLED
            starts_at = tournaments["Sunday turbo"].starts_at
            assert starts_at is not None and starts_at.replace(tzinfo=UTC) > datetime.now(UTC)
            assert tournaments["Sit & go 6"].status is TournamentStatus.REGISTERING
    finally:
        await database.dispose()
