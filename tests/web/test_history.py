"""In the browser: the last hand you played at a table opens from the table, and your
hands page lists every hand you played, each in the replayer and at its own link."""

from __future__ import annotations

import re

from playwright.async_api import TimeoutError as PlaywrightTimeout
from playwright.async_api import expect

from tests.conftest import Mailbox
from tests.web.conftest import DESKTOP, PHONE, LiveServer, Visitors
from tests.web.test_actions import button_and_blind, heads_up


async def test_the_last_hand_opens_at_the_table_and_every_hand_on_your_hands_page(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    game = await heads_up(visitors, mailbox, DESKTOP, other=PHONE)
    button, blind = await button_and_blind(game)
    for page in (button, blind):
        # On the phone the button is in the log and chat panel, opened from the toolbar.
        if await page.locator("#side-toggle").is_visible():
            await page.locator("#side-toggle").click()
    await blind.locator("#last-hand").click()
    await expect(blind.locator("#table-message")).to_have_text(
        "You have not played a hand at this table yet.")
    await button.locator("#act-fold").click()
    await expect(button.locator("#panel-log")).to_contain_text("folds")

    for page in (button, blind):
        dialog = page.locator("#hand-dialog")
        for _ in range(20):  # the hand is stored in the commit after it ends
            await page.locator("#last-hand").click()
            try:
                await dialog.wait_for(state="visible", timeout=1_000)
                break
            except PlaywrightTimeout:
                pass
        await expect(dialog.locator("h2")).to_have_text("Hand #1")
        link = await dialog.locator("#hand-link").get_attribute("href")
        assert link and re.fullmatch(r"/history\?hand=[0-9a-f]{32}", link)
        await dialog.get_by_role("button", name="Close").click()

    await button.goto("/history")
    rows = button.locator("#history tbody tr")
    await expect(rows).to_have_count(1)
    await expect(rows.first).to_contain_text("Heads up")
    await expect(button.locator("#history-page")).to_have_text("Page 1 of 1")
    await expect(button.locator("#history-older")).to_be_disabled()
    await rows.first.get_by_role("button", name=re.compile("View")).click()
    await expect(button.locator("#hand-dialog h2")).to_have_text("Hand #1")
    assert re.search(r"/history\?hand=[0-9a-f]{32}$", button.url)
    # The hand's own link opens it at once, on the other player's device too.
    await blind.goto(button.url)
    await expect(blind.locator("#hand-dialog h2")).to_have_text("Hand #1")
