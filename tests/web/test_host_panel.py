"""In the browser: the host of a private game runs it from the host panel (pause, seat
approval, new blinds, standing a player up, resuming), and a guest at the table sees the
paused banner and every control in the log. The ledger reconciles after it."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.async_api import expect

from tests.conftest import Mailbox
from tests.web.conftest import LiveServer, Visitors, signed_in
from tests.web.test_table import create_private_table, sit


async def test_the_host_runs_a_private_game_from_the_host_panel(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    host, friend = await visitors.new(), await visitors.new()
    await signed_in(host, mailbox, "Gina")
    await create_private_table(host.page, name="Gina's home game", seats=4)
    await sit(host.page, buy_in=500)
    page = host.page
    panel = page.locator("#host-panel")
    await expect(panel).to_be_visible()
    await panel.locator("summary").click()
    await panel.get_by_label("Reason").fill("waiting for everyone")
    await panel.get_by_role("button", name="Pause after this hand").click()
    await expect(page.locator("#paused-banner")).to_be_visible()
    await expect(panel.get_by_role("button", name="Resume")).to_be_visible()
    await panel.get_by_label("Approve each new player").check()
    await expect(page.locator("#panel-log")).to_contain_text(
        "Host Gina approves every new seat from now on")

    await signed_in(friend, mailbox, "Hal")
    invite = urlsplit(await page.locator("#invite-link").input_value())
    guest = friend.page
    await guest.goto(f"{invite.path}?{invite.query}")
    await expect(guest.locator("#paused-banner")).to_be_visible()
    await expect(guest.locator("#host-panel")).to_be_hidden()
    await guest.get_by_role("button", name="Sit in seat").first.click()
    await guest.locator("#sit-dialog").get_by_label("Buy-in").fill("400")
    await guest.locator("#sit-dialog").get_by_role("button", name="Sit down").click()
    await expect(guest.locator("#table-message")).to_contain_text("Your request is with the host")
    await expect(guest.locator(".seat.mine")).to_have_count(0)

    requests = panel.locator("#host-requests")
    await expect(requests).to_contain_text("Hal")
    await requests.get_by_role("button", name="Approve").click()
    await expect(guest.locator(".seat.mine")).to_be_visible()
    await expect(panel.locator("#host-requests-none")).to_be_visible()

    await panel.get_by_label("Small blind").fill("10")
    await panel.get_by_label("Big blind").fill("20")
    await panel.get_by_label("Reason").fill("level two")
    await panel.get_by_role("button", name="Next hand").click()
    await expect(guest.locator("#table-stakes")).to_contain_text("Blinds 10/20")
    await expect(guest.locator("#panel-log")).to_contain_text(
        "Host Gina sets the blinds to 10/20 from the next hand: level two")

    await panel.get_by_label("Player", exact=True).select_option(label="Seat 2: Hal")
    await panel.get_by_label("Reason").fill("early start tomorrow")
    await panel.get_by_role("button", name="Stand up").click()
    await expect(guest.locator(".seat.mine")).to_have_count(0)
    await expect(guest.locator("#panel-log")).to_contain_text("You cashed out 400")
    await expect(guest.locator("#panel-log")).to_contain_text(
        "Host Gina stands Hal up: early start tomorrow")

    await panel.get_by_role("button", name="Resume").click()
    await expect(guest.locator("#paused-banner")).to_be_hidden()
    await expect(page.locator("#paused-banner")).to_be_hidden()
    for tab in (host, friend):
        tab.check()
