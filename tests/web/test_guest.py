"""A visitor who is not logged in browses the pages without a single console error or
failed request (no 401 from asking who is signed in)."""

from __future__ import annotations

from playwright.async_api import ConsoleMessage, Response, expect

from tests.web.conftest import LiveServer, Visitors

GUEST_PAGES = ["/", "/login", "/signup", "/forgot"]


async def test_guest_pages_log_no_errors_and_ask_nothing_that_fails(
    visitors: Visitors, live_server: LiveServer
) -> None:
    tab = await visitors.new()
    page = tab.page
    errors: list[str] = []
    failed: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    def on_response(response: Response) -> None:
        if response.status >= 400:
            failed.append(f"{response.status} {response.url}")

    page.on("console", on_console)
    page.on("response", on_response)
    for path in GUEST_PAGES:
        await page.goto(path)
        await page.wait_for_load_state("networkidle")
        await expect(page.locator('[data-when="guest"]').first).to_be_visible()
    assert failed == []
    assert errors == []
