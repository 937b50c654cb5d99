"""In the browser: a friend who opens a private table's invite link logged out watches
the table, signs up from it, confirms the address from the mail and comes back to it;
a guest watches a public table."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from playwright.async_api import expect

from tests.conftest import PASSWORD, Mailbox, link_of
from tests.web.conftest import LiveServer, Visitors, signed_in
from tests.web.test_table import create_private_table, create_table_with_bots, sit


async def test_a_friend_follows_the_invite_link_signs_up_and_comes_back_to_the_table(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    host, friend = await visitors.new(), await visitors.new()
    await signed_in(host, mailbox, "Gina")
    await create_private_table(host.page, name="Gina's home game", seats=4)
    await sit(host.page, buy_in=500)
    invite = await host.page.locator("#invite-link").input_value()
    invited = urlsplit(invite)
    table_page = f"{invited.path}?{invited.query}"

    page = friend.page
    await page.goto(table_page)
    await expect(page.locator("#table-name")).to_have_text("Gina's home game")
    await expect(page.locator("#table-stakes")).to_contain_text("hosted by Gina")
    await expect(page.locator(".seat").filter(has_text="Gina")).to_be_visible()
    await expect(page.locator("#table-message")).to_contain_text("watching as a guest")
    await page.locator("#table-message").get_by_role("link", name="Sign up to play").click()
    await page.wait_for_url(re.compile(r"/signup\?next="))
    await page.get_by_label("E-mail address").fill("hal@example.com")
    await page.get_by_label("Display name").fill("Hal")
    await page.get_by_label("Password").fill(PASSWORD)
    await page.get_by_role("button", name="Sign up").click()
    await expect(page.locator("#signup-done")).to_be_visible()

    link = urlsplit(link_of(await mailbox.wait_for("hal@example.com", "confirm your")))
    assert parse_qs(link.query)["next"] == [table_page]
    await page.goto(f"{link.path}?{link.query}")
    await page.get_by_role("button", name="Confirm my address").click()
    back = page.get_by_role("link", name="Log in and go back to the table")
    await back.click()
    await page.get_by_label("E-mail").fill("hal@example.com")
    await page.get_by_label("Password").fill(PASSWORD)
    await page.get_by_role("button", name="Log in").click()
    await page.wait_for_url(f"**{table_page}")
    await expect(page.locator("#nav-name")).to_have_text("Hal")
    await expect(page.locator("#table-role")).to_have_text("Watching")
    await expect(page.locator("#table-message")).not_to_contain_text("guest")
    await page.get_by_role("button", name="Sit in seat").first.click()
    await sit(page, buy_in=500)


async def test_a_guest_watches_a_public_table_and_is_asked_to_sign_up_to_play(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    host, guest = await visitors.new(), await visitors.new()
    await signed_in(host, mailbox, "Ines")
    table_id = await create_table_with_bots(host.page, name="Open game", seats=3, bots=2)
    await sit(host.page, buy_in=1_000)
    await guest.page.goto(f"/table/{table_id}")
    await expect(guest.page.locator("#table-name")).to_have_text("Open game")
    await expect(guest.page.locator(".seat .bot-avatar")).to_have_count(2)
    await expect(guest.page.locator(".seat").filter(has_text="Ines")).to_be_visible()
    await expect(guest.page.locator("#table-message")).to_contain_text("watching as a guest")
    signup = guest.page.locator("#table-message").get_by_role("link", name="Sign up to play")
    assert await signup.get_attribute("href") == f"/signup?next=%2Ftable%2F{table_id}"
