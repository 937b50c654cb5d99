"""Refusals in people's words in the browser: the field by name, the rule in plain words,
amounts with thousands separators; each beside its field when it is about one."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from app.db.engine import Database
from tests.conftest import Mailbox
from tests.web.conftest import (
    DESKTOP,
    PHONE,
    LiveServer,
    Visitors,
    as_admin,
    screenshot_path,
    signed_in,
)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
async def test_refusals_are_said_in_plain_words_beside_their_fields(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, database: Database,
    viewport: dict[str, int],
) -> None:
    tab = await visitors.new(viewport=viewport)
    page = tab.page
    await signed_in(tab, mailbox, "Odile")
    await as_admin(database, "Odile")
    await page.goto("/")
    form = page.locator("#create-form")
    await form.get_by_label("Small blind").fill("20")
    await form.get_by_label("Big blind").fill("10")
    await form.get_by_role("button", name="Create table").click()
    await expect(form.locator("[data-form-status]")).to_have_text(
        "Small blind must not exceed big blind.")
    await form.get_by_label("Small blind").fill("5")
    await form.get_by_text("More settings").click()
    await form.get_by_label("Ante").fill("-1")
    await form.get_by_role("button", name="Create table").click()
    await expect(page.locator("#create-ante-error")).to_have_text("Ante must be at least 0.")
    await page.screenshot(path=screenshot_path(f"messages-create-{viewport['width']}"))

    await form.get_by_label("Ante").fill("0")
    await form.get_by_role("button", name="Create table").click()
    await page.wait_for_url(re.compile(r"/table/"))
    dialog = page.locator("#sit-dialog")
    await dialog.get_by_label("Buy-in").fill("50")
    await dialog.get_by_role("button", name="Sit down").click()
    await expect(dialog.locator("#sit-buy_in-error")).to_have_text(
        "Buy in for 200 to 1,000 chips.")

    await page.goto("/admin#tournaments")
    tournament = page.locator("#tournament-form")
    await tournament.get_by_label("Buy-in").fill("-5")
    await tournament.get_by_role("button", name="Create tournament").click()
    await expect(page.locator("#tournament-buy_in-error")).to_have_text(
        "Buy-in must be at least 0.")
