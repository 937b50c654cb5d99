"""A page whose session is revoked elsewhere says so instead of reconnecting forever."""

from __future__ import annotations

from playwright.async_api import expect

from tests.conftest import PASSWORD, Mailbox
from tests.web.conftest import Visitors, signed_in


async def test_logging_out_elsewhere_ends_the_open_lobby_and_says_so(
    visitors: Visitors, mailbox: Mailbox
) -> None:
    tab = await visitors.new()
    await signed_in(tab, mailbox, "Wanda")
    await tab.page.goto("/")
    await expect(tab.page.locator("#tables-count")).to_have_text("0 open")

    elsewhere = (await visitors.new()).page.context.request
    login = await elsewhere.post("/auth/login", data={
        "email": "wanda@example.com", "password": PASSWORD})
    token = (await login.json())["access_token"]
    logout = await elsewhere.post("/auth/logout",
                                  headers={"Authorization": f"Bearer {token}"})
    assert logout.status == 204

    await expect(tab.page.locator("#connection-banner")).to_contain_text("Your session ended")
