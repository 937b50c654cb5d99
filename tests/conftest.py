"""Shared fixtures: a migrated database per test (SQLite, and PostgreSQL when
``TEST_DATABASE_URL`` is set), a real SMTP server on loopback, the app and a client.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import os
import secrets
import shutil
import socket
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from fastapi import FastAPI
from sqlalchemy import select, text, update
from sqlalchemy.engine import make_url

from app.accounts.mail import links_in
from app.admin.audit import audit
from app.chat.wordfilter import DEFAULT_WORDS
from app.config import RateLimit, Settings
from app.db.engine import Database, create_engine
from app.db.migrations import upgrade
from app.db.models import Base, Role, User
from app.main import create_app

# The run as a whole (skips up front and summed up at the end, the long tests first), and
# pytester for the tests of that.
pytest_plugins = ("tests.suite", "pytester")
PASSWORD = "correct horse battery staple"


# --- databases -------------------------------------------------------------------


@dataclass(frozen=True)
class Backend:
    """A migrated database kind for the test run: ``sqlite`` or ``postgresql``."""

    name: str
    url: str


async def _postgres_admin(url: str, *statements: str) -> None:
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as connection:
            for statement in statements:
                await connection.execute(text(statement))
    finally:
        await engine.dispose()


@contextmanager
def fresh_postgres_database(
    prefix: str = "holdem_test", *, template: str | None = None, server: str | None = None
) -> Iterator[str]:
    """A new PostgreSQL database on the ``server`` (default: ``TEST_DATABASE_URL``'s),
    empty or a copy of ``template`` (a database URL on the same server); dropped after."""
    from tests.suite import POSTGRES_SKIP_REASON  # here: pytest imports it first, as a plugin

    server_url = server or os.environ.get("TEST_DATABASE_URL")
    if not server_url:
        pytest.skip(POSTGRES_SKIP_REASON)
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    copy = f' TEMPLATE "{make_url(template).database}"' if template else ""
    asyncio.run(_postgres_admin(server_url, f'CREATE DATABASE "{name}"{copy}'))
    try:
        yield make_url(server_url).set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(_postgres_admin(server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def scratch_database(stack: ExitStack, folder: Path, name: str, server: str | None) -> str:
    """A database for one benchmark run: a new one on the PostgreSQL ``server``, dropped
    when ``stack`` closes, or (no server) a SQLite file in ``folder``."""
    if server:
        return stack.enter_context(fresh_postgres_database(f"holdem_{name}", server=server))
    return f"sqlite+aiosqlite:///{folder / f'{name}.sqlite3'}"


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A SQLite database migrated to head once per run (per xdist worker): each test that
    needs one gets a copy of the file."""
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    upgrade(url)
    return url


@pytest.fixture(scope="session")
def postgres_template() -> Iterator[str]:
    """A PostgreSQL database migrated to head once per run (per xdist worker) that nothing
    connects to: :func:`fresh_postgres_database` copies it (``CREATE DATABASE … TEMPLATE``,
    far quicker than migrating) for a test that needs a migrated database of its own."""
    with fresh_postgres_database("holdem_template") as url:
        upgrade(url)
        yield url


@pytest.fixture(scope="session")
def postgres_shared(postgres_template: str) -> Iterator[str]:
    """The PostgreSQL database the twins of this run (of this xdist worker) take turns on,
    emptied before each test; every worker has its own, so workers never collide."""
    with fresh_postgres_database(template=postgres_template) as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest) -> Backend:
    """The database kind of this test, migrated to head: a template SQLite file, or the
    worker's PostgreSQL database. Both are made once per worker, when first asked for."""
    if request.param == "sqlite":
        return Backend("sqlite", request.getfixturevalue("sqlite_template"))
    return Backend("postgresql", request.getfixturevalue("postgres_shared"))


@pytest.fixture
async def database_url(backend: Backend, tmp_path: Path) -> str:
    """An empty, migrated database for one test."""
    if backend.name == "sqlite":
        template = Path(cast(str, make_url(backend.url).database))
        copy = tmp_path / "holdem.sqlite3"
        shutil.copyfile(template, copy)
        return f"sqlite+aiosqlite:///{copy}"
    # Read the tables now: migrating imported every feature's models.
    tables = ", ".join(table.name for table in Base.metadata.sorted_tables)
    # The rows migrations add are put back as migrating left them: the chat word list.
    words = ", ".join(f"('{word}', now())" for word in DEFAULT_WORDS)
    await _postgres_admin(backend.url, f"TRUNCATE {tables} RESTART IDENTITY CASCADE",
                          f"INSERT INTO chat_words (word, created_at) VALUES {words}")
    return backend.url


@pytest.fixture
async def database(database_url: str) -> AsyncIterator[Database]:
    """The test's database, for arranging and checking rows directly."""
    async with opened_database(database_url) as db:
        yield db


@asynccontextmanager
async def opened_database(url: str) -> AsyncIterator[Database]:
    """A :class:`Database` on ``url``, disposed of after."""
    db = Database(url)
    try:
        yield db
    finally:
        await db.dispose()


# --- a real SMTP server ----------------------------------------------------------


class Mailbox:
    """Messages received by the loopback SMTP server."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = cast(bytes, envelope.original_content or envelope.content)
        message = cast(EmailMessage, message_from_bytes(content, policy=policy.default))
        self.messages.append(message)
        return "250 Message accepted for delivery"

    async def wait_for(
        self, to: str, subject: str | None = None, *, timeout: float = 10.0
    ) -> EmailMessage:
        """The first message to ``to`` (with ``subject`` in its subject), removed from the box."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in list(self.messages):
                if to.lower() in str(message["To"]).lower() and (
                    subject is None or subject.lower() in str(message["Subject"]).lower()
                ):
                    self.messages.remove(message)
                    return message
            await asyncio.sleep(0.01)
        seen = [(str(m["To"]), str(m["Subject"])) for m in self.messages]
        raise AssertionError(f"no mail to {to} ({subject}) within {timeout}s; have {seen}")

    def to(self, address: str) -> list[EmailMessage]:
        """Messages received so far for ``address``."""
        return [m for m in self.messages if address.lower() in str(m["To"]).lower()]


def free_port() -> int:
    """A TCP port on loopback nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def smtp_server() -> Iterator[tuple[Mailbox, int]]:
    """An aiosmtpd server on a free loopback port for the whole run."""
    mailbox = Mailbox()
    port = free_port()
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield mailbox, port
    finally:
        controller.stop()


@pytest.fixture
def mailbox(smtp_server: tuple[Mailbox, int]) -> Mailbox:
    """The SMTP server's mailbox, emptied for this test."""
    smtp_server[0].messages.clear()
    return smtp_server[0]


def link_of(message: EmailMessage) -> str:
    """The first link in a message's text part."""
    links = links_in(message)
    assert links, message.get_body(preferencelist=("plain",))
    return links[0]


def token_of(message: EmailMessage) -> str:
    """The ``token`` query parameter of a message's link."""
    return parse_qs(urlsplit(link_of(message)).query)["token"][0]


# --- settings, app and client ----------------------------------------------------


def random_secret() -> str:
    """A signing key made for one test: never a value written in the repository."""
    return secrets.token_urlsafe(48)


def production_env() -> dict[str, str]:
    """The least a production server needs to start (a relay on loopback for mail, and
    password hashing at OWASP's cheapest floor)."""
    return {"ENV": "production", "SECRET_KEY": random_secret(), "SMTP_HOST": "127.0.0.1",
            "SMTP_SECURITY": "none", "METRICS_TOKEN": random_secret(),
            "ARGON2_TIME_COST": "5", "ARGON2_MEMORY_KIB": "7168"}


def production(settings: Settings, **changes: Any) -> Settings:
    """``settings`` as production accepts them, hashing passwords at OWASP's cheapest floor."""
    return dataclasses.replace(settings, env="production", secret_key=random_secret(),
                               metrics_token=random_secret(), argon2_time_cost=5,
                               argon2_memory_kib=7_168, **changes)


@pytest.fixture
def settings(database_url: str, smtp_server: tuple[Mailbox, int], tmp_path: Path) -> Settings:
    """Development settings on the test database, mailing the loopback SMTP server,
    with cheap password hashing."""
    return Settings(
        env="development",
        database_url=database_url,
        secret_key=random_secret(),
        public_url="http://testserver",
        smtp_host="127.0.0.1",
        smtp_port=smtp_server[1],
        smtp_username="",
        smtp_password="",
        smtp_security="none",
        mail_from="holdem-server <noreply@holdem.test>",
        outbox_dir=str(tmp_path / "outbox"),
        mail_max_attempts=3,
        mail_retry_seconds=0,
        worker="inline",
        offload_processes=0,
        starting_credits=10_000,
        daily_credits=1_000,
        daily_credits_cooldown_seconds=86_400,
        argon2_time_cost=1,
        argon2_memory_kib=64,
        argon2_parallelism=1,
        rate_limits_enabled=True,
        rate_limit_login_ip=RateLimit(1_000, 60),
        rate_limit_signup_ip=RateLimit(1_000, 60),
        # Tests stop servers mid-hand all the time: no waiting for hands to end.
        drain_seconds=0.0,
        # Test clients share one machine and often one cookie jar: keeping linked accounts
        # apart has tests of its own (tests/integrity).
        separate_linked_accounts=False,
    )


def hand_summary(*results: tuple[int, int, int], stack: int = 1_000) -> dict[str, Any]:
    """A stored hand's summary for people's ``(user_id, seat, net)`` results, a bot in the
    next seat taking the other side when they do not sum to zero (as a finished hand's)."""
    rows = [{"seat": seat, "player": {"public_id": f"public-{user_id}", "name": str(user_id),
                                      "bot": None},
             "starting_stack": stack, "final_stack": stack + net, "net": net}
            for user_id, seat, net in results]
    rest = -sum(net for *_, net in results)
    if rest:
        seat = max((seat for _, seat, _ in results), default=-1) + 1
        rows.append({"seat": seat, "player": {"public_id": "bot", "name": "Ada (bot)",
                                              "bot": "tight"},
                     "starting_stack": stack, "final_stack": stack + rest, "net": rest})
    return {"game": "nlhe", "players": rows}


async def assert_ledger_reconciles(database_url: str) -> None:
    """Fail with the audit's report unless every account and table reconciles.

    Every test that starts a server runs this when it stops, so a test that loses
    or creates a chip anywhere fails (DESIGN principle 4).
    """
    database = Database(database_url)
    try:
        report = await audit(database)
    finally:
        await database.dispose()
    assert report.balanced, f"the chips do not add up after this test:\n{report.describe()}"


@asynccontextmanager
async def running(app: FastAPI) -> AsyncIterator[FastAPI]:
    """Run the app's lifespan (mailer and engine shut down cleanly at the end), then check
    that the ledger reconciles."""
    async with app.router.lifespan_context(app):
        yield app
    await assert_ledger_reconciles(app.state.settings.database_url)


@pytest.fixture
async def app(settings: Settings) -> AsyncIterator[FastAPI]:
    """The application under test, started."""
    async with running(create_app(settings)) as started:
        yield started


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client talking to the app in-process."""
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
        yield http


# --- players ---------------------------------------------------------------------


_numbers = itertools.count(1)


@dataclass
class Player:
    """A test account and, once logged in, its session."""

    id: int
    email: str
    display_name: str
    password: str = PASSWORD
    token: str | None = None
    csrf_token: str | None = None
    public_id: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def headers(self) -> dict[str, str]:
        """``Authorization: Bearer`` for this player's session."""
        assert self.token, "log in first"
        return {"Authorization": f"Bearer {self.token}"}


class Accounts:
    """Drives the account API the way a client would."""

    def __init__(self, client: httpx.AsyncClient, mailbox: Mailbox, app: FastAPI) -> None:
        self.client = client
        self.mailbox = mailbox
        self.app = app

    @property
    def database(self) -> Database:
        """The app's database."""
        return cast(Database, self.app.state.database)

    async def signup(
        self, email: str | None = None, display_name: str | None = None,
        password: str = PASSWORD,
    ) -> Player:
        """Sign up (expecting a new account) and return the new player.

        The answer is the same for a known address, so the account is read from the database.
        """
        number = next(_numbers)
        email = email or f"player{number}@example.com"
        display_name = display_name or f"player_{number}"
        response = await self.client.post("/auth/signup", json={
            "email": email, "password": password, "display_name": display_name})
        assert response.status_code == 202, response.text
        body = response.json()
        async with self.database.sessions() as session:
            user = (await session.scalars(select(User).where(User.email == body["email"]))).one()
        assert user.display_name == display_name.strip(), "the address already had an account"
        return Player(id=user.id, email=body["email"], display_name=display_name,
                      password=password, public_id=user.public_id)

    async def verify(self, player: Player) -> None:
        """Follow the verification link mailed to the player."""
        message = await self.mailbox.wait_for(player.email, "confirm your e-mail")
        response = await self.client.post("/auth/verify-email",
                                          json={"token": token_of(message)})
        assert response.status_code == 200, response.text
        await self.mailbox.wait_for(player.email, "welcome")

    async def login(self, player: Player, password: str | None = None) -> httpx.Response:
        """Log in; on success the player's token is set (cookies land in the client)."""
        response = await self.client.post("/auth/login", json={
            "email": player.email, "password": password or player.password})
        if response.status_code == 200:
            player.token = response.json()["access_token"]
            player.csrf_token = response.json()["csrf_token"]
        return response

    async def player(self, *, verified: bool = True, logged_in: bool = True) -> Player:
        """A new player, verified and logged in unless told otherwise."""
        player = await self.signup()
        if verified:
            await self.verify(player)
        if logged_in:
            response = await self.login(player)
            assert response.status_code == 200, response.text
        self.client.cookies.clear()
        return player

    async def admin(self) -> Player:
        """A logged-in admin."""
        player = await self.player(logged_in=False)
        await self.set(player.id, role=Role.ADMIN)
        response = await self.login(player)
        assert response.status_code == 200, response.text
        self.client.cookies.clear()
        return player

    async def set(self, user_id: int, **values: Any) -> None:
        """Change a user's row directly (to arrange expiry and similar)."""
        async with self.database.sessions() as session:
            await session.execute(update(User).where(User.id == user_id).values(**values))
            await session.commit()

    async def execute(self, statement: Any) -> None:
        """Run one statement against the app's database and commit."""
        async with self.database.sessions() as session:
            await session.execute(statement)
            await session.commit()


@pytest.fixture
def accounts(client: httpx.AsyncClient, mailbox: Mailbox, app: FastAPI) -> Accounts:
    """A driver for the account API."""
    return Accounts(client, mailbox, app)
