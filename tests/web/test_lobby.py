"""The lobby lists your tables first: where you sit, and the tables you opened (a private
one with its invite), each a click away."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.conftest import Mailbox
from tests.web.conftest import (
    DESKTOP,
    PHONE,
    LiveServer,
    Visitors,
    held_script,
    screenshot_path,
    signed_in,
)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
async def test_the_lobby_lists_the_tables_you_sit_at_or_opened_and_closes_an_empty_one(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, int]
) -> None:
    tab = await visitors.new(viewport=viewport)
    page = tab.page
    await signed_in(tab, mailbox, "Mira")
    await page.goto("/")
    await expect(page.locator("#mine")).to_be_hidden()

    # A private table opened without sitting down, then a seat taken through quick seat.
    form = page.locator("#create-form")
    await form.get_by_label("Name").fill("Mira's private")
    await form.get_by_label("Fill seats with bots").uncheck()
    await form.get_by_text("More settings").click()
    await form.get_by_label("Private").check()
    await form.get_by_role("button", name="Create table").click()
    await page.wait_for_url(re.compile(r"/table/.*invite="))
    private_id = re.search(r"/table/([^?]+)", page.url)
    assert private_id
    await page.locator("#sit-dialog").get_by_role("button", name="Cancel").click()
    await page.goto("/")
    await page.get_by_role("button", name="Sit me down").click()
    await page.wait_for_url(re.compile(r"/table/"))
    await expect(page.locator(".seat.mine")).to_be_visible()
    seat = int(await page.locator(".seat.mine").get_attribute("data-seat") or "-1")
    seated_id = re.search(r"/table/([^?]+)", page.url)
    assert seated_id

    await page.goto("/")
    mine = page.locator("#my-tables tbody tr")
    await expect(mine).to_have_count(2)
    seated = page.locator(f'#my-tables tr[data-table-id="{seated_id.group(1)}"]')
    await expect(seated).to_contain_text(f"Seat {seat + 1}")
    opened = page.locator(f'#my-tables tr[data-table-id="{private_id.group(1)}"]')
    await expect(opened).to_contain_text("Mira's private")
    await expect(opened).to_contain_text("You opened it")
    assert await page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    await page.screenshot(path=screenshot_path(f"lobby-yours-{viewport['width']}"))

    await opened.get_by_role("link", name="Open Mira's private").click()
    await expect(page.locator("#invite")).to_be_visible()  # the invite came along
    await page.goto("/")
    await seated.get_by_role("link", name=re.compile(r"^Back to ")).click()
    await expect(page.locator(".seat.mine")).to_have_attribute("data-seat", str(seat))

    # The table opened with nobody at it can be closed from the lobby; the other cannot.
    await page.goto("/")
    await expect(mine).to_have_count(2)
    await expect(seated.get_by_role("button", name=re.compile(r"^Close "))).to_have_count(0)
    await opened.get_by_role("button", name="Close Mira's private").click()
    await expect(mine).to_have_count(1)
    listed = page.locator(f'#tables tr[data-table-id="{private_id.group(1)}"]')
    await expect(listed).to_have_count(0)


async def test_the_lobby_buttons_wait_until_the_page_can_send(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    # Clicked before the lobby's script ran, "Sit me down" used to submit the form as a
    # plain page load (back to the lobby, with the blinds in the address).
    tab = await visitors.new()
    page = tab.page
    await signed_in(tab, mailbox, "Noor")
    release = await held_script(page, "lobby.js")
    await page.goto("/", wait_until="commit")
    sit_down = page.get_by_role("button", name="Sit me down")
    create = page.locator("#create-form").get_by_role("button", name="Create table")
    await expect(sit_down).to_be_disabled()
    await expect(create).to_be_disabled()
    release.set()
    await expect(sit_down).to_be_enabled()
    await expect(create).to_be_enabled()
    await sit_down.click()
    await page.wait_for_url(re.compile(r"/table/"))
