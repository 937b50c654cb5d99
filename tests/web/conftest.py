"""Browser tests: the whole app on a real uvicorn server on loopback, driven by
headless Chromium through Playwright. Every test here is marked ``browser``.

Each test process launches Chromium once: the browser tests run in the session's event
loop, where one Playwright connection and one browser live, and each test opens browser
contexts of its own (separate cookies and storage) and closes them after it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import threading
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import uvicorn
from playwright.async_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    Route,
    async_playwright,
    expect,
)
from sqlalchemy import update

from app.config import Settings
from app.db.engine import Database
from app.db.models import Role, User
from app.main import create_app
from tests.conftest import (
    PASSWORD,
    Mailbox,
    assert_ledger_reconciles,
    free_port,
    opened_database,
    token_of,
)

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DESKTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 15_000
# Assertions wait as long as actions do (Playwright's own default for them is 5 s, which a
# busy CI machine, four workers and their browsers on two cores, sometimes exceeds).
expect.set_options(timeout=TIMEOUT_MS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test here that drives Chromium ``browser`` and run it in the session's
    event loop; skip them without Chromium, and on PostgreSQL, which the API and e2e
    suites cover (the browser suite stays short)."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents and "browser" in getattr(
            item, "fixturenames", ()
        ):
            item.add_marker(pytest.mark.browser)
            # In the shared browser's event loop: before the asyncio marker of auto mode.
            item.add_marker(pytest.mark.asyncio(loop_scope="session"), append=False)
            callspec = getattr(item, "callspec", None)
            if callspec is not None and callspec.params.get("backend") == "postgresql":
                item.add_marker(pytest.mark.skip(reason="browser tests run on SQLite only"))
            elif not CHROMIUM.exists():
                item.add_marker(pytest.mark.skip(reason=(
                    f"no Chromium at {CHROMIUM}: install Debian's package "
                    "(apt-get install chromium) or set CHROMIUM to its path")))


@dataclass
class LiveServer:
    """The app served by uvicorn in a thread of its own, on a free loopback port."""

    settings: Settings
    base_url: str
    server: uvicorn.Server
    thread: threading.Thread = field(init=False)

    def start(self) -> None:
        self.thread = threading.Thread(target=self.server.run, name="uvicorn", daemon=True)
        self.thread.start()
        for _ in range(1_000):
            if self.server.started or not self.thread.is_alive():
                break
            threading.Event().wait(0.01)
        assert self.server.started, "uvicorn did not start"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


@pytest.fixture
def server_settings() -> dict[str, Any]:
    """Settings a test module gives its live server beyond the usual ones (override it)."""
    return {}


@pytest.fixture
def live_server(settings: Settings, server_settings: dict[str, Any]) -> Iterator[LiveServer]:
    """The application with the test settings, answering at its own ``PUBLIC_URL``; the
    ledger must reconcile after it."""
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    settings = dataclasses.replace(settings, **{
        "public_url": base_url, "action_seconds": 30, "hand_start_delay_seconds": 0.3,
        "showdown_seconds": 3, "bot_delay_seconds": 0.05, **server_settings})
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                            log_level="warning", lifespan="on")
    live = LiveServer(settings, base_url, uvicorn.Server(config))
    live.start()
    try:
        yield live
    finally:
        live.stop()
    asyncio.run(assert_ledger_reconciles(settings.database_url))


class SharedChromium:
    """One headless Debian Chromium for the test process, launched again if it died."""

    def __init__(self, playwright: Playwright) -> None:
        self.playwright = playwright
        self.running: Browser | None = None

    async def get(self) -> Browser:
        if self.running is None or not self.running.is_connected():
            self.running = await self.playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        return self.running


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def chromium() -> AsyncIterator[SharedChromium]:
    """The test process's Chromium (see :class:`SharedChromium`)."""
    async with async_playwright() as playwright:
        shared = SharedChromium(playwright)
        try:
            yield shared
        finally:
            if shared.running is not None:
                await shared.running.close()


@pytest_asyncio.fixture(loop_scope="session")
async def browser(chromium: SharedChromium) -> Browser:
    """Headless Chromium: the process's, each test in browser contexts of its own."""
    return await chromium.get()


@dataclass
class Tab:
    """A page with the uncaught JavaScript errors it raised, which fail the test."""

    page: Page
    errors: list[str] = field(default_factory=list)

    def check(self) -> None:
        assert not self.errors, f"JavaScript errors: {self.errors}"


class Visitors:
    """Opens isolated browser contexts (separate cookies: separate people)."""

    def __init__(self, browser: Browser, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.contexts: list[BrowserContext] = []
        self.tabs: list[Tab] = []

    async def new(self, viewport: dict[str, int] | None = None) -> Tab:
        context = await self.browser.new_context(base_url=self.base_url,
                                                 viewport=viewport or DESKTOP)  # type: ignore[arg-type]
        context.set_default_timeout(TIMEOUT_MS)
        self.contexts.append(context)
        page = await context.new_page()
        tab = Tab(page)
        page.on("pageerror", lambda error: tab.errors.append(str(error)))
        # A page blocked by its Content-Security-Policy reports it on the console only.
        page.on("console", lambda message: tab.errors.append(message.text)
                if message.type == "error" and "Content Security Policy" in message.text
                else None)
        self.tabs.append(tab)
        return tab

    async def close(self) -> None:
        for context in self.contexts:
            await context.close()


@pytest_asyncio.fixture(loop_scope="session")
async def visitors(browser: Browser, live_server: LiveServer) -> AsyncIterator[Visitors]:
    """Browser contexts on the live server; any JavaScript error fails the test."""
    opened = Visitors(browser, live_server.base_url)
    try:
        yield opened
        for tab in opened.tabs:
            tab.check()
    finally:
        await opened.close()


@pytest_asyncio.fixture(loop_scope="session")
async def database(database_url: str) -> AsyncIterator[Database]:
    """The test's database (tests/conftest.py's), opened in the browser tests' event loop."""
    async with opened_database(database_url) as db:
        yield db


async def signed_in(tab: Tab, mailbox: Mailbox, name: str) -> None:
    """Sign ``name`` up, confirm the address and log in, through the API of ``tab``'s
    browser context (so its cookies hold the session)."""
    email = f"{name.lower()}@example.com"
    request = tab.page.context.request
    response = await request.post("/auth/signup", data={
        "email": email, "password": PASSWORD, "display_name": name})
    assert response.ok, await response.text()
    token = token_of(await mailbox.wait_for(email, "confirm your"))
    assert (await request.post("/auth/verify-email", data={"token": token})).ok
    response = await request.post("/auth/login", data={"email": email, "password": PASSWORD})
    assert response.ok, await response.text()


async def as_admin(database: Database, name: str) -> None:
    """Make the account named ``name`` an admin."""
    async with database.sessions() as session:
        await session.execute(update(User).where(User.display_name == name)
                              .values(role=Role.ADMIN))
        await session.commit()


async def held_script(page: Page, script: str) -> asyncio.Event:
    """Hold back the page script ``script`` (e.g. ``lobby.js``) of ``page`` until the
    event returned is set: the page as it is before its script has run."""
    release = asyncio.Event()

    async def hold(route: Route) -> None:
        await release.wait()
        await route.continue_()

    await page.route(f"**/js/pages/{script}*", hold)
    return release


def screenshot_path(name: str) -> Path:
    """Where a screenshot goes (``test-artifacts/``, not committed)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"
